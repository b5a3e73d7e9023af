"""Step checks: did each required workflow step happen, with the right arguments, in order.

Events are placed on one timeline, the transcript's message index (a call sits where its
tool result does), so calls and things said can be ordered against each other. Steps are
matched greedily in listed order, each to the earliest fitting event after its
dependencies; a call satisfies at most one step.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from supportsim.conversation import Transcript
from supportsim.environment import CallRecord
from supportsim.scenario import CallSpec, Matcher, Scenario, Step
from supportsim.scoring._checks import Check
from supportsim.scoring._text import contains_all, search


@dataclass(frozen=True, slots=True)
class _Event:
    pos: int
    call: CallRecord


def timeline(transcript: Transcript) -> list[_Event]:
    """Calls placed at their tool message's index (unmatched calls go after the end).

    Call ids need not be unique (a plugged-in Agent may reuse them), so the n-th call with
    an id takes the n-th tool message with that id.
    """
    slots: dict[str | None, list[int]] = {}
    for i, m in enumerate(transcript.messages):
        if m.role == "tool":
            slots.setdefault(m.tool_call_id, []).append(i)
    end = len(transcript.messages)
    events = []
    for c in transcript.calls:
        queue = slots.get(c.call_id)
        events.append(_Event(queue.pop(0) if queue else end + c.index, c))
    return events


def args_match(matchers: Mapping[str, Matcher], args: Mapping[str, Any] | None) -> bool:
    if args is None:
        return not matchers
    return all(name in args and m.matches(args[name]) for name, m in matchers.items())


def mismatch(spec: CallSpec | Step, call: CallRecord) -> str:
    """Why one call of the right tool did not satisfy the spec, in one line."""
    if not call.ok:
        return f"{call.name} failed: {call.error}"
    args = call.arguments or {}
    for name, matcher in spec.args.items():
        if name not in args:
            return f"{call.name} called without {name}, expected {matcher.describe()}"
        if not matcher.matches(args[name]):
            return f"{call.name} called with {name}={args[name]!r}, expected {matcher.describe()}"
    return f"{call.name} called"  # pragma: no cover - only reached when it matched


def closest(spec: CallSpec | Step, calls: Sequence[CallRecord]) -> CallRecord:
    """The call nearest to the spec, to explain the miss: carried out, most arguments
    right, latest."""

    def nearness(call: CallRecord) -> tuple[bool, int, int]:
        args = call.arguments or {}
        right = sum(1 for k, m in spec.args.items() if k in args and m.matches(args[k]))
        return (call.ok, right, call.index)

    return max(calls, key=nearness)


class _Matcher:
    def __init__(self, transcript: Transcript) -> None:
        self.events = timeline(transcript)
        self.used: set[int] = set()
        self.transcript = transcript

    def find_call(
        self, spec: CallSpec | Step, after: int, *, consume: bool = True
    ) -> tuple[_Event | None, str]:
        """The earliest unused matching call after ``after``; optional steps only look
        (``consume=False``), so a skipped-then-retried lookup cannot steal a required call."""
        tool = spec.tool
        matching = [
            e
            for e in self.events
            if e.call.ok and e.call.name == tool and args_match(spec.args, e.call.arguments)
        ]
        fitting = [e for e in matching if e.call.index not in self.used]
        in_order = [e for e in fitting if e.pos > after]
        if in_order:
            if consume:
                self.used.add(in_order[0].call.index)
            return in_order[0], ""
        if fitting:
            return None, f"{tool} was called, but before the steps it must follow"
        if matching:
            return None, f"every matching {tool} call already counted for an earlier step"
        tried = [e.call for e in self.events if e.call.name == tool]
        if tried:
            return None, mismatch(spec, closest(spec, tried))
        return None, f"{tool} was never called"

    def find_path(self, path: Sequence[CallSpec], after: int) -> tuple[int | None, str]:
        taken: list[int] = []
        pos = after
        for spec in path:
            event, why = self.find_call(spec, pos)
            if event is None:
                self.used.difference_update(taken)
                return None, why
            taken.append(event.call.index)
            pos = event.pos
        return pos, ""

    def find_say(self, step: Step, after: int) -> tuple[int | None, str]:
        said = [
            i
            for i, text in self.transcript.agent_texts()
            if (step.say is None or contains_all(text, step.say))
            and (step.say_regex is None or search(step.say_regex, text))
        ]
        what = " and ".join(repr(p) for p in step.say or []) or f"/{step.say_regex}/"
        later = [i for i in said if i > after]
        if later:
            return later[0], ""
        if said:
            return None, f"the agent said {what}, but before the steps it must follow"
        return None, f"no agent message says {what}"


def step_checks(scenario: Scenario, transcript: Transcript) -> list[Check]:
    """One ``step:<id>`` check per required step (optional steps only anchor the order)."""
    finder = _Matcher(transcript)
    placed: dict[str, int | None] = {}
    checks: list[Check] = []
    previous: str | None = None
    for step in scenario.workflow:
        deps = step.after if step.after is not None else ([previous] if previous else [])
        after = max((p for d in deps if (p := placed.get(d)) is not None), default=-1)
        if step.kind == "say":
            pos, why = finder.find_say(step, after)
        elif step.kind == "tool":
            event, why = finder.find_call(step, after, consume=not step.optional)
            pos = event.pos if event else None
        else:
            pos, why = None, ""
            reasons = []
            for n, path in enumerate(step.paths(), 1):
                pos, why = finder.find_path(path, after)
                if pos is not None:
                    break
                reasons.append(f"path {n}: {why}")
            why = (
                "no alternative path completed (" + "; ".join(reasons) + ")" if pos is None else ""
            )
        placed[step.id] = pos
        if not step.optional:
            previous = step.id
            reason = why or _done(step)
            checks.append(Check(f"step:{step.id}", "step", pos is not None, reason, step.weight))
    return checks


def _done(step: Step) -> str:
    if step.kind == "say":
        return "the agent said it"
    if step.kind == "tool":
        return f"{step.tool} called as expected"
    return "an alternative path completed"
