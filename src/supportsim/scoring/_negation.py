"""Clauses and negation: is a mention in an Agent message said, or said *not* to be so?

A forbidden disclosure such as "fast before the test" must not be tripped by "no hace falta
ir en ayunas" or "you don't need to fast". The rule is deliberately local and explainable:
a negator in the same clause, at most a few words before the mention (or a "... is not
necessary" right after it), negates it. Clauses end at sentence punctuation, line breaks
and contrast words ("but", "aber", "pero", "mais"), so a "no" one sentence earlier does not
count. All matching runs on text folded with accents stripped (``fold(accents=True)``).
"""

from __future__ import annotations

import re
from functools import cache

from supportsim.scoring._span import Span
from supportsim.scoring._text import fold

WINDOW_WORDS = 6
"""Negators count up to this many words before the mention."""
AFTER_WORDS = 3
"""A trailing "is not necessary" may start at most this many words after the mention."""

# Regex fragments over folded, accent-stripped text. Whole words unless they say otherwise.
_NEGATORS: dict[str, tuple[str, ...]] = {
    "en": (
        r"not",
        r"no",
        r"never",
        r"cannot",
        r"without",
        r"neither",
        r"nor",
        r"none",
        r"\w+n't",
        r"(?:dont|doesnt|didnt|isnt|arent|wasnt|werent|shouldnt|mustnt|neednt|wont)",
        r"unable",
        r"refuse\w*",
        r"decline\w*",
    ),
    "de": (
        r"nicht",
        r"kein\w*",
        r"nie",
        r"niemals",
        r"ohne",
        r"weder",
        r"keinesfalls",
        r"unmoglich",
    ),
    "es": (
        r"no",
        r"nunca",
        r"jamas",
        r"sin",
        r"ni",
        r"tampoco",
        r"ningun\w*",
        r"innecesari\w*",
    ),
    "fr": (r"ne", r"n'(?!importe)", r"pas", r"jamais", r"sans", r"aucun\w*", r"ni", r"inutile"),
}

# "No, you need to fast": an answer, not a negation of what follows the comma.
_INTERJECTIONS = r"(?:no|nope|nein|non)\s?,"

# Said after the mention: "fasting is not necessary", "ayunar no es necesario".
_AFTER: dict[str, tuple[str, ...]] = {
    "en": (
        r"(?:is |are )?(?:not|n't) (?:necessary|needed|required|mandatory)",
        r"(?:isn't|aren't|is not|are not) (?:necessary|needed|required|mandatory)",
        r"(?:is |are )?unnecessary",
    ),
    "de": (
        r"(?:ist |sind )?nicht (?:notig|notwendig|erforderlich|vorgeschrieben|pflicht)",
        r"(?:ist |sind )?(?:unnotig|keine pflicht)",
        r"entfallt",
    ),
    "es": (
        r"no (?:es|son) (?:necesari\w*|obligatori\w*)",
        r"no hace falta",
        r"no se (?:requiere|necesita)",
        r"(?:es |son )?innecesari\w*",
    ),
    "fr": (
        r"(?:n'est|ne sont) pas (?:necessaire|obligatoire|requis)\w*",
        r"pas (?:necessaire|obligatoire)\w*",
        r"(?:est )?inutile",
    ),
}

CLAUSE_WORDS: dict[str, tuple[str, ...]] = {
    "en": ("but", "however", "although", "though", "whereas"),
    "de": ("aber", "jedoch", "sondern", "allerdings", "dagegen"),
    "es": ("pero", "sino", "sin embargo", "aunque", "mientras que"),
    "fr": ("mais", "cependant", "toutefois", "pourtant", "alors que"),
}
"""Contrast words that start a new clause, per language (folded, accents stripped)."""

_PUNCTUATION = r"[.;!?]+(?=\s|$|[\"')])|[\u00a1\u00bf]"  # and Spanish ¡ ¿ open a clause


def _languages(lang: str) -> tuple[str, ...]:
    """The language itself and English (Agents mix in English words; find_concept does)."""
    return (lang, "en") if lang in _NEGATORS and lang != "en" else ("en",)


def _words(fragments: tuple[str, ...]) -> str:
    return r"(?<![\w'])(?:" + "|".join(fragments) + r")(?![\w'])"


@cache
def _clause_break(lang: str, contrast: bool = True) -> re.Pattern[str]:
    if not contrast:
        return re.compile(_PUNCTUATION)
    words = [w for code in _languages(lang) for w in CLAUSE_WORDS[code]]
    return re.compile(_PUNCTUATION + "|" + _words(tuple(re.escape(w) for w in words)))


@cache
def _negator(lang: str) -> re.Pattern[str]:
    return re.compile(_words(tuple(f for code in _languages(lang) for f in _NEGATORS[code])))


@cache
def _after(lang: str) -> re.Pattern[str]:
    return re.compile(_words(tuple(f for code in _languages(lang) for f in _AFTER[code])))


def clauses(folded: str, lang: str, *, contrast: bool = True) -> list[tuple[int, int]]:
    """``[start, end)`` ranges of the clauses of one line of folded text (of its sentences,
    with ``contrast=False``: then "but" and the like do not split)."""
    ranges, start = [], 0
    for m in _clause_break(lang, contrast).finditer(folded):
        if m.start() > start:
            ranges.append((start, m.start()))
        start = m.end()
    if start < len(folded):
        ranges.append((start, len(folded)))
    return ranges


def _clause_tail(folded: str, lang: str) -> str:
    """The part of ``folded`` after its last clause break."""
    ends = [m.end() for m in _clause_break(lang).finditer(folded)]
    return folded[ends[-1] :] if ends else folded


def _negated_before(before: str, lang: str) -> bool:
    tail = _clause_tail(before, lang)
    words = list(re.finditer(r"[\w']+", tail))
    if not words:
        return False
    window = tail[words[max(0, len(words) - WINDOW_WORDS)].start() :]
    answers = {m.start() for m in re.finditer(r"(?<![\w'])" + _INTERJECTIONS, window)}
    return any(m.start() not in answers for m in _negator(lang).finditer(window))


def _negated_after(after: str, lang: str) -> bool:
    head = after[: m.start()] if (m := _clause_break(lang).search(after)) else after
    for found in _after(lang).finditer(head):
        between = head[: found.start()]
        if "," not in between and len(re.findall(r"[\w']+", between)) <= AFTER_WORDS:
            return True
    return False


def negated(text: str, span: Span, lang: str) -> bool:
    """Whether the mention at `span` is negated in its clause: a negator (not, no, never,
    n't, don't need, no need, without, nicht, kein*, nie, ohne, no, nunca, sin, no hace
    falta, ne ... pas, pas, jamais, sans, ...) within the same clause (stop at . ; ! ? and
    at "but"/"aber"/"pero"/"mais") up to ~5 words before the span, or a "... is not
    necessary" (ist nicht nötig, no es necesario, n'est pas nécessaire) right after it.

    Negators of ``lang`` and of English count; an unknown ``lang`` uses English alone.
    """
    line_start = text.rfind("\n", 0, span.start) + 1
    line_end = text.find("\n", span.end)
    before = fold(text[line_start : span.start], accents=True)[0]
    after = fold(text[span.end : None if line_end < 0 else line_end], accents=True)[0]
    return _negated_before(before, lang) or _negated_after(after, lang)
