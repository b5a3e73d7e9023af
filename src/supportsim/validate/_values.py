"""Typed values in corpus sentences: compare a sentence's labels with a step's items, and
put another value where the sentence states one (``validate --perturb``).

The perturbation proof rewords a statement step with a blind corpus sentence whose labels
state what the step requires. When the sentence's amount, time or id differs from the
step's, the value is swapped in where the sentence writes it in digits (``$35.00`` ->
``$12.50``, ``11:30`` -> ``13:00``, ``CH-778`` -> ``CH-905``), keeping the sentence's own
format (decimal separator, number of decimals, am/pm, ``h``); dates and durations are
swapped by ``_dates``. Values are found by their digits (and month and weekday names) only,
never with the scorer's fact readers: a value written in words, or a date said relative to
the day, is not swapped, and such a sentence is used only when its value already is the
step's. That keeps the proof independent of the reading it proves.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from supportsim.scenario import SayItem
from supportsim.validate._corpus import FactLabel
from supportsim.validate._dates import date_edits, duration_edits

TOLERANCE = 0.005
FACT_KINDS = ("money", "time", "date", "duration", "percent", "id")
_HOURS = {"minutes": 1 / 60, "hours": 1.0, "days": 24.0, "weeks": 168.0}
_NUMBER = re.compile(r"(?<![\w.,:-])(\d+)(?:([.,])(\d{1,2}))?(?![\w:]|[.,]\d)")
_TIME = re.compile(
    r"(?<![\w.:,-])(\d{1,2})\s?([:.h])\s?(\d{2})(?:\s?([ap])\.?\s?m\.?\b)?(?![\w:]|[.,]\d)", re.I
)
_TIME_12 = re.compile(r"(?<![\w.:,-])(\d{1,2})\s?([ap])\.?\s?m\.?(?!\w)", re.I)


@dataclass(frozen=True, slots=True)
class Value:
    """A typed value in one comparable form: money and percent a number (money with its
    currency), time ``HH:MM``, date a date, duration hours, id folded."""

    kind: str
    value: float | str | dt.date
    currency: str | None = None

    def same(self, other: Value) -> bool:
        if self.kind != other.kind:
            return False
        if self.kind in ("money", "percent", "duration"):
            near = abs(float(self.value) - float(other.value)) <= TOLERANCE  # type: ignore[arg-type]
            return near and (
                self.currency is None or other.currency is None or self.currency == other.currency
            )
        if self.kind == "id":
            return _id(str(self.value)) == _id(str(other.value))
        return self.value == other.value


def _id(value: str) -> str:
    return re.sub(r"[\s_-]", "", value).casefold()


def item_value(item: SayItem) -> Value | None:
    """A step item's value (None: a phrase, a concept, or a duration in months)."""
    kind = item.kind
    if kind == "money":
        return Value("money", float(item.money or 0), item.currency)
    if kind == "percent":
        return Value("percent", float(item.percent or 0))
    if kind == "time":
        return Value("time", str(item.time))
    if kind == "date":
        return Value("date", dt.date.fromisoformat(str(item.date)))
    if kind == "id":
        return Value("id", str(item.id))
    if kind == "duration" and item.unit in _HOURS:
        return Value("duration", float(item.duration or 0) * _HOURS[item.unit or "hours"])
    return None


def label_value(label: FactLabel) -> Value:
    """A corpus label's value."""
    kind = label.kind
    if kind == "money":
        return Value("money", float(label.money or 0), label.currency)
    if kind == "percent":
        return Value("percent", float(label.percent or 0))
    if kind == "time":
        return Value("time", str(label.time))
    if kind == "date":
        assert label.date is not None
        return Value("date", label.date)
    if kind == "duration":
        return Value("duration", float(label.duration_hours or 0))
    return Value("id", str(label.id))


def swappable(kind: str) -> bool:
    """Whether a value of this kind can be swapped into a sentence at all (whether this
    sentence's can depends on how it writes it: ``rewrite``)."""
    return kind in FACT_KINDS


@dataclass(frozen=True, slots=True)
class Place:
    """Where a sentence writes a value, and how it writes it."""

    start: int
    end: int
    text: str


def places(text: str, value: Value) -> list[Place]:
    """Where ``text`` writes ``value`` in digits (or an id literally)."""
    if value.kind in ("money", "percent"):
        out = []
        for m in _NUMBER.finditer(text):
            whole, _, frac = m.groups()
            number = int(whole) + (int(frac) / 10 ** len(frac) if frac else 0)
            if abs(number - float(value.value)) <= TOLERANCE:  # type: ignore[arg-type]
                out.append(Place(m.start(), m.end(), m.group(0)))
        return out
    if value.kind == "time":
        return [Place(m.start(), m.end(), m.group(0)) for m in _times(text, str(value.value))]
    if value.kind == "id":
        pattern = re.escape(str(value.value))
        return [Place(m.start(), m.end(), m.group(0)) for m in re.finditer(pattern, text, re.I)]
    return []


def _times(text: str, hhmm: str) -> list[re.Match[str]]:
    h, m = (int(x) for x in hhmm.split(":"))
    out = []
    for found in _TIME.finditer(text):
        hour, _, minute, half = found.groups()
        if _hour24(int(hour), half) == h and int(minute) == m:
            out.append(found)
    if m == 0:
        out += [f for f in _TIME_12.finditer(text) if _hour24(int(f.group(1)), f.group(2)) == h]
    return out


def _hour24(hour: int, half: str | None) -> int:
    if half is None:
        return hour
    return hour % 12 + (12 if half.lower() == "p" else 0)


def written(old: str, value: Value, lang: str) -> str | None:
    """``value`` written the way ``old`` (a place's text) writes its value."""
    if value.kind in ("money", "percent"):
        m = _NUMBER.fullmatch(old)
        if m is None:
            return None
        _, sep, frac = m.groups()
        number = float(value.value)  # type: ignore[arg-type]
        decimals = len(frac) if frac else (0 if number == int(number) else 2)
        out = f"{number:.{decimals}f}"
        return out.replace(".", sep or ("." if lang == "en" else ","))
    if value.kind == "time":
        return _written_time(old, str(value.value))
    if value.kind == "id":
        new = str(value.value)
        return new.upper() if old.isupper() else new
    return None


def _written_time(old: str, hhmm: str) -> str | None:
    h, m = (int(x) for x in hhmm.split(":"))
    if (found := _TIME.fullmatch(old)) is not None:
        hour, sep, _, half = found.groups()
        if half is None:
            return f"{h:0{len(hour)}d}{sep}{m:02d}"
        rest = old[found.end(3) :]  # " pm", "p.m."...
        return f"{(h % 12) or 12}{sep}{m:02d}" + _half(rest, found.start(4) - found.end(3), h)
    if (found := _TIME_12.fullmatch(old)) is not None and m == 0:
        rest = old[found.end(1) :]
        return f"{(h % 12) or 12}" + _half(rest, found.start(2) - found.end(1), h)
    return None


def _half(rest: str, at: int, hour: int) -> str:
    """``rest`` ("pm", " a.m.") with its a/p letter (at ``at``) set for ``hour``."""
    letter = "p" if hour >= 12 else "a"
    if rest[at].isupper():
        letter = letter.upper()
    return rest[:at] + letter + rest[at + 1 :]


def _prefix(value: str) -> str:
    return re.split(r"[\d_-]", value, maxsplit=1)[0].casefold()


@dataclass(frozen=True, slots=True)
class Want:
    """What one labelled value of a sentence must become: ``value`` (swapped in where it
    differs), or, with ``differ``, anything but ``value`` (left as the sentence says it)."""

    value: Value
    differ: bool = False


def rewrite(text: str, pairs: Sequence[tuple[FactLabel, Want]], lang: str) -> str | None:
    """``text`` with each pair's labelled value made what the pair wants, or None when a
    value cannot be swapped (written in words, a date or duration that differs, an id of
    another kind, two values written alike)."""
    edits: list[tuple[Place, str]] = []
    for label, want in pairs:
        have = label_value(label)
        if want.differ:
            if have.same(want.value):
                return None
            continue
        if have.same(want.value):
            continue
        if not swappable(have.kind):
            return None
        if have.kind == "id" and _prefix(str(have.value)) != _prefix(str(want.value.value)):
            return None
        if have.kind == "money" and want.value.currency not in (None, have.currency):
            return None
        if have.kind in ("date", "duration"):
            more = (
                date_edits(text, have.value, want.value.value, lang)  # type: ignore[arg-type]
                if have.kind == "date"
                else duration_edits(text, float(have.value), float(want.value.value), lang)  # type: ignore[arg-type]
            )
            if more is None:
                return None
            edits += [(Place(a, b, text[a:b]), new) for a, b, new in more]
            continue
        found = places(text, have)
        if not found or (have.kind != "id" and len(found) > 1):
            return None  # not in digits, or written twice (which one is it?)
        for place in found:
            new = written(place.text, want.value, lang)
            if new is None:
                return None
            edits.append((place, new))
    spans = sorted(edits, key=lambda e: e[0].start)
    for (a, _), (b, _) in itertools.pairwise(spans):
        if b.start < a.end:
            return None  # two values written in the same place
    out = text
    for place, new in reversed(spans):
        out = out[: place.start] + new + out[place.end :]
    return out
