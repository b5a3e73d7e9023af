"""The run's ``conversation_mode`` (run config field, ``--conversation-mode``) reaches units."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from supportsim.batch import RunConfig, with_overrides
from supportsim.cli import app
from supportsim.errors import ScenarioError

TESTS = Path(__file__).parents[1]


@pytest.mark.parametrize("mode", ["auto", "supportsim", "tau2"])
def test_each_mode_is_accepted_from_the_file_or_a_flag(mode: str) -> None:
    assert RunConfig(conversation_mode=mode).conversation_mode == mode  # type: ignore[arg-type]
    assert with_overrides(RunConfig(), {"conversation_mode": mode}).conversation_mode == mode
    assert RunConfig().conversation_mode == "auto"


def test_an_unknown_mode_names_the_field() -> None:
    with pytest.raises(ScenarioError, match=r"command line \[conversation_mode\]"):
        with_overrides(RunConfig(), {"conversation_mode": "tau3"})


def _run(tmp_path: Path, *extra: str) -> tuple[int, str, list[dict[str, object]]]:
    out = tmp_path / "runs"
    args = [
        "run",
        "--scenarios",
        str(TESTS / "batch" / "scenarios"),
        "--personas",
        str(TESTS / "fixtures" / "personas"),
        "--out",
        str(out),
        "--id",
        "mock-charge-lookup",
        "--run-id",
        "r",
        *extra,
    ]
    result = CliRunner().invoke(app, args, env={"COLUMNS": "400"})
    lines = (out / "r" / "conversations.jsonl").read_text().splitlines() if out.exists() else []
    return result.exit_code, result.output, [json.loads(line) for line in lines]


def test_the_flag_holds_our_scenario_by_tau2s_conventions(tmp_path: Path) -> None:
    code, output, (record,) = _run(tmp_path, "--conversation-mode", "tau2")
    assert code == 0, output
    assert record["messages"][0] == {**record["messages"][0], "role": "agent"}
    assert record["messages"][0]["content"] == "Hi! How can I help you today?"


def test_without_the_flag_our_scenario_keeps_our_conventions(tmp_path: Path) -> None:
    code, output, (record,) = _run(tmp_path)
    assert code == 0, output
    assert record["messages"][0]["role"] == "customer"


def test_a_bad_flag_value_exits_2_naming_the_field(tmp_path: Path) -> None:
    code, output, records = _run(tmp_path, "--conversation-mode", "tau3")
    assert code == 2 and "conversation_mode" in output and "Traceback" not in output
    assert records == []
