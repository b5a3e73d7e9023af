"""Dates said against a calendar: relative days ("today", "tomorrow", "übermorgen",
"pasado mañana", "après-demain"), weekdays ("Friday", "this Friday", "next Monday", "el
próximo martes", "lundi dernier"), a weekday with a day of the month ("Wednesday the 18th",
"el miércoles 18"), and a day of the month alone ("the 18th", "el 18", "le 5", "am 18.").

They count from a :class:`Calendar`: the day the conversation happens (a scenario's
``context.today``, a corpus item's ``context.today``) and the dates the scenario names.
Without a ``today`` none of them is read. Decisions, as a customer hears them:

- a weekday alone is the next one after today (on a Monday, "Monday" is a week away);
  "last"/"letzten"/"pasado"/"dernier" make it the latest one before today; "this" and
  "next" ("el próximo martes", "lundi prochain") the next one;
- a day of the month takes its month from the sentence ("du 12 au 19 juin", "le 1er mai et
  le 5"), else from today: this month if the day is still to come, else next month; a month
  of the scenario's dates is a second reading a step may be matched by ("the 20th" when the
  scenario is about April);
- a weekday with a day of the month is the date near today where both agree;
- habits and opening hours are no dates: "on Mondays", "samstags", "los lunes", "le lundi",
  "Monday to Friday", "du lundi au samedi", "the 1st of each month".
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from functools import cache
from typing import cast

from supportsim.scoring.text.facts._text import Folded, Found
from supportsim.scoring.text.facts._vocab import (
    ORDINAL_SUFFIXES,
    alternation,
    months,
    relative_days,
    weekdays,
)
from supportsim.scoring.text.facts._words import day_ordinals, function_words


@dataclass(frozen=True, slots=True)
class Calendar:
    """What relative dates count from: ``today`` and the dates a scenario names."""

    today: date | None = None
    dates: tuple[date, ...] = ()


_ISO = re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)")


def calendar_of(context: Mapping[str, str]) -> Calendar:
    """The Calendar of a scenario's ``context``: ``today`` (ISO), and every ISO date any
    context value names."""
    named: list[date] = []
    for value in context.values():
        for m in _ISO.finditer(str(value)):
            try:
                named.append(date(int(m[1]), int(m[2]), int(m[3])))
            except ValueError:
                continue
    today = None
    raw = str(context.get("today", "")).strip()
    if raw:
        try:
            today = date.fromisoformat(raw)
        except ValueError:
            today = None
    return Calendar(today, tuple(dict.fromkeys(named)))


# --- vocabulary -----------------------------------------------------------------------------

_TODAY_PERIODS = {
    "en": r"this (?:morning|afternoon|evening)",
    "de": r"heute (?:morgen|fruh|vormittag|mittag|nachmittag|abend)",
    "es": r"esta (?:manana|tarde|noche)",
    "fr": r"ce (?:matin|soir)|cet apres-midi",
}
"""This morning / this afternoon: today."""
_MORNING_BEFORE = r"(?:la|esta|por la|de la|cada|toda la|una|en la|am|jeden|guten|heute|ce)\s\Z"
"""Before "mañana" / "Morgen", a determiner makes it the morning, not tomorrow."""
_LAST = {"en": "last", "de": "letzten|vergangenen|letzte", "es": "pasado", "fr": "dernier"}
_NEXT = {
    "en": "this|next|coming|this coming",
    "de": "diesen|nachsten|kommenden|diese|nachste|kommende",
    "es": "este|proximo|el proximo|que viene",
    "fr": "ce|prochain",
}
_HABIT_BEFORE = {"en": "", "de": "", "es": r"los\s", "fr": r"le\s|les\s|chaque\s"}
_SPAN_WORDS = r"to|through|thru|till|until|-|bis|a|al|hasta|au|et|and|y|und"
_RECURRING = re.compile(
    r"\s(?:of (?:each|every) month|of the month|de cada mes|de chaque mois|"
    r"jedes monats|eines jeden monats|im monat|del mes)"
)


@cache
def _regexes(langs: tuple[str, ...]) -> dict[str, re.Pattern[str]]:
    days = alternation(weekdays_plain(langs))
    last = "|".join(_LAST[lang] for lang in langs)
    nxt = "|".join(_NEXT[lang] for lang in langs)
    ordinal = alternation(ORDINAL_SUFFIXES)
    words = alternation(o for lang in langs for o in day_ordinals(lang))
    return {
        "relative": re.compile(rf"(?<![a-z])(?:{alternation(relative_days(langs))})(?![a-z'-])"),
        "today": re.compile(
            rf"(?<![a-z])(?:{'|'.join(_TODAY_PERIODS[lang] for lang in langs)})(?![a-z])"
        ),
        "weekday": re.compile(
            rf"(?<![a-z])(?:(?P<last1>{last})\s|(?P<next1>{nxt})\s)?(?:el\s)?"
            rf"(?P<wd>{days})(?:\s(?P<last2>{last})|\s(?P<next2>{nxt}))?(?![a-z])"
        ),
        "day": re.compile(
            rf"(?<![\w.,/:-])(?:(?P<n>\d{{1,2}})(?P<suffix>{ordinal})?(?P<dot>\.)?|(?P<w>{words}))"
            r"(?![\w%$€£/:-]|[.,]\d)"
        ),
    }


@cache
def weekdays_plain(langs: tuple[str, ...]) -> dict[str, int]:
    """Weekday names without the German adverbial -s ("samstags" is a habit)."""
    return {
        w: n
        for w, n in weekdays(langs).items()
        if not (w.endswith("s") and w[:-1] in weekdays(langs))
    }


# --- reading --------------------------------------------------------------------------------


def _value(day: date) -> tuple[int, bool, int, int]:
    return (day.year, False, day.month, day.day)


def calendar_dates(
    f: Folded, langs: tuple[str, ...], cal: Calendar | None, explicit: list[Found]
) -> list[Found]:
    """Dates read against ``cal`` (see the module doc); ``explicit`` are the dates the text
    writes out, which give a bare day its month and hide a weekday said with them."""
    if cal is None or cal.today is None:
        return []
    today = cal.today
    rx = _regexes(langs)
    found: list[Found] = []
    for m in rx["relative"].finditer(f.text):
        word = m.group()
        if word in ("manana", "morgen") and _is_morning(f, m.start()):
            continue
        offset = relative_days(langs)[word]
        found.append(Found(m.start(), m.end(), _value(today + timedelta(days=offset))))
    for m in rx["today"].finditer(f.text):
        found.append(Found(m.start(), m.end(), _value(today)))
    taken: list[tuple[int, int]] = []
    for m in rx["weekday"].finditer(f.text):
        reading = _weekday(f, m, langs, today, explicit, rx)
        if reading is not None:
            found.append(reading)
            taken.append((reading.start, reading.end))
    for m in rx["day"].finditer(f.text):
        if any(s <= m.start() < e for s, e in taken):
            continue
        found += _day_of_month(f, m, langs, cal, explicit)
    return found


def _is_morning(f: Folded, start: int) -> bool:
    """ "esta mañana", "por la mañana", "heute Morgen", "am Morgen": the morning; German
    "Morgen" capitalised inside a sentence is the noun."""
    if re.search(_MORNING_BEFORE, f.text[max(0, start - 12) : start]):
        return True
    if f.text[start : start + 6] == "morgen" and f.cased[start].isupper():
        head = f.text[max(0, start - 3) : start]
        return not (start == 0 or re.search(r"[.!?:\n]\s?\Z", head))
    return False


def _weekday(
    f: Folded,
    m: re.Match[str],
    langs: tuple[str, ...],
    today: date,
    explicit: list[Found],
    rx: dict[str, re.Pattern[str]],
) -> Found | None:
    wd = weekdays_plain(langs)[m.group("wd")]
    head = f.text[max(0, m.start() - 8) : m.start()]
    tail = f.text[m.end() : m.end() + 14]
    habit = "|".join(h for lang in langs if (h := _HABIT_BEFORE[lang]))
    if habit and re.search(rf"(?<![a-z])(?:{habit})\Z", head) and not re.match(r"\s?\d", tail):
        return None  # "le lundi", "los lunes": every Monday
    days = alternation(weekdays_plain(langs))
    span_after = re.match(rf"\s?(?:{_SPAN_WORDS})\s?(?:el\s)?(?:{days})(?![a-z])(?!\s\d)", tail)
    span_before = re.search(
        rf"(?:{days})\s?(?:{_SPAN_WORDS})\s?(?:el\s)?\Z", f.text[max(0, m.start() - 16) : m.start()]
    )
    if (span_after or span_before) and not re.match(r"\s\d", tail):
        return None  # "Monday to Friday", "du lundi au samedi" (not "al viernes 20")
    if any(0 <= e.start - m.end() <= 14 and _joins(f.text[m.end() : e.start]) for e in explicit):
        return None  # "Wednesday, 17 June": the written date says it
    day = rx["day"].match(f.text, m.end() + len(_gap(f.text, m.end())))
    if day and _day_number(day, langs) is not None and not _counted(f, day.end(), langs):
        number = _day_number(day, langs)
        assert number is not None
        near = _weekday_and_day(today, wd, number)
        if near is not None:
            return Found(m.start(), day.end(), _value(near))
    if m.group("last1") or m.group("last2"):
        back = (today.weekday() - wd) % 7 or 7
        return Found(m.start(), m.end(), _value(today - timedelta(days=back)))
    ahead = (wd - today.weekday()) % 7 or 7
    return Found(m.start(), m.end(), _value(today + timedelta(days=ahead)))


def _gap(text: str, at: int) -> str:
    """The separator between a weekday and its day number: ", the ", " den ", " "."""
    m = re.match(r",?\s(?:the\s|den\s|der\s|le\s|el\s)?", text[at:])
    return m.group() if m else ""


def _joins(between: str) -> bool:
    return re.fullmatch(r"[\s,]*(?:the\s|den\s|der\s|le\s|el\s|,)?[\s,]*", between) is not None


def _day_number(m: re.Match[str], langs: tuple[str, ...]) -> int | None:
    if m.group("n"):
        n = int(m.group("n"))
    else:
        word = m.group("w")
        n = next((o[word] for lang in langs if word in (o := day_ordinals(lang))), 0)
    return n if 1 <= n <= 31 else None


def _counted(f: Folded, end: int, langs: tuple[str, ...]) -> bool:
    """Whether a number is followed by a noun or unit it counts ("the 3rd floor", "18
    Monate", "el 20 aniversario"), which makes it no day of the month."""
    if re.match(r"\s?[%$€£]", f.text[end:]):
        return True
    nxt = re.match(r"\s([a-z][\w']*)", f.text[end:])
    return nxt is not None and nxt.group(1) not in function_words(langs)


def _weekday_and_day(today: date, wd: int, day: int) -> date | None:
    """The date near today (within a week back and three months ahead) that is day ``day``
    of its month and falls on weekday ``wd``."""
    year, month = today.year, today.month
    for step in range(-1, 4):
        y, mo = year + (month - 1 + step) // 12, (month - 1 + step) % 12 + 1
        if day <= calendar.monthrange(y, mo)[1]:
            d = date(y, mo, day)
            if d.weekday() == wd and d >= today - timedelta(days=7):
                return d
    return None


_BEFORE_DAY = {
    "en": r"(?:on|by|until|till|from|for|since|before|after|of|to)?\s?the",
    "de": r"am|den|dem|zum|vom|bis zum|ab dem|ab|bis|auf den",
    "es": r"el|del|al|el dia|del dia|al dia|hasta el|desde el|dia",
    "fr": r"le|du|au|jusqu'au|a partir du|des le",
}


def _day_of_month(
    f: Folded, m: re.Match[str], langs: tuple[str, ...], cal: Calendar, explicit: list[Found]
) -> list[Found]:
    """A day of the month said alone (see the module doc)."""
    number = _day_number(m, langs)
    if number is None or any(e.start <= m.start() < e.end for e in explicit):
        return []
    before = "|".join(_BEFORE_DAY[lang] for lang in langs)
    if not re.search(rf"(?<![a-z])(?:{before})\s\Z", f.text[max(0, m.start() - 14) : m.start()]):
        return []
    english = m.group("w") is not None or m.group("suffix") in ("st", "nd", "rd", "th")
    if langs[0] == "en" and m.group("n") and not english:
        return []  # "the 18" is rare; "the 3 options" common
    if langs[0] == "de" and m.group("n") and not m.group("dot"):
        return []  # German days of the month carry their dot: "am 18."
    if _counted(f, m.end(), langs) or _RECURRING.match(f.text, m.end()):
        return []
    if re.match(rf"\s?(?:of\s|de\s)?(?:{alternation(months(langs))})(?![a-z])", f.text[m.end() :]):
        return []  # "the 18th of March": the written date
    assert cal.today is not None
    month = _month_from_text(f, m, explicit, cal.today.year)
    readings: list[date] = []
    if month is not None:
        year, mo = month
        if number <= calendar.monthrange(year, mo)[1]:
            readings.append(date(year, mo, number))
    else:
        nearest = _coming(cal.today, number)
        if nearest is not None:
            readings.append(nearest)
        for named in cal.dates:
            if number <= calendar.monthrange(named.year, named.month)[1]:
                readings.append(date(named.year, named.month, number))
    readings = list(dict.fromkeys(readings))
    return [Found(m.start(), m.end(), _value(d), weak=i > 0) for i, d in enumerate(readings)]


def _coming(today: date, day: int) -> date | None:
    """Day ``day`` of this month if it is still to come, else of the next month that has
    it."""
    year, month = today.year, today.month
    for step in range(3):
        y, mo = year + (month - 1 + step) // 12, (month - 1 + step) % 12 + 1
        if day <= calendar.monthrange(y, mo)[1]:
            d = date(y, mo, day)
            if d >= today:
                return d
    return None


def _month_from_text(
    f: Folded, m: re.Match[str], explicit: list[Found], year: int
) -> tuple[int, int] | None:
    """(year, month) for a bare day from a date written next to it: one coordinated right
    after it ("du 12 au 19 juin", "vom 13. auf den 15. April") or the latest before it in
    the text ("le 1er mai et prélevée le 5")."""
    after = sorted((e for e in explicit if 0 <= e.start - m.end() <= 24), key=lambda e: e.start)
    between = f.text[m.end() : after[0].start].strip(" ,") + " " if after else ""
    if after and re.fullmatch(r"(?:[\w']+\s){0,3}", between.lstrip()):
        return _year_month(after[0], year)
    before = [e for e in explicit if e.end <= m.start()]
    if before:
        return _year_month(max(before, key=lambda e: e.end), year)
    return None


def _year_month(found: Found, year: int) -> tuple[int, int]:
    """(year, month) of a written date; one written without its year is in ``year``."""
    written, short, month, _ = cast(tuple[int | None, bool, int, int], found.value)
    return (2000 + written if short else written) if written else year, month
