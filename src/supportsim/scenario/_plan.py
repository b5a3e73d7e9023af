"""The reference plan: the literal calls and messages of a scenario's workflow.

The oracle Agent performs it, and the scorer replays its calls to get the reference final
state, so both read one derivation. Arguments come from exact matchers, or ``oracle_args``
where a matcher (any, regex) does not name one value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from supportsim.scenario._matchers import (
    Approx,
    CaseInsensitive,
    Exact,
    Literal_,
    Matcher,
    OneOf,
)
from supportsim.scenario._models import CallSpec, Scenario, Step


@dataclass(frozen=True, slots=True)
class PlannedCall:
    step_id: str
    tool: str
    args: dict[str, Any]


@dataclass(frozen=True, slots=True)
class PlannedSay:
    step_id: str
    text: str


PlanItem = PlannedCall | PlannedSay


class PlanError(ValueError):
    """A matcher names no single value and ``oracle_args`` does not supply one."""

    def __init__(self, loc: tuple[str | int, ...], message: str) -> None:
        self.loc = loc
        super().__init__(message)


def concrete(matcher: Matcher) -> tuple[bool, Any]:
    """The one value a matcher stands for, if it names one."""
    rule = matcher.rule
    if isinstance(rule, Literal_):
        return True, rule.value
    if isinstance(rule, Exact):
        return True, rule.exact
    if isinstance(rule, OneOf):
        return True, rule.one_of[0]
    if isinstance(rule, Approx):
        return True, rule.approx
    if isinstance(rule, CaseInsensitive):
        return True, rule.icase
    return False, None


def call_args(spec: CallSpec | Step, loc: tuple[str | int, ...]) -> dict[str, Any]:
    """Arguments the oracle sends for a call: oracle_args over the matchers' values."""
    given = dict(spec.oracle_args or {})
    for name, matcher in spec.args.items():
        if name in given:
            if not matcher.matches(given[name]):
                raise PlanError(
                    (*loc, "oracle_args", name),
                    f"{given[name]!r} does not match its own matcher ({matcher.describe()})",
                )
            continue
        ok, value = concrete(matcher)
        if not ok:
            raise PlanError(
                (*loc, "args", name),
                f"{matcher.describe()} names no single value: give oracle_args.{name}",
            )
        given[name] = value
    return given


def say_text(step: Step) -> str:
    if step.text is not None:
        return step.text
    return " ".join(item.phrase or "" for item in step.say or [])


def reference_plan(scenario: Scenario) -> list[PlanItem]:
    """The workflow as literal actions, in order (any_of: the first path); for an imported
    tau2 task, its gold actions (those that raise included, as tau2 replays them).

    Raises:
        PlanError: with the field location, when an argument value cannot be derived.
    """
    if scenario.tau2 is not None:
        return _tau2_plan(scenario)
    plan: list[PlanItem] = []
    for i, step in enumerate(scenario.workflow):
        if step.kind == "say":
            plan.append(PlannedSay(step.id, say_text(step)))
            continue
        loc: tuple[str | int, ...] = ("workflow", i)
        if step.kind == "any_of":
            for c, spec in enumerate(step.paths()[0]):
                plan.append(
                    PlannedCall(step.id, spec.tool, call_args(spec, (*loc, "any_of", 0, c)))
                )
        else:
            assert step.tool is not None
            plan.append(PlannedCall(step.id, step.tool, call_args(step, loc)))
    return plan


TAU2_CALLS_PER_TURN = 8
"""The tau2 oracle speaks after this many calls (a turn of many tool rounds is a loop)."""


def _tau2_plan(scenario: Scenario) -> list[PlanItem]:
    """tau2's gold replay: every action in order, as written (those that raise included); a
    short holding message every few calls, and the ``communicate_info`` at the end."""
    assert scenario.tau2 is not None
    plan: list[PlanItem] = []
    for i, action in enumerate(scenario.tau2.actions):
        if i and i % TAU2_CALLS_PER_TURN == 0:
            plan.append(PlannedSay(f"hold-{i}", "One moment, please, I am still checking."))
        plan.append(PlannedCall(action.action_id, action.name, dict(action.arguments)))
    if scenario.tau2.communicate_info:
        plan.append(PlannedSay("communicate", " | ".join(scenario.tau2.communicate_info)))
    return plan
