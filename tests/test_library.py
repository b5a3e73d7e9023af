"""The bundled scenario library proves its own checks: for every scenario the oracle passes
and every rule cites the policy. ``validate --perturb`` over the whole library, with
statements from the blind corpus, is ``tests/validate/test_library_perturb.py``."""

from __future__ import annotations

from pathlib import Path

import pytest

from supportsim.domains import DomainCatalogue, builtin_domains
from supportsim.scenario import Scenario, load_personas, load_scenarios, uncited
from supportsim.scoring import CONCEPTS, oracle_run

ROOT = Path(__file__).resolve().parents[1]
DOMAINS = builtin_domains()
LIBRARY = load_scenarios(
    [ROOT / "scenarios"],
    catalogue=DomainCatalogue(DOMAINS, CONCEPTS),
    personas=load_personas([ROOT / "personas"]),
)


def test_the_library_has_sixty_scenarios_in_three_domains() -> None:
    assert len(LIBRARY) == 60
    assert {s.domain for s in LIBRARY} == {"telecom", "retail", "appointments"}


@pytest.mark.parametrize("scenario", LIBRARY, ids=lambda s: s.id)
async def test_every_scenario_is_cited_and_solvable(scenario: Scenario) -> None:
    domain = DOMAINS[scenario.domain]
    assert uncited(scenario) == []
    _, score = await oracle_run(domain, scenario)
    assert score.strict, score.failed()
