"""Typed facts an Agent states (money, times, dates, durations, percentages, ids), found by
value in what it wrote.

A ``say`` step that wants "10.00" must accept "$10", "10 USD" and "10,00 €", and a step that
wants 14:00 must accept "2 pm" and "14 Uhr", but never "100", "10.50" or "4:00". So a fact
is never looked for by spelling: every statement of its kind is read out of the text (in the
scenario's language and in English, which Agents fall back to) and compared by value.
Locale data (month names, separators, currency symbols, unit words, day periods) comes from
Babel; see ``_vocab``. Callers: ``_say`` (say steps and disclosures) and the
perturbation tester, which rewords reference conversations with :func:`renderings`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from typing import Literal, cast

from supportsim.scoring.text._span import Span
from supportsim.scoring.text.facts._clock import DateValue, dates, times
from supportsim.scoring.text.facts._days import Calendar, calendar_dates, calendar_of
from supportsim.scoring.text.facts._money import money
from supportsim.scoring.text.facts._numbers import durations, percents
from supportsim.scoring.text.facts._scope import ruled_out
from supportsim.scoring.text.facts._text import Folded, Found, fold
from supportsim.scoring.text.facts._vocab import LANGUAGES, currency_symbols, languages_for, months
from supportsim.scoring.text.facts._words import function_words

__all__ = [
    "LANGUAGES",
    "Calendar",
    "Fact",
    "FactKind",
    "ReadFact",
    "Span",
    "StatedValue",
    "calendar_of",
    "find_fact",
    "renderings",
    "stated_facts",
    "stated_values",
]

FactKind = Literal["money", "time", "date", "duration", "percent", "id"]
DurationUnit = Literal["minutes", "hours", "days", "weeks", "months"]
TOLERANCE = 0.005
"""Amounts and percentages within this of each other are the same (10 and 10.004)."""
_UNITS = ("minutes", "hours", "days", "weeks", "months")
KINDS: tuple[FactKind, ...] = ("date", "time", "percent", "duration", "money", "id")


@dataclass(frozen=True, slots=True)
class Fact:
    """A value an Agent must (or must not) state.

    ``value``: money and percent a number; time "HH:MM" (24-hour); date "YYYY-MM-DD";
    duration a number of ``unit``; id a string. ``unit``: for money an ISO currency code
    ("USD") or None for any currency; for duration "minutes" | "hours" | "days" | "weeks" |
    "months" (None: any unit, the number as written).
    """

    kind: FactKind
    value: str | float
    unit: str | None = None


def find_fact(fact: Fact, text: str, lang: str, *, calendar: Calendar | None = None) -> Span | None:
    """Where ``text`` states ``fact`` (its first occurrence), or None. Never raises: a fact
    whose value does not fit its kind is found nowhere.

    ``lang`` is the conversation's language (en, de, es or fr; "de-DE" is de; any other is
    read as English); English is always read as well. ``calendar`` places relative dates
    ("tomorrow", "Friday", "the 18th"); without it they state no date. A value mentioned
    but ruled out ("not 35 dollars", "instead of Thursday", "moved from 10:00") is not
    stated. A duration is compared across units ("a day" states 24 hours, "2 weeks" 14
    days; months only as months).
    """
    if not isinstance(text, str) or not text.strip():
        return None
    try:
        wanted = _parse(fact)
    except (TypeError, ValueError, OverflowError):
        return None
    langs = languages_for(lang if isinstance(lang, str) else "en")
    f = fold(text)
    found, out = _statements(fact.kind, text, langs, calendar)
    if fact.kind == "id":
        for m in _id_regex(str(wanted)).finditer(f.text):
            if not any(found[i].start <= m.start() < found[i].end for i in out):
                return Span(*f.origin(*m.span()))
        return None
    hits = [c for i, c in enumerate(found) if i not in out and _same(fact, wanted, c)]
    if not hits:
        return None
    first = min(hits, key=lambda c: (c.start, -c.end))
    return Span(*f.origin(first.start, first.end))


@dataclass(frozen=True, slots=True)
class ReadFact:
    """A typed fact read as stated. ``value``: money, percent and duration (in hours) a
    number; time "HH:MM"; date ``(year or None, month, day)``; id its folded form.
    ``units``: for money, the currencies it may be in (None: none written)."""

    kind: str
    value: object
    units: frozenset[str] | None = None


HOURS = {"minutes": 1 / 60, "hours": 1.0, "days": 24.0, "weeks": 168.0, "months": 730.0}
"""A duration's unit in hours (a month as an average, 730 h: read out, never compared)."""
_ID = re.compile(r"(?<![a-z0-9])(?:[a-z]{1,5}(?:[-_]\d+|[ ]?\d{2,})(?:-\d+)*)(?![a-z0-9])")


def stated_facts(
    text: str, lang: str, *, today: date | None = None, calendar: Calendar | None = None
) -> list[ReadFact]:
    """Every typed fact ``text`` states (``lang`` and English read), strongest reading of
    each span: dates, times, percentages, durations (in hours), amounts with a currency,
    ids. Relative dates count from ``calendar`` (or ``today``); values ruled out are left
    out, and so are bare numbers (a number with no currency is no statement of money)."""
    if not isinstance(text, str) or not text.strip():
        return []
    cal = calendar or (Calendar(today) if today else None)
    langs = languages_for(lang)
    out: list[ReadFact] = []
    for kind in KINDS:
        found, ruled = _statements(kind, text, langs, cal)
        for c in (c for i, c in enumerate(found) if i not in ruled and not c.weak):
            if kind == "date":
                year, short, month, day = cast(DateValue, c.value)
                full = None if year is None else (2000 + year if short else year)
                out.append(ReadFact("date", (full, month, day)))
            elif kind == "duration":
                for unit in sorted(c.unit or {"hours"}):  # a word may name two units
                    hours = float(c.value) * HOURS[unit]  # type: ignore[arg-type]
                    out.append(ReadFact("duration", round(hours, 4)))
            elif kind == "money":
                if c.unit:  # a bare number is no statement of money
                    out.append(ReadFact("money", c.value, c.unit))
            else:
                out.append(ReadFact(kind, c.value))
    return out


@dataclass(frozen=True, slots=True)
class StatedValue:
    """One value of a kind a message states, where it says it (the original text's span).
    ``value`` as ``ReadFact`` has it for money, time and id; a date as "YYYY-MM-DD" (or
    "MM-DD" without a year); a duration in hours. ``also``: the other readings of the
    same words ("the 20th" may be in the scenario's other month)."""

    kind: str
    value: object
    span: Span
    unit: frozenset[str] | None = None
    also: tuple[object, ...] = ()


def stated_values(
    kind: FactKind, text: str, lang: str, *, calendar: Calendar | None = None
) -> list[StatedValue]:
    """The values of ``kind`` that ``text`` states as true (strong readings, not ruled
    out), each with every reading its words allow, in text order."""
    if not isinstance(text, str) or not text.strip():
        return []
    langs = languages_for(lang)
    f = fold(text)
    found, out = _statements(kind, text, langs, calendar)
    spans: dict[tuple[int, int], list[Found]] = {}
    for i, c in enumerate(found):
        if i not in out:
            spans.setdefault((c.start, c.end), []).append(c)
    values = []
    for (start, end), group in sorted(spans.items()):
        strong = [c for c in group if not c.weak]
        if not strong:
            continue
        readings = [_shown(kind, c) for c in strong + [c for c in group if c.weak]]
        values.append(
            StatedValue(
                kind, readings[0], Span(*f.origin(start, end)), strong[0].unit, tuple(readings[1:])
            )
        )
    return values


def _shown(kind: str, c: Found) -> object:
    if kind == "date":
        year, short, month, day = cast(DateValue, c.value)
        full = None if year is None else (2000 + year if short else year)
        return f"{full:04d}-{month:02d}-{day:02d}" if full else f"{month:02d}-{day:02d}"
    if kind == "duration":
        unit = sorted(c.unit or {"hours"})[0]
        return round(float(c.value) * HOURS[unit], 4)  # type: ignore[arg-type]
    return c.value


def renderings(fact: Fact, lang: str) -> list[str]:
    """Distinct ways a person writing in ``lang`` states ``fact``, each found by
    :func:`find_fact` (at least 3 for money, time and date, 2 for the others). Amounts are
    written to the cent. Raises ValueError for a fact whose value does not fit its kind."""
    wanted = _parse(fact)
    primary = languages_for(lang)[0]
    shown = str(fact.value).strip() if fact.kind == "id" else wanted
    from supportsim.scoring.text.facts._render import render  # Babel's formats: perturbation only

    out = render(fact.kind, shown, _unit(fact), primary)
    return list(dict.fromkeys(out))


def _parse(fact: Fact) -> object:
    """The fact's value in the form candidates carry; ValueError if it has none."""
    value = fact.value
    if fact.kind in ("money", "percent", "duration"):
        if isinstance(value, bool):
            raise ValueError("a boolean is not an amount")
        number = float(value)
        if not math.isfinite(number):
            raise ValueError(f"{value!r} is not a finite amount")
        if fact.kind == "duration" and fact.unit is not None and fact.unit not in _UNITS:
            raise ValueError(f"unknown duration unit {fact.unit!r}")
        return number
    if fact.kind == "time":
        m = re.fullmatch(r"\s*([01]?\d|2[0-3]):([0-5]\d)\s*", str(value))
        if m is None:
            raise ValueError(f"{value!r} is not a time HH:MM")
        return f"{int(m.group(1)):02d}:{m.group(2)}"
    if fact.kind == "date":
        day = date.fromisoformat(str(value).strip())
        return (day.year, day.month, day.day)
    if fact.kind == "id":
        text = fold(str(value)).text
        if not re.search(r"[a-z0-9]", text):
            raise ValueError(f"{value!r} has no letter or digit")
        return text
    raise ValueError(f"unknown fact kind {fact.kind!r}")


@lru_cache(maxsize=4096)
def _statements(
    kind: str, text: str, langs: tuple[str, ...], cal: Calendar | None
) -> tuple[tuple[Found, ...], frozenset[int]]:
    """Every statement of ``kind`` in ``text`` and the indices of those ruled out; cached,
    as one message is searched for every fact a scenario names."""
    found = _every(text, langs, cal)[kind]
    return found, frozenset(ruled_out(fold(text), found, langs, kind))


@lru_cache(maxsize=2048)
def _every(text: str, langs: tuple[str, ...], cal: Calendar | None) -> dict[str, tuple[Found, ...]]:
    f = fold(text)
    written = dates(f, langs)
    said = calendar_dates(f, langs, cal, [d for d in written if not d.weak])
    on_clock = times(f, langs)
    pct = percents(f, langs)
    spans = durations(f, langs)
    others = [*written, *said, *on_clock, *pct, *spans]
    amounts = money(f, langs, [(c.start, c.end) for c in others if not c.weak])
    rates = [a.end for a in amounts if a.unit]
    # "$10 a day", "35 € al mes": a rate, not an amount of time
    spans = [d for d in spans if not _after_amount(f, d, rates)]
    return {
        "date": tuple(written + said),
        "time": tuple(on_clock),
        "percent": tuple(pct),
        "duration": tuple(spans),
        "money": tuple(amounts),
        "id": tuple(_ids(f, langs)),
    }


def _after_amount(f: Folded, d: Found, ends: list[int]) -> bool:
    head = f.text[d.start : d.start + 3]
    return head[:2] in ("a ", "an") and any(0 < d.start - e <= 1 for e in ends)


def _ids(f: Folded, langs: tuple[str, ...]) -> list[Found]:
    """Ids as codes: "CH-778", "inv-2026-03", "ORD_4521"; letters and digits apart ("APT
    7788", "ord 50387") only in capitals, or with three letters that are no word of the
    language and four digits or more."""
    out = []
    codes = currency_symbols()[1]
    names = months(langs)
    for m in _ID.finditer(f.text):
        letters = re.match(r"[a-z]+", m.group())
        assert letters is not None
        written = f.cased[m.start() : m.start() + letters.end()]
        if written in codes or letters.group() in names:
            continue  # "CHF 49", "Juli 2026": an amount, a month
        if written[0].isupper() and written[1:].islower() and len(written) >= 3:
            continue  # "Fiber-500", "Sur 1602": a name with a number
        spaced = re.fullmatch(r"([a-z]+) (\d+)", m.group())
        if spaced and not (
            f.cased[m.start() : m.start() + len(spaced[1])].isupper()
            or (
                len(spaced[1]) >= 3
                and len(spaced[2]) >= 4
                and spaced[1] not in function_words(langs)
            )
        ):
            continue
        out.append(Found(m.start(), m.end(), re.sub(r"[_ ]", "-", m.group())))
    return out


def _unit(fact: Fact) -> str | None:
    """The fact's unit as candidates carry it: currency codes upper case ("usd" is USD)."""
    if fact.unit is None or fact.kind != "money":
        return fact.unit
    return fact.unit.strip().upper()


def _same(fact: Fact, wanted: object, found: Found) -> bool:
    if fact.kind == "duration" and fact.unit is not None:
        assert isinstance(wanted, float) and isinstance(found.value, float)
        return any(
            _same_duration(wanted, fact.unit, found.value, unit) for unit in found.unit or ()
        )
    if fact.kind in ("money", "percent", "duration"):
        assert isinstance(wanted, float) and isinstance(found.value, float)
        if abs(wanted - found.value) > TOLERANCE + 1e-9:
            return False
        unit = _unit(fact)
        return unit is None or found.unit is None or unit in found.unit
    if fact.kind == "date":
        assert isinstance(wanted, tuple)
        year, short, month, day = cast(DateValue, found.value)
        if (month, day) != wanted[1:]:
            return False
        return year is None or year == (wanted[0] % 100 if short else wanted[0])
    return found.value == wanted


def _same_duration(wanted: float, unit: str, stated: float, stated_unit: str) -> bool:
    """Equal amounts of time in any units but months, which equal only months (a month
    is no fixed number of days)."""
    if "months" in (unit, stated_unit):
        return unit == stated_unit and abs(wanted - stated) <= TOLERANCE
    return abs(wanted * HOURS[unit] - stated * HOURS[stated_unit]) * 60 <= TOLERANCE


@lru_cache(maxsize=1024)
def _id_regex(folded: str) -> re.Pattern[str]:
    """Letter and digit groups of the id, with a space, dash, underscore or nothing between
    them, not inside a longer id ("CH-7781", "XCH-778")."""
    groups = re.findall(r"[a-z]+|\d+", folded)
    body = r"[\s_-]?".join(re.escape(g) for g in groups)
    return re.compile(rf"(?<![a-z0-9])(?<![a-z0-9]-){body}(?![a-z0-9])(?!-[a-z0-9])")
