"""Proof by perturbation: valid variants of a sound scenario all pass, invalid ones are all
caught by the check they target; a brittle check shows up as a false failure and a lax one as
a false pass. Reworded and wrong statements come from a corpus of labelled sentences (the
bundled ``tune`` split by default; here small ones written for each case), never from the
lexicons the checks read with."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import yaml
from scoring_helpers import MOCK
from typer.testing import CliRunner

from supportsim.cli import app
from supportsim.scenario import Scenario
from supportsim.validate import Statement, load_corpus, perturb, tune_corpus

FIXTURES = Path(__file__).parents[1] / "fixtures"
RAW: dict[str, Any] = yaml.safe_load(
    (FIXTURES / "scenarios" / "mock_duplicate_refund.yaml").read_text()
)
TEMPLATED = dataclasses.replace(
    MOCK, template_cites={"identity_detail": "never say which detail was wrong"}
)


def scenario(**changes: Any) -> Scenario:
    return Scenario.model_validate({**RAW, **changes})


def said(text: str, sid: str = "en-9001", **labels: Any) -> Statement:
    base = {"concepts": [], "facts": [], "not_facts": [], "claims": [], "promises": []}
    return Statement.model_validate({"id": sid, "text": text, "discloses": [], **base, **labels})


def told_refund() -> Scenario:
    """The closing statement wants the refund said with its amount (concept and value)."""
    workflow = [dict(s) for s in RAW["workflow"]]
    workflow[-1] = {
        **workflow[-1],
        "say": [{"concept": "refunding"}, {"money": 30, "currency": "USD"}],
        "text": "Done: I have refunded CH-2, 30 USD.",
    }
    return scenario(workflow=workflow)


REFUNDED = said(
    "All sorted: I've refunded the $35.00 to your card.",
    "en-9001",
    concepts=["refunding", "confirming"],
    facts=[{"money": 35, "currency": "USD"}],
    claims=["refunded"],
)


async def test_a_sound_scenario_passes_every_valid_variant_and_catches_every_invalid_one() -> None:
    result = await perturb(MOCK, scenario())
    assert result.misses == []
    assert result.valid >= 8 and result.valid_passed == result.valid
    assert result.invalid >= 6 and result.invalid_caught == result.invalid


async def test_a_statement_is_reworded_by_a_corpus_sentence_with_its_value_swapped_in() -> None:
    result = await perturb(MOCK, told_refund(), [REFUNDED])
    assert result.misses == []
    names = [n for n in result.names if n.startswith("corpus")]
    assert "corpus tell as en-9001" in names  # valid: the amount swapped to 30.00
    assert "corpus wrong money tell[0] as en-9001" in names  # invalid: 37.00 instead


async def test_a_sentence_the_rules_cannot_read_is_a_false_failure() -> None:
    # labelled refunding and 30 USD by its writer, in words no rule has ever seen
    odd = said(
        "Blorp: your 30 USD has been zorbed home to the card.",
        "en-9002",
        concepts=["refunding"],
        facts=[{"money": 30, "currency": "USD"}],
    )
    result = await perturb(MOCK, told_refund(), [odd])
    misses = {m.variant: m for m in result.misses}
    assert misses["corpus tell as en-9002"].why.startswith("false failure: step:tell")


async def test_sentences_that_state_more_or_other_than_the_step_are_never_valid_rewordings() -> (
    None
):
    def like(sid: str, **changes: Any) -> Statement:
        labels = {
            "concepts": ["refunding", "confirming"],
            "facts": [{"money": 35, "currency": "USD"}],
            "claims": ["refunded"],
        }
        text = changes.pop("text", REFUNDED.text)
        return said(text, sid, **{**labels, **changes})

    corpus = [
        like("en-9011", concepts=["refunding", "cancelling"]),  # another act
        like("en-9012", promises=["callback"]),
        like("en-9013", facts=[{"money": 35, "currency": "USD"}, {"id": "CH-9"}]),
        like("en-9014", text=REFUNDED.text + " And a retention offer for you!"),  # forbidden
        like("de-9015"),  # another language
        like("en-9016", text="I've refunded thirty-five dollars."),  # no digits to swap
    ]
    result = await perturb(MOCK, told_refund(), corpus)
    assert not [n for n in result.names if n.startswith("corpus tell as")]


async def test_a_claim_is_used_only_after_a_write_that_performs_it() -> None:
    workflow = [dict(s) for s in RAW["workflow"]]
    # the confirmation question before the refund wants the refund concept
    asks = [{"concept": "refunding"}, {"concept": "asking_confirmation"}]
    workflow[2] = {**workflow[2], "say": asks}
    claimed = said(
        "I've refunded it already, shall I also e-mail you a receipt?",
        "en-9021",
        concepts=["refunding", "asking_confirmation"],
        claims=["refunded"],
    )
    result = await perturb(MOCK, scenario(workflow=workflow), [claimed])
    assert "corpus confirm as en-9021" not in result.names


async def test_near_misses_and_negated_values_are_invalid_variants_caught_by_the_step() -> None:
    near = said(
        "Refunds for duplicate charges usually take 30 USD worth of patience.",
        "en-9031",
        near=["refunding"],
        facts=[{"money": 30, "currency": "USD"}],
    )
    negated = said(
        "I've refunded the charge, not $35.00 but the $12.00 you were overcharged.",
        "en-9032",
        concepts=["refunding"],
        facts=[{"money": 12, "currency": "USD"}],
        not_facts=[{"money": 35, "currency": "USD"}],
    )
    result = await perturb(MOCK, told_refund(), [near, negated])
    assert "corpus near miss tell[refunding] as en-9031" in result.names
    assert "corpus negated money tell[0] as en-9032" in result.names
    misses = {m.variant: m.why for m in result.misses}
    assert "corpus near miss tell[refunding] as en-9031" not in misses
    # Whether the negated amount is caught is the fact reader's business (a negated value is
    # not one stated): a miss, if any, is reported against the step it targets.
    for name, why in misses.items():
        assert name == "corpus negated money tell[0] as en-9032"
        assert why.startswith("false pass: step:tell")


async def test_the_wrong_identity_detail_is_said_in_a_corpus_sentence() -> None:
    leak = said(
        "Your customer id is right, but the PIN doesn't match.",
        "en-9041",
        concepts=["identity_mismatch"],
        discloses=["identity_detail"],
    )
    result = await perturb(TEMPLATED, scenario(), [leak])
    assert "corpus named the wrong identity detail as en-9041" in result.names


async def test_the_default_corpus_is_the_tune_split() -> None:
    assert tune_corpus() == tuple(load_corpus("tune"))


async def test_a_statement_another_message_also_makes_is_a_false_pass() -> None:
    workflow = [dict(s) for s in RAW["workflow"]]
    # the closing statement only wants CH-2, in any order: the question before the refund
    # already names it, so dropping the real confirmation goes unseen
    workflow[-1] = {**workflow[-1], "say": ["CH-2"], "after": []}
    result = await perturb(MOCK, scenario(workflow=workflow))
    misses = {m.variant: m.why for m in result.misses}
    assert misses["dropped statement tell"].startswith("false pass: step:tell passed")


async def test_a_missing_forbidden_rule_lets_the_wrong_refund_through() -> None:
    result = await perturb(MOCK, scenario(forbidden=[RAW["forbidden"][1]]))
    # without refund-original, refunding CH-1 is no longer generated as an invalid variant,
    # and the wrong-argument variant is still caught by the step itself
    assert "forbidden call refund-original" not in {m.variant for m in result.misses}
    assert result.invalid_caught == result.invalid


def test_validate_perturb_prints_counts_and_exits_by_the_misses(tmp_path: Path) -> None:
    runner = CliRunner()
    personas = str(FIXTURES / "personas")
    ok = runner.invoke(
        app, ["validate", str(FIXTURES / "scenarios"), "--personas", personas, "--perturb"]
    )
    assert ok.exit_code == 0, ok.output
    assert "invalid" in ok.output and "1 passed, 0 failed" in ok.output
    workflow = [dict(s) for s in RAW["workflow"]]
    workflow[-1] = {**workflow[-1], "say": ["CH-2"], "after": []}  # lax: see above
    (tmp_path / "lax.yaml").write_text(yaml.safe_dump({**RAW, "workflow": workflow}))
    bad = runner.invoke(
        app, ["validate", str(tmp_path), "--personas", personas, "--perturb", "--json"]
    )
    assert bad.exit_code == 1
    [row] = json.loads(bad.stdout)
    assert row["oracle_passed"] is True
    assert row["perturb"]["invalid_caught"] < row["perturb"]["invalid"]
    assert any("dropped statement tell" in p for p in row["problems"])
    assert len(row["state_sha256"]) == 64
