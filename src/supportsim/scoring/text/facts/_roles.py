"""Contradictions: a statement that gives, for the act it reports, another value than the
one expected ("I have refunded the original charge CH-777" when CH-778 was refunded).

A say step checks that the right values appear; this checks that a wrong one does not
stand in their place. "The same role" is decided narrowly, so that a correct message that
also mentions other values still passes:

- the act is where the step's concept is stated, for the concepts that are acts done to a
  thing with a value (``ACTS``: refunding, cancelling, booking, rescheduling, waiving,
  offering goodwill). A step without one names no act and its values are not checked (a
  total and its parts, "35.00 USD: the 25.00 fee and the 10.00 top-up", do not conflict);
- the expected values are the step's typed items and the ids the writes it reports were
  made with (the charge refunded, the order cancelled): a step that wants only "refunding"
  and "35 USD" still fails on "I have refunded CH-777" when the refund was of CH-778;
- the act's value of a kind is the value of that kind nearest the act in its sentence (up
  to a semicolon or a dash, across a colon), after it first ("I have refunded CH-778, the
  duplicate of CH-777" gives CH-778), else before it in its clause ("35 USD have been
  refunded"; not across a comma: "CH-777 is the original, so I refunded the duplicate");
- the act's value conflicts when it is none of the expected values of its kind: ids only
  within a family, the same letters ("CH-777" and "CH-778"; an account id "A-2001" is no
  charge id); amounts, times, dates, durations and percentages with any other stated value
  of their kind (an amount in another currency conflicts);
- only values stated as true count: a value ruled out ("not CH-777", "instead of 10:00")
  or a bare number is no contradiction, and a value that has another reading equal to the
  expected one ("the 20th" in a scenario about April) is none either.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from supportsim.scoring.text._span import Span
from supportsim.scoring.text.facts._read import Calendar, Fact, _parse, _same, _statements
from supportsim.scoring.text.facts._scope import act_bounds
from supportsim.scoring.text.facts._text import Folded, Found, fold
from supportsim.scoring.text.facts._vocab import languages_for


@dataclass(frozen=True, slots=True)
class Conflict:
    """A value stated for an act where another was expected: ``stated`` as the Agent
    wrote it, ``expected`` as the step names it, ``span`` where it is in the text."""

    stated: str
    expected: str
    span: Span


ACTS = frozenset(
    {"refunding", "cancelling", "booking", "rescheduling", "waiving", "offering_goodwill"}
)
"""Concepts that are acts done to a thing with a value (a charge and its amount, a slot
and its time). Others carry no value of their own: in "shall I go ahead? the fee is 40
USD" or "I'm transferring you: the 79 USD exceed my limit" the amount is no act's."""


def conflict(
    expected: Sequence[Fact],
    acts: Sequence[Span],
    text: str,
    lang: str,
    *,
    calendar: Calendar | None = None,
) -> Conflict | None:
    """The value the acts in ``text`` (spans of the original text) are given where none of
    them is given one of the ``expected`` values of its kind (ids: of its family), or None.
    One act given an expected value is enough ("I refunded CH-911 ... the 79 USD exceed
    what I can refund" names the act twice)."""
    if not acts or not isinstance(text, str):
        return None
    langs = languages_for(lang)
    f = fold(text)
    roles: dict[tuple[str, str], list[tuple[Fact, object]]] = {}
    for fact in expected:
        try:
            wanted = _parse(fact)
        except (TypeError, ValueError, OverflowError):
            continue
        family = _family(str(fact.value)) if fact.kind == "id" else ""
        if fact.kind != "id" or family:
            roles.setdefault((fact.kind, family), []).append((fact, wanted))
    for (kind, family), facts in roles.items():
        values = _role_values(kind, family, text, langs, calendar)
        given = [n for act in acts if (n := _nearest(f, values, _folded(f, act))) is not None]
        fitting = [
            span
            for span, readings in given
            if any(_fits(fact, wanted, r) for fact, wanted in facts for r in readings)
        ]
        if given and not fitting:
            start, end = f.origin(*given[0][0])
            shown = " or ".join(_describe(fact) for fact, _ in facts)
            return Conflict(text[start:end], shown, Span(start, end))
    return None


def _describe(fact: Fact) -> str:
    return (
        str(fact.value)
        if fact.kind == "id"
        else f"{fact.kind} {fact.value}" + (f" {fact.unit}" if fact.unit else "")
    )


def _family(value: str) -> str:
    """The letters that start an id ("ch" of "CH-778"), folded."""
    m = re.match(r"[a-z]+", fold(value).text.strip())
    return m.group() if m else ""


def _canonical(value: str) -> str:
    return "-".join(re.findall(r"[a-z]+|\d+", fold(value).text))


def _fits(fact: Fact, wanted: object, found: Found) -> bool:
    if fact.kind == "id":
        return _canonical(str(found.value)) == _canonical(str(fact.value))
    return _same(fact, wanted, found)


def _role_values(
    kind: str, family: str, text: str, langs: tuple[str, ...], calendar: Calendar | None
) -> dict[tuple[int, int], list[Found]]:
    """Folded span -> readings of the values that may fill a role: of ``kind`` (ids of
    ``family``), stated as true, at least one reading strong (amounts with a currency)."""
    found, ruled = _statements(kind, text, langs, calendar)
    out: dict[tuple[int, int], list[Found]] = {}
    for i, c in enumerate(found):
        if i in ruled or (kind == "money" and not c.unit):
            continue
        if kind == "id" and _family(str(c.value)) != family:
            continue
        out.setdefault((c.start, c.end), []).append(c)
    return {span: group for span, group in out.items() if any(not c.weak for c in group)}


def _folded(f: Folded, span: Span) -> tuple[int, int]:
    """The folded range of an original span."""
    start = next((i for i, s in enumerate(f.starts) if s >= span.start), len(f.starts))
    end = next((i for i, e in enumerate(f.ends) if e >= span.end), len(f.ends) - 1) + 1
    return start, max(start, end)


def _nearest(
    f: Folded, values: dict[tuple[int, int], list[Found]], act: tuple[int, int]
) -> tuple[tuple[int, int], list[Found]] | None:
    """The value nearest the act in its sentence part (``act_bounds``): the first after it,
    else the last before."""
    lo, hi = act_bounds(f.text, *act)
    after = sorted(s for s in values if act[1] <= s[0] < hi)
    if after:
        return after[0], values[after[0]]
    # before the act only within its clause: "35 USD have been refunded", not "CH-777 is the
    # original, so I have refunded the duplicate"
    lo = max(lo, f.text.rfind(",", lo, act[0]) + 1)
    before = sorted(s for s in values if lo <= s[0] and s[1] <= act[0])
    if before:
        return before[-1], values[before[-1]]
    return None
