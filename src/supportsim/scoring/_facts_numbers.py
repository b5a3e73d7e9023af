"""Numbers in folded text, and the kinds that are a number with a unit: money, percent,
duration.

A number is read with every separator style of the languages in play ("1,234.50" in
English, "1.234,50" in German and Spanish, "1 234,50" in French, "1'234.50" in Swiss German);
where one reading covers a longer stretch than another ("1 234,50" against "1" and "234"),
the longer one wins, as a reader would see it. Money keeps at most two decimals, so
"1.234" in a German text is 1234, never 1.234.
"""

from __future__ import annotations

import itertools
import re
from functools import cache

from supportsim.scoring._facts_text import Folded, Found, overlaps
from supportsim.scoring._facts_vocab import (
    DAY_QUALIFIERS,
    SPOKEN_DURATIONS,
    alternation,
    currency_symbols,
    currency_words,
    duration_units,
    number_styles,
    number_words,
    percent_words,
)

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


def _items(words: dict[str, frozenset[str]], letter: str) -> str:
    """Alternation where an entry ending in a letter must not run on into a word."""
    keyed = sorted(words, key=len, reverse=True)
    return "|".join(
        re.escape(w) + (rf"(?!{letter})" if re.match(letter, w[-1:]) else "") for w in keyed
    )


@cache
def _currency_regexes(langs: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    signs, codes = currency_symbols()
    words = currency_words(langs)
    return (
        re.compile(rf"(?:{_items(signs, '[a-z]')})\s?\Z"),
        re.compile(rf"(?<![A-Za-z])(?:{_items(codes, '[A-Za-z]')})\s?\Z"),
        re.compile(rf"\s?(?:{_items(signs, '[a-z]')})"),
        re.compile(rf"\s?(?:{_items(codes, '[A-Za-z]')})"),
        re.compile(rf"\s?-?(?:{_items(words, '[a-z]')})"),
    )


def _lookup(marker: str, table: dict[str, frozenset[str]]) -> frozenset[str]:
    return table.get(marker.strip().lstrip("-").strip(), frozenset())


def currency_near(
    f: Folded, start: int, end: int, langs: tuple[str, ...]
) -> tuple[frozenset[str], int, int]:
    """(codes, start, end): the currency marked right before or after ``[start, end)``
    ("$10", "USD 10", "10 €", "10 dollars"), with the range widened to include it."""
    signs, codes = currency_symbols()
    words = currency_words(langs)
    pre_sign, pre_code, post_sign, post_code, post_word = _currency_regexes(langs)
    found: set[str] = set()
    lo, hi = start, end
    for regex, text, table in ((pre_sign, f.text, signs), (pre_code, f.cased, codes)):
        m = regex.search(text, max(0, start - 8), start)
        if m:
            found |= _lookup(m.group(), table)
            lo = min(lo, m.start())
    for regex, text, table in (
        (post_sign, f.text, signs),
        (post_code, f.cased, codes),
        (post_word, f.text, words),
    ):
        m = regex.match(text, end)
        if m:
            found |= _lookup(m.group(), table)
            hi = max(hi, m.end())
            break
    return frozenset(found), lo, hi


_TOKEN = re.compile(r"(?<![\w-])\w+(?:-\w+)*|#\d+")


def _is_code(token: str) -> bool:
    if token.startswith("#"):
        return True
    parts = token.split("-")
    if any(re.search(r"[^\W\d]", p) and re.search(r"\d", p) for p in parts):
        return True  # "a1b2", "10am", "24h"
    pairs = list(itertools.pairwise("d" if p.isdigit() else "a" for p in parts))
    if ("a", "d") in pairs:
        return True  # "ch-1010"
    # "555-0123", "2026-03-10", "1-800-555" are codes; "5-10" is a range of two numbers
    return ("d", "d") in pairs and (len(parts) > 2 or max(map(len, parts)) > 2)


_GLUED = re.compile(r"([A-Za-z]*)\d+([A-Za-z]*)")


def id_like(f: Folded) -> list[tuple[int, int]]:
    """Tokens that are codes, not amounts: "ch-1010", "a1b2", "555-0123", "#10" (but
    "10-dollar" and "CHF10" are amounts)."""
    codes = currency_symbols()[1]
    spans = []
    for m in _TOKEN.finditer(f.text):
        glued = _GLUED.fullmatch(f.cased, *m.span())
        if glued and all(not g or g in codes for g in glued.groups()):
            continue
        if _is_code(m.group()):
            spans.append(m.span())
    return spans


def money(f: Folded, langs: tuple[str, ...], mask: list[tuple[int, int]]) -> list[Found]:
    """Amounts of money, bare ("10.00") or with a currency ("$10", "10,00 €", "10 dollars"),
    except numbers inside ``mask`` (dates, times, percentages, durations, codes)."""
    mask = mask + id_like(f)
    found = []
    for start, end, value in numbers(f.text, langs, money=True):
        if overlaps(mask, start, end):
            continue
        codes, lo, hi = currency_near(f, start, end, langs)
        if hi == end and end < len(f.text) and f.text[end].isalpha():
            continue  # "10th", "10x": a number run into a word is no amount
        if f.text[lo - 1 : lo] == "-" and not f.text[lo - 2 : lo - 1].isalnum():
            lo, value = lo - 1, -value  # "-$10", "-10,00 €" (but "5-10" is a range)
        found.append(Found(lo, hi, value, codes or None))
    # "fifteen dollars", "quince euros": a spelled-out amount counts only with its currency
    spoken = number_words(langs)
    for m in _duration_regexes(langs)[1].finditer(f.text):
        if overlaps(mask, m.start(), m.end()):
            continue
        codes, lo, hi = currency_near(f, m.start(), m.end(), langs)
        if codes and hi > m.end():
            found.append(Found(lo, hi, float(spoken[m.group("n")]), codes))
    return found


@cache
def _percent_regex(langs: tuple[str, ...]) -> re.Pattern[str]:
    words = "|".join(
        r"\s+".join(re.escape(p) for p in w.split(" ")) + (r"(?![a-z])" if w[-1].isalpha() else "")
        for w in percent_words(langs)
    )
    return re.compile(rf"\s?-?(?:{words})")


def percents(f: Folded, langs: tuple[str, ...]) -> list[Found]:
    """Percentages: "10%", "10 %", "10,5 %", "10 percent", "10 Prozent", "10 por ciento"."""
    regex = _percent_regex(langs)
    found = []
    for start, end, value in numbers(f.text, langs):
        m = regex.match(f.text, end)
        if m:
            found.append(Found(start, m.end(), value))
    return found


@cache
def _duration_regexes(langs: tuple[str, ...]) -> tuple[re.Pattern[str], re.Pattern[str]]:
    units = alternation(duration_units(langs))
    words = alternation(number_words(langs))
    return (
        re.compile(
            rf"\s?-?\s?(?:(?:{alternation(DAY_QUALIFIERS)})\s)?(?P<unit>{units})\.?(?![a-z\d])"
        ),
        re.compile(rf"(?<![a-z])(?P<n>{words})(?![a-z])"),
    )


def durations(f: Folded, langs: tuple[str, ...]) -> list[Found]:
    """Amounts of time with their unit: "24 hours", "24h", "24-hour", "1,5 Stunden",
    "zwei Wochen", "3 días". Units are never converted: "2 weeks" is not "14 days"."""
    unit_re, word_re = _duration_regexes(langs)
    units = duration_units(langs)
    spoken = number_words(langs)
    amounts = numbers(f.text, langs) + [
        (m.start(), m.end(), float(spoken[m.group("n")])) for m in word_re.finditer(f.text)
    ]
    found = []
    for start, end, value in amounts:
        m = unit_re.match(f.text, end)
        if m:
            found.append(Found(start, m.end(), value, units[m.group("unit")]))
    for m in _spoken_duration_regex(langs).finditer(f.text):
        amount, unit = _spoken_durations(langs)[m.group()]
        found.append(Found(m.start(), m.end(), float(amount), unit))
    return found


@cache
def _spoken_durations(langs: tuple[str, ...]) -> dict[str, tuple[float, str]]:
    return {k: v for lang in langs for k, v in SPOKEN_DURATIONS[lang].items()}


@cache
def _spoken_duration_regex(langs: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(rf"(?<![a-z])(?:{alternation(_spoken_durations(langs))})(?![a-z])")
