"""Finding what an Agent said: say items (phrases, concepts, typed facts) in message text.

One entry point for ``say`` steps, ``disclose`` rules and the templates, so a statement is
recognised the same way whether it is required or forbidden. Matching is by meaning: typed
facts by value in the scenario's language and English (``text/facts/_read``), concepts by
the act reading (``text/_acts``: "I've refunded" states refunding, "would you like a
refund?" does not) and the shared lexicons plus the scenario's own additions
(``text/_lexicon``, clause-scoped negation), phrases after folding case, typography and
spacing on word boundaries (``text/_text``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from supportsim.scenario import SayItem, Scenario
from supportsim.scoring.text._acts import mentions, stated_span
from supportsim.scoring.text._clauses import Clause
from supportsim.scoring.text._grammar import grammar, reading_language
from supportsim.scoring.text._lexicon import find_concept, find_phrase, negated
from supportsim.scoring.text._markers import markers, reported_before
from supportsim.scoring.text._modes import generic_clause
from supportsim.scoring.text._negation import locate
from supportsim.scoring.text._span import Span
from supportsim.scoring.text._text import find_span, phrase_regex
from supportsim.scoring.text.facts._read import Calendar, Fact, calendar_of, find_fact


@dataclass(frozen=True, slots=True)
class Speech:
    """How one conversation's statements are read: its language, lexicon additions and
    the calendar relative dates count from (the scenario's ``context.today``)."""

    lang: str
    lexicon: Mapping[str, Sequence[str]]
    calendar: Calendar | None = None


def speech_of(scenario: Scenario) -> Speech:
    """How ``scenario``'s statements are read: its language, lexicon and dates."""
    return Speech(scenario.language, scenario.lexicon, calendar_of(scenario.context))


def as_fact(item: SayItem) -> Fact | None:
    """The typed fact an item names (None for phrases and concepts)."""
    kind = item.kind
    if kind in ("phrase", "concept", "promise", "claim"):
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
    elif item.kind in ("promise", "claim"):
        found = next(act_spans(item, tail, speech.lang), None)
    else:
        fact = as_fact(item)
        assert fact is not None
        found = find_fact(fact, tail, speech.lang, calendar=speech.calendar)
    return Span(found.start + start, found.end + start) if found else None


PROMISE_MODES = frozenset({"committed", "offered", "expected", "hypothetical", "conditional"})
"""The modes in which a mention of an act promises its outcome as a disclosure reads it:
committed ("I'll waive it", "they'll waive it"), offered or able ("a manager can waive
it"), expected ("it should be waived"), hypothetical ("they would waive it") and
conditional ("if you call billing, they'll waive it"). Not done (that is the claim), not
negated, a policy ("fees are waived for members"), a present state ("there's no fee") or
asked: a question names acts it does not offer ("would you like me to cancel it with the
fee?" mentions cancelling a fee)."""


def act_spans(item: SayItem, text: str, lang: str) -> Iterator[Span]:
    """Every place ``text`` makes the promise or the claim ``item`` names, in order: a
    claim as ``_acts.claims`` reads it (done or being done), a promise in a mode of
    :data:`PROMISE_MODES`, whoever is said to bring it about.

    A word read as two acts at once names neither for certain and is skipped: "cancel" in
    "I've cancelled it with the fee" is the cancellation, and a fee in the same clause also
    reads it as cancelling the fee (a waiver); the disclosure counts the waiver only where
    a word names it alone ("waive", "annuler les frais")."""
    found = mentions(text, lang)
    acts: dict[Span, set[str]] = {}
    for m in found:
        acts.setdefault(m.span, set()).add(m.act)
    for m in found:
        if len(acts[m.span]) > 1:
            continue
        if (item.claim is not None and m.claim == item.claim) or (
            item.promise is not None
            and m.mode in PROMISE_MODES
            and grammar(m.lang).acts[m.act].promise == item.promise
        ):
            yield m.span


def phrase_span(text: str, phrase: str) -> Span | None:
    """A phrase in text after folding (case, typography, spacing, accents kept), on word
    boundaries at the ends that are word characters ("pin" is not in "spinning")."""
    regex = phrase_regex(phrase)
    return None if regex is None else find_span(regex, text)


NEGATIVE_CONCEPTS = frozenset({"refusing", "identity_mismatch", "identity_detail_wrong"})
"""Concepts whose wording is itself a negation ("I can't"): never read as negated."""
POLICY_CONCEPTS = frozenset({"fee", "in_store", "waiving"})
"""Concepts a policy states too ("a fee usually applies", "fees are normally waived for
members"): an adverb of habit or policy does not cancel them."""
QUESTION_CONCEPTS = frozenset({"asking_identity", "asking_confirmation"})
"""Concepts that are questions: an offer or question before them does not negate them."""


def states(item: SayItem, text: str, speech: Speech, *, refusal: bool = False) -> bool:
    """Whether ``text`` states ``item``: a concept only in a mode that states it (done,
    being done, committed: not asked, offered, conditional, negated or a policy, see
    ``_acts`` and :func:`phrase_states`), except the concepts that are negations and, with
    ``refusal`` (the step also wants a refusal), what is refused ("I can't waive the fee"
    states refusing and waiving)."""
    return next(stated_spans(item, text, speech, refusal=refusal), None) is not None


def stated_spans(
    item: SayItem, text: str, speech: Speech, *, refusal: bool = False
) -> Iterator[Span]:
    """Every place ``text`` states ``item``, as :func:`states` counts them, in order."""
    if item.kind == "concept" and item.concept not in NEGATIVE_CONCEPTS and not refusal:
        yield from concept_spans(item.concept or "", text, speech)
        return
    start = 0
    while (span := find_item(item, text, speech, start=start)) is not None:
        yield span
        start = max(span.end, span.start + 1)


def concept_spans(concept: str, text: str, speech: Speech) -> Iterator[Span]:
    """Every place ``text`` states ``concept``, in order: an act stated in mode, and the
    lexicon phrases :func:`phrase_states` accepts."""
    found = [*_phrases(concept, text, speech)]
    if (act := stated_span(concept, text, speech.lang)) is not None:
        found.append(act)
    yield from sorted(set(found), key=lambda s: (s.start, -s.end))


def concept_span(concept: str, text: str, speech: Speech) -> Span | None:
    """Where ``text`` first states ``concept`` (:func:`concept_spans`)."""
    return next(concept_spans(concept, text, speech), None)


def _phrases(concept: str, text: str, speech: Speech) -> Iterator[Span]:
    start = 0
    while (found := find_phrase(concept, text[start:], speech.lang, speech.lexicon)) is not None:
        span = Span(found.start + start, found.end + start)
        if phrase_states(concept, text, span, speech.lang) and not unstated_act(
            concept, text, span, speech.lang
        ):
            yield span
        start = max(span.end, span.start + 1)


DECIDED = frozenset({"other", "generic", "asked", "conditional", "negated", "hypothetical"})
"""The act reading's modes that decide a phrase over its words is not stated (its "none" is
no decision: a verb it does not know states the noun)."""


def unstated_act(concept: str, text: str, span: Span, lang: str) -> bool:
    """Whether the act reading reads the words at ``span`` as an act of ``concept`` in a
    mode that does not state it ("reembolsamos en un plazo de 14 días": a policy, "Sie
    haben storniert": the customer's act): its mode decides, not the phrase."""
    return any(
        m.concept == concept
        and not m.stated
        and m.mode in DECIDED
        and m.span.start < span.end
        and span.start < m.span.end
        for m in mentions(text, lang)
    )


def _policy(clause: Clause, lang: str) -> bool:
    """An adverb of habit or policy in the clause, or in the one before it that it follows
    after a comma ("Por política de la clínica, el primer cambio es gratuito")."""
    if generic_clause(clause, lang):
        return True
    mk = markers(lang)
    return (
        clause.opener == "," and mk.generic is not None and bool(mk.generic.search(clause.previous))
    )


def phrase_states(concept: str, text: str, span: Span, lang: str) -> bool:
    """Whether a lexicon phrase of ``concept`` at ``span`` states it: the concepts that are
    negations always; a question concept unless negated; any other unless negated, offered,
    asked ("did you get the email?"), in a conditional clause ("if you'd prefer, visit a
    store") or reported ("you said it was cancelled", "el sistema muestra que"), and a
    completion (``confirming``) not in a time clause ("as soon as it's done")."""
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
    clause, first = found[0], found[1]
    code = reading_language(lang)
    if clause.question or clause.conditional or reported_before(clause, first, code):
        return False
    if concept not in POLICY_CONCEPTS and _policy(clause, code):
        return False
    return not (concept == "confirming" and clause.kind == "time")


def discloses(item: SayItem, text: str, speech: Speech) -> Span | None:
    """Where ``text`` discloses ``item``: a concept or phrase only where it is stated, not
    negated ("no need to fast"; a concept in mode, see :func:`states`), so later mentions
    are searched too. A typed fact or id read out is a disclosure whatever surrounds it."""
    if item.kind == "concept":
        return concept_span(item.concept or "", text, speech)
    if item.kind in ("promise", "claim"):
        return next(act_spans(item, text, speech.lang), None)
    start = 0
    while (span := find_item(item, text, speech, start=start)) is not None:
        if item.kind != "phrase" or not negated(text, span, speech.lang):
            return span
        start = max(span.end, span.start + 1)
    return None
