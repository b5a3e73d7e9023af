"""Finding what an Agent said: say items (phrases, concepts, typed facts) in message text.

One entry point for ``say`` steps, ``disclose`` rules and the templates, so a statement is
recognised the same way whether it is required or forbidden. Matching is by meaning: typed
facts by value in the scenario's language and English (``_facts``), concepts through the
shared lexicons plus the scenario's own additions (``_lexicon``), phrases after folding case,
typography and spacing on word boundaries (``_text``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from supportsim.scenario import SayItem, Scenario
from supportsim.scoring._facts import Calendar, Fact, calendar_of, find_fact
from supportsim.scoring._lexicon import find_concept, negated
from supportsim.scoring._span import Span
from supportsim.scoring._text import find_span, phrase_regex


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
        found = find_concept(item.concept or "", tail, speech.lang, speech.lexicon)
    else:
        fact = as_fact(item)
        assert fact is not None
        found = find_fact(fact, tail, speech.lang, calendar=speech.calendar)
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
    """Whether ``text`` states ``item``: a concept said negated ("I could not verify you",
    "no refund is possible") does not count, except the concepts that are negations and,
    with ``refusal`` (the step also wants a refusal), what is refused ("I can't waive
    the fee" states refusing and waiving)."""
    return next(stated_spans(item, text, speech, refusal=refusal), None) is not None


def stated_spans(
    item: SayItem, text: str, speech: Speech, *, refusal: bool = False
) -> Iterator[Span]:
    """Every place ``text`` states ``item``, as :func:`states` counts them."""
    plain = item.kind != "concept" or item.concept in NEGATIVE_CONCEPTS or refusal
    asked = item.concept in QUESTION_CONCEPTS
    start = 0
    while (span := find_item(item, text, speech, start=start)) is not None:
        if plain or not negated(text, span, speech.lang, offers=not asked):
            yield span
        start = max(span.end, span.start + 1)


def discloses(item: SayItem, text: str, speech: Speech) -> Span | None:
    """Where ``text`` discloses ``item``: a negated phrase or concept ("no need to fast")
    is not a disclosure, so later mentions are searched too. A typed fact or id read out is
    a disclosure whatever surrounds it."""
    start = 0
    while (span := find_item(item, text, speech, start=start)) is not None:
        if item.kind not in ("phrase", "concept") or not negated(text, span, speech.lang):
            return span
        start = max(span.end, span.start + 1)
    return None
