"""Partial: the share of the workflow done; doing nothing earns nothing, a broken guardrail
never raises it (properties over any list of checks, with hypothesis)."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from supportsim.scoring import Check, summarise
from supportsim.scoring._partial import VIOLATION_PENALTY, partial_of, progress_of
from supportsim.validate import MAX_MEAN_PARTIAL

KINDS = ["step", "observed", "custom", "forbidden", "outcome", "state"]


@st.composite
def a_check(draw: st.DrawFn, kind: str | None = None, passed: bool | None = None) -> Check:
    kind = kind or draw(st.sampled_from(KINDS))
    role = draw(st.sampled_from([None, None, "guardrail"])) if kind == "state" else None
    return Check(
        f"{kind}:{draw(st.integers(0, 999))}",
        kind,
        draw(st.booleans()) if passed is None else passed,
        "",
        draw(st.sampled_from([0.5, 1.0, 1.0, 2.0, 3.0])),
        role,
    )


checks_lists = st.lists(a_check(), max_size=12)


@given(checks_lists, st.booleans())
def test_partial_is_a_share(checks: list[Check], normal: bool) -> None:
    assert 0.0 <= partial_of(checks, normal_end=normal) <= 1.0


@given(st.lists(a_check(), min_size=1, max_size=12), st.booleans())
def test_doing_no_workflow_step_earns_nothing(checks: list[Check], normal: bool) -> None:
    """Whatever the ends and guardrails say: at most the do-nothing floor (here exactly 0)."""
    nothing = [
        dataclasses.replace(c, passed=False) if c.counts_as == "workflow" else c for c in checks
    ]
    if any(c.counts_as == "workflow" for c in nothing):
        assert partial_of(nothing, normal_end=normal) == 0.0 <= MAX_MEAN_PARTIAL


@given(checks_lists, st.integers(0, 11), st.booleans())
def test_breaking_a_guardrail_never_raises_partial(
    checks: list[Check], at: int, normal: bool
) -> None:
    guards = [i for i, c in enumerate(checks) if c.counts_as == "guardrail" and c.passed]
    if not guards:
        return
    i = guards[at % len(guards)]
    broken = [*checks[:i], dataclasses.replace(checks[i], passed=False), *checks[i + 1 :]]
    assert partial_of(broken, normal_end=normal) <= partial_of(checks, normal_end=normal)


@given(checks_lists, a_check(kind="forbidden"), st.booleans())
def test_a_guardrail_that_holds_earns_nothing_and_one_broken_costs_its_penalty(
    checks: list[Check], guard: Check, normal: bool
) -> None:
    before = partial_of(checks, normal_end=normal)
    held = partial_of([*checks, dataclasses.replace(guard, passed=True)], normal_end=normal)
    assert held == pytest.approx(before)
    broken = partial_of([*checks, dataclasses.replace(guard, passed=False)], normal_end=normal)
    assert broken == pytest.approx(max(0.0, before - VIOLATION_PENALTY * guard.weight))


@given(checks_lists, st.integers(0, 11), st.booleans())
def test_doing_a_workflow_step_never_lowers_partial(
    checks: list[Check], at: int, normal: bool
) -> None:
    todo = [i for i, c in enumerate(checks) if c.counts_as == "workflow" and not c.passed]
    if not todo:
        return
    i = todo[at % len(todo)]
    done = [*checks[:i], dataclasses.replace(checks[i], passed=True), *checks[i + 1 :]]
    assert partial_of(done, normal_end=normal) >= partial_of(checks, normal_end=normal) - 1e-12


@given(st.lists(a_check(passed=True), min_size=1, max_size=12))
def test_every_check_passed_is_full_credit(checks: list[Check]) -> None:
    assert summarise(checks, normal_end=True).partial == 1.0
    assert summarise(checks, normal_end=True).strict


def test_ends_are_credited_in_proportion_to_the_workflow_done() -> None:
    steps = [Check(f"step:{i}", "step", i < 2, "") for i in range(4)]
    ends = [Check("outcome", "outcome", True, ""), Check("state", "state", True, "")]
    assert progress_of([*steps, *ends]) == 0.5
    assert partial_of([*steps, *ends], normal_end=True) == (2 + 0.5 * 2) / 6


def test_a_state_kept_because_nothing_was_to_change_is_a_guardrail() -> None:
    unchanged = Check("state", "state", True, "", role="guardrail")
    step = Check("step:say", "step", False, "")
    assert partial_of([step, unchanged], normal_end=True) == 0.0
    assert partial_of([dataclasses.replace(step, passed=True), unchanged], normal_end=True) == 1.0


def test_no_workflow_lets_the_ends_count_and_no_checks_follows_the_ending() -> None:
    outcome = Check("outcome", "outcome", True, "")
    assert partial_of([outcome], normal_end=True) == 1.0
    assert partial_of([], normal_end=True) == 1.0 and partial_of([], normal_end=False) == 0.0
