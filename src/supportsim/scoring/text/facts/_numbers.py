"""Numbers in folded text, and the kinds that are a number with a unit: percent, duration
(money has its own module, ``_money``).

A number is read with every separator style of the languages in play ("1,234.50" in
English, "1.234,50" in German and Spanish, "1 234,50" in French, "1'234.50" in Swiss German);
where one reading covers a longer stretch than another ("1 234,50" against "1" and "234"),
the longer one wins, as a reader would see it. Money keeps at most two decimals, so
"1.234" in a German text is 1234, never 1.234.

Durations: a number in digits or words before a unit ("24 hours", "24h", "zwei Wochen",
"3 días", "a day", "an hour", "eine Woche"), halves ("half an hour", "anderthalb Stunden",
"una hora y media", "deux heures et demie"), and set phrases ("a couple of days", "a
fortnight", "quinze jours", "la próxima hora"). A range ("3-5 days", "2 à 3 jours",
"between 3 and 5 days") states no single duration. "a day" after an amount ("$10 a day") is
a rate, not a duration. An hour word that is also a clock word ("10 h", "14 heures", "2
horas") is a time of day where the sentence places it on the clock ("à 10 h", "a las 13 h")
and a duration where it measures ("d'ici 2 heures", "a 2 horas de", "2 heures avant").
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache
from typing import Literal

from supportsim.scoring.text.facts._text import Folded, Found, longest
from supportsim.scoring.text.facts._vocab import (
    DAY_QUALIFIERS,
    HALF_NUMBERS,
    SPOKEN_DURATIONS,
    alternation,
    duration_units,
    number_styles,
    percent_words,
)
from supportsim.scoring.text.facts._words import spoken_numbers

_BEFORE = r"(?<![\d_.,':/#])"  # a letter may precede: "CHF10" (codes are masked later)
_AFTER = r"(?!\d|[.,'/:]\d)"
Number = tuple[int, int, float]


@cache
def _number_regexes(
    langs: tuple[str, ...], money: bool
) -> tuple[tuple[re.Pattern[str], str, str], ...]:
    """(regex, group separator, decimal separator) per separator style."""
    found = []
    for group, decimal in sorted(number_styles(langs)):
        g, d = re.escape(group), re.escape(decimal)
        fraction = rf"{d}(?:\d{{1,2}}(?!\d)|-{{1,2}})" if money else rf"{d}\d+"
        body = rf"(?P<int>\d{{1,3}}(?:{g}\d{{3}})+|\d+)(?P<frac>{fraction})?"
        found.append((re.compile(_BEFORE + body + _AFTER), group, decimal))
    return tuple(found)


def numbers(text: str, langs: tuple[str, ...], *, money: bool = False) -> list[Number]:
    """Every number in ``text`` as (start, end, value), in every reading the languages
    allow, longest readings only."""
    readings: set[Number] = set()
    grouped: set[tuple[int, int]] = set()  # spans some style reads as digit groups
    thousandths: set[Number] = set()  # readings with exactly three decimals
    for regex, group, decimal in _number_regexes(langs, money):
        for m in regex.finditer(text):
            whole = m.group("int").replace(group, "")
            frac = (m.group("frac") or "").replace(decimal, ".").rstrip("-")
            reading = (m.start(), m.end(), float(whole + (frac if frac != "." else "")))
            readings.add(reading)
            if group in m.group("int"):
                grouped.add((m.start(), m.end()))
            if len(frac) == 4:
                thousandths.add(reading)
    # "1.000 Minuten" is a thousand minutes to a German reader, never one minute: where
    # one style reads digit groups, another style's three decimals are not a reading.
    readings -= {r for r in thousandths if (r[0], r[1]) in grouped}
    return [
        r
        for r in readings
        if not any(o[0] <= r[0] and r[1] <= o[1] and o[1] - o[0] > r[1] - r[0] for o in readings)
    ]


def amounts(f: Folded, langs: tuple[str, ...]) -> list[Number]:
    """Numbers in digits and in words ("24", "1,5", "vierundzwanzig", "treinta y cinco")."""
    return numbers(f.text, langs) + [
        (s.start, s.end, float(s.value)) for s in spoken_numbers(f.text, langs)
    ]


@cache
def _percent_regex(langs: tuple[str, ...]) -> re.Pattern[str]:
    words = "|".join(
        r"\s+".join(re.escape(p) for p in w.split(" ")) + (r"(?![a-z])" if w[-1].isalpha() else "")
        for w in percent_words(langs)
    )
    return re.compile(rf"(?P<half>\s(?:and a half|y medio|et demi|einhalb))?\s?-?(?:{words})")


def percents(f: Folded, langs: tuple[str, ...]) -> list[Found]:
    """Percentages: "10%", "10 %", "10,5 %", "10 percent", "zehn Prozent", "twelve and a
    half percent", "10 por ciento"."""
    regex = _percent_regex(langs)
    found = []
    for start, end, value in amounts(f, langs):
        m = regex.match(f.text, end)
        if m:
            found.append(Found(start, m.end(), value + (0.5 if m.group("half") else 0)))
    return found


# --- durations ------------------------------------------------------------------------------

HOUR_CLOCK_WORDS = frozenset({"h", "heure", "heures", "hora", "horas", "hrs", "hs", "hr"})
"""Hour words that also follow a time of day ("à 10 h", "a las 13 h", "1400 hrs")."""
_CLOCK_CUES = {
    "en": r"at|by|from|until|till|before|after",
    "de": r"um|gegen|ab|bis|vor|nach",
    "es": r"las|la",
    "fr": r"a|vers|des|jusqu'a|avant|apres|entre|partir de",
}
"""The word before an hour that puts it on the clock: "à 10 h", "a las 13 h", "um 14 h"."""
_MEASURE_AFTER = re.compile(
    r"\s?(?:avant|apres|plus tard|before|beforehand|later|earlier|vorher|fruher|spater|antes|"
    r"despues|mas tarde|max\w*|minimum|de (?:retard|delai|route|trajet|service|attente)|"
    r"d'(?:attente|avance)|de antelacion|de anticipacion|de la hora)(?![a-z])"
)
_HALF_AFTER = re.compile(r"\s(?:and a half|y media|y medio|et demie?|einhalb)(?![a-z])")
_HALF_INFIX = re.compile(r"\s(?:and a half|et demi|y medio)(?=\s)")
_HALF_WORDS = re.compile(rf"(?<![a-z])(?:{alternation(HALF_NUMBERS)})(?![a-z])")
_RANGE_BEFORE = re.compile(
    r"(?<![\w.,])(?P<prev>\d+(?:[.,]\d+)?|[a-z]+)"
    r"(?:\s?-\s?|\s(?:to|bis|a|al|au|or|o|ou|oder|and|und|y|et)\s)\Z"
)


_COUNT_HEADS = {
    "en": r"(?:an?|half an?|a half|(?:a )?couple of)\s",
    "de": r"(?!x)x",
    "es": r"un par de\s",
    "fr": r"(?:une )?demi-",
}
"""Words that count a unit without a number: "a day", "half an hour", "a couple of days",
"un par de días" (German and French articles are number words: "eine Woche", "une heure")."""


@cache
def _duration_regexes(langs: tuple[str, ...]) -> tuple[re.Pattern[str], re.Pattern[str]]:
    units = alternation(duration_units(langs))
    qualifiers = alternation(DAY_QUALIFIERS)
    heads = "|".join(f"(?:{_COUNT_HEADS[lang]})" for lang in langs)
    return (
        re.compile(rf"\s?-?\s?(?:(?:{qualifiers})\s)?(?P<unit>{units})\.?(?![a-z\d])"),
        re.compile(rf"(?<![a-z])(?P<head>{heads})(?P<unit>{units})(?![a-z\d])"),
    )


def _counted_in(head: str, unit: str, langs: tuple[str, ...]) -> bool:
    """Whether a counting head and its unit are words of one language ("a day", not the
    French "à jour")."""
    return any(
        re.fullmatch(_COUNT_HEADS[lang], head) and unit in duration_units((lang,)) for lang in langs
    )


HourReading = Literal["time", "duration", "time, perhaps duration"]


def hour_reading(f: Folded, start: int, end: int, unit: str, langs: tuple[str, ...]) -> HourReading:
    """What "N <hour word>" at ``[start, end)`` is (see the module doc): a clock cue before
    it makes a time; "before"/"avant"/"maximum" after it, a decimal or a number above 23
    an amount of time; with neither, French "h" is a time that may be an amount ("1 h"
    alone), any other hour word an amount."""
    m = re.match(r"\d[\d .,']*(?<! )|[a-z]+", f.text[start:end])
    if m and m.group()[0].isdigit() and not re.fullmatch(r"(?:[01]?\d|2[0-3])", m.group()):
        return "duration"  # "0,5 h", "48 h", "1 000 h"
    if _MEASURE_AFTER.match(f.text, end):
        return "duration"
    if m and m.group() in ("vingt-quatre", "vingt quatre"):
        return "duration"  # "vingt-quatre heures" measures; midnight is "minuit"
    before = f.text[max(0, start - 16) : start]
    cues = "|".join(_CLOCK_CUES[lang] for lang in langs)
    if re.search(rf"(?<![a-z'])(?:{cues})\s\Z", before):
        return "time"
    if re.search(r"(?<![a-z'])de\s\Z", before) and re.match(r"\s(?:a|jusqu'a)\s\w", f.text[end:]):
        return "time"  # "de 9 heures à 18 heures"
    return "time, perhaps duration" if unit == "h" and "fr" in langs[:1] else "duration"


def _is_range(f: Folded, start: int, langs: tuple[str, ...]) -> bool:
    """Whether the duration starting at ``start`` closes a range ("3-5 days", "2 à 3
    jours", "between three and five days")."""
    m = _RANGE_BEFORE.search(f.text, max(0, start - 32), start)
    if not m:
        return False
    prev = m.group("prev")
    if prev[0].isdigit():
        return True
    return any(s.end == m.end("prev") for s in spoken_numbers(f.text, langs))


def durations(f: Folded, langs: tuple[str, ...]) -> list[Found]:
    """Amounts of time with their unit(s) (see the module doc); the caller converts
    units ("a day" is 24 hours)."""
    unit_re, article_re = _duration_regexes(langs)
    units = duration_units(langs)
    found = []
    halves = [(m.start(), m.end(), HALF_NUMBERS[m.group()]) for m in _HALF_WORDS.finditer(f.text)]
    for start, end, value in amounts(f, langs) + halves:
        infix = _HALF_INFIX.match(f.text, end)
        if infix:
            value, end = value + 0.5, infix.end()
        m = unit_re.match(f.text, end)
        if not m or _is_range(f, start, langs):
            continue
        unit = m.group("unit")
        stop = m.end()
        half = _HALF_AFTER.match(f.text, stop)
        if half:
            value, stop = value + 0.5, half.end()
        reading = hour_reading(f, start, stop, unit, langs) if unit in HOUR_CLOCK_WORDS else None
        if reading == "time":
            continue
        if re.match(r"\s?\d{2}(?!\d)", f.text[m.end() :]) and unit in HOUR_CLOCK_WORDS:
            continue  # "14 h 30" is a time
        found.append(
            Found(
                start, stop, value, units[unit], weak=reading is not None and reading != "duration"
            )
        )
    for m in article_re.finditer(f.text):
        if re.search(r"(?:once|twice|times)\s\Z", f.text[max(0, m.start() - 8) : m.start()]):
            continue  # "twice a week": a rate ("$10 a day" is left to the caller)
        head = m.group("head")
        if not _counted_in(head, m.group("unit"), langs):
            continue
        value = (
            0.5
            if "half" in head or "demi" in head
            else 2.0
            if "couple" in head or "par" in head
            else 1.0
        )
        stop = m.end()
        half = _HALF_AFTER.match(f.text, stop)
        if half:
            value, stop = 1.5, half.end()
        found.append(Found(m.start(), stop, value, units[m.group("unit")]))
    idioms = []
    for m in _spoken_duration_regex(langs).finditer(f.text):
        amount, unit = _spoken_durations(langs)[m.group()]
        idioms.append(Found(m.start(), m.end(), float(amount), frozenset({unit})))
    # "quinze jours" is two weeks; the literal fifteen days is only a guess
    starts = {i.start for i in idioms}
    found = [replace(d, weak=True) if d.start in starts else d for d in longest(found)]
    return found + [i for i in idioms if not any(d.start < i.start < d.end for d in found)]


@cache
def _spoken_durations(langs: tuple[str, ...]) -> dict[str, tuple[float, str]]:
    return {k: v for lang in langs for k, v in SPOKEN_DURATIONS[lang].items()}


@cache
def _spoken_duration_regex(langs: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(rf"(?<![a-z])(?:{alternation(_spoken_durations(langs))})(?![a-z])")
