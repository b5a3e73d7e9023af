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


def test_no_baseline_agent_passes_a_scenario_or_earns_partial(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`supportsim validate --baselines` over the library: agents that do nothing useful
    pass no scenario strictly and earn at most 15% mean partial (CI runs this)."""
    import orjson
    from typer.testing import CliRunner

    from supportsim.cli import app
    from supportsim.validate import MAX_MEAN_PARTIAL, baselines

    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(app, ["validate", "scenarios", "--baselines", "--json"])
    rows = orjson.loads(result.stdout)
    assert len(rows) == 60
    for name in baselines():
        scored = [row["baselines"][name] for row in rows]
        assert [row["id"] for row, got in zip(rows, scored, strict=True) if got["strict"]] == []
        assert sum(got["partial"] for got in scored) / len(scored) <= MAX_MEAN_PARTIAL, name
    assert result.exit_code == 0, result.output
