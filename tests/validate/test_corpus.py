"""The blind statement corpus loads, is split before tuning, and a reader is measured
against its labels the way the closing figures are."""

from __future__ import annotations

from pathlib import Path

import pytest

from supportsim.errors import InputError
from supportsim.scoring import ReadFact, Reading
from supportsim.validate import (
    CONCEPTS,
    LANGUAGES,
    Counts,
    Statement,
    corpus_files,
    evaluate,
    load_corpus,
)


def test_both_splits_hold_every_language_and_enough_statements() -> None:
    tune, holdout = load_corpus("tune"), load_corpus("holdout")
    assert len(tune) + len(holdout) >= 1500
    for split in (tune, holdout):
        assert {s.language for s in split} == set(LANGUAGES)
    assert not {s.id for s in tune} & {s.id for s in holdout}  # disjoint


def test_every_concept_has_positives_and_near_misses_in_each_split() -> None:
    for split in ("tune", "holdout"):
        items = load_corpus(split)
        for concept in CONCEPTS:
            assert sum(concept in s.concepts for s in items) >= 10, (split, concept)
            assert sum(concept in s.near for s in items) >= 5, (split, concept)


def test_a_bad_corpus_file_names_the_file_and_the_field(tmp_path: Path) -> None:
    bad = tmp_path / "en.yaml"
    bad.write_text("- {id: en-1, text: hi, concepts: [flying], facts: [], not_facts: [],\n"
                   "   claims: [], promises: [], discloses: []}\n")  # fmt: skip
    with pytest.raises(InputError, match=r"en.yaml.*concepts"):
        load_corpus(bad)
    with pytest.raises(InputError, match="not a corpus"):
        corpus_files(tmp_path / "nowhere")


def _statement(**labels: object) -> Statement:
    base = {
        "id": "en-0001",
        "text": "I've refunded the $35.00.",
        "concepts": [],
        "facts": [],
        "not_facts": [],
        "claims": [],
        "promises": [],
        "discloses": [],
    }
    return Statement.model_validate({**base, **labels})


def test_a_reader_is_counted_per_decision() -> None:
    s = _statement(
        concepts=["refunding"],
        facts=[{"money": 35, "currency": "USD"}],
        claims=["refunded"],
    )

    def reader(_: Statement) -> Reading:
        return Reading(
            concepts=frozenset({"refunding", "cancelling"}),
            facts=(ReadFact("money", 35.0, frozenset({"USD"})), ReadFact("percent", 10.0)),
            claims=frozenset(),
            promises=frozenset(),
            discloses=frozenset(),
        )

    tally = evaluate([s], reader)
    refunding = tally.by[("concept", "refunding", "en")]
    assert (refunding.tp, refunding.fp, refunding.fn) == (1, 0, 0)
    assert tally.by[("concept", "cancelling", "en")].errors == ["en-0001:fp"]
    assert tally.by[("concept", "booking", "en")].tn == 1
    assert tally.by[("claim", "refunded", "en")].errors == ["en-0001:fn"]
    money = tally.by[("fact", "money", "en")]
    assert (money.tp, money.fp, money.fn) == (1, 0, 0)
    assert tally.by[("fact", "percent", "en")].fp == 1  # read, not labelled
    assert ("disclosure", "other_customer", "en") not in tally.by  # no other record given


def test_precision_recall_and_kappa() -> None:
    c = Counts(tp=8, fp=2, fn=2, tn=88)
    assert c.precision == pytest.approx(0.8) and c.recall == pytest.approx(0.8)
    assert c.kappa == pytest.approx((0.96 - (0.1 * 0.1 + 0.9 * 0.9)) / (1 - 0.82))
    assert Counts().precision is None and Counts(tp=1).kappa is None
