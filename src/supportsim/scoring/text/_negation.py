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

from supportsim.scoring.text._clauses import Clause
from supportsim.scoring.text._clauses import clauses as split_clauses
from supportsim.scoring.text._grammar import grammar, reading_language
from supportsim.scoring.text._markers import Markers, marker_ending, markers
from supportsim.scoring.text._span import Span

AFTER_WORDS = 3
"""A trailing "is not necessary" may start at most this many words after the mention."""


NOUN_PHRASE = 4
"""Tokens a noun negator ("no") reaches: "no late cancellation fee"."""


Negation = str | None
"""How a mention is negated: "clause" (a negator before it in its clause, or in a noun's
verb after it), "noun" (a noun negator opening its noun phrase: "no fee"), "predicate"
(a noun's copula negated: "the charge isn't something I can reverse") or None."""


def negation_at(clause: Clause, i: int, lang: str, *, until: int | None = None) -> Negation:
    """How token ``i`` is negated in its clause (see the module docstring); ``until``: also
    a negator after ``i`` up to that token (a noun's verb: "the refund is not possible")."""
    mk = markers(lang)
    end = clause.starts[i]
    # only idioms that end by the mention's first word: "ne peuvent être annulées qu'avant"
    # still negates "annulées" (the "ne ... que" reaches past it), "ne peut se faire qu'en
    # boutique" does not negate "en boutique"
    reach = clause.offset_after(i)
    idioms = [m.span() for m in mk.idioms.finditer(clause.text, 0, reach)] if mk.idioms else []

    def free(m: re.Match[str]) -> bool:
        return not any(a <= m.start() < b for a, b in idioms)

    if mk.negators is not None:
        if any(free(m) for m in mk.negators.finditer(clause.text, 0, end)):
            return "clause"
        if until is not None and until > i:
            stop = clause.offset_after(min(until, len(clause.tokens) - 1))
            after = mk.negators.finditer(clause.text, clause.offset_after(i), stop)
            if any(free(m) for m in after):
                return "clause"
    if mk.negators is not None and _complement(clause) and _negates(mk, clause.previous):
        return "clause"  # "I can't say when it will be fixed"
    if mk.noun_negators is not None:
        for m in mk.noun_negators.finditer(clause.text, 0, end):
            if not free(m):
                continue
            opened = clause.index_at(m.start())
            verbs = [j for j in range(opened + 1, i) if marker_ending(clause, j, mk)]
            if i - opened <= NOUN_PHRASE and not verbs:
                return "noun"
    return None


def trailing_reach(clause: Clause, i: int, lang: str) -> int:
    """The last token a trailing negator after token ``i`` may stand at: the clause's end, or
    before the first coordinator after ``i`` ("... storniert und wird nicht versendet")."""
    stops = grammar(lang).negation.trailing_stops
    after = (j for j in range(i + 1, len(clause.tokens)) if clause.tokens[j].text in stops)
    return next(after, len(clause.tokens)) - 1


def offered_before(clause: Clause, i: int, lang: str) -> bool:
    """An offer before token ``i`` in its sentence ("would you like me to refund it",
    "möchten Sie, dass ich es schicke")."""
    mk = markers(lang)
    if mk.offers is None:
        return False
    return bool(mk.offers.search(clause.before)) or bool(
        mk.offers.search(clause.text, 0, clause.starts[i])
    )


def request_before(clause: Clause, i: int, lang: str) -> bool:
    """A request of the customer's act before token ``i`` in its clause ("pourriez-vous me
    transmettre une photo")."""
    rx = markers(lang).requests
    return rx is not None and rx.search(clause.text, 0, clause.starts[i]) is not None


def _complement(clause: Clause) -> bool:
    """A time or condition clause opened right after the clause before it, with no mark
    between: the object of that clause's verb ("I can't say when it will be fixed", "I
    don't know if it was refunded"), so within its negation."""
    return clause.kind in ("time", "condition") and clause.opener not in (
        "",
        ",",
        ";",
        ":",
        "-",
        "*",
    )


def _negates(mk: Markers, text: str) -> bool:
    """Whether ``text`` (a whole clause) holds a negator outside the set phrases."""
    assert mk.negators is not None
    idioms = [m.span() for m in mk.idioms.finditer(text)] if mk.idioms else []
    return any(not any(a <= m.start() < b for a, b in idioms) for m in mk.negators.finditer(text))


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
