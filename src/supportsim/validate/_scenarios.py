"""``supportsim validate``'s verdict on each scenario: the oracle run, uncited rules, and
(with ``--perturb``) the perturbation proof. The CLI only prints what this returns."""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import orjson

from supportsim.domains import Domain
from supportsim.scenario import Scenario, uncited
from supportsim.scoring import Score, oracle_run
from supportsim.validate._perturb import PerturbResult, perturb


@dataclass(slots=True)
class ScenarioVerdict:
    scenario: Scenario
    score: Score
    ended: str
    uncited: list[str]
    state_sha256: str
    perturbed: PerturbResult | None = None
    initial_sha256: str = ""
    """The same hash of the scenario's initial state."""

    @property
    def oracle_passed(self) -> bool:
        """strict, or (a tau2 scenario without an assertion judge) every check that could
        be scored passed: the oracle performs the gold path, the judge is not needed to
        prove the scenario consistent."""
        if self.score.strict or not self.score.unscored:
            return self.score.strict
        return self.ended not in ("max_turns", "timeout", "error") and all(
            c.passed for c in self.score.checks if c.id not in self.score.unscored
        )

    @property
    def ok(self) -> bool:
        return (
            self.oracle_passed
            and not self.uncited
            and (self.perturbed is None or self.perturbed.ok)
        )

    def problems(self) -> list[str]:
        out = []
        if not self.oracle_passed:
            if self.ended not in ("customer_done", "agent_transfer"):
                out.append(f"oracle conversation ended by {self.ended}")
            out += [f"oracle: {c.id}: {c.reason}" for c in self.score.checks if not c.passed]
        out += [
            f"uncited rule: {where} (add `cites:` quoting the policy)" for where in self.uncited
        ]
        if self.perturbed is not None:
            out += [f"{m.expect} variant {m.variant!r}: {m.why}" for m in self.perturbed.misses]
        return out


def state_hash(state: Mapping[str, object], domain: Domain | None = None) -> str:
    """SHA-256 of the state as canonical JSON (sorted keys), for comparing final states;
    for the tau2_retail domain, tau2's database hash (what tau2's DB reward compares)."""
    # A Tau2Domain exists only once its package is imported: a run without tau2 never pays
    # that import here.
    retail = sys.modules.get("supportsim.tau2.retail")
    if retail is not None and isinstance(domain, retail.Tau2Domain):
        return str(retail.db_hash(state))
    return hashlib.sha256(orjson.dumps(state, option=orjson.OPT_SORT_KEYS)).hexdigest()


class _InitialHashes:
    """Each scenario's initial-state hash, computed once per domain and ``state`` content.

    A scenario's initial state is its domain's fixture with the scenario's ``state`` merged
    over it, so scenarios of one domain with equal ``state`` (every imported tau2 task: no
    ``state``, a 2.8 MB database) share one hash. The key is the scenario's domain name and the
    ``state`` as canonical JSON (sorted keys): equal content, one entry; a ``state`` orjson
    cannot write (no canonical form) is hashed each time, never cached. One instance serves
    one ``validate_scenarios`` call, whose domains do not change under it."""

    def __init__(self) -> None:
        self._by_content: dict[tuple[str, bytes], str] = {}

    def of(self, domain: Domain, scenario: Scenario) -> str:
        try:
            key = (scenario.domain, orjson.dumps(scenario.state, option=orjson.OPT_SORT_KEYS))
        except TypeError:
            return _initial_hash(domain, scenario)
        found = self._by_content.get(key)
        if found is None:
            found = self._by_content[key] = _initial_hash(domain, scenario)
        return found


def _initial_hash(domain: Domain, scenario: Scenario) -> str:
    return state_hash(domain.initial_state(scenario.state).model_dump(mode="json"), domain)


async def validate_scenarios(
    domains: Mapping[str, Domain], scenarios: Sequence[Scenario], *, with_perturb: bool = False
) -> list[ScenarioVerdict]:
    hashes = _InitialHashes()
    out = []
    for scenario in scenarios:
        domain = domains[scenario.domain]
        transcript, result = await oracle_run(domain, scenario)
        verdict = ScenarioVerdict(
            scenario,
            result,
            transcript.termination,
            uncited(scenario) if scenario.tau2 is None else [],  # tau2 tasks cite nothing
            state_hash(transcript.final_state, domain),
            initial_sha256=hashes.of(domain, scenario),
        )
        if with_perturb:
            verdict.perturbed = await perturb(domain, scenario)
        out.append(verdict)
    return out
