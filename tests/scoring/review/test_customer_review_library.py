"""The scripted Customer plays every bundled scenario well: the review finds nothing
critical in any of them (a false ``customer_hindered`` would hide an Agent failure)."""

from __future__ import annotations

from pathlib import Path

import pytest

from supportsim.domains import DomainCatalogue, builtin_domains
from supportsim.scenario import Scenario, load_personas, load_scenarios
from supportsim.scoring import CONCEPTS, oracle_run
from supportsim.scoring.review import review_customer

ROOT = Path(__file__).resolve().parents[3]
DOMAINS = builtin_domains()
PERSONAS = load_personas([ROOT / "personas"])
LIBRARY = load_scenarios(
    [ROOT / "scenarios"], catalogue=DomainCatalogue(DOMAINS, CONCEPTS), personas=PERSONAS
)


@pytest.mark.parametrize("scenario", LIBRARY, ids=lambda s: s.id)
async def test_the_scripted_customer_commits_no_error_anywhere(scenario: Scenario) -> None:
    domain = DOMAINS[scenario.domain]
    transcript, _ = await oracle_run(domain, scenario)
    review = review_customer(scenario, PERSONAS[scenario.persona], domain, transcript)
    assert review.critical == ()
    assert [(f.kind, f.detail) for f in review.findings] == []
