"""Concept lexicons against real Agent wording, as a reviewer would try them.

``lexicon_realistic/<lang>.yaml`` holds, per concept, sentences a competent Agent writes to
express it (``found``: formal, casual, terse, with typographic apostrophes, the concept
mid-sentence) and near-misses that must not count (``not_found``). A sentence is read the
way the scorer reads a ``say`` step (:func:`supportsim.scoring._say.states`: a negated
mention of a positive concept, or an offer to do it, does not count). A miss is a false
failure of a valid conversation; a near-miss found is a false pass of a sloppy one.

``known_misses`` lists the valid wordings the lexicons knowingly miss (catching them would
take patterns that also catch near-misses). They are asserted to be missed still, so a
lexicon that learns one fails here until the sentence moves to ``found``.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
import yaml

from supportsim.scenario import SayItem
from supportsim.scoring._say import Speech, states
from supportsim.scoring.text._lexicon import CONCEPTS, LANGUAGES

CASES_DIR = Path(__file__).parent / "lexicon_realistic"
MIN_FOUND = 25
MIN_NOT_FOUND = 10


@cache
def cases(lang: str) -> dict[str, dict[str, list[str]]]:
    """concept -> {"found", "not_found", "known_misses"?: [sentences]} for ``lang``."""
    raw = yaml.safe_load((CASES_DIR / f"{lang}.yaml").read_text(encoding="utf-8"))
    return {
        concept: {
            kind: [line.strip() for line in text.splitlines() if line.strip()]
            for kind, text in by.items()
        }
        for concept, by in raw.items()
    }


def expressed(concept: str, text: str, lang: str) -> bool:
    """Whether the scorer reads ``text`` as expressing ``concept`` (``identity_detail_wrong``
    included: it is a negation itself, as in the forbidden template)."""
    return states(SayItem(concept=concept), text, Speech(lang, {}))


PAIRS = [(concept, lang) for lang in LANGUAGES for concept in sorted(cases(lang))]


def test_every_concept_and_language_has_enough_sentences() -> None:
    for lang in LANGUAGES:
        by_concept = cases(lang)
        assert set(by_concept) == CONCEPTS, lang
        for concept, by in by_concept.items():
            assert {"found", "not_found"} <= set(by) <= {"found", "not_found", "known_misses"}
            assert len(by["found"]) >= MIN_FOUND, (concept, lang, len(by["found"]))
            assert len(by["not_found"]) >= MIN_NOT_FOUND, (concept, lang, len(by["not_found"]))
            kinds = [set(by.get(kind, [])) for kind in ("found", "not_found", "known_misses")]
            assert sum(len(k) for k in kinds) == len(set().union(*kinds)), (concept, lang)


@pytest.mark.parametrize(("concept", "lang"), PAIRS)
def test_competent_wordings_are_found(concept: str, lang: str) -> None:
    missed = [s for s in cases(lang)[concept]["found"] if not expressed(concept, s, lang)]
    assert not missed, f"false failures ({len(missed)}): {missed}"


@pytest.mark.parametrize(("concept", "lang"), PAIRS)
def test_near_misses_are_not_found(concept: str, lang: str) -> None:
    found = [s for s in cases(lang)[concept]["not_found"] if expressed(concept, s, lang)]
    assert not found, f"false passes ({len(found)}): {found}"


@pytest.mark.parametrize(
    ("concept", "lang"), [(c, lang) for c, lang in PAIRS if cases(lang)[c].get("known_misses")]
)
def test_known_misses_are_still_missed(concept: str, lang: str) -> None:
    now = [s for s in cases(lang)[concept]["known_misses"] if expressed(concept, s, lang)]
    assert not now, f"now found, move them to found: {now}"
