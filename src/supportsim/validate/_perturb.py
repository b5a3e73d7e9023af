"""Proof by perturbation: replay variations of the reference conversation and score them.

Reworded and wrong statements are drawn from the blind statement corpus's ``tune`` split
(``_variants_corpus``), never from the lexicons the checks read with, so a pass is not the
lexicons confirming themselves. Every valid variant must score strict 1; every invalid one
strict 0 with its target check failed. A valid variant that fails is a false failure (the
checks reject a competent Agent); an invalid one that passes, or fails only other checks,
is a false pass (the checks let a sloppy Agent through). Variants that cannot be realised
(a moved read the tool refuses, an equivalent lookup that does not show the fact) are
discarded, not counted.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from supportsim.conversation import (
    AgentContext,
    Limits,
    OracleAgent,
    ScriptedCustomer,
    Transcript,
    build_graph,
    run_conversation,
)
from supportsim.domains import Domain
from supportsim.environment import Environment, scenario_tools
from supportsim.scenario import PlannedCall, Scenario, reference_plan
from supportsim.scoring import Score, reference_state, score
from supportsim.scoring.parts import (
    fold,
    known_to_caller,
    private_of_others,
    result_contains,
    rules_for,
    speech_of,
    verified_owners,
)
from supportsim.validate._corpus import Statement, load_corpus
from supportsim.validate._variants import Reference, Variant, variants


@dataclass(frozen=True, slots=True)
class Miss:
    variant: str
    expect: str
    why: str


@dataclass(slots=True)
class PerturbResult:
    """Per scenario: valid variants passed / generated, invalid caught / generated."""

    scenario_id: str
    valid: int = 0
    valid_passed: int = 0
    invalid: int = 0
    invalid_caught: int = 0
    discarded: int = 0
    misses: list[Miss] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    """Every variant scored (the discarded ones are not)."""

    @property
    def ok(self) -> bool:
        return not self.misses


async def _no_wait(_seconds: float) -> None:
    await asyncio.sleep(0)


@functools.cache
def _graph() -> object:
    """One compiled conversation graph for every replay (compiling costs as much as a run)."""
    return build_graph()


async def replay_plan(domain: Domain, scenario: Scenario, plan: list | tuple | None) -> Transcript:
    """The oracle performing ``plan`` (default: the reference) with the scripted Customer."""
    env = Environment(domain, scenario, sleep=_no_wait)
    oracle = OracleAgent(scenario, plan)
    customer = ScriptedCustomer.for_scenario(scenario, keep_going=lambda: not oracle.finished)
    context = AgentContext("", ())  # the oracle reads no tool schemas
    limits = Limits(max_turns=max(scenario.max_turns, len(plan or ()) + 4))
    return await run_conversation(env, oracle, customer, context, limits, graph=_graph())


def _results_by_plan_index(plan: list | tuple, transcript: Transcript) -> dict[int, object]:
    """Each plan call's record, in order: the oracle makes one call per plan call."""
    calls = [i for i, item in enumerate(plan) if isinstance(item, PlannedCall)]
    return {i: rec for i, rec in zip(calls, transcript.calls, strict=False)}


def _realised(variant: Variant, transcript: Transcript) -> bool:
    records = _results_by_plan_index(variant.plan, transcript)
    for i in variant.needs_ok:
        rec = records.get(i)
        if rec is None or not rec.ok:  # type: ignore[attr-defined]
            return False
    for i, value in variant.needs_result:
        rec = records.get(i)
        if rec is None or not result_contains(rec.result, value):  # type: ignore[attr-defined]
            return False
    return True


def _judge(variant: Variant, result: Score) -> str | None:
    """Why the variant's score is wrong, or None when it is right."""
    if variant.expect == "valid":
        if result.strict:
            return None
        failed = [f"{c.id}: {c.reason}" for c in result.checks if not c.passed]
        return "false failure: " + ("; ".join(failed) or "the conversation did not end normally")
    target = next((c for c in result.checks if c.id == variant.target), None)
    if target is None:
        return f"false pass: no check {variant.target} was made"
    if target.passed:
        return f"false pass: {variant.target} passed ({target.reason})"
    if result.strict:  # pragma: no cover - a failed check always makes strict 0
        return "false pass: strict 1"
    return None


def _secrets(domain: Domain, scenario: Scenario, transcript: Transcript) -> frozenset[str]:
    """Other customers' private values the reference conversation never told the Agent and
    the caller does not know (``known_to_caller``)."""
    if domain.private_values is None:
        return frozenset()
    initial = domain.initial_state(scenario.state).model_dump(mode="json")
    heard = " ".join(m.content for m in transcript.messages if m.role == "customer")
    context = known_to_caller(scenario)
    return frozenset(
        private_of_others(
            domain.private_values(initial),
            verified_owners(transcript, domain),
            fold(heard + "\n" + context)[0],
        )
    )


@functools.cache
def tune_corpus() -> tuple[Statement, ...]:
    """The corpus's ``tune`` split, read once per process."""
    return tuple(load_corpus("tune"))


async def perturb(
    domain: Domain,
    scenario: Scenario,
    corpus: Sequence[Statement] | None = None,
    *,
    observe: Callable[[Variant, Score], None] | None = None,
) -> PerturbResult:
    """Generate and score every variant of one scenario.

    ``corpus``: the statements reworded and wrong statements are drawn from (default: the
    bundled ``tune`` split; never ``holdout``, which the figures are measured on).
    ``observe`` sees each realised variant's score (``benchmarks/bench_partial.py``
    measures partial with it)."""
    out = PerturbResult(scenario.id)
    plan = reference_plan(scenario)
    reference = await reference_state(domain, scenario)
    transcript = await replay_plan(domain, scenario, plan)
    tools = scenario_tools(domain, scenario)
    initial = domain.initial_state(scenario.state).model_dump(mode="json")
    ref = Reference(
        scenario,
        domain,
        tools,
        rules_for(domain, tools),
        speech_of(scenario),
        plan,
        transcript,
        corpus=tune_corpus() if corpus is None else tuple(corpus),
        check_ids=frozenset(
            c.id for c in score(scenario, domain, transcript, reference, initial=initial).checks
        ),
        secrets=_secrets(domain, scenario, transcript),
    )
    ref.results = {i: r.result for i, r in _results_by_plan_index(plan, transcript).items()}  # type: ignore[attr-defined]
    for variant in variants(ref):
        run = await replay_plan(domain, scenario, variant.plan)
        if not _realised(variant, run):
            out.discarded += 1
            continue
        result = score(scenario, domain, run, reference, initial=initial)
        if observe is not None:
            observe(variant, result)
        why = _judge(variant, result)
        out.names.append(variant.name)
        if variant.expect == "valid":
            out.valid += 1
            out.valid_passed += why is None
        else:
            out.invalid += 1
            out.invalid_caught += why is None
        if why is not None:
            out.misses.append(Miss(variant.name, variant.expect, why))
    return out
