"""Negation of a phrase found in an Agent message: is it said, or said *not* to be so?

A forbidden disclosure such as "fast before the test" must not be tripped by "no hace falta
ir en ayunas" or "you don't need to fast". The rule is local and explainable, and the
same one the act reading uses (``_modes.negation_at``):

- a negator before the mention in its clause negates it ("I can't", "nicht", "ne ... pas");
- a noun negator ("no", "without") negates only the noun phrase it opens ("no fee applies,
  and your appointment is cancelled" negates the fee, not the cancelling);
- an offer before it in its sentence states nothing done ("would you like a refund?",
  "möchten Sie, dass ich storniere?");
- a "... is not necessary" / "... has been waived" right after it negates it;
- set phrases that hold a negator negate nothing ("no worries", "not to worry", "don't
  panic", "keine Sorge", "ne ... que").

Clauses end at sentence punctuation, semicolons, colons, commas, dashes and line breaks,
and before contrast and cause words (``_clauses``), so a "no" one clause earlier does not
count. The words are the language's data (``lexicons/<lang>.acts.yaml``, ``negation``),
English's for a language without data.
"""

from __future__ import annotations

import re
from functools import cache

from supportsim.scoring._clauses import Clause
from supportsim.scoring._clauses import clauses as split_clauses
from supportsim.scoring._grammar import grammar, reading_language
from supportsim.scoring._modes import markers, negation_at, offered_before
from supportsim.scoring._span import Span

AFTER_WORDS = 3
"""A trailing "is not necessary" may start at most this many words after the mention."""

_PUNCTUATION = r"[.;!?]+(?=\s|$|[\"')])|[\u00a1\u00bf]"  # and Spanish ¡ ¿ open a clause


def locate(text: str, span: Span, lang: str) -> tuple[Clause, int, int] | None:
    """The clause holding the mention at ``span`` and its first and last token."""
    for clause in split_clauses(text, lang):
        inside = [
            n for n, t in enumerate(clause.tokens) if t.end > span.start and t.start < span.end
        ]
        if inside:
            return clause, inside[0], inside[-1]
    return None


def negated(text: str, span: Span, lang: str, *, offers: bool = True) -> bool:
    """Whether the mention at ``span`` is negated in its clause (see the module docstring).

    ``offers=False`` for what is itself asked ("may I have your date of birth?"): an offer
    does not negate a question.
    """
    found = locate(text, span, lang)
    if found is None:
        return False
    clause, first, last = found
    code = reading_language(lang)
    if negation_at(clause, first, code) is not None:
        return True
    if offers and offered_before(clause, first, code):
        return True
    mk = markers(code)
    if mk.after is not None:
        start = clause.offset_after(last)
        for m in mk.after.finditer(clause.text, start):
            if len(clause.text[start : m.start()].split()) <= AFTER_WORDS:
                return True
    return False


# --- the sentences of folded text (the identity-detail pair finder, ``_lexicon``) ------------


@cache
def _clause_break(lang: str, contrast: bool) -> re.Pattern[str]:
    if not contrast:
        return re.compile(_PUNCTUATION)
    words = [
        re.escape(w)
        for code in dict.fromkeys((reading_language(lang), "en"))
        for w in grammar(code).clauses.contrast
    ]
    return re.compile(_PUNCTUATION + r"|(?<![\w'-])(?:" + "|".join(words) + r")(?![\w'-])")


def clauses(folded: str, lang: str, *, contrast: bool = True) -> list[tuple[int, int]]:
    """``[start, end)`` ranges of the clauses of one line of folded text: its sentences,
    cut again before contrast words unless ``contrast=False``."""
    ranges, start = [], 0
    for m in _clause_break(lang, contrast).finditer(folded):
        if m.start() > start:
            ranges.append((start, m.start()))
        start = m.end()
    if start < len(folded):
        ranges.append((start, len(folded)))
    return ranges
