"""Proof by perturbation: valid variants of a sound scenario all pass, invalid ones are all
caught by the check they target; a brittle check shows up as a false failure and a lax one as
a false pass."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from scoring_helpers import MOCK
from typer.testing import CliRunner

from supportsim.cli import app
from supportsim.scenario import Scenario
from supportsim.scoring import perturb

FIXTURES = Path(__file__).parents[1] / "fixtures"
RAW: dict[str, Any] = yaml.safe_load(
    (FIXTURES / "scenarios" / "mock_duplicate_refund.yaml").read_text()
)


def scenario(**changes: Any) -> Scenario:
    return Scenario.model_validate({**RAW, **changes})


async def test_a_sound_scenario_passes_every_valid_variant_and_catches_every_invalid_one() -> None:
    result = await perturb(MOCK, scenario())
    assert result.misses == []
    assert result.valid >= 10 and result.valid_passed == result.valid
    assert result.invalid >= 6 and result.invalid_caught == result.invalid


def brittle() -> list[dict[str, Any]]:
    """The closing statement wants the concept AND its one English spelling."""
    workflow = [dict(s) for s in RAW["workflow"]]
    workflow[-1] = {**workflow[-1], "say": [{"concept": "refunding"}, "refund"]}
    return workflow


async def test_a_check_that_wants_one_spelling_is_a_false_failure() -> None:
    result = await perturb(MOCK, scenario(workflow=brittle()))
    names = {m.variant for m in result.misses if m.expect == "valid"}
    assert any(name.startswith("reworded tell[0]") for name in names), names
    assert all(m.why.startswith("false failure") for m in result.misses if m.expect == "valid")


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
    (tmp_path / "brittle.yaml").write_text(yaml.safe_dump({**RAW, "workflow": brittle()}))
    bad = runner.invoke(
        app, ["validate", str(tmp_path), "--personas", personas, "--perturb", "--json"]
    )
    assert bad.exit_code == 1
    import json

    [row] = json.loads(bad.stdout)
    assert row["oracle_passed"] is True
    assert row["perturb"]["valid_passed"] < row["perturb"]["valid"]
    assert any("reworded tell[0]" in p for p in row["problems"])
    assert len(row["state_sha256"]) == 64
