"""Concept lexicons: "did the Agent refuse / escalate / refund ...", in en, de, es and fr.

A ``say`` step or a forbidden disclosure can name a concept instead of spelling words, so
"I can’t do that", "I'm unable to" and "leider nicht möglich" all count as ``refusing``.
The phrases live in ``lexicons/<lang>.yaml`` (package data), one list of patterns per
concept id. A pattern is a phrase, matched on word boundaries after folding both sides
with accents stripped (:func:`supportsim.scoring._text.fold`). A ``*`` at the end of a word
stands for any ending (``refund*``, ``reembols*``), at its start for any beginning
(``*gebühr`` finds the compounds "Etikettgebühr" and "Mahngebühr"), and a ``~`` word for
at most one word of any kind but a negator (``a ~ store`` finds "a store" and "a Northwind
store", whatever the brand; ``habe ~ ~ ~ gebucht`` spans a German middle field). A concept
may instead be a mapping of sub-lists for a *pair* of mentions near each other in one
sentence; the library has one such concept, ``identity_detail_wrong`` (see
:func:`_find_pair`). A concept may also be a mapping of ``patterns`` and ``unless``: a
match counts unless an ``unless`` pattern overlaps it ("I can't" is refusing, "I can't
believe" is not).

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
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Annotated

import yaml
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, RootModel, ValidationError

from supportsim.errors import Problem, ScenarioError
from supportsim.scoring._acts import act_concepts, mentioned_span
from supportsim.scoring._grammar import FAST_LOADER, grammar
from supportsim.scoring._negation import clauses
from supportsim.scoring._negation import negated as negated  # part of this module's interface
from supportsim.scoring._patterns import GAP as GAP
from supportsim.scoring._patterns import alternation as _alternation
from supportsim.scoring._patterns import check_pattern as check_pattern
from supportsim.scoring._patterns import plain as _plain
from supportsim.scoring._span import Span
from supportsim.scoring._text import fold_map

CONCEPTS: frozenset[str]
"""Every concept id present in all four languages (computed on first use, see __getattr__)."""
LANGUAGES = ("en", "de", "es", "fr")
"""Languages with a bundled lexicon."""

FORWARD_GAP = 8
"""Words allowed between a detail and a following wrongness phrase ("your PIN ... is wrong")."""
BACKWARD_GAP = 5
"""Words allowed between a wrongness phrase and a following detail ("no coincide el PIN")."""
_JOIN_GAP = 3
_GENERIC_BEFORE = 3


# --- the files ------------------------------------------------------------------------------

Pattern = Annotated[str, AfterValidator(check_pattern)]
ConceptId = Annotated[str, Field(pattern=r"^[a-z][a-z_]*$")]


class PairLexicon(BaseModel):
    """A concept found as two mentions close together in one sentence (``identity_detail_wrong``:
    *which* identity detail, and that it was wrong)."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    details: list[Pattern] = Field(min_length=1)
    """What is named: "date of birth", "PIN", "Postleitzahl", "code postal"."""
    wrongness: list[Pattern] = Field(min_length=1)
    """What is said of it, before or after: "is wrong", "doesn't match", "no coincide"."""
    before: list[Pattern] = []
    """Adjectives directly before a detail: "wrong", "incorrect", "falsche", "mauvais"."""
    generic: list[Pattern] = []
    """Words that, between the two (or just before the detail), make the wrongness about
    something generic: "details", "information", "records", "please"."""
    joins: list[Pattern] = []
    """Words that join details into a list ("name and date of birth"): a list names no
    single detail, so it does not count."""


class GuardedLexicon(BaseModel):
    """Patterns with exceptions: a match counts unless an ``unless`` match overlaps it."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    patterns: list[Pattern] = Field(min_length=1)
    unless: list[Pattern] = Field(min_length=1)
    """What, overlapping a match, cancels it: "can't believe", "cannot stress"."""


Entry = list[str] | PairLexicon | GuardedLexicon


class LexiconFile(RootModel[dict[ConceptId, list[Pattern] | PairLexicon | GuardedLexicon]]):
    """One language's lexicon: concept id -> patterns (or a pair or guarded lexicon)."""


@dataclass(frozen=True, slots=True)
class _Pair:
    details: re.Pattern[str]
    wrongness: re.Pattern[str]
    before: re.Pattern[str] | None
    generic: re.Pattern[str] | None
    joins: re.Pattern[str] | None


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
    return resources.files("supportsim.scoring").joinpath("lexicons", f"{lang}.yaml")


@cache
def _bundled(lang: str) -> Mapping[str, Entry]:
    """The bundled lexicon of ``lang`` (read once per process; an unknown language is empty)."""
    if lang not in LANGUAGES:
        return {}
    return load_lexicon(_bundled_path(lang))


def _known(lang: str) -> frozenset[str]:
    """The concepts ``lang`` reads: its lexicon's and its acts' (English's included)."""
    return frozenset(_bundled(lang)) | act_concepts(lang)


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
) -> tuple[re.Pattern[str] | None, _Pair | None, re.Pattern[str] | None]:
    phrases: list[str] = [check_pattern(p) for p in extra]
    pairs: list[PairLexicon] = []
    unless: list[str] = []
    for entry in _entries(concept, lang):
        if isinstance(entry, PairLexicon):
            pairs.append(entry)
        elif isinstance(entry, GuardedLexicon):
            phrases.extend(entry.patterns)
            unless.extend(entry.unless)
        else:
            phrases.extend(entry)
    pair = None
    if pairs:
        details = _alternation([p for e in pairs for p in e.details])
        wrongness = _alternation([p for e in pairs for p in e.wrongness])
        assert details is not None and wrongness is not None  # min_length=1
        pair = _Pair(
            details,
            wrongness,
            _alternation([p for e in pairs for p in e.before]),
            _alternation([p for e in pairs for p in e.generic]),
            _alternation([p for e in pairs for p in e.joins]),
        )
    return _alternation(phrases), pair, _alternation(unless)


# --- finding --------------------------------------------------------------------------------


def _lines(text: str) -> Iterator[tuple[int, str]]:
    """Non-empty lines with their offsets: a line break always ends a clause."""
    for m in re.finditer(r"[^\n]+", text):
        yield m.start(), m.group()


def _word_count(text: str) -> int:
    return len(re.findall(r"[\w']+", text))


def _has(regex: re.Pattern[str] | None, text: str) -> bool:
    return regex is not None and regex.search(text) is not None


def _single_details(clause: str, pair: _Pair, lang: str) -> list[re.Match[str]]:
    """Detail mentions that name one detail: not part of a list ("name and date of birth";
    "the ID is fine, but the PIN" is no list) and not a modifier of a generic noun ("the
    details under your name")."""
    found = list(pair.details.finditer(clause))
    groups: list[list[re.Match[str]]] = []
    for m in found:
        between = clause[groups[-1][-1].end() : m.start()] if groups else ""
        joined = groups and _word_count(between) <= _JOIN_GAP and len(clauses(between, lang)) < 2
        if joined and (re.search(r"[,/&]", between) or _has(pair.joins, between)):
            groups[-1].append(m)
        else:
            groups.append([m])
    single = []
    for group in groups:
        if len(group) > 1:
            continue
        m = group[0]
        words = list(re.finditer(r"[\w']+", clause[: m.start()]))[-_GENERIC_BEFORE:]
        lead = clause[words[0].start() : m.start()] if words else ""
        if not _has(pair.generic, lead):
            single.append(m)
    return single


def _pair_in_clause(clause: str, pair: _Pair, lang: str) -> tuple[int, int] | None:
    hits: list[tuple[int, int]] = []
    details = _single_details(clause, pair, lang)
    wrong = list(pair.wrongness.finditer(clause))
    for d in details:
        for w in wrong:
            if d.end() <= w.start():
                between, gap = clause[d.end() : w.start()], FORWARD_GAP
            elif w.end() <= d.start():
                between, gap = clause[w.end() : d.start()], BACKWARD_GAP
            else:
                continue
            if _word_count(between) <= gap and not _has(pair.generic, between):
                hits.append((min(d.start(), w.start()), max(d.end(), w.end())))
        if pair.before is not None:
            for b in pair.before.finditer(clause[: d.start()]):
                if not clause[b.end() : d.start()].strip():
                    hits.append((b.start(), d.end()))
    if pair.before is not None:  # "the PIN is wrong": a before-adjective after the detail
        for d in details:
            for b in pair.before.finditer(clause, d.end()):
                between = clause[d.end() : b.start()]
                if _word_count(between) <= FORWARD_GAP and not _has(pair.generic, between):
                    hits.append((d.start(), b.end()))
    return min(hits) if hits else None


def _find_pair(text: str, lang: str, pair: _Pair) -> Span | None:
    """First sentence naming a single detail and its wrongness: detail then wrongness within
    FORWARD_GAP words, wrongness then detail within BACKWARD_GAP words, or a ``before``
    adjective right before the detail (or after it, like a wrongness phrase)."""
    for offset, line in _lines(text):
        folded, starts, ends = fold_map(line, accents=True)
        # sentences, not clauses: "thanks for the PIN, but it doesn't match" names the PIN
        for start, end in clauses(folded, lang, contrast=False):
            hit = _pair_in_clause(folded[start:end], pair, lang)
            if hit is not None:
                a, b = hit[0] + start, hit[1] + start
                return Span(offset + starts[a], offset + ends[b - 1])
    return None


def find_phrase(
    concept: str, text: str, lang: str, extra: Mapping[str, Sequence[str]] | None = None
) -> Span | None:
    """First place a pattern of `concept` occurs in `text` (patterns of `lang` plus English
    plus `extra[concept]`, which a scenario supplies to extend the lexicon). Spans index the
    ORIGINAL text. Raises KeyError for an unknown concept (validation catches it earlier)
    and ValueError for a malformed extra pattern."""
    phrases, pair, unless = _compiled(concept, lang, tuple((extra or {}).get(concept, ())))
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
    if pair is not None and (span := _find_pair(text, lang, pair)) is not None:
        found.append(span)
    return min(found, key=lambda s: (s.start, -s.end)) if found else None


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

    Pair concepts give "<detail> <wrongness>" and "<adjective> <detail>" phrases. Raises
    KeyError for an unknown concept or a language without a lexicon.
    """
    entry = _bundled(lang).get(concept)
    examples = [
        e for act in grammar(lang).acts.values() if act.concept == concept for e in act.examples
    ]
    if entry is None and not examples:
        raise KeyError(f"no {concept!r} in the {lang!r} lexicon")
    if entry is None or isinstance(entry, GuardedLexicon):
        patterns = entry.patterns if entry is not None else []
        return list(dict.fromkeys([*examples, *(p for p in patterns if _plain(p))]))
    if not isinstance(entry, PairLexicon):
        return list(dict.fromkeys([*(p for p in entry if _plain(p)), *examples]))
    details = [d for d in entry.details if _plain(d)]
    wrongness = [w for w in entry.wrongness if _plain(w)]
    terms = [f"{details[0]} {w}" for w in wrongness]
    terms += [f"{d} {wrongness[0]}" for d in details[1:]]
    terms += [f"{b} {details[0]}" for b in entry.before if _plain(b)]
    return list(dict.fromkeys(terms))


def __getattr__(name: str) -> frozenset[str]:
    # CONCEPTS is computed on first use: importing supportsim opens no file.
    if name == "CONCEPTS":
        return _concepts_cached()
    raise AttributeError(name)


@cache
def _concepts_cached() -> frozenset[str]:
    return _concepts()
