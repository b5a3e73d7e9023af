"""Locale vocabulary for the fact matchers, read from Babel's CLDR data (folded).

Month names, day periods and their hour ranges, number separators, currency symbols and
names, duration and percent unit words all come from Babel for each language and a few of
its regional variants (``en_GB`` writes "Sept" and "per cent", ``de_AT`` "Jänner", ``es_MX``
"1,234.50"). Only what CLDR does not have is written here: number words 1-12, ordinal
suffixes, the words that follow a clock hour ("Uhr", "o'clock") and a handful of forms
people use that CLDR lacks ("midday", German dative plurals, "hrs"). The tables are
shipped precomputed for every supported language (``_shipped``: Babel is not even imported
then) and built on first use for anything else, never at import.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from functools import cache
from typing import TYPE_CHECKING

from supportsim.scoring.text._shipped import shipped
from supportsim.scoring.text.facts._text import fold_word

if TYPE_CHECKING:
    from babel import Locale

LANGUAGES = ("en", "de", "es", "fr")

_VARIANTS = {
    "en": ("en", "en_GB", "en_AU", "en_CA"),
    "de": ("de", "de_AT", "de_CH"),
    "es": ("es", "es_MX", "es_419", "es_US"),
    "fr": ("fr", "fr_CA", "fr_CH", "fr_BE"),
}


ORDINAL_SUFFIXES = ("st", "nd", "rd", "th", "er", "re", "eme", "e", "o", "a", "°")
"""After a day number: 1st, 1er, 2e/2ème, 1º/1ª (NFKC makes º an "o")."""

CLOCK_WORDS = ("o'clock", "o clock", "uhr", "heures", "heure", "horas", "hrs", "hs", "h")
"""Words that make a bare hour a time of day: "14 Uhr", "2 o'clock", "14 h", "14 horas"."""

_EXTRA_NOON = ("midday", "mittag")
_EXTRA_MIDNIGHT = ("medianoche",)
_EXTRA_UNITS = {
    "en": {"hrs": "hours", "mins": "minutes", "wks": "weeks", "mos": "months"},
    "de": {
        "tagen": "days",
        "monaten": "months",
        "std": "hours",
        **{
            f"{kind}tag{end}": "days"
            for kind in ("werk", "arbeits", "geschafts")
            for end in ("", "e", "en")
        },
    },
    "es": {"hs": "hours", "hrs": "hours"},
    "fr": {"hrs": "hours", "mn": "minutes", "journee": "days", "journees": "days"},
}
DAY_QUALIFIERS = ("business", "working", "calendar", "banking")
"""Between an English number and its unit: "5 business days" states 5 days (Spanish and
French put theirs after the unit, "5 días hábiles", and German compounds, "5 Werktage")."""
_DURATION_UNITS = {
    "duration-minute": "minutes",
    "duration-hour": "hours",
    "duration-day": "days",
    "duration-week": "weeks",
    "duration-month": "months",
}
# Currencies whose names give words ("10 dollars", "10 Euro"): the ones support agents
# quote. Symbols and ISO codes are read for every current currency.
_NAMED_CURRENCIES = frozenset(
    {"USD", "EUR", "GBP", "JPY", "CHF", "CAD", "AUD", "NZD", "MXN", "BRL", "INR", "CNY"}
    | {"SEK", "NOK", "DKK", "PLN", "ARS", "CLP", "COP"}
)
_HEAD_LAST = {"en": True, "de": True, "es": False, "fr": False}
_DAY = 24 * 60


def languages_for(lang: str) -> tuple[str, ...]:
    """The languages a text in ``lang`` is read in: ``lang`` and English ("de-DE" -> de)."""
    primary = re.split(r"[-_]", lang.strip().lower(), maxsplit=1)[0] if lang else ""
    return (primary, "en") if primary in LANGUAGES and primary != "en" else ("en",)


EACH_LANGUAGE = tuple((lang,) for lang in LANGUAGES)
"""The arguments a per-language table is shipped for (``_shipped``): ("en",), ("de",) ..."""
READ_IN = tuple(dict.fromkeys((languages_for(lang),) for lang in LANGUAGES))
"""The arguments a table over ``langs`` is shipped for: each tuple ``languages_for`` gives."""


@cache
def _locale(name: str) -> Locale:
    from babel import Locale  # only when a table is built, not shipped

    return Locale.parse(name)


def _locales(langs: Iterable[str]) -> list[Locale]:
    return [_locale(v) for lang in langs for v in _VARIANTS[lang]]


def _names(loc: Locale, table: str) -> Iterator[tuple[object, str]]:
    """(key, name) of a CLDR name table (months, day periods) in the formatting and
    stand-alone contexts, wide and abbreviated (narrow forms are single letters)."""
    for context in ("format", "stand-alone"):
        for width in ("wide", "abbreviated"):
            yield from getattr(loc, table)[context][width].items()


def _periods(langs: tuple[str, ...]) -> Iterator[tuple[Locale, object, str]]:
    """(locale, period id, folded name) of the day periods worth reading: not single
    letters, not a unit word (Swiss French abbreviates midnight "min.", as in "10 min")."""
    units = duration_units(langs)
    for loc in _locales(langs):
        for pid, name in _names(loc, "day_periods"):
            folded = fold_word(name)
            key = period_key(folded)
            if len(key) >= 2 and key not in units:
                yield loc, pid, folded


@shipped(over=READ_IN)
def number_styles(langs: tuple[str, ...]) -> frozenset[tuple[str, str]]:
    """(group separator, decimal separator) pairs, folded: (",", "."), (".", ","), (" ", ",")."""
    styles = set()
    for loc in _locales(langs):
        symbols = loc.number_symbols["latn"]
        group = fold_word(symbols["group"]) or " "
        styles.add((group, fold_word(symbols["decimal"])))
    return frozenset(styles)


@shipped(over=READ_IN)
def months(langs: tuple[str, ...]) -> dict[str, int]:
    """Folded month name (wide and abbreviated, formatting and stand-alone, no trailing dot)
    -> month number."""
    found: dict[str, int] = {}
    for loc in _locales(langs):
        for number, name in _names(loc, "months"):
            found[fold_word(name).rstrip(".")] = int(number)  # type: ignore[call-overload]
    return found


@shipped(over=READ_IN)
def capitalised_months(langs: tuple[str, ...]) -> frozenset[str]:
    """Folded month names every locale capitalises ("may", "april", not "mai" or "mar"):
    written in lower case they are more likely another word ("$10 may apply")."""
    upper: set[str] = set()
    lower: set[str] = set()
    for loc in _locales(langs):
        for _, name in _names(loc, "months"):
            (upper if name[:1].isupper() else lower).add(fold_word(name).rstrip("."))
    return frozenset(upper - lower)


def _rule_ranges(rules: list[dict[str, int]]) -> list[tuple[int, int]]:
    ranges = []
    for rule in rules:
        if "at" in rule:
            ranges.append((rule["at"] // 60, rule["at"] // 60 + 1))
        elif "from" in rule and "before" in rule:
            start, stop = rule["from"] // 60, rule["before"] // 60
            ranges.extend([(start, _DAY), (0, stop)] if start > stop else [(start, stop)])
    return ranges


def period_key(text: str) -> str:
    """The lookup key of a day-period word: "p. m.", "p.m." and "pm" are one key."""
    return re.sub(r"[.\s]", "", text)


@shipped(over=READ_IN)
def day_periods(langs: tuple[str, ...]) -> dict[str, tuple[tuple[int, int], ...]]:
    """Day-period word key ("pm", "delatarde", "nachmittags") -> the minutes of the day it
    covers, from its own locale's day period rules (period ids mean different hours in
    different locales); a word used for several periods covers all of them."""
    found: dict[str, set[tuple[int, int]]] = defaultdict(set)
    halves = {"am": [(0, _DAY // 2)], "pm": [(_DAY // 2, _DAY)]}
    for loc, pid, folded in _periods(langs):
        rules = loc.day_period_rules.get(None, {}).get(pid)
        found[period_key(folded)].update(halves.get(str(pid)) or _rule_ranges(rules or []))
    return {k: tuple(sorted(v)) for k, v in found.items()}


def _period_regex(folded: str) -> str:
    """A regex for a folded day-period word: short ones ("am") allow dots and a space
    between letters ("a.m.", "a. m."), longer ones any single space where CLDR has one."""
    key = period_key(folded)
    if len(key) <= 2:
        return r"\.?\s?".join(re.escape(c) for c in key) + r"\.?"
    return r"\s?".join(re.escape(p) for p in folded.split(" "))


def _longest_first(word: str) -> tuple[int, str]:
    # Ties in a fixed order (the set's order changes with the process's hash seed), so the
    # shipped table is one text.
    return -len(word), word


@shipped(over=READ_IN)
def day_period_words(langs: tuple[str, ...]) -> tuple[str, ...]:
    """Regexes for every day-period word, longest first."""
    words = set()
    for _, _, folded in _periods(langs):
        words.add(_period_regex(folded))
    return tuple(sorted(words, key=_longest_first))


@shipped(over=READ_IN)
def noon_midnight(langs: tuple[str, ...]) -> dict[str, int]:
    """Folded word that alone names a time -> minute of the day: noon 720, midnight 0."""
    found = dict.fromkeys(_EXTRA_NOON, _DAY // 2) | dict.fromkeys(_EXTRA_MIDNIGHT, 0)
    minutes = {"noon": _DAY // 2, "midnight": 0}
    for _, pid, folded in _periods(langs):
        if pid in minutes:  # "del mediodía" in a sentence is "mediodía"
            found[re.sub(r"^(del|de la|du) ", "", folded)] = minutes[pid]
    return found


@shipped(over=[()])
def _current_currencies() -> frozenset[str]:
    from babel.numbers import get_territory_currencies

    codes: set[str] = set()
    for territory in _locale("en").territories:
        if isinstance(territory, str) and territory.isalpha():
            codes.update(get_territory_currencies(territory))
    return frozenset(codes)


@shipped(over=[()])
def currency_symbols() -> tuple[dict[str, frozenset[str]], dict[str, frozenset[str]]]:
    """Currency markers -> the ISO codes they may stand for, in every supported locale:
    (symbols with a non-letter, matched folded: "$", "us$", "€"; letter-only symbols and ISO
    codes, matched with their case: "USD", "CHF", "FCFA")."""
    signs: dict[str, set[str]] = defaultdict(set)
    codes: dict[str, set[str]] = defaultdict(set)
    for code in _current_currencies():
        codes[code].add(code)
    for loc in _locales(LANGUAGES):
        for code in _current_currencies():
            symbol = loc.currency_symbols.get(code)
            if symbol is None or symbol == code:
                continue
            cased = fold_word(symbol) if symbol.isalpha() else ""
            if cased:
                codes[symbol].add(code)
            else:
                signs[fold_word(symbol)].add(code)
    return (
        {k: frozenset(v) for k, v in signs.items()},
        {k: frozenset(v) for k, v in codes.items()},
    )


def _head_words(lang: str) -> dict[str, set[str]]:
    """Per currency name, its head noun: the word most currency names share ("dollars" in
    "US dollars", "dólares" in "dólares estadounidenses"), ties broken by where a noun
    phrase keeps its head in the language (last in en/de, first in es/fr)."""
    from babel.numbers import get_currency_name

    names: dict[str, set[str]] = defaultdict(set)
    for code in _current_currencies():
        for count in (None, 1, 2):
            for variant in _VARIANTS[lang]:
                names[code].add(fold_word(get_currency_name(code, count=count, locale=variant)))
    share: dict[str, set[str]] = defaultdict(set)
    for code, forms in names.items():
        for form in forms:
            for word in re.split(r"[\s-]+", form):
                share[word].add(code)
    heads: dict[str, set[str]] = defaultdict(set)
    for code in _NAMED_CURRENCIES:
        for form in names.get(code, ()):
            words = [w for w in re.split(r"[\s-]+", form) if len(w) >= 3]
            if _HEAD_LAST[lang]:
                words.reverse()  # head position first: max() keeps the first of equals
            if words:
                heads[max(words, key=lambda w: len(share[w]))].add(code)
            heads[form].add(code)
    return heads


@shipped(over=READ_IN)
def currency_words(langs: tuple[str, ...]) -> dict[str, frozenset[str]]:
    """Folded currency names and their head nouns -> ISO codes ("dollars" -> USD, CAD...),
    everyday names ("bucks") and the common codes typed in lower case ("40 usd")."""
    found: dict[str, set[str]] = defaultdict(set)
    for lang in langs:
        for word, codes in _head_words(lang).items():
            found[word].update(codes)
        for word, code in _INFORMAL_CURRENCY[lang].items():
            found[word].update(code.split())
    for code in _NAMED_CURRENCIES - {"COP"}:  # "40 usd" (but "cop" is a word)
        found[code.lower()].add(code)
    return {k: frozenset(v) for k, v in found.items()}


_INFORMAL_CURRENCY = {
    "en": {"bucks": "USD CAD AUD NZD", "buck": "USD CAD AUD NZD", "quid": "GBP"},
    "de": {"euronen": "EUR", "franken": "CHF", "stutz": "CHF"},
    "es": {"pavos": "EUR", "pesitos": "MXN ARS CLP COP"},
    "fr": {"balles": "EUR", "boules": "EUR", "piastres": "CAD"},
}
"""Everyday names for money CLDR has not ("thirty-five bucks", "zehn Franken")."""

_CENTS = "USD EUR CAD AUD NZD CHF"
CENT_WORDS: dict[str, dict[str, frozenset[str]]] = {
    "en": {
        "cents": frozenset(_CENTS.split()),
        "cent": frozenset(_CENTS.split()),
        "pence": frozenset({"GBP"}),
    },
    "de": {"cent": frozenset({"EUR"}), "cents": frozenset({"EUR"}), "rappen": frozenset({"CHF"})},
    "es": {
        "centimos": frozenset({"EUR"}),
        "centimo": frozenset({"EUR"}),
        "centavos": frozenset({"MXN", "USD", "ARS", "CLP", "COP"}),
        "centavo": frozenset({"MXN", "USD", "ARS", "CLP", "COP"}),
    },
    "fr": {
        "centimes": frozenset({"EUR", "CHF"}),
        "centime": frozenset({"EUR", "CHF"}),
        "cents": frozenset({"CAD", "EUR"}),
    },
}
"""Hundredths of a currency, folded: "50 cents", "neunzig Cent", "cincuenta céntimos"."""


@shipped(over=READ_IN)
def weekdays(langs: tuple[str, ...]) -> dict[str, int]:
    """Folded weekday name -> 0 (Monday) .. 6; German also with its adverbial -s
    ("montags"). Wide names only: the abbreviations are words too ("sat", "mer", "jeu")."""
    found: dict[str, int] = {}
    for loc in _locales(langs):
        for context in ("format", "stand-alone"):
            for number, name in loc.days[context]["wide"].items():
                word = fold_word(name)
                found[word] = int(number)
                if loc.language == "de":
                    found[word + "s"] = int(number)
    return found


_EXTRA_RELATIVE = {
    "en": {"the day after tomorrow": 2, "the day before yesterday": -2, "tonight": 0},
    "de": {},
    "es": {"antier": -2},
    "fr": {},
}


@shipped(over=READ_IN)
def relative_days(langs: tuple[str, ...]) -> dict[str, int]:
    """Folded relative day word -> offset in days, from CLDR ("mañana" +1, "hier" -1,
    "übermorgen" +2), plus the forms CLDR lacks ("the day after tomorrow", "tonight")."""
    out: dict[str, int] = {}
    for loc in _locales(langs):
        for offset, word in loc._data["date_fields"]["day"]["relative"].items():
            out[fold_word(word)] = int(offset)
    for lang in langs:
        out |= _EXTRA_RELATIVE[lang]
    return out


def _unit_words(loc: Locale, unit: str) -> set[str]:
    from babel.units import format_unit

    words = set()
    for length in ("long", "short", "narrow"):
        for amount in (1, 2, 5, 1.5):
            text = fold_word(format_unit(amount, unit, length=length, locale=loc))
            word = re.sub(r"[\d.,' ]*\d", "", text, count=1).strip().rstrip(".")
            if word:
                words.add(word)
    return words


@shipped(over=READ_IN + tuple((one,) for one in EACH_LANGUAGE))
def duration_units(langs: tuple[str, ...]) -> dict[str, frozenset[str]]:
    """Folded unit word ("stunden", "hrs", "j", "m") -> duration units it may mean ("m" is
    minutes in English and months in Spanish, so it means either)."""
    found: dict[str, set[str]] = defaultdict(set)
    for loc in _locales(langs):
        for unit, name in _DURATION_UNITS.items():
            for word in _unit_words(loc, unit):
                found[word].add(name)
    for lang in langs:
        for word, name in _EXTRA_UNITS[lang].items():
            found[word].add(name)
    return {k: frozenset(v) for k, v in found.items()}


@shipped(over=READ_IN)
def percent_words(langs: tuple[str, ...]) -> tuple[str, ...]:
    """Folded percent signs and words: "%", "percent", "per cent", "prozent", "pour cent"."""
    words = {fold_word(loc.number_symbols["latn"]["percentSign"]) for loc in _locales(langs)}
    for loc in _locales(langs):
        words |= _unit_words(loc, "concentr-percent")
    return tuple(sorted(words, key=_longest_first))


SPOKEN_DURATIONS: dict[str, dict[str, tuple[float, str]]] = {
    "en": {
        "a quarter of an hour": (15, "minutes"),
        "quarter of an hour": (15, "minutes"),
        "a quarter hour": (15, "minutes"),
        "three quarters of an hour": (45, "minutes"),
        "a fortnight": (2, "weeks"),
        "the next hour": (1, "hours"),
        "within the hour": (1, "hours"),
    },
    "de": {
        "viertelstunde": (15, "minutes"),
        "dreiviertelstunde": (45, "minutes"),
        "halbe stunde": (30, "minutes"),
        "halben stunde": (30, "minutes"),
        "halbstundig": (30, "minutes"),
        "nachsten stunde": (1, "hours"),
    },
    "es": {
        "cuarto de hora": (15, "minutes"),
        "tres cuartos de hora": (45, "minutes"),
        "media hora": (30, "minutes"),
        "proxima hora": (1, "hours"),
        "siguiente hora": (1, "hours"),
    },
    "fr": {
        "quart d'heure": (15, "minutes"),
        "trois quarts d'heure": (45, "minutes"),
        "demi-heure": (30, "minutes"),
        "demi heure": (30, "minutes"),
        "dans l'heure": (1, "hours"),
        "quinze jours": (2, "weeks"),
        "huit jours": (1, "weeks"),
    },
}
"""Durations said without a number, or whose number is an idiom ("quinze jours" is two
weeks), folded: CLDR has no such phrases."""
HALF_NUMBERS = {
    "anderthalb": 1.5,
    "eineinhalb": 1.5,
    "zweieinhalb": 2.5,
    "dreieinhalb": 3.5,
    "viereinhalb": 4.5,
}
"""German numbers with a half, written as one word ("anderthalb Stunden")."""


def alternation(words: Iterable[str]) -> str:
    """A regex alternation of literal words, longest first (so "mars" wins over "mar")."""
    return "|".join(re.escape(w) for w in sorted(set(words), key=len, reverse=True))
