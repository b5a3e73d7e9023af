"""Numbers written in words, read out of folded text: "thirty-five", "twelve", "zwölf",
"vierundzwanzig", "treinta y cinco", "mille deux cent quarante-neuf", and day ordinals
("the eighteenth", "am achtzehnten", "le premier").

Every cardinal from 0 to 999 is spelled by num2words in each language (with and without
English "and", hyphens read as spaces), a thousands word joins two of them ("one thousand,
two hundred", "mil doscientos", "eintausendzweihundert"), and the scan takes the longest run
of words that spells one number. Babel has no spell-out rules; num2words does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache

from supportsim.scoring.text._shipped import shipped
from supportsim.scoring.text.facts._text import fold_word
from supportsim.scoring.text.facts._vocab import EACH_LANGUAGE

MAX_WORDS = 7
"""Longest spelled number below a thousand, in words ("two hundred and forty five" is 5)."""

_WORD = re.compile(r"[a-z\u00df]+")
_THOUSAND = {"en": ("thousand",), "de": ("tausend",), "es": ("mil",), "fr": ("mille", "mil")}
_EXTRA = {
    "en": {"a hundred": 100, "zero": 0},
    "de": {"ein": 1, "eine": 1, "einen": 1, "einem": 1, "einer": 1, "null": 0},
    "es": {"un": 1, "una": 1, "cero": 0},
    "fr": {"une": 1, "zero": 0},
}
"""Forms num2words does not give (the article forms of one: "eine Woche", "una hora")."""


@dataclass(frozen=True, slots=True)
class Spoken:
    """A number in words: its folded range and value."""

    start: int
    end: int
    value: int


def _key(text: str) -> str:
    return " ".join(_WORD.findall(fold_word(text).replace("-", " ")))


@shipped(over=EACH_LANGUAGE)
def cardinals(lang: str) -> dict[str, int]:
    """Folded spelling (words joined by one space) -> value, 0-999."""
    from num2words import num2words  # loaded on first use

    out: dict[str, int] = {}
    for n in range(1000):
        spelled = _key(num2words(n, lang=lang))
        out[spelled] = n
        if lang == "en":
            out[spelled.replace(" and ", " ")] = n
    for word, n in _EXTRA[lang].items():
        out.setdefault(word, n)
    return out


@shipped(over=EACH_LANGUAGE)
def day_ordinals(lang: str) -> dict[str, int]:
    """Folded ordinal of a day of the month -> 1..31 ("eighteenth", "achtzehnten",
    "primero", "premier"); German ordinals with their case endings."""
    from num2words import num2words

    out: dict[str, int] = {}
    for n in range(1, 32):
        word = _key(num2words(n, lang=lang, to="ordinal"))
        out[word] = n
        if lang == "de":
            for end in ("n", "r", "s", "m"):
                out[word + end] = n
    if lang == "es":
        out["primer"] = 1
    if lang == "fr":
        out["premiere"] = 1
    return out


@shipped(over=EACH_LANGUAGE)
def _prefixes(lang: str) -> frozenset[str]:
    """Every leading run of words of a spelled number ("two", "two hundred", ...)."""
    out: set[str] = set()
    for key in cardinals(lang):
        words = key.split(" ")
        out.update(" ".join(words[:n]) for n in range(1, len(words) + 1))
    return frozenset(out)


def _words(text: str) -> list[re.Match[str]]:
    return list(_WORD.finditer(text))


@lru_cache(maxsize=2048)
def spoken_numbers(text: str, langs: tuple[str, ...]) -> tuple[Spoken, ...]:
    """Every number spelled out in folded ``text``, longest readings only."""
    words = _words(text)
    found: list[Spoken] = []
    for lang in langs:
        found += _scan(text, words, lang)
    found.sort(key=lambda s: (s.start, -s.end))
    out: list[Spoken] = []
    for s in found:
        if out and s.start < out[-1].end:
            continue
        out.append(s)
    return tuple(out)


def _below_thousand(
    text: str, words: list[re.Match[str]], i: int, lang: str
) -> tuple[int, int] | None:
    """(value, words used) of the longest number below 1000 starting at word i, its words
    apart by a space or a hyphen only."""
    table, prefixes = cardinals(lang), _prefixes(lang)
    key = words[i].group()
    best = (table[key], 1) if key in table else None
    j = i + 1
    while key in prefixes and j < len(words) and j - i < MAX_WORDS:
        if text[words[j - 1].end() : words[j].start()] not in (" ", "-"):
            break
        key = f"{key} {words[j].group()}"
        j += 1
        if key in table:
            best = (table[key], j - i)
    return best


def _glued_thousands(word: str, lang: str) -> int | None:
    """German "eintausendzweihundert": thousands and the rest in one word."""
    if lang != "de" or "tausend" not in word:
        return None
    head, _, tail = word.partition("tausend")
    table = cardinals(lang)
    high = table.get(head, None) if head else 1
    low = table.get(tail, None) if tail else 0
    if high is None or low is None or high == 0:
        return None
    return high * 1000 + low


def _scan(text: str, words: list[re.Match[str]], lang: str) -> list[Spoken]:
    out: list[Spoken] = []
    i = 0
    while i < len(words):
        glued = _glued_thousands(words[i].group(), lang)
        if glued is not None:
            out.append(Spoken(words[i].start(), words[i].end(), glued))
            i += 1
            continue
        head = _below_thousand(text, words, i, lang)
        value, used = head if head else (1, 0)  # "mille", "mil": a thousand alone
        k = i + used
        if k < len(words) and words[k].group() in _THOUSAND[lang]:
            sep = text[words[k - 1].end() : words[k].start()] if used else " "
            if sep in (" ", "-"):
                value, k = value * 1000, k + 1
                if k < len(words) and text[words[k - 1].end() : words[k].start()] in (" ", ", "):
                    rest = _below_thousand(text, words, k, lang)
                    if rest is not None:
                        value, k = value + rest[0], k + rest[1]
        if k == i:
            i += 1
            continue
        out.append(Spoken(words[i].start(), words[k - 1].end(), value))
        i = k
    return out


_FUNCTION = {
    "en": "a an the and or but so nor to of for in on at by with from into onto as per than"
    " then is are was were be been being will would can could may might must shall should"
    " has have had do does did it its this that these those there here which who whom whose"
    " what when where if once until till before after since while each every all both only"
    " just also too now today tonight tomorrow yesterday back off more less extra total in"
    " instead please you your yours we our i me my he she they them their his her us"
    " not no never including included plus minus",
    "de": "der die das den dem des ein eine einen einem einer eines und oder aber sondern denn"
    " zu zum zur von vom im in am an auf aus bei mit nach seit bis fur uber unter vor hinter um"
    " neben zwischen ist sind war waren wird werden wurde wurden hat haben hatte hatten kann"
    " konnen muss mussen soll sollen darf durfen mochte es sie er wir ich ihr ihnen ihre ihr"
    " ihren ihrem uns mir mich dich dir sich dies diese dieser dieses dann als wie wenn falls"
    " sobald ob dass noch schon nur auch pro je zuruck mehr weniger insgesamt heute morgen"
    " gestern nicht kein keine inklusive zzgl inkl",
    "es": "el la los las lo un una unos unas y e o u pero sino a al de del en con por para"
    " sin sobre entre hasta desde hacia tras ante es son era eran fue fueron sera seran ha"
    " han habia hay esta estan estaba se le les me te nos su sus mi mis tu tus que quien"
    " cual cuando donde como si ya mas menos solo tambien cada por hoy manana ayer no ni"
    " incluido incluidos total",
    "fr": "le la les l un une des du de d et ou mais donc or ni car a au aux en dans par pour"
    " sur sous avec sans chez vers entre depuis jusqu avant apres est sont etait etaient sera"
    " seront a ont avait avaient se sa son ses leur leurs vous nous il elle ils elles je me"
    " te lui y qui que quand ou comme si deja plus moins seulement aussi chaque par"
    " aujourd hui demain hier ne pas non inclus total",
}


@cache
def function_words(langs: tuple[str, ...]) -> frozenset[str]:
    """Closed-class words (articles, prepositions, conjunctions, auxiliaries, pronouns and a
    few adverbs), folded: a number followed by one of them is not a count of some noun
    ("10 for you" may be an amount, "10 GB" and "3 articles" are not)."""
    return frozenset(w for lang in langs for w in _FUNCTION[lang].split())
