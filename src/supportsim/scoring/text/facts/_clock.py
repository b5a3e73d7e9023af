"""Times of day and calendar dates in folded text.

Times: "14:00", "14.00", "14h30", "2 pm", "2:00 p. m.", "14 Uhr", "14 heures", "2 de la tarde",
"noon". A 12-hour hour followed by a day period ("2 in the afternoon", "2 nachmittags",
"11 de la noche") is placed with CLDR's day period rules: of h and h+12 the one the period
covers. A bare clock time ("2:00") is read on the 24-hour clock.

Dates: "2026-04-20", "20.04.", "20.04.2026", "20/04/2026", "4/20", "20 April", "April 20th",
"20th of April", "20. April", "el 20 de abril", "le 1er avril", "Apr 20", "20 avr.". Numeric
day/month order follows the language (month first in English only); the other order is
taken only when the first reading is impossible (20/04 in English is 20 April). Weekdays
are ignored.
"""

from __future__ import annotations

import calendar
import re
from functools import cache

from supportsim.scoring.text.facts._clock_words import spoken_times, windows
from supportsim.scoring.text.facts._money import currency_near
from supportsim.scoring.text.facts._numbers import HOUR_CLOCK_WORDS, hour_reading
from supportsim.scoring.text.facts._text import Folded, Found, longest
from supportsim.scoring.text.facts._vocab import (
    CLOCK_WORDS,
    ORDINAL_SUFFIXES,
    alternation,
    capitalised_months,
    day_period_words,
    day_periods,
    months,
    noon_midnight,
    period_key,
    weekdays,
)
from supportsim.scoring.text.facts._words import cardinals, day_ordinals

_DAY = 24 * 60


@cache
def _time_regexes(langs: tuple[str, ...]) -> tuple[re.Pattern[str], re.Pattern[str]]:
    periods = "|".join(day_period_words(langs))
    clock = alternation(CLOCK_WORDS)
    time = (
        r"(?:(?<![\w.,:/-])|(?<=\d:\d\d-))(?P<h>2[0-4]|[01]?\d)(?!\d)"
        r"(?:(?P<sep>[:.]|\s?h\s?)(?P<m>[0-5]\d)(?![\d]|[.,]\d)(?::[0-5]\d(?!\d))?)?"
        rf"(?:\s?(?P<clock>{clock})(?![a-z]))?"
        rf"(?:\s?(?P<period>{periods})(?![a-z]))?"
    )
    alone = rf"(?<![\w-])(?P<word>{alternation(noon_midnight(langs))})(?![\w-])"
    return re.compile(time), re.compile(alone)


def _distance(minute: int, ranges: tuple[tuple[int, int], ...]) -> int:
    best = _DAY
    for start, stop in ranges:
        if start <= minute < stop:
            return 0
        for edge in (start, stop - 1):
            gap = abs(minute - edge)
            best = min(best, gap, _DAY - gap)
    return best


def _place(hour: int, minute: int, ranges: tuple[tuple[int, int], ...] | None) -> int:
    """Minute of the day of ``hour:minute``, read against a day period's ranges."""
    if hour == 24:
        return minute
    if not ranges or not 1 <= hour <= 12:
        return hour * 60 + minute
    options = [(hour % 12) * 60 + minute, (hour % 12 + 12) * 60 + minute]
    return min(options, key=lambda m: _distance(m, ranges))


def times(f: Folded, langs: tuple[str, ...]) -> list[Found]:
    """Times of day as "HH:MM". Weak: "14.00" with nothing else saying it is a time."""
    time_re, alone_re = _time_regexes(langs)
    periods = day_periods(langs)
    found = []
    for m in time_re.finditer(f.text):
        hour, sep, clock, period = m.group("h", "sep", "clock", "period")
        minute = int(m.group("m") or 0)
        if sep is None and not (clock or period):
            continue  # a bare number
        if int(hour) == 24 and (sep != ":" or minute):
            continue  # "24:00" is midnight, "24h" a duration
        measured = sep is None and not period and clock in HOUR_CLOCK_WORDS
        if measured and hour_reading(f, m.start(), m.end(), clock, langs) == "duration":
            continue  # "d'ici 2 heures", "en 2 horas": an amount of time
        weak = sep == "." and not (clock or period)
        if weak and currency_near(f, m.start(), m.end(), langs)[0]:
            continue  # "$14.00" is an amount
        ranges = periods.get(period_key(period)) if period else None
        at = _place(int(hour), minute, ranges)
        found.append(Found(m.start(), m.end(), f"{at // 60:02d}:{at % 60:02d}", weak=weak))
    words = noon_midnight(langs)
    for m in alone_re.finditer(f.text):
        at = words[m.group("word")]
        found.append(Found(m.start(), m.end(), f"{at // 60:02d}:{at % 60:02d}"))
    found += spoken_times(f, langs)
    found += windows(f, found, langs)
    return longest(found)


# A date: (year or None, True when the year was written with two digits, month, day).
DateValue = tuple[int | None, bool, int, int]


@cache
def _date_regexes(langs: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    month = rf"(?<![a-z])(?P<mon>{alternation(months(langs))})(?![a-z])\.?"
    ordinal = rf"(?:{alternation(ORDINAL_SUFFIXES)})?"
    year = r"(?:\s?,?\s?(?:de\s|del\s)?(?P<y>\d{4})(?!\d))?"
    return (
        re.compile(
            r"(?<![\w.,/-])(?P<y>\d{4})(?P<s>[-/.])(?P<m>\d{1,2})(?P=s)(?P<d>\d{1,2})(?!\d)"
        ),
        re.compile(
            r"(?<![\w.,/:-])(?P<d>\d{1,2})\.\s?(?P<m>\d{1,2})\.(?:\s?(?P<y>\d{4}|\d{2})(?!\d))?"
        ),
        re.compile(
            r"(?<![\w.,/:-])(?P<a>\d{1,2})(?P<s>[/-])(?P<b>\d{1,2})"
            r"(?:(?P=s)(?P<y>\d{4}|\d{2}))?(?![\d/-]|[.,]\d)"
        ),
        re.compile(rf"(?<![\w.,/:-])(?P<d>\d{{1,2}}){ordinal}\.?\s?(?:of\s|de\s)?{month}{year}"),
        re.compile(rf"{month}\s?(?:the\s)?(?P<d>\d{{1,2}}){ordinal}(?![\w:]){year}"),
        re.compile(rf"(?<![a-z-])(?P<w>{_day_words(langs)})\s(?:of\s|de\s)?{month}{year}"),
        re.compile(rf"{month}\s(?:the\s)?(?P<w>{_day_words(langs)})(?![a-z-]){year}"),
    )


@cache
def _day_words(langs: tuple[str, ...]) -> str:
    """A regex for a day of the month in words: cardinals and ordinals 1-31 ("vingt-trois",
    "eighteenth", "achtzehnten", "primero"), hyphens and spaces alike."""
    words = {w for lang in langs for w, n in cardinals(lang).items() if 1 <= n <= 31}
    words |= {w for lang in langs for w in day_ordinals(lang)}
    ordered = sorted(words, key=len, reverse=True)
    return "|".join(r"[ -]".join(re.escape(p) for p in w.split(" ")) for w in ordered)


def _day_value(m: re.Match[str], langs: tuple[str, ...]) -> int:
    if m.groupdict().get("w") is None:
        return int(m.group("d"))
    key = re.sub(r"[ -]+", " ", m.group("w"))
    for lang in langs:
        value = cardinals(lang).get(key) or day_ordinals(lang).get(key)
        if value:
            return value
    return 0


def _valid(year: int | None, short: bool, month: int, day: int) -> bool:
    if not 1 <= month <= 12 or day < 1:
        return False
    full = 2024 if year is None else 2000 + year if short else year
    return day <= calendar.monthrange(full, month)[1]


_DATE_CUES = (
    r"(?:on|by|until|till|from|since|before|after|am|vom|zum|bis|ab|den|dem|el|del|al|hasta"
    r"|desde|le|du|au|jusqu'au|des|depuis)\s\Z"
)


def _dated(f: Folded, start: int, langs: tuple[str, ...]) -> bool:
    """Whether the words before ``start`` introduce a date ("on 18/03", "am 19.03.", a
    weekday): "20.04." or "4/20" there is a date, not an amount or a score."""
    head = f.text[max(0, start - 16) : start]
    if re.search(rf"(?<![a-z']){_DATE_CUES}", head):
        return True
    word = re.search(r"([a-z]+),?\s\Z", head)
    return word is not None and word.group(1) in weekdays(langs)


def dates(f: Folded, langs: tuple[str, ...]) -> list[Found]:
    """Calendar dates as (year | None, two-digit year, month, day). Weak (they may be
    something else): "20.04." and "4/20" without a year unless a date word comes before
    ("am 20.04.", "on 4/20"), and an English month name in lower case ("10 may apply")."""
    iso, dotted, slashed, day_first, month_first, words_first, month_words = _date_regexes(langs)
    names = months(langs)
    found: list[Found] = []

    def add(m: re.Match[str], year: str | None, month: int, day: int, weak: bool) -> bool:
        value: DateValue = (int(year) if year else None, bool(year and len(year) == 2), month, day)
        if _valid(*value):
            found.append(Found(m.start(), m.end(), value, weak=weak))
            return True
        return False

    for m in iso.finditer(f.text):
        add(m, m.group("y"), int(m.group("m")), int(m.group("d")), False)
    for m in dotted.finditer(f.text):
        weak = m.group("y") is None and not _dated(f, m.start(), langs)
        add(m, m.group("y"), int(m.group("m")), int(m.group("d")), weak)
    for m in slashed.finditer(f.text):
        a, b, y = int(m.group("a")), int(m.group("b")), m.group("y")
        if m.group("s") == "-" and y is None:
            continue  # "10-15" is a range, not a date
        first, second = ((a, b), (b, a)) if langs[0] == "en" else ((b, a), (a, b))
        weak = y is None and not _dated(f, m.start(), langs)
        add(m, y, *first, weak) or add(m, y, *second, weak)
    proper = capitalised_months(langs)
    for regex in (day_first, month_first, words_first, month_words):
        for m in regex.finditer(f.text):
            name = m.group("mon")
            weak = name in proper and f.cased[m.start("mon")].islower()
            add(m, m.group("y"), names[name], _day_value(m, langs), weak)
    return found
