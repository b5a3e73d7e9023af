"""Concept lexicons: "did the Agent refuse / escalate / refund ...", in en, de, es and fr.

A ``say`` step or a forbidden disclosure can name a concept instead of spelling words, so
"I can’t do that", "I'm unable to" and "leider nicht möglich" all count as ``refusing``.
The phrases live in ``lexicons/<lang>.yaml`` (package data), one list of patterns per
concept id. A pattern is a phrase, matched on word boundaries after folding both sides
with accents stripped (:func:`supportsim.scoring.text._text.fold`). A ``*`` at the end of a word
stands for any ending (``refund*``, ``reembols*``), at its start for any beginning
(``*gebühr`` finds the compounds "Etikettgebühr" and "Mahngebühr"), and a ``~`` word for
at most one word of any kind but a negator (``a ~ store`` finds "a store" and "a Northwind
store", whatever the brand; ``habe ~ ~ ~ gebucht`` spans a German middle field). A concept
may also be a mapping of ``patterns`` and ``unless``: a match counts unless an ``unless``
pattern overlaps it ("I can't" is refusing, "I can't believe" is not).

``identity_detail_wrong`` (a caller told which verification detail is wrong) is read by
structure, not by phrase: a detail noun and a predicate judging it (``_identity``, from the
``identity`` section of the language data). A scenario's ``lexicon`` may still add phrases
for it. ``asking_identity`` is read by its phrases and by structure too: a question that
names an identity detail asks for it ("What's the ZIP code on the account?"), unless it is
an offer or asks about an event ("did you receive the email?").

Concepts that name acts (refunding, cancelling, booking ...) are read by the act reading
(``_acts``, ``lexicons/<lang>.acts.yaml``): in mode, not by phrase. A language's lexicon
may still list phrases for them (German, Spanish and French do until their act data is
written); both count.

Text in any language is also searched with the English patterns: Agents mix languages,
and a scenario in an unsupported language is still scored in English.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from functools import cache, lru_cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Annotated

import yaml
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, RootModel, ValidationError

from supportsim.errors import Problem, ScenarioError
from supportsim.scoring.text._acts import act_concepts, mentioned_span
from supportsim.scoring.text._clauses import Clause, clauses
from supportsim.scoring.text._grammar import FAST_LOADER, grammar, reading_language
from supportsim.scoring.text._identity import has_identity_data, wrong_detail
from supportsim.scoring.text._markers import has_before, markers
from supportsim.scoring.text._negation import negated as negated  # part of this module's interface
from supportsim.scoring.text._negation import offered_before
from supportsim.scoring.text._patterns import GAP as GAP
from supportsim.scoring.text._patterns import alternation as _alternation
from supportsim.scoring.text._patterns import check_pattern as check_pattern
from supportsim.scoring.text._patterns import pattern_regex
from supportsim.scoring.text._patterns import plain as _plain
from supportsim.scoring.text._span import Span
from supportsim.scoring.text._text import fold_map

CONCEPTS: frozenset[str]
"""Every concept id present in all four languages (computed on first use, see __getattr__)."""
LANGUAGES = ("en", "de", "es", "fr")
"""Languages with a bundled lexicon."""

IDENTITY_CONCEPT = "identity_detail_wrong"
"""The concept read by structure (``_identity``), not by the lexicon's phrases."""
ASKING_IDENTITY = "asking_identity"
"""Read by its phrases and by structure too: a question naming an identity detail."""


# --- the files ------------------------------------------------------------------------------

Pattern = Annotated[str, AfterValidator(check_pattern)]
ConceptId = Annotated[str, Field(pattern=r"^[a-z][a-z_]*$")]


class GuardedLexicon(BaseModel):
    """Patterns with exceptions: a match counts unless an ``unless`` match overlaps it."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    patterns: list[Pattern] = Field(min_length=1)
    unless: list[Pattern] = Field(min_length=1)
    """What, overlapping a match, cancels it: "can't believe", "cannot stress"."""


Entry = list[str] | GuardedLexicon


class LexiconFile(RootModel[dict[ConceptId, list[Pattern] | GuardedLexicon]]):
    """One language's lexicon: concept id -> patterns (or a guarded lexicon)."""


def load_lexicon(path: Path | Traversable) -> dict[str, Entry]:
    """Read and validate one lexicon file. Raises ScenarioError naming the file and the
    concept (and list index) of every problem."""
    try:
        raw = yaml.load(path.read_text(encoding="utf-8"), Loader=FAST_LOADER)
    except yaml.YAMLError as exc:
        raise ScenarioError([Problem(str(path), "", f"not valid YAML: {exc}")]) from exc
    try:
        model = LexiconFile.model_validate(raw)
    except ValidationError as exc:
        problems = [
            Problem(str(path), ".".join(str(p) for p in e["loc"]), e["msg"]) for e in exc.errors()
        ]
        raise ScenarioError(problems) from exc
    return dict(model.root)


def _bundled_path(lang: str) -> Traversable:
    return resources.files("supportsim.scoring.text").joinpath("lexicons", f"{lang}.yaml")


@cache
def _bundled(lang: str) -> Mapping[str, Entry]:
    """The bundled lexicon of ``lang`` (read once per process; an unknown language is empty)."""
    if lang not in LANGUAGES:
        return {}
    return load_lexicon(_bundled_path(lang))


def _known(lang: str) -> frozenset[str]:
    """The concepts ``lang`` reads: its lexicon's, its acts' (English's included) and the
    identity concept where its data names identity details."""
    identity = {IDENTITY_CONCEPT} if has_identity_data(lang) else set()
    return frozenset(_bundled(lang)) | act_concepts(lang) | identity


def _concepts() -> frozenset[str]:
    shared = set(_known("en"))
    for lang in LANGUAGES[1:]:
        shared &= _known(lang)
    return frozenset(shared)


def _entries(concept: str, lang: str) -> list[Entry]:
    """The entries for ``concept`` in ``lang`` and English; KeyError if no language has it."""
    if concept not in _known("en") and concept not in _known(lang):
        raise KeyError(f"unknown concept {concept!r}")
    return [
        entry
        for code in dict.fromkeys((lang, "en"))
        if (entry := _bundled(code).get(concept)) is not None
    ]


@lru_cache(maxsize=512)
def _compiled(
    concept: str, lang: str, extra: tuple[str, ...]
) -> tuple[re.Pattern[str] | None, re.Pattern[str] | None]:
    phrases: list[str] = [check_pattern(p) for p in extra]
    unless: list[str] = []
    for entry in _entries(concept, lang):
        if isinstance(entry, GuardedLexicon):
            phrases.extend(entry.patterns)
            unless.extend(entry.unless)
        else:
            phrases.extend(entry)
    return _alternation(phrases), _alternation(unless)


# --- finding --------------------------------------------------------------------------------


def _lines(text: str) -> Iterator[tuple[int, str]]:
    """Non-empty lines with their offsets: a line break always ends a clause."""
    for m in re.finditer(r"[^\n]+", text):
        yield m.start(), m.group()


def find_phrase(
    concept: str, text: str, lang: str, extra: Mapping[str, Sequence[str]] | None = None
) -> Span | None:
    """First place a pattern of `concept` occurs in `text` (patterns of `lang` plus English
    plus `extra[concept]`, which a scenario supplies to extend the lexicon; the identity
    concept by structure, ``_identity.wrong_detail``). Spans index the ORIGINAL text.
    Raises KeyError for an unknown concept (validation catches it earlier) and ValueError
    for a malformed extra pattern."""
    phrases, unless = _compiled(concept, lang, tuple((extra or {}).get(concept, ())))
    found: list[Span] = []
    if phrases is not None:
        for offset, line in _lines(text):
            folded, starts, ends = fold_map(line, accents=True)
            guards = [g.span() for g in unless.finditer(folded)] if unless else []
            m = next(
                (
                    m
                    for m in phrases.finditer(folded)
                    if not any(a < m.end() and m.start() < b for a, b in guards)
                ),
                None,
            )
            if m is not None:
                found.append(Span(offset + starts[m.start()], offset + ends[m.end() - 1]))
                break
    if concept == IDENTITY_CONCEPT and (span := wrong_detail(text, lang)) is not None:
        found.append(span)
    if concept == ASKING_IDENTITY and (span := asked_detail(text, lang)) is not None:
        found.append(span)
    return min(found, key=lambda s: (s.start, -s.end)) if found else None


@lru_cache(maxsize=16)
def _details(lang: str) -> re.Pattern[str] | None:
    code = reading_language(lang)
    return pattern_regex(grammar(code).identity.details, code)


def asked_detail(text: str, lang: str) -> Span | None:
    """The first identity detail a question names ("What's the ZIP code on the account?",
    "Wie lautet Ihr Geburtsdatum?", "¿Me da su DNI?"): asking for it, whatever the words
    around it (the ``identity`` section's ``details``); not in an offer ("shall I send it
    to your email?", "soll ich Ihnen ... per E-Mail schicken?") nor in a question about an
    event ("did you receive the email?")."""
    details = _details(lang)
    if details is None:
        return None
    for clause in clauses(text, lang):
        if not clause.question:
            continue
        m = details.search(clause.text)
        if m is None:
            continue
        first, last = clause.index_at(m.start()), clause.index_at(m.end() - 1)
        code = reading_language(lang)
        if offered_before(clause, first, code) or _about_an_event(clause, first, code):
            continue
        return Span(clause.tokens[first].start, clause.tokens[last].end)
    return None


def _about_an_event(clause: Clause, i: int, lang: str) -> bool:
    """A past or perfect auxiliary before token ``i``: the question asks about an event
    ("did you receive the email?", "have you reset your PIN?", "haben Sie die E-Mail
    erhalten?"), not for the detail."""
    mk = markers(lang)
    return has_before(clause, i, "past", mk) or has_before(clause, i, "perfect", mk)


def find_concept(
    concept: str, text: str, lang: str, extra: Mapping[str, Sequence[str]] | None = None
) -> Span | None:
    """First place `text` mentions `concept`, in any mode: a pattern (:func:`find_phrase`)
    or an act of the concept ("would you like a refund?" mentions refunding; whether it
    states it is ``_say.states``'s question). Raises as :func:`find_phrase`."""
    found = [
        s
        for s in (find_phrase(concept, text, lang, extra), mentioned_span(concept, text, lang))
        if s
    ]
    return min(found, key=lambda s: (s.start, -s.end)) if found else None


def concept_terms(concept: str, lang: str) -> list[str]:
    """Plain example phrases for the concept in `lang` (no wildcards), each of which
    find_concept finds: the perturbation tester swaps these in to reword messages.

    The identity concept gives its data's examples. Raises KeyError for an unknown concept
    or a language without a lexicon.
    """
    if concept == IDENTITY_CONCEPT and grammar(lang).identity.examples:
        return list(grammar(lang).identity.examples)
    entry = _bundled(lang).get(concept)
    examples = [
        e for act in grammar(lang).acts.values() if act.concept == concept for e in act.examples
    ]
    if entry is None and not examples:
        raise KeyError(f"no {concept!r} in the {lang!r} lexicon")
    if entry is None or isinstance(entry, GuardedLexicon):
        patterns = entry.patterns if entry is not None else []
        return list(dict.fromkeys([*examples, *(p for p in patterns if _plain(p))]))
    return list(dict.fromkeys([*(p for p in entry if _plain(p)), *examples]))


def __getattr__(name: str) -> frozenset[str]:
    # CONCEPTS is computed on first use: importing supportsim opens no file.
    if name == "CONCEPTS":
        return _concepts_cached()
    raise AttributeError(name)


@cache
def _concepts_cached() -> frozenset[str]:
    return _concepts()
