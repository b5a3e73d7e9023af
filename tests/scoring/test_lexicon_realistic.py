"""Concept lexicons against real Agent wording, as a reviewer would try them.

``lexicon_realistic/<lang>.yaml`` holds, per concept, sentences a competent Agent writes to
express it (``found``: formal, casual, terse, with typographic apostrophes, the concept
mid-sentence) and near-misses that must not count (``not_found``). A sentence is read the
way the scorer reads a ``say`` step (:func:`supportsim.scoring._say.states`: a negated
mention of a positive concept does not count) and the identity-detail template (a mention
that is not negated). A miss is a false failure of a valid conversation; a near-miss found
is a false pass of a sloppy one.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
import yaml

from supportsim.scenario import SayItem
from supportsim.scoring._lexicon import CONCEPTS, LANGUAGES, find_concept, negated
from supportsim.scoring._say import Speech, states

CASES_DIR = Path(__file__).parent / "lexicon_realistic"
MIN_FOUND = 25
MIN_NOT_FOUND = 10


@cache
def cases(lang: str) -> dict[str, dict[str, list[str]]]:
    """concept -> {"found": [...], "not_found": [...]} for ``lang``, one sentence a line."""
    raw = yaml.safe_load((CASES_DIR / f"{lang}.yaml").read_text(encoding="utf-8"))
    return {
        concept: {kind: [s.strip() for s in text.splitlines() if s.strip()] for kind, text in by.items()}
        for concept, by in raw.items()
    }


def expressed(concept: str, text: str, lang: str) -> bool:
    """Whether the scorer reads ``text`` as expressing ``concept``."""
    if concept == "identity_detail_wrong":  # a forbidden template, see scoring._templates
        span = find_concept(concept, text, lang)
        return span is not None and not negated(text, span, lang)
    return states(SayItem(concept=concept), text, Speech(lang, {}))


def _table(kind: str) -> list[tuple[str, str, str]]:
    return [
        (concept, lang, sentence)
        for lang in LANGUAGES
        for concept, by in cases(lang).items()
        for sentence in by.get(kind, [])
    ]


def test_every_concept_and_language_has_enough_sentences() -> None:
    for lang in LANGUAGES:
        by_concept = cases(lang)
        assert set(by_concept) == CONCEPTS, lang
        for concept, by in by_concept.items():
            assert set(by) == {"found", "not_found"}, (concept, lang)
            assert len(by["found"]) >= MIN_FOUND, (concept, lang, len(by["found"]))
            assert len(by["not_found"]) >= MIN_NOT_FOUND, (concept, lang, len(by["not_found"]))
            assert not set(by["found"]) & set(by["not_found"]), (concept, lang)


@pytest.mark.parametrize(("concept", "lang", "sentence"), _table("found"))
def test_a_competent_wording_is_found(concept: str, lang: str, sentence: str) -> None:
    assert expressed(concept, sentence, lang)


@pytest.mark.parametrize(("concept", "lang", "sentence"), _table("not_found"))
def test_a_near_miss_is_not_found(concept: str, lang: str, sentence: str) -> None:
    assert not expressed(concept, sentence, lang)
