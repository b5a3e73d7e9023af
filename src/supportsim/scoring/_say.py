"""Finding what an Agent said: say items (phrases, concepts, typed facts) in message text.

One entry point for ``say`` steps, ``disclose`` rules and the templates, so a statement is
recognised the same way whether it is required or forbidden. Matching is by meaning: typed
facts by value in the scenario's language and English (``_facts``), concepts by the act
reading (``_acts``: "I've refunded" states refunding, "would you like a refund?" does not)
and the shared lexicons plus the scenario's own additions (``_lexicon``, clause-scoped
negation), phrases after folding case, typography and spacing on word boundaries
(``_text``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from supportsim.scenario import SayItem
from supportsim.scoring._acts import stated_span
from supportsim.scoring._facts import Fact, find_fact
from supportsim.scoring._grammar import grammar, reading_language
from supportsim.scoring._lexicon import find_concept, find_phrase, negated
from supportsim.scoring._negation import locate
from supportsim.scoring._span import Span
from supportsim.scoring._text import find_span, phrase_regex


@dataclass(frozen=True, slots=True)
class Speech:
    """How one conversation's statements are read: its language and lexicon additions."""

    lang: str
    lexicon: Mapping[str, Sequence[str]]


def as_fact(item: SayItem) -> Fact | None:
    """The typed fact an item names (None for phrases and concepts)."""
    kind = item.kind
    if kind in ("phrase", "concept"):
        return None
    unit = item.currency if kind == "money" else item.unit if kind == "duration" else None
    value = item.value if kind in ("time", "date", "id") else float(item.value)
    return Fact(kind, value, unit)  # type: ignore[arg-type]


def find_item(item: SayItem, text: str, speech: Speech, *, start: int = 0) -> Span | None:
    """First place at or after ``start`` where ``text`` states ``item``."""
    tail = text[start:]
    if item.kind == "phrase":
        found = phrase_span(tail, item.phrase or "")
    elif item.kind == "concept":
        concept = item.concept or ""
        implied = grammar(reading_language(speech.lang)).implies.get(concept, [])
        spans = [
            s
            for c in (concept, *implied)
            if (s := find_concept(c, tail, speech.lang, speech.lexicon)) is not None
        ]
        found = min(spans, key=lambda s: (s.start, -s.end)) if spans else None
    else:
        fact = as_fact(item)
        assert fact is not None
        found = find_fact(fact, tail, speech.lang)
    return Span(found.start + start, found.end + start) if found else None


def phrase_span(text: str, phrase: str) -> Span | None:
    """A phrase in text after folding (case, typography, spacing, accents kept), on word
    boundaries at the ends that are word characters ("pin" is not in "spinning")."""
    regex = phrase_regex(phrase)
    return None if regex is None else find_span(regex, text)


NEGATIVE_CONCEPTS = frozenset({"refusing", "identity_mismatch", "identity_detail_wrong"})
"""Concepts whose wording is itself a negation ("I can't"): never read as negated."""
QUESTION_CONCEPTS = frozenset({"asking_identity", "asking_confirmation"})
"""Concepts that are questions: an offer or question before them does not negate them."""


def states(item: SayItem, text: str, speech: Speech, *, refusal: bool = False) -> bool:
    """Whether ``text`` states ``item``: a concept only in a mode that states it (done,
    being done, committed: not asked, offered, conditional, negated or a policy, see
    ``_acts`` and :func:`phrase_states`), except the concepts that are negations and, with
    ``refusal`` (the step also wants a refusal), what is refused ("I can't waive the fee"
    states refusing and waiving)."""
    if item.kind != "concept" or item.concept in NEGATIVE_CONCEPTS or refusal:
        return find_item(item, text, speech) is not None
    return concept_span(item.concept or "", text, speech) is not None


def concept_span(concept: str, text: str, speech: Speech) -> Span | None:
    """Where ``text`` first states ``concept``: an act stated in mode, or a lexicon phrase
    :func:`phrase_states` accepts."""
    found = [
        s for s in (stated_span(concept, text, speech.lang), _phrase(concept, text, speech)) if s
    ]
    return min(found, key=lambda s: (s.start, -s.end)) if found else None


def _phrase(concept: str, text: str, speech: Speech) -> Span | None:
    start = 0
    while (found := find_phrase(concept, text[start:], speech.lang, speech.lexicon)) is not None:
        span = Span(found.start + start, found.end + start)
        if phrase_states(concept, text, span, speech.lang):
            return span
        start = max(span.end, span.start + 1)
    return None


def phrase_states(concept: str, text: str, span: Span, lang: str) -> bool:
    """Whether a lexicon phrase of ``concept`` at ``span`` states it: the concepts that are
    negations always; a question concept unless negated; any other unless negated, offered,
    asked ("did you get the email?") or in a conditional clause ("if you'd prefer, visit a
    store"), and a completion (``confirming``) not in a time clause ("as soon as it's
    done")."""
    if concept in NEGATIVE_CONCEPTS:
        return True
    asked = concept in QUESTION_CONCEPTS
    if negated(text, span, lang, offers=not asked):
        return False
    if asked:
        return True
    found = locate(text, span, reading_language(lang))
    if found is None:
        return True
    clause = found[0]
    if clause.question or clause.conditional:
        return False
    return not (concept == "confirming" and clause.kind == "time")


def discloses(item: SayItem, text: str, speech: Speech) -> Span | None:
    """Where ``text`` discloses ``item``: a concept or phrase only where it is stated, not
    negated ("no need to fast"; a concept in mode, see :func:`states`), so later mentions
    are searched too. A typed fact or id read out is a disclosure whatever surrounds it."""
    if item.kind == "concept":
        return concept_span(item.concept or "", text, speech)
    start = 0
    while (span := find_item(item, text, speech, start=start)) is not None:
        if item.kind != "phrase" or not negated(text, span, speech.lang):
            return span
        start = max(span.end, span.start + 1)
    return None
