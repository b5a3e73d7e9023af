"""Amounts of money in folded text: "$10", "10,00 €", "USD 10", "$1,250 MXN", "10 dollars",
"thirty-five bucks", "eleven dollars fifty", "zwölf Euro fünfzig", "doce euros con
cincuenta", "mille deux cent quarante-neuf euros et quatre-vingt-dix centimes", "50 cents".

An amount with a currency is a statement of money. A bare number ("10.00", "a credit of
10") is only a guess (``weak``): a reader told to look for that value may take it, a reader
listing what a message states does not. A bare whole number is no amount at all where it
is plainly something else: a count of a noun ("50 GB", "600 Mb", "3 articles"), a day of
the month ("the 18th", "el 20", "am 20."), a street or house number ("14 Birch Lane",
"Calle Mayor 21", "Musterstraße 4"), the end of a card or phone number ("ending 4421",
"900 123 456", "(512) 555-0187"), a name with a number ("Fiber 500"), a year or a postcode.
"""

from __future__ import annotations

import itertools
import re
from functools import cache

from supportsim.scoring.text.facts._numbers import numbers
from supportsim.scoring.text.facts._text import Folded, Found, overlaps
from supportsim.scoring.text.facts._vocab import (
    CENT_WORDS,
    alternation,
    currency_symbols,
    currency_words,
    weekdays,
)
from supportsim.scoring.text.facts._words import function_words, spoken_numbers

_BEFORE_DAY = {
    "en": ("the", "on", "by", "until", "till", "from", "since"),
    "de": ("am", "den", "dem", "zum", "vom", "bis", "ab", "der"),
    "es": ("el", "del", "al", "dia", "los"),
    "fr": ("le", "du", "au", "les", "jusqu'au"),
}
"""Words before a day of the month ("on the 18th", "am 18.", "el 18", "le 18")."""
_BEFORE_REFERENCE = (
    "ending",
    "ends",
    "number",
    "no",
    "nr",
    "nummer",
    "numero",
    "n",
    "auf",  # "endet auf 47"
    "termina",
    "terminada",
    "terminado",
    "par",  # "se terminant par 47"
    "en",  # "terminada en 4421"
)
"""Words before a number that names something rather than counts money."""
_STREET = re.compile(
    r"(?:\w+(?:stra(?:ss|ß)e|str|weg|allee|platz|gasse|ring|damm)|street|st|lane|road|rd|avenue|"
    r"ave|row|drive|dr|way|court|ct|place|calle|avenida|av|plaza|paseo|carrer|rue|boulevard|bd|"
    r"chemin|allee|impasse|quai|cours)"
)
"""A street word before a house number ("Musterstraße 4", "Calle Mayor 21" has its name
between: see ``_not_money``)."""


def _codes_table() -> tuple[dict[str, frozenset[str]], dict[str, frozenset[str]]]:
    return currency_symbols()


def _items(words: dict[str, frozenset[str]], letter: str) -> str:
    """Alternation where an entry ending in a letter must not run on into a word."""
    keyed = sorted(words, key=len, reverse=True)
    return "|".join(
        re.escape(w) + (rf"(?!{letter})" if re.match(letter, w[-1:]) else "") for w in keyed
    )


@cache
def _currency_regexes(langs: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    signs, codes = _codes_table()
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
    ("$10", "USD 10", "10 €", "10 dollars", "$1,250 MXN"), with the range widened to include
    it. Marked on both sides, the codes both allow (the code after if they share none:
    "$50.000 COP" is in pesos)."""
    signs, codes = _codes_table()
    words = currency_words(langs)
    pre_sign, pre_code, post_sign, post_code, post_word = _currency_regexes(langs)
    before: set[str] = set()
    after: set[str] = set()
    lo, hi = start, end
    for regex, text, table in ((pre_sign, f.text, signs), (pre_code, f.cased, codes)):
        m = regex.search(text, max(0, start - 8), start)
        if m:
            before |= _lookup(m.group(), table)
            lo = min(lo, m.start())
    for regex, text, table in (
        (post_sign, f.text, signs),
        (post_code, f.cased, codes),
        (post_word, f.text, words),
    ):
        m = regex.match(text, end)
        if m:
            after |= _lookup(m.group(), table)
            hi = max(hi, m.end())
            break
    both = before & after
    return frozenset(both or after or before), lo, hi


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
    codes = _codes_table()[1]
    spans = []
    for m in _TOKEN.finditer(f.text):
        glued = _GLUED.fullmatch(f.cased, *m.span())
        if glued and all(not g or g in codes for g in glued.groups()):
            continue
        if _is_code(m.group()):
            spans.append(m.span())
    return spans


_WORD_BEFORE = re.compile(r"([\w'.]+)[ ]?\Z")
_WORD_AFTER = re.compile(r"[ ]?([a-z][\w']*)")


def _not_money(f: Folded, start: int, end: int, langs: tuple[str, ...]) -> bool:
    """Whether a bare number at ``[start, end)`` is plainly no amount (see the module doc)."""
    text = f.text
    before = text[max(0, start - 3) : start]
    after = text[end : end + 3]
    if re.search(r"\d[ ]?\(?\Z|\+\Z", before) or re.match(r"\)?[ ]?\d", after):
        return True  # a run of digit groups: a phone or card number
    prev = _WORD_BEFORE.search(text, max(0, start - 40), start)
    prev_word = prev.group(1).rstrip(".") if prev else ""
    if prev_word in _BEFORE_REFERENCE or _STREET.fullmatch(prev_word):
        return True
    digits = text[start:end].lstrip("-")
    if not digits.isdigit():
        return False  # "10.00", "1,250": written as an amount
    if len(digits) >= 4:
        return True  # a year, a postcode, a reference
    nxt = _WORD_AFTER.match(text, end)
    if nxt and nxt.group(1) not in function_words(langs):
        return True  # "50 GB", "3 articles", "14 Birch Lane"
    if int(digits) <= 31 and (
        prev_word in {w for lang in langs for w in _BEFORE_DAY[lang]}
        or prev_word in weekdays(langs)
    ):
        return True  # a day of the month
    if prev and prev.start(1) > 0 and f.cased[prev.start(1)].isupper():
        ahead = text[max(0, prev.start(1) - 2) : prev.start(1)]
        if not re.search(r"[.!?:;\n]\s?\Z", ahead):
            return True  # "Fiber 500", "Calle Mayor 21": a name with a number
    return False


@cache
def _cents_regexes(langs: tuple[str, ...]) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(the tail after a currency: "fifty", "and 50 cents", "con cincuenta", "et
    quatre-vingt-dix centimes"; a cents word after a number)."""
    cents = alternation(w for lang in langs for w in CENT_WORDS[lang])
    joins = r"(?:,?\s(?:and|und|y|con|et)\s|\s)"
    return (
        re.compile(rf"{joins}(?P<n>[a-z\d][a-z\d -]*)"),
        re.compile(rf"\s?(?:{cents})(?![a-z])"),
    )


def _cent_codes(word: str, langs: tuple[str, ...]) -> frozenset[str]:
    for lang in langs:
        for w, codes in CENT_WORDS[lang].items():
            if w == word:
                return codes
    return frozenset()


def _cents_after(
    f: Folded, at: int, langs: tuple[str, ...], spoken: dict[int, tuple[int, int]]
) -> tuple[int, int] | None:
    """(cents, end) of a cents tail starting at ``at``: a number below 100, in digits or
    words, then a cents word, or nothing that makes it a count ("fifty per day" is cents,
    "5 days" is not)."""
    tail, cents_word = _cents_regexes(langs)
    m = tail.match(f.text, at)
    if not m:
        return None
    start = m.start("n")
    digits = re.match(r"\d{1,2}(?![\d.,])", f.text[start:])
    if digits:
        value, end = int(digits.group()), start + digits.end()
    elif start in spoken:
        value, end = spoken[start]
    else:
        return None
    if not 0 < value < 100:
        return None
    word = cents_word.match(f.text, end)
    if word:
        return value, word.end()
    nxt = _WORD_AFTER.match(f.text, end)
    if nxt and nxt.group(1) not in function_words(langs):
        return None
    return value, end


def money(f: Folded, langs: tuple[str, ...], mask: list[tuple[int, int]]) -> list[Found]:
    """Amounts of money with a currency, and bare numbers as weak amounts, except numbers
    inside ``mask`` (dates, times, percentages, durations) or codes."""
    mask = mask + id_like(f)
    spoken = {s.start: (s.value, s.end) for s in spoken_numbers(f.text, langs)}
    found = []
    amounts = [(s, e, v, False) for s, e, v in numbers(f.text, langs, money=True)]
    amounts += [(s, e, float(v), True) for s, (v, e) in spoken.items()]
    for start, end, value, in_words in amounts:
        if overlaps(mask, start, end):
            continue
        codes, lo, hi = currency_near(f, start, end, langs)
        if f.text[lo - 1 : lo] == "-" and not f.text[lo - 2 : lo - 1].isalnum():
            lo, value = lo - 1, -value  # "-$10", "-10,00 €" (but "5-10" is a range)
        if not codes:
            cents = _cents_word(f, start, end, value, langs)
            if cents is not None:
                found.append(cents)
                continue
            if in_words or (hi == end and end < len(f.text) and f.text[end].isalpha()):
                continue  # "one moment"; "10th", "10x": a number run into a word
            if _not_money(f, lo, end, langs):
                continue
            found.append(Found(lo, end, value, None, weak=True))
            continue
        if hi > end and float(value).is_integer():
            tail = _cents_after(f, hi, langs, spoken)
            if tail is not None:
                value, hi = value + tail[0] / 100, tail[1]
        found.append(Found(lo, hi, value, codes))
    # "12 euros 50": the cents are part of the amount, not an amount of their own
    return [
        a
        for a in found
        if not any(b is not a and b.start <= a.start and a.end <= b.end for b in found)
    ]


def _cents_word(
    f: Folded, start: int, end: int, value: float, langs: tuple[str, ...]
) -> Found | None:
    """ "50 cents", "fifty cents", "99 Cent", "50p": an amount below one unit."""
    if not (float(value).is_integer() and 0 < value < 100):
        return None
    m = _cents_regexes(langs)[1].match(f.text, end)
    if not m:
        return None
    codes = _cent_codes(m.group().strip(), langs)
    return Found(start, m.end(), value / 100, codes or None)
