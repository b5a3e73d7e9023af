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


async def validate_scenarios(
    domains: Mapping[str, Domain], scenarios: Sequence[Scenario], *, with_perturb: bool = False
) -> list[ScenarioVerdict]:
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
            initial_sha256=state_hash(
                domain.initial_state(scenario.state).model_dump(mode="json"), domain
            ),
        )
        if with_perturb:
            verdict.perturbed = await perturb(domain, scenario)
        out.append(verdict)
    return out
