"""Text folding and phrase matching: typography, case, spacing and accents don't count;
word boundaries do; spans map back to what the Agent wrote."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from supportsim.scoring.text._text import (
    contains_all,
    find_phrase,
    find_span,
    fold,
    fold_map,
    normalise,
    search,
)


@pytest.mark.parametrize(
    ("raw", "folded"),
    [
        ("I can’t", "i can't"),
        ("it‘s ‛x´ `y` ′z", "it's 'x' 'y' 'z"),
        ("“Done” „fertig“ «fait» ‹oui› 5″", '"done" "fertig" "fait" "oui" 5"'),
        ("10‐12 10‑12 10‒12 10–12 10—12 10―12 −5", "10-12 10-12 10-12 10-12 10-12 10-12 -5"),
        ("10\u00a0€ 10\u202f€ 10\u2009€", "10 € 10 € 10 €"),
        ("  Hello \t\n  WORLD  ", "hello world"),
        ("Straße STRASSE", "straße strasse".replace("ß", "ss")),
        ("ﬁle ①", "file 1"),
        ("Café", "café"),
        ("soft\u00adhyphen zero\u200bwidth", "softhyphen zerowidth"),
    ],
)
def test_fold(raw: str, folded: str) -> None:
    assert fold(raw)[0] == folded


def test_fold_with_accents_stripped() -> None:
    assert (
        fold("Réembolsé, Straße, ÉTÉ, naïve", accents=True)[0] == "reembolse, strasse, ete, naive"
    )
    assert fold("Réembolsé")[0] == "réembolsé"


def test_a_combining_accent_composes_like_a_precomposed_one() -> None:
    assert fold("Cafe\u0301")[0] == fold("Café")[0] == "café"
    assert fold("Cafe\u0301", accents=True)[0] == "cafe"


def test_indices_map_back_to_the_original() -> None:
    text = "  I CAN’T — ok"
    folded, index = fold(text)
    assert folded == "i can't - ok"
    assert [text[i] for i in index] == list("I CAN’T — ok")
    text = "Maß"
    folded, index = fold(text)
    assert folded == "mass" and index == [0, 1, 2, 2]


def test_fold_map_ends_cover_combining_marks() -> None:
    text = "Cafe\u0301 ok"
    folded, starts, ends = fold_map(text)
    assert folded == "café ok"
    assert (starts[3], ends[3]) == (3, 5)


def test_find_span_reports_the_original_text() -> None:
    text = "Well, I CAN’T do that, cafe\u0301 owner."
    span = find_span(re.compile(r"can't do"), text)
    assert span is not None and text[span.start : span.end] == "CAN’T do"
    span = find_span(re.compile(r"cafe\b"), text, accents=True)
    assert span is not None and text[span.start : span.end] == "cafe\u0301"
    assert find_span(re.compile("refund"), text) is None


@given(st.text(max_size=60))
def test_fold_index_is_a_monotone_map_into_the_original(text: str) -> None:
    for accents in (False, True):
        folded, index = fold(text, accents=accents)
        assert len(folded) == len(index)
        assert index == sorted(index)
        assert all(0 <= i < len(text) for i in index)
        assert folded == folded.strip() and "  " not in folded
        assert fold(folded, accents=accents)[0] == folded


@given(st.text(alphabet="abcdefghij klmnop,.'-0123", max_size=40))
def test_plain_ascii_only_loses_white_space(text: str) -> None:
    folded, index = fold(text)
    assert folded == " ".join(text.split())
    assert "".join(text[i] if text[i] != " " else " " for i in index) == folded


def test_normalise_is_fold_with_accents_kept() -> None:
    text = "  Ich KANN’s  nicht – Café "
    assert normalise(text) == fold(text)[0] == "ich kann's nicht - café"


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("Your PIN, please.", "pin"),
        ("I can’t do that", "can't"),
        ("Total: ($10)", "$10"),
        ("Please call 0800 123.", "0800 123"),
        ("Your appointment — 14:00", "appointment - 14:00"),
        ("ACCOUNT\u00a0HOLDER only", "account holder"),
    ],
)
def test_find_phrase_matches(text: str, phrase: str) -> None:
    assert find_phrase(text, ["nothing", phrase]) == phrase


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("Spinning wheel", "pin"),
        ("PINs are secret", "pin"),
        ("The refundable amount", "refund"),
        ("Call 10800 now", "0800"),
        ("resume", "résumé"),
    ],
)
def test_find_phrase_respects_word_boundaries_and_accents(text: str, phrase: str) -> None:
    assert find_phrase(text, [phrase]) is None


def test_contains_all() -> None:
    assert contains_all("I’ve refunded $10 to your card.", ["refunded", "$10", "your card"])
    assert not contains_all("I’ve refunded $10 to your card.", ["refunded", "credit"])
    assert not contains_all("spinning", ["pin"])
    assert contains_all("anything", [])


def test_search_is_a_typography_insensitive_regex() -> None:
    assert search(r"can't|unable", "I CAN’T do that")
    assert search(r"can’t", "I can't do that")
    assert search(r"10 - 12", "from 10 – 12")
    assert not search(r"can't", "I can do that")
    assert search(r"\bverif", "Please verify")  # still a plain regex: callers choose wisely
