"""Clauses and negation: is a mention in an Agent message said, or said *not* to be so?

A forbidden disclosure such as "fast before the test" must not be tripped by "no hace falta
ir en ayunas" or "you don't need to fast". The rule is deliberately local and explainable:
a negator in the same clause, at most a few words before the mention (or a "... is not
necessary" / "... has been waived" right after it), negates it; so does an offer or a
question about doing it ("would you like a refund?", "soll ich stornieren?"), which states
nothing done. Set phrases that hold a negator ("no worries", "keine Sorge", "no se
preocupe", "ne ... que") negate nothing. Clauses end at sentence punctuation, line breaks,
contrast and cause words ("but", "because", "aber", "porque", "car") and a comma before a
first-person subject ("..., ich habe ihn abgesagt"), so a "no" one sentence earlier does
not count. All matching runs on text folded with accents stripped (``fold(accents=True)``).
"""

from __future__ import annotations

import re
from functools import cache

from supportsim.scoring._span import Span
from supportsim.scoring._text import fold

WINDOW_WORDS = 8
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
        r"nothing",
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
        r"nichts",
        r"ohne",
        r"weder",
        r"keinesfalls",
        r"unmoglich",
    ),
    "es": (
        r"no",
        r"nunca",
        r"nada",
        r"jamas",
        r"sin",
        r"ni",
        r"tampoco",
        r"ningun\w*",
        r"innecesari\w*",
    ),
    "fr": (
        r"ne",
        r"n'(?!importe)",
        r"pas",
        r"jamais",
        r"rien",
        r"sans",
        r"aucun\w*",
        r"ni",
        r"inutile",
    ),
}

# "No, you need to fast": an answer, not a negation of what follows the comma.
_INTERJECTIONS = r"(?:no|nope|nein|non)\s?,"

# Offers and questions about doing it: "would you like a refund?", "soll ich stornieren?",
# "¿quiere que le reembolse?", "voulez-vous que j'annule ?" state nothing done, so they count
# like negators (in the clause, within WINDOW_WORDS before the mention).
_OFFERS: dict[str, tuple[str, ...]] = {
    "en": (
        r"would you like",
        r"do you want",
        r"shall i",
        r"should i",
        r"want me to",
        r"would you prefer",
        r"do you prefer",
    ),
    "de": (
        r"soll ich",
        r"sollen wir",
        r"mochten sie",
        r"wollen sie",
        r"darf ich",
        r"wunschen sie",
    ),
    "es": (
        r"(?:quiere|quieres|desea|prefiere) que",
        r"prefiere",
        r"(?:quiere|desea) (?:usted )?(?:un|una)",
    ),
    "fr": (
        r"(?:voulez|souhaitez|preferez|desirez)-vous",
        r"(?:dois|puis)-je",
        r"voulez-vous que",
    ),
}

# Set phrases with a negator that negate nothing after them: "No worries, I've refunded it."
_IDIOMS: dict[str, tuple[str, ...]] = {
    "en": (
        r"no (?:problem|worries|doubt|matter|later than)",
        r"not (?:a problem|an issue|only|just)",
        r"(?:don't|do not) (?:worry|hesitate)",
        r"never mind",
        r"no need to worry",
    ),
    "de": (
        r"kein(?:e|en)? (?:problem|sorge|sorgen|ursache|thema)",
        r"nicht nur",
        r"nicht wahr",
    ),
    "es": (
        r"(?:no hay|sin|ningun) problema",
        r"no se preocupe",
        r"no te preocupes",
        r"no (?:solo|solamente)",
        r"no dude",
    ),
    "fr": (
        r"(?:pas de|aucun|sans) (?:probleme|souci)",
        r"ne vous inquietez pas",
        r"ne t'inquiete pas",
        r"non seulement",
        r"n'hesitez pas",
        # "ne ... que" means "only": "cela ne peut se faire qu'en boutique"
        r"(?:ne |n')(?:(?!(?:pas|jamais|plus|rien|aucun\w*)\b)[\w-]+ ){0,4}qu(?:e|'\w*)",
    ),
}

# Said after the mention: "fasting is not necessary", "ayunar no es necesario".
_AFTER: dict[str, tuple[str, ...]] = {
    "en": (
        r"(?:is |are )?(?:not|n't) (?:necessary|needed|required|mandatory)",
        r"(?:isn't|aren't|is not|are not) (?:necessary|needed|required|mandatory)",
        r"(?:is |are )?unnecessary",
        r"(?:is|are|was|were|has been|have been|will be) waived",
    ),
    "de": (
        r"(?:ist |sind )?nicht (?:notig|notwendig|erforderlich|vorgeschrieben|pflicht)",
        r"(?:ist |sind )?(?:unnotig|keine pflicht)",
        r"entfallt",
        r"(?:wird |wurde |ist )?erlassen",
    ),
    "es": (
        r"no (?:es|son) (?:necesari\w*|obligatori\w*)",
        r"no hace falta",
        r"no se (?:requiere|necesita)",
        r"(?:es |son )?innecesari\w*",
        r"(?:ha sido|han sido|fue|queda|se ha) (?:anulad|condonad|eliminad)[oa]s?",
    ),
    "fr": (
        r"(?:n'est|ne sont) pas (?:necessaire|obligatoire|requis)\w*",
        r"pas (?:necessaire|obligatoire)\w*",
        r"(?:est )?inutile",
        r"(?:a ete|ont ete|est|sont) (?:annule|supprime|offert)e?s?",
    ),
}

CLAUSE_WORDS: dict[str, tuple[str, ...]] = {
    "en": (
        "but",
        "however",
        "although",
        "though",
        "whereas",
        "because",
        "so i",
        "so i've",
        "so i'm",
        "so i'll",
        "so we",
        "so we've",
        "so you",
        "so it",
        "so your",
        "therefore",
    ),
    "de": ("aber", "jedoch", "sondern", "allerdings", "dagegen", "weil", "deshalb", "daher"),
    "es": ("pero", "sino", "sin embargo", "aunque", "mientras que", "porque", "asi que", "ya que"),
    "fr": ("mais", "cependant", "toutefois", "pourtant", "alors que", "car", "parce que", "donc"),
}
"""Contrast and cause words that start a new clause, per language (folded, accents
stripped): "the order won't ship, because I've cancelled it" negates the shipping only."""

_PUNCTUATION = r"[.;!?]+(?=\s|$|[\"')])|[\u00a1\u00bf]"  # and Spanish ¡ ¿ open a clause
# A comma before a first-person subject starts a main clause: "Ihr Termin findet nicht statt,
# ich habe ihn abgesagt" negates the appointment taking place, not the cancelling.
_COMMA_SUBJECT = (
    r",\s(?=(?:i|we|ich|wir|je|nous|please|bitte|por favor|veuillez|merci de)(?![\w'-])|j')"
    r"|\s-\s"  # a spaced dash (folded from – and —) starts a new thought
)


def _languages(lang: str) -> tuple[str, ...]:
    """The language itself and English (Agents mix in English words; find_concept does)."""
    return (lang, "en") if lang in _NEGATORS and lang != "en" else ("en",)


def _words(fragments: tuple[str, ...]) -> str:
    # a hyphen joins words: "no-show" and "non-stop" hold no negator
    return r"(?<![\w'-])(?:" + "|".join(fragments) + r")(?![\w'-])"


@cache
def _clause_break(lang: str, contrast: bool = True) -> re.Pattern[str]:
    if not contrast:
        return re.compile(_PUNCTUATION)
    words = [w for code in _languages(lang) for w in CLAUSE_WORDS[code]]
    return re.compile(
        "|".join((_PUNCTUATION, _COMMA_SUBJECT, _words(tuple(re.escape(w) for w in words))))
    )


@cache
def _negator(lang: str) -> re.Pattern[str]:
    return re.compile(_words(tuple(f for code in _languages(lang) for f in _NEGATORS[code])))


@cache
def _offer(lang: str) -> re.Pattern[str]:
    return re.compile(_words(tuple(f for code in _languages(lang) for f in _OFFERS[code])))


@cache
def _idiom(lang: str) -> re.Pattern[str]:
    return re.compile(_words(tuple(f for code in _languages(lang) for f in _IDIOMS[code])))


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


def _negated_before(before: str, lang: str, *, offers: bool = True) -> bool:
    tail = _clause_tail(before, lang)
    words = list(re.finditer(r"[\w']+", tail))
    if not words:
        return False
    window = tail[words[max(0, len(words) - WINDOW_WORDS)].start() :]
    answers = {m.start() for m in re.finditer(r"(?<![\w'])" + _INTERJECTIONS, window)}
    idioms = [m.span() for m in _idiom(lang).finditer(tail)]
    offset = len(tail) - len(window)
    if offers and _offer(lang).search(window):
        return True
    return any(
        m.start() not in answers and not any(a <= m.start() + offset < b for a, b in idioms)
        for m in _negator(lang).finditer(window)
    )


def _negated_after(after: str, lang: str) -> bool:
    head = after[: m.start()] if (m := _clause_break(lang).search(after)) else after
    for found in _after(lang).finditer(head):
        between = head[: found.start()]
        if "," not in between and len(re.findall(r"[\w']+", between)) <= AFTER_WORDS:
            return True
    return False


def negated(text: str, span: Span, lang: str, *, offers: bool = True) -> bool:
    """Whether the mention at `span` is negated in its clause: a negator (not, no, never,
    n't, nothing, without, nicht, kein*, nie, ohne, no, nunca, sin, ne ... pas, pas, jamais,
    sans, ...) or an offer (would you like, shall I, soll ich, quiere que, voulez-vous)
    within the same clause (see the module docstring) up to WINDOW_WORDS before the span,
    or a "... is not necessary" / "... has been waived" (ist nicht nötig, wird erlassen, no
    es necesario, ha sido anulada, n'est pas nécessaire, ont été annulés) right after it.

    Negators of ``lang`` and of English count; an unknown ``lang`` uses English alone.
    ``offers=False`` for what is itself asked ("may I have your date of birth?"): a question
    does not negate a question.
    """
    line_start = text.rfind("\n", 0, span.start) + 1
    line_end = text.find("\n", span.end)
    before = fold(text[line_start : span.start], accents=True)[0]
    after = fold(text[span.end : None if line_end < 0 else line_end], accents=True)[0]
    return _negated_before(before, lang, offers=offers) or _negated_after(after, lang)
