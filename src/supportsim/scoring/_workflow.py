"""Step checks: did each required workflow step happen, with the right arguments, in order.

Events are placed on one timeline, the transcript's message index (a call sits where its
tool result does), so calls and statements can be ordered against each other. Only what
must be ordered is ordered (``ordering``): writes after their gates and the evidence that
justifies them, statements after the step they report; read-only lookups are free. Steps
are matched greedily in listed order, each to the earliest fitting event after its
dependencies; a call satisfies at most one step.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from supportsim.conversation import Transcript
from supportsim.environment import CallRecord
from supportsim.scenario import CallSpec, Matcher, SayItem, Scenario, Step
from supportsim.scoring._checks import Check, Judged
from supportsim.scoring._evidence import result_contains
from supportsim.scoring._questions import say_question
from supportsim.scoring._say import (
    NEGATIVE_CONCEPTS,
    Speech,
    as_fact,
    find_item,
    stated_spans,
    states,
)
from supportsim.scoring._statement_judge import Verdicts, lookup, verdict_reason
from supportsim.scoring.text._text import search
from supportsim.scoring.text.facts._read import Fact
from supportsim.scoring.text.facts._roles import ACTS, Conflict, conflict

NEVER = sys.maxsize
"""A position no event reaches: a confirmation question the Customer never answered."""


@dataclass(frozen=True, slots=True)
class _Event:
    pos: int
    call: CallRecord


@dataclass(frozen=True, slots=True)
class Dep:
    """Step ``step`` must be placed before this one; ``same_message``: or in the same
    message (consecutive statements)."""

    step: str
    same_message: bool = False


@dataclass(frozen=True, slots=True)
class Rules:
    """What the scorer knows of the domain: which tools write, which are identity gates,
    and which tools reveal which fact."""

    writes: Collection[str]
    gates: Collection[str]
    facts: Mapping[str, tuple[str, ...]]


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


def _tools_of(step: Step) -> list[str]:
    return [spec.tool for path in step.paths() for spec in path]


def is_write(step: Step, rules: Rules) -> bool:
    return step.kind in ("tool", "any_of") and any(t in rules.writes for t in _tools_of(step))


def is_gate(step: Step, rules: Rules) -> bool:
    if step.gate is not None:
        return step.gate
    return step.kind in ("tool", "any_of") and any(t in rules.gates for t in _tools_of(step))


def ordering(scenario: Scenario, rules: Rules) -> dict[str, list[Dep]]:
    """Each step's dependencies: its ``after`` list, or the default.

    Defaults: a write waits for every earlier gate and ``observe`` step (its preconditions);
    a statement waits for the required step listed before it (the result it reports).
    Consecutive statements report the same result, so a statement after a statement waits
    for what that one waits for, in any order among themselves, unless it is ``separate``
    (a later message than the statement before it) or a gate (a confirmation question
    comes with or after what it asks about). Read-only lookups and evidence are free (a
    read a tool gates itself fails before verification anyway).
    """
    by_id = {s.id: s for s in scenario.workflow}
    out: dict[str, list[Dep]] = {}
    previous: Step | None = None
    earlier: list[Step] = []
    for step in scenario.workflow:
        inherit = (
            step.after is None
            and step.kind == "say"
            and previous is not None
            and previous.kind == "say"
            and not step.separate
            and not is_gate(step, rules)
        )
        if inherit:
            assert previous is not None
            ids = [d.step for d in out[previous.id]]
        elif step.after is not None:
            ids = step.after
        elif is_write(step, rules):
            ids = [s.id for s in earlier if is_gate(s, rules) or s.kind == "observe"]
        elif step.kind == "say" and previous is not None:
            ids = [previous.id]
        else:
            ids = []
        out[step.id] = [
            Dep(d, step.kind == "say" and by_id[d].kind == "say" and not step.separate) for d in ids
        ]
        earlier.append(step)
        if not step.optional:
            previous = step
    return out


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


@dataclass(frozen=True, slots=True)
class _Bound:
    """Where a step may be placed: strictly after ``after``, at or after ``at_least``."""

    after: int = -1
    at_least: int = -1

    def admits(self, pos: int) -> bool:
        return pos > self.after and pos >= self.at_least


class _Finder:
    def __init__(self, transcript: Transcript, rules: Rules, speech: Speech) -> None:
        self.events = timeline(transcript)
        self.used: set[int] = set()
        self.transcript = transcript
        self.rules = rules
        self.speech = speech

    def find_call(
        self, spec: CallSpec | Step, bound: _Bound, *, consume: bool = True
    ) -> tuple[_Event | None, str]:
        """The earliest unused matching call the bound admits; optional steps only look
        (``consume=False``), so a skipped-then-retried lookup cannot steal a required call."""
        tool = spec.tool
        matching = [
            e
            for e in self.events
            if e.call.ok and e.call.name == tool and args_match(spec.args, e.call.arguments)
        ]
        fitting = [e for e in matching if e.call.index not in self.used]
        in_order = [e for e in fitting if bound.admits(e.pos)]
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

    def find_path(
        self,
        path: Sequence[CallSpec],
        bound: _Bound,
        *,
        consume: bool,
        free: Collection[str] = (),
    ) -> tuple[int | None, str]:
        """The calls of one path in order. ``bound`` applies to every call but those of
        the ``free`` tools (the path's reads, when the order is the default: a lookup may
        happen before verification even on a write's path)."""
        taken: list[int] = []
        last = -1
        for spec in path:
            if spec.tool in free:
                spec_bound = _Bound(after=last)
            else:
                spec_bound = _Bound(max(bound.after, last), bound.at_least)
            event, why = self.find_call(spec, spec_bound, consume=True)
            if event is None:
                self.used.difference_update(taken)
                return None, why
            taken.append(event.call.index)
            last = event.pos
        if not consume:
            self.used.difference_update(taken)
        return last, ""

    def answer(self, pos: int) -> int:
        """Where the Customer first answered after message ``pos`` (NEVER if they did not):
        a write waits for the answer to a confirmation question, not for the question."""
        return next(
            (i for i, m in enumerate(self.transcript.messages) if i > pos and m.role == "customer"),
            NEVER,
        )

    def find_observed(self, step: Step, bound: _Bound) -> tuple[int | None, str]:
        """The first successful result that shows the value, from a tool the fact map
        allows (any lookup when the step names no fact). A write's result is no evidence: it
        echoes what the Agent already decided (a refund's result names the charge)."""
        tools = self.rules.facts.get(step.fact, ()) if step.fact else None
        shown = [
            e
            for e in sorted(self.events, key=lambda e: e.pos)
            if e.call.ok
            and (
                e.call.name in tools if tools is not None else e.call.name not in self.rules.writes
            )
            and result_contains(e.call.result, step.observe)
        ]
        placed = [e for e in shown if bound.admits(e.pos)]
        if placed:
            return placed[0].pos, ""
        where = f" ({', '.join(tools)})" if tools else ""
        if shown:
            return None, f"the agent saw {step.observe!r}, but before the steps it must follow"
        return None, f"no tool result the agent received{where} showed {step.observe!r}"

    def find_judged_say(self, verdict: Judged, bound: _Bound) -> tuple[int | None, str]:
        """Where the statement judge placed a say step: the first message it quotes as
        stating it that the order admits (the same ordering rules as the rules' reading)."""
        if verdict.answer != "yes":
            return None, ""
        said = sorted({q.message for q in verdict.quotes})
        later = [i for i in said if bound.admits(i)]
        if later:
            return later[0], ""
        return None, "said (statement judge), but before the steps it must follow"

    def find_say(
        self, step: Step, bound: _Bound, reported: Sequence[Fact] = ()
    ) -> tuple[int | None, str]:
        """The first message after ``bound`` that states every item and, for the act it
        reports, no other value than the expected ones: the step's typed items and the
        ``reported`` values (ids the write it reports was made with). A message that gives
        the act another value ("I have refunded CH-777" when CH-778 is expected) does not
        say the step (``text/facts/_roles`` defines the act's value)."""
        items = step.say or []
        refusal = any(it.concept in NEGATIVE_CONCEPTS for it in items)
        expected = [f for it in items if (f := as_fact(it)) is not None] + list(reported)
        best: tuple[int, int, list[str]] | None = None
        said: list[int] = []
        contradicted: list[tuple[int, Conflict]] = []
        for i, text in self.transcript.agent_texts():
            missing = [
                it.describe() + (" (read as negated)" if find_item(it, text, self.speech) else "")
                for it in items
                if not states(it, text, self.speech, refusal=refusal)
            ]
            if step.say_regex is not None and not search(step.say_regex, text):
                missing.append(f"/{step.say_regex}/")
            if missing:
                if best is None or len(missing) < len(best[2]):
                    best = (i, len(missing), missing)
            elif clash := self._contradiction(items, expected, text, refusal):
                contradicted.append((i, clash))
            else:
                said.append(i)
        later = [i for i in said if bound.admits(i)]
        if later:
            return later[0], ""
        what = " and ".join(it.describe() for it in items) or f"/{step.say_regex}/"
        if said:
            return None, f"the agent said {what}, but before the steps it must follow"
        if contradicted:
            i, clash = next(((i, c) for i, c in contradicted if bound.admits(i)), contradicted[0])
            return None, (
                f"no agent message says {what} without a contradiction: message {i} states "
                f"{clash.stated} where {clash.expected} is expected"
            )
        if best is not None and best[1] < len(items) + (step.say_regex is not None):
            return None, f"no agent message says {what} (message {best[0]} lacks " + (
                ", ".join(best[2]) + ")"
            )
        return None, f"no agent message says {what}"

    def _contradiction(
        self, items: Sequence[SayItem], expected: Sequence[Fact], text: str, refusal: bool
    ) -> Conflict | None:
        acts = [
            span
            for it in items
            if it.concept in ACTS
            for span in stated_spans(it, text, self.speech, refusal=refusal)
        ]
        return conflict(expected, acts, text, self.speech.lang, calendar=self.speech.calendar)


class _Reported:
    """The required writes a statement reports: those since the statements that reported
    the writes before them ("I refunded CH-911 and CH-914" after both refunds)."""

    def __init__(self) -> None:
        self.writes: list[Step] = []
        self.told = False

    def add(self, step: Step, write: bool) -> None:
        if write:
            if self.told:
                self.writes, self.told = [], False
            self.writes.append(step)
        elif step.kind == "say":
            self.told = True

    def ids(self) -> list[Fact]:
        """The plain id-shaped arguments ("CH-778", "ORD-48810") of the writes."""
        out: list[Fact] = []
        for write in self.writes:
            for path in write.paths():
                for spec in path:
                    for matcher in spec.args.values():
                        value = getattr(matcher.rule, "value", None)
                        if isinstance(value, str) and _ID_ARG.fullmatch(value.strip()):
                            out.append(Fact("id", value.strip()))
        return list(dict.fromkeys(out))


_ID_ARG = re.compile(r"[A-Za-z]{1,5}(?:[-_]\d+|\d{2,})(?:-\d+)*")


def step_checks(
    scenario: Scenario,
    transcript: Transcript,
    rules: Rules,
    speech: Speech,
    verdicts: Verdicts | None = None,
) -> list[Check]:
    """One ``step:<id>`` (``observed:<id>`` for evidence) check per required step; optional
    steps only anchor the order.

    ``verdicts``: the statement judge's, by prompt hash. A say step with a verdict is placed
    where the judge's quotes point (the first quoted message the order admits) instead of
    where the rules read it; its ``rule`` is the result of scoring by the rules alone (the
    steps placed by the rules), so both verdicts follow the same ordering rules."""
    placed = _step_checks(scenario, transcript, rules, speech, verdicts)
    if not verdicts:
        return placed
    by_rules = {c.id: c.passed for c in _step_checks(scenario, transcript, rules, speech, None)}
    return [replace(c, rule=by_rules.get(c.id)) if c.rule is not None else c for c in placed]


def _step_checks(
    scenario: Scenario,
    transcript: Transcript,
    rules: Rules,
    speech: Speech,
    verdicts: Verdicts | None,
) -> list[Check]:
    finder = _Finder(transcript, rules, speech)
    deps = ordering(scenario, rules)
    by_id = {s.id: s for s in scenario.workflow}
    placed: dict[str, int | None] = {}
    checks: list[Check] = []
    reported = _Reported()
    for step in scenario.workflow:
        write = is_write(step, rules)
        after = max(
            (
                finder.answer(p) if write and _asks(by_id[d.step], rules) else p
                for d in deps[step.id]
                if not d.same_message and (p := placed.get(d.step)) is not None
            ),
            default=-1,
        )
        at_least = max(
            (p for d in deps[step.id] if d.same_message and (p := placed.get(d.step)) is not None),
            default=-1,
        )
        bound = _Bound(after, at_least)
        verdict: Judged | None = None
        if step.kind == "say" and not step.optional:
            question = say_question(step, transcript, speech.lang, speech.lexicon)
            verdict = lookup(verdicts, question)
        if verdict is not None:
            pos, why = finder.find_judged_say(verdict, bound)
        elif step.kind == "say":
            pos, why = finder.find_say(step, bound, reported.ids())
        elif step.kind == "observe":
            pos, why = finder.find_observed(step, bound)
        elif step.kind == "tool":
            event, why = finder.find_call(step, bound, consume=not step.optional)
            pos = event.pos if event else None
        else:
            pos, reasons = None, []
            free = {t for t in _tools_of(step) if t not in rules.writes and step.after is None}
            for n, path in enumerate(step.paths(), 1):
                pos, why = finder.find_path(path, bound, consume=not step.optional, free=free)
                if pos is not None:
                    break
                reasons.append(f"path {n}: {why}")
            why = "" if pos is not None else f"no alternative path completed ({'; '.join(reasons)})"
        if pos is not None and step.kind in ("tool", "any_of"):
            why = _gate_breach(step, deps[step.id], placed, finder, rules, by_id)
            pos = None if why else pos
        placed[step.id] = pos
        if not step.optional:
            reported.add(step, write)
            reason = why or _done(step)
            kind = "observed" if step.kind == "observe" else "step"
            check = Check(f"{kind}:{step.id}", kind, pos is not None, reason, step.weight)
            if step.kind == "say":
                check = replace(check, rule=check.passed)  # the rules' own, unless judged
            if verdict is not None:
                judged = replace(verdict, passed=pos is not None)
                reason = verdict_reason(judged, pos is not None)
                reason = reason.rsplit("; rules:", 1)[0] + (f"; {why}" if why else "")
                check = replace(check, reason=reason, judged=judged)
            checks.append(check)
    return checks


def _gate_breach(
    step: Step,
    deps: Sequence[Dep],
    placed: Mapping[str, int | None],
    finder: _Finder,
    rules: Rules,
    by_id: Mapping[str, Step],
) -> str:
    """Why a step breached one of its gates: the gate (a required step) never happened, or
    the Agent attempted the step's writes before it (even a call the tool refused: the
    policy forbids trying, not only succeeding) or, for a confirmation question, before the
    Customer answered it. Reads on a write's path are free unless ``after`` orders them."""
    specs = [
        s for path in step.paths() for s in path if s.tool in rules.writes or step.after is not None
    ]
    for dep in deps:
        gate = by_id[dep.step]
        if not is_gate(gate, rules):
            continue
        at = placed.get(gate.id)
        if at is None and not gate.optional:
            name = specs[0].tool if specs else _tools_of(step)[0]
            return f"{name} done without {gate.id}, which never happened"
        if at is None:
            continue
        asks = _asks(gate, rules) and is_write(step, rules)
        if asks:
            at = finder.answer(at)
        for spec in specs:
            early = [
                e
                for e in finder.events
                if e.pos < at
                and e.call.name == spec.tool
                and args_match(spec.args, e.call.arguments)
            ]
            if early:
                verb = "called" if early[0].call.ok else "attempted"
                before = f"the customer answered {gate.id}" if asks else gate.id
                return f"{spec.tool} {verb} before {before}"
    return ""


def _asks(step: Step, rules: Rules) -> bool:
    """A statement that gates writes: a question the Customer must answer first."""
    return step.kind == "say" and is_gate(step, rules)


def _done(step: Step) -> str:
    if step.kind == "say":
        return "the agent said it"
    if step.kind == "observe":
        return f"the agent saw {step.observe!r} before acting on it"
    if step.kind == "tool":
        return f"{step.tool} called as expected"
    return "an alternative path completed"
