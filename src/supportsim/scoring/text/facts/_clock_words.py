"""Times of day said in words: "half past eleven", "quarter to three", "four thirty", "at
4", "halb elf", "Viertel nach drei nachmittags", "a las once y media", "las nueve menos
cuarto", "à onze heures", "deux heures et demie", "midi et demi", and the two ends of a
window ("between 8 and 12" on a morning, "entre huit heures et midi").

An hour said without a day period is placed in business hours, as a customer hears it: 7 to
11 in the morning, 12 at noon, 1 to 6 in the afternoon ("half past four" is 16:30, "at 9"
is 09:00); a day period after it places it ("a quarter to three this afternoon", "a las
cinco de la tarde", "huit heures du soir"). German "halb elf" is half an hour before eleven.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from supportsim.scoring.text.facts._numbers import hour_reading
from supportsim.scoring.text.facts._text import Folded, Found
from supportsim.scoring.text.facts._vocab import (
    day_period_words,
    day_periods,
    noon_midnight,
    period_key,
    weekdays,
)
from supportsim.scoring.text.facts._words import function_words, spoken_numbers

_DAY = 24 * 60
_HOUR = r"(?P<h>\d{1,2}|[a-zß]+)"
_MINUTE = r"(?P<m>\d{1,2}|[a-zß]+(?:[ -][a-zß]+)?)"
_PREFIX = (
    r"(?:this|tonight|today|tomorrow|in the|am|heute|morgen|esta|por la|en la|de la|del|du|"
    r"de l'|ce|cet|cette|demain|dans l')"
)
_EXTRA_PERIODS = {"tonight": ((1080, _DAY),), "abends": ((1080, _DAY),)}
"""Period words CLDR lacks in this form (a period alone is read by ``day_periods``)."""

# (regex over folded text, how its groups give hour and minute); the hour group may be a
# digit run or a number word, the minute group likewise
Pattern = tuple[re.Pattern[str], Callable[[int, int], tuple[int, int]]]


def _past(h: int, m: int) -> tuple[int, int]:
    return h, m


def _to(h: int, m: int) -> tuple[int, int]:
    return (h - 1) % 24 if h != 1 else 12, 60 - m


@cache
def _patterns(lang: str) -> tuple[tuple[re.Pattern[str], str], ...]:
    """(regex, form) per form of the language: form "past" (minutes after the hour),
    "to" (minutes before it), "half-before" (German "halb elf"), "at" (an hour alone)."""
    out: list[tuple[str, str]] = []
    if lang == "en":
        out += [
            (rf"(?:a )?(?P<q>quarter|half) (?:past|after) {_HOUR}", "past"),
            (rf"(?:a )?(?P<q>quarter) (?:to|till|of) {_HOUR}", "to"),
            (rf"{_MINUTE} (?:minutes )?(?:past|after) {_HOUR}", "past"),
            (rf"{_MINUTE} (?:minutes )?(?:to|till) {_HOUR}", "to"),
            (rf"(?<=\bat ){_HOUR} o'?clock", "at"),
            (rf"(?<=\bat ){_HOUR}(?: (?P<m2>thirty|fifteen|forty[ -]five|oh [a-z]+))?", "at"),
            (rf"{_HOUR} o'?clock", "at"),
        ]
    elif lang == "de":
        out += [
            (rf"(?P<q>viertel) nach {_HOUR}", "past"),
            (rf"(?P<q>viertel|dreiviertel) vor {_HOUR}", "to"),
            (rf"(?P<q>dreiviertel) {_HOUR}", "to-quarter"),
            (rf"halb {_HOUR}", "half-before"),
            (rf"{_MINUTE} nach {_HOUR}", "past"),
            (rf"{_MINUTE} vor {_HOUR}", "to"),
            (rf"{_HOUR} uhr(?: {_MINUTE})?", "at"),
            (rf"(?<=\bum ){_HOUR}", "at"),
        ]
    elif lang == "es":
        tail = (
            r"(?: (?:y (?P<q>media|cuarto)|menos (?P<q2>cuarto)"
            r"|y (?P<m>[a-z]+(?: y [a-z]+)?)|en punto))?"
        )
        out += [(rf"(?<=\blas ){_HOUR}{tail}", "es"), (rf"(?<=\bla )(?P<h>una){tail}", "es")]
    elif lang == "fr":
        tail = (
            r"(?: (?:et (?P<q>demie|quart)|moins (?:le )?(?P<q2>quart)"
            r"|moins (?P<mm>[a-z]+)|(?P<m>[a-z]+(?:[ -][a-z]+)?)))?"
        )
        out += [
            (rf"{_HOUR} (?P<unit>heures?|h){tail}", "fr"),
            (r"(?P<noon>midi|minuit)(?: et (?P<q>demie?|quart))?", "fr-noon"),
        ]
    return tuple(
        (re.compile(rf"(?<![a-zß\d'.:-]){p}(?![a-zß\d-]|[:.,]\d)"), form) for p, form in out
    )


def _number(token: str | None, f: Folded, at: int, langs: tuple[str, ...]) -> int | None:
    """The value of an hour or minute token: digits, or a number word spelled at ``at``."""
    if token is None:
        return None
    if token.isdigit():
        return int(token)
    for s in spoken_numbers(f.text, langs):
        if s.start == at and s.end == at + len(token):
            return s.value
    return None


@cache
def _period_regex(langs: tuple[str, ...]) -> re.Pattern[str]:
    words = "|".join(day_period_words(langs))
    return re.compile(rf"\s?,?\s?(?:{_PREFIX}\s)?(?P<p>{words}|tonight)(?![a-z])")


def _period(f: Folded, end: int, langs: tuple[str, ...]) -> tuple[tuple[int, int], ...] | None:
    """The minutes a day period right after ``end`` covers ("this afternoon", "de la
    tarde", "du soir", "nachmittags"), or None."""
    m = _period_regex(langs).match(f.text, end)
    if not m:
        return None
    key = period_key(m.group("p"))
    return day_periods(langs).get(key) or _EXTRA_PERIODS.get(key)


def business(hour: int) -> int:
    """An hour of the 12-hour clock said without a period, in business hours (1-6 pm)."""
    return hour + 12 if 1 <= hour <= 6 else hour


def _place(hour: int, minute: int, ranges: tuple[tuple[int, int], ...] | None) -> int:
    if ranges and 1 <= hour <= 12:
        options = [(hour % 12) * 60 + minute, (hour % 12 + 12) * 60 + minute]
        return min(options, key=lambda m: min(_gap(m, r) for r in ranges))
    if hour <= 12:
        return business(hour) * 60 + minute
    return hour * 60 + minute


def _gap(minute: int, span: tuple[int, int]) -> int:
    start, stop = span
    if start <= minute < stop:
        return 0
    return min(abs(minute - start), abs(minute - (stop - 1)))


def spoken_times(f: Folded, langs: tuple[str, ...]) -> list[Found]:
    """Times said in words (see the module doc), as "HH:MM"."""
    found: list[Found] = []
    for lang in langs:
        for regex, form in _patterns(lang):
            for m in regex.finditer(f.text):
                at = _read(m, form, f, langs)
                if at is not None:
                    found.append(Found(m.start(), at[1], f"{at[0] // 60:02d}:{at[0] % 60:02d}"))
    return found


def _read(m: re.Match[str], form: str, f: Folded, langs: tuple[str, ...]) -> tuple[int, int] | None:
    """(minute of the day, end) of one match, or None where it is no time."""
    groups = m.groupdict()
    end = m.end()
    if form == "fr-noon":
        base = noon_midnight(langs)[groups["noon"]]
        q = groups.get("q")
        return base + (30 if q and q.startswith("demi") else 15 if q else 0), end
    hour = _number(groups.get("h"), f, m.start("h"), langs)
    if hour is None or not 0 <= hour <= 24:
        return None
    q = groups.get("q") or groups.get("q2")
    minute = {"half": 30, "quarter": 15, "viertel": 15, "dreiviertel": 45}.get(q or "", 0)
    minute = {"media": 30, "cuarto": 15, "demie": 30, "quart": 15}.get(q or "", minute)
    if groups.get("m") and not q:
        value = _number(groups["m"], f, m.start("m"), langs)
        nxt = _WORD_AFTER.match(f.text, m.end("m"))
        counted = (
            nxt is not None
            and nxt.group(1) not in function_words(langs)
            and _period(f, m.end("m"), langs) is None
        )
        if value is not None and 0 <= value < 60 and not (counted and form not in ("past", "to")):
            minute = value
        elif form in ("past", "to"):
            return None
        else:  # "onze heures trente" is 11:30; "onze heures pour", "9 Uhr zwei Termine": 11, 9
            end = m.end("unit") if groups.get("unit") else m.end("h")
    if groups.get("m2"):
        m2 = groups["m2"]
        minute = 30 if m2 == "thirty" else 15 if m2 == "fifteen" else 45 if "forty" in m2 else 0
        if m2.startswith("oh "):
            value = _number(m2[3:], f, m.start("m2") + 3, langs)
            if value is None or not 0 < value < 10:
                return None
            minute = value
    if form in ("to", "to-quarter") or groups.get("q2") or groups.get("mm"):
        if groups.get("mm"):
            value = _number(groups["mm"], f, m.start("mm"), langs)
            if value is None:
                return None
            minute = value
        if form == "to-quarter":
            minute = 15
        hour, minute = _to(hour, minute)
    elif form == "half-before":
        hour, minute = (hour - 1) % 24 or 12, 30
    if form in ("at", "es", "fr") and not _is_clock(m, end, form, f, langs, minute):
        return None
    if not 0 <= hour <= 24 or (hour == 24 and minute):
        return None
    ranges = _period(f, end, langs)
    return _place(hour % 24 if hour != 12 else 12, minute, ranges) % _DAY, end


_WORD_AFTER = re.compile(r"\s([a-zß][\w']*)")


def _is_clock(
    m: re.Match[str], end: int, form: str, f: Folded, langs: tuple[str, ...], minute: int
) -> bool:
    """Whether an hour said alone ("at 4", "um elf", "a las nueve", "onze heures") is a
    time: not followed by a noun or unit ("at 4 locations", "las tres opciones"), and for
    French hours one the sentence puts on the clock ("à onze heures", not "deux heures")."""
    groups = m.groupdict()
    if form == "fr":  # "à onze heures et demie" is a time, "deux heures et demie" measures
        return hour_reading(f, m.start(), end, groups["unit"], langs) != "duration"
    if minute or groups.get("q") or "uhr" in m.group() or "clock" in m.group():
        return True
    nxt = _WORD_AFTER.match(f.text, end)
    if nxt and nxt.group(1) not in function_words(langs) and _period(f, end, langs) is None:
        return False
    return not re.match(r"\s?(?:[.,]\d|%|[$€£]|:\d|h\b)", f.text[end:])


_WINDOW = re.compile(
    r"(?<![a-z])(?:between|entre|zwischen|from|de|von|desde)\s(?:las\s)?"
    r"(?P<a>\d{1,2}|[a-z]+)(?:\s?h)?\s(?:and|et|y|und|to|a|bis|hasta)\s(?:las\s)?"
    r"(?P<b>\d{1,2}|[a-z]+)(?![\w:.,]\d)"
)
_PERIOD_NEAR = 40
"""A bare window ("between 8 and 12") is a time window when a day period or weekday is
said at most this many characters before it ("Saturday morning, between 8 and 12")."""


def windows(f: Folded, times: list[Found], langs: tuple[str, ...]) -> list[Found]:
    """The bare ends of time windows: "between 2 and 4 pm" (2 is 14:00), "from 9 to
    11:30", and "between 8 and 12" after a day period ("on Saturday morning")."""
    out: list[Found] = []
    for m in _WINDOW.finditer(f.text):
        ends = []
        for name in ("a", "b"):
            known = next((t for t in times if t.start == m.start(name)), None)
            value = _number(m.group(name), f, m.start(name), langs)
            ends.append((known, value))
        (ka, va), (kb, vb) = ends
        if (ka and kb) or (va is None and ka is None) or (vb is None and kb is None):
            continue
        if ka is None and kb is None:
            if not _period_before(f, m.start(), langs):
                continue
            nxt = _WORD_AFTER.match(f.text, m.end())
            if nxt and nxt.group(1) not in function_words(langs):
                continue  # "between 3 and 5 days"
        if ka is None:
            assert va is not None
            if kb is not None:
                b_at = _minutes(kb)
                at = _before(va, b_at)
            else:
                at = _place(va, 0, _period_before(f, m.start(), langs) or None)
            if at is not None:
                out.append(Found(m.start("a"), m.end("a"), _hhmm(at)))
                ka = out[-1]
        if kb is None and ka is not None:
            assert vb is not None
            at = _after(vb, _minutes(ka))
            if at is not None:
                out.append(Found(m.start("b"), m.end("b"), _hhmm(at)))
    return out


def _hhmm(at: int) -> str:
    return f"{at // 60:02d}:{at % 60:02d}"


def _minutes(found: Found) -> int:
    hour, minute = str(found.value).split(":")
    return int(hour) * 60 + int(minute)


def _before(hour: int, limit: int) -> int | None:
    """The reading of ``hour`` (h or h+12) latest before ``limit``."""
    options = [h * 60 for h in {hour, hour + 12} if h < 24 and h * 60 < limit]
    return max(options) if options and 0 <= hour <= 24 else None


def _after(hour: int, limit: int) -> int | None:
    """The reading of ``hour`` (h or h+12) earliest after ``limit``."""
    options = [h * 60 for h in {hour, hour + 12} if h <= 24 and h * 60 > limit]
    return min(options) % _DAY if options and 0 <= hour <= 24 else None


def _period_before(f: Folded, start: int, langs: tuple[str, ...]) -> tuple[tuple[int, int], ...]:
    """The minutes of a day period (or the business day, for a weekday) said just before
    ``start`` in the same sentence, or nothing."""
    head = f.text[max(0, start - _PERIOD_NEAR) : start]
    head = re.split(r"[.!?;]", head)[-1]
    periods = day_periods(langs)
    for word in reversed(re.findall(r"[a-z'-]+", head)):
        if word in periods and word not in ("am", "pm"):
            return periods[word]
    if any(w in weekdays(langs) for w in re.findall(r"[a-z]+", head)):
        return ((7 * 60, 19 * 60),)
    return ()
