"""``validate_scenarios``' initial-state hash: computed once per domain and ``state`` content
(every imported tau2 task shares one 2.8 MB database), and each verdict's hash is still that
of its own scenario's initial state."""

from __future__ import annotations

from pathlib import Path

import pytest

from supportsim.domains import Domain, DomainCatalogue
from supportsim.scenario import Scenario, load_personas, load_scenarios
from supportsim.scoring import CONCEPTS
from supportsim.validate import _scenarios, state_hash, validate_scenarios

FIXTURES = Path(__file__).parents[1] / "fixtures"


def duplicate_refund(domain: Domain) -> Scenario:
    (scenario,) = load_scenarios(
        [FIXTURES / "scenarios" / "mock_duplicate_refund.yaml"],
        catalogue=DomainCatalogue({"mock": domain}, CONCEPTS),
        personas=load_personas([FIXTURES / "personas"]),
    )
    return scenario


def with_state(scenario: Scenario, sid: str, state: dict[str, object]) -> Scenario:
    return scenario.model_copy(update={"id": sid, "state": state})


def own_hash(domain: Domain, scenario: Scenario) -> str:
    return state_hash(domain.initial_state(scenario.state).model_dump(mode="json"), domain)


def counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The ids of the scenarios whose initial hash ``validate_scenarios`` computes."""
    seen: list[str] = []
    compute = _scenarios._initial_hash

    def counting(domain: Domain, scenario: Scenario) -> str:
        seen.append(scenario.id)
        return compute(domain, scenario)

    monkeypatch.setattr(_scenarios, "_initial_hash", counting)
    return seen


async def test_equal_state_is_hashed_once_and_each_verdict_has_its_own_scenarios_hash(
    mock_domain: Domain, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = duplicate_refund(mock_domain)
    renamed = {"customers": {"C-2": {"name": "Bo Lindqvist"}}}
    scenarios = [
        with_state(base, "plain-a", {}),
        with_state(base, "renamed-a", renamed),
        with_state(base, "plain-b", {}),
        # equal content in another object (and written in another key order): one entry
        with_state(base, "renamed-b", {"customers": {"C-2": {"name": "Bo Lindqvist"}}}),
        with_state(base, "renamed-other", {"customers": {"C-2": {"name": "Bo Lin-Park"}}}),
    ]
    seen = counted(monkeypatch)
    verdicts = await validate_scenarios({"mock": mock_domain}, scenarios)
    assert seen == ["plain-a", "renamed-a", "renamed-other"]
    got = {v.scenario.id: v.initial_sha256 for v in verdicts}
    assert got == {s.id: own_hash(mock_domain, s) for s in scenarios}
    assert len(set(got.values())) == 3  # the three states hash apart
    assert got["plain-a"] == got["plain-b"] and got["renamed-a"] == got["renamed-b"]


async def test_a_state_with_no_canonical_json_is_hashed_every_time(
    mock_domain: Domain, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = duplicate_refund(mock_domain)
    odd = {"customers": {"C-2": {"email": b"bo@example.org"}}}  # bytes: the model takes them
    scenarios = [with_state(base, "odd-a", odd), with_state(base, "odd-b", odd)]
    seen = counted(monkeypatch)
    verdicts = await validate_scenarios({"mock": mock_domain}, scenarios)
    assert seen == ["odd-a", "odd-b"]
    assert [v.initial_sha256 for v in verdicts] == [own_hash(mock_domain, s) for s in scenarios]
    assert verdicts[0].initial_sha256 != own_hash(mock_domain, with_state(base, "plain", {}))


async def test_equal_state_in_two_domains_is_hashed_for_each(
    mock_domain: Domain, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by a review: a key without the domain's name passed the tests above, and the
    library has ``state: {}`` scenarios in three domains, whose fixtures differ."""
    base = duplicate_refund(mock_domain)
    scenarios = [
        with_state(base, "mock-plain", {}),
        with_state(base, "other-plain", {}).model_copy(update={"domain": "other"}),
    ]
    seen = counted(monkeypatch)
    await validate_scenarios({"mock": mock_domain, "other": mock_domain}, scenarios)
    assert seen == ["mock-plain", "other-plain"]
