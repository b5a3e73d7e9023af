"""Typed facts an Agent states (money, times, dates, durations, percentages, ids), found by
value in what it wrote.

A ``say`` step that wants "10.00" must accept "$10", "10 USD" and "10,00 €", and a step that
wants 14:00 must accept "2 pm" and "14 Uhr", but never "100", "10.50" or "4:00". So a fact
is never looked for by spelling: every statement of its kind is read out of the text (in the
scenario's language and in English, which Agents fall back to) and compared by value.
Locale data (month names, separators, currency symbols, unit words, day periods) comes from
Babel; see ``_facts_vocab``. Callers: ``_say`` (say steps and disclosures) and the
perturbation tester, which rewords reference conversations with :func:`renderings`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from typing import Literal, cast

from supportsim.scoring._facts_clock import DateValue, dates, times
from supportsim.scoring._facts_numbers import durations, money, percents
from supportsim.scoring._facts_render import render
from supportsim.scoring._facts_text import Folded, Found, fold
from supportsim.scoring._facts_vocab import LANGUAGES, languages_for
from supportsim.scoring._span import Span

__all__ = [
    "LANGUAGES",
    "Fact",
    "FactKind",
    "ReadFact",
    "Span",
    "find_fact",
    "renderings",
    "stated_facts",
]

FactKind = Literal["money", "time", "date", "duration", "percent", "id"]
DurationUnit = Literal["minutes", "hours", "days", "weeks", "months"]
TOLERANCE = 0.005
"""Amounts and percentages within this of each other are the same (10 and 10.004)."""
_UNITS = ("minutes", "hours", "days", "weeks", "months")


@dataclass(frozen=True, slots=True)
class Fact:
    """A value an Agent must (or must not) state.

    ``value``: money and percent a number; time "HH:MM" (24-hour); date "YYYY-MM-DD";
    duration a number of ``unit``; id a string. ``unit``: for money an ISO currency code
    ("USD") or None for any currency; for duration "minutes" | "hours" | "days" | "weeks" |
    "months" (None: any unit).
    """

    kind: FactKind
    value: str | float
    unit: str | None = None


def find_fact(fact: Fact, text: str, lang: str) -> Span | None:
    """Where ``text`` states ``fact`` (its first occurrence), or None. Never raises: a fact
    whose value does not fit its kind is found nowhere.

    ``lang`` is the conversation's language (en, de, es or fr; "de-DE" is de; any other is
    read as English); English is always read as well.
    """
    if not isinstance(text, str) or not text.strip():
        return None
    try:
        wanted = _parse(fact)
    except (TypeError, ValueError, OverflowError):
        return None
    langs = languages_for(lang if isinstance(lang, str) else "en")
    f = fold(text)
    if fact.kind == "id":
        m = _id_regex(str(wanted)).search(f.text)
        return Span(*f.origin(*m.span())) if m else None
    hits = [c for c in _candidates(fact.kind, text, langs) if _same(fact, wanted, c)]
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
"""A duration's unit in hours (a month as an average, 730 h)."""
_ID = re.compile(r"(?<![a-z0-9])(?:[a-z]{1,5}[-_]?\d{2,}(?:-\d+)*)(?![a-z0-9])")


def stated_facts(text: str, lang: str, *, today: date | None = None) -> list[ReadFact]:
    """Every typed fact ``text`` states (``lang`` and English read), strongest reading of
    each span: dates, times, percentages, durations (in hours), amounts, ids."""
    if not isinstance(text, str) or not text.strip():
        return []
    langs = languages_for(lang)
    out: list[ReadFact] = []
    for kind in ("date", "time", "percent", "duration", "money"):
        for c in _candidates(kind, text, langs):
            if c.weak:
                continue
            if kind == "date":
                year, short, month, day = cast(DateValue, c.value)
                full = None if year is None else (2000 + year if short else year)
                out.append(ReadFact("date", (full, month, day)))
            elif kind == "duration":
                units = {c.unit} if isinstance(c.unit, str) else (c.unit or {"hours"})
                for unit in sorted(units):  # a word may name two units: each is a reading
                    hours = float(c.value) * HOURS[unit]  # type: ignore[arg-type]
                    out.append(ReadFact("duration", round(hours, 4)))
            elif kind == "money":
                out.append(ReadFact("money", c.value, c.unit))
            else:
                out.append(ReadFact(kind, c.value))
    f = fold(text)
    out += [ReadFact("id", m.group().replace("_", "-")) for m in _ID.finditer(f.text)]
    return out


def renderings(fact: Fact, lang: str) -> list[str]:
    """Distinct ways a person writing in ``lang`` states ``fact``, each found by
    :func:`find_fact` (at least 3 for money, time and date, 2 for the others). Amounts are
    written to the cent. Raises ValueError for a fact whose value does not fit its kind."""
    wanted = _parse(fact)
    primary = languages_for(lang)[0]
    shown = str(fact.value).strip() if fact.kind == "id" else wanted
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
def _candidates(kind: str, text: str, langs: tuple[str, ...]) -> tuple[Found, ...]:
    """Every statement of ``kind`` in ``text``; cached, as one message is searched for
    every fact a scenario names."""
    return tuple(_extract(kind, fold(text), langs))


def _extract(kind: str, f: Folded, langs: tuple[str, ...]) -> list[Found]:
    if kind == "time":
        return times(f, langs)
    if kind == "date":
        return dates(f, langs)
    if kind == "percent":
        return percents(f, langs)
    if kind == "duration":
        return durations(f, langs)
    others = [*dates(f, langs), *times(f, langs), *percents(f, langs), *durations(f, langs)]
    return money(f, langs, [(c.start, c.end) for c in others if not c.weak])


def _unit(fact: Fact) -> str | None:
    """The fact's unit as candidates carry it: currency codes upper case ("usd" is USD)."""
    if fact.unit is None or fact.kind != "money":
        return fact.unit
    return fact.unit.strip().upper()


def _same(fact: Fact, wanted: object, found: Found) -> bool:
    if fact.kind in ("money", "percent", "duration"):
        assert isinstance(wanted, float) and isinstance(found.value, float)
        if abs(wanted - found.value) > TOLERANCE + 1e-9:
            return False
        unit = _unit(fact)
        return unit is None or found.unit is None or unit in found.unit
    if fact.kind == "date":
        assert isinstance(wanted, tuple)
        year, short, month, day = found.value  # type: ignore[misc]
        value: DateValue = (year, short, month, day)
        if (value[2], value[3]) != wanted[1:]:
            return False
        return year is None or year == (wanted[0] % 100 if short else wanted[0])
    return found.value == wanted


@lru_cache(maxsize=1024)
def _id_regex(folded: str) -> re.Pattern[str]:
    """Letter and digit groups of the id, with a space, dash, underscore or nothing between
    them, not inside a longer id ("CH-7781", "XCH-778")."""
    groups = re.findall(r"[a-z]+|\d+", folded)
    body = r"[\s_-]?".join(re.escape(g) for g in groups)
    return re.compile(rf"(?<![a-z0-9])(?<![a-z0-9]-){body}(?![a-z0-9])(?!-[a-z0-9])")
