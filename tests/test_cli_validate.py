"""``supportsim validate``: exit 0 when every oracle passes, 1 when one fails, 2 on bad input.

These run the real CLI, which loads ``builtin_domains()``: they need every built-in domain
to import cleanly.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from supportsim.cli import app

ROOT = Path(__file__).parents[1]
BROKEN = Path("tests/fixtures/broken/scenarios")
FIXTURE = Path("tests/fixtures/scenarios/mock_duplicate_refund.yaml")


@pytest.fixture(autouse=True)
def at_repo_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def validate(*args: str) -> Result:
    # a wide terminal, so no file name is wrapped across lines
    return CliRunner().invoke(app, ["validate", *args], env={"COLUMNS": "400"})


def test_the_fixture_scenarios_pass_their_oracle() -> None:
    result = validate("tests/fixtures/scenarios", "--personas", "tests/fixtures/personas")
    assert result.exit_code == 0, result.output
    assert "mock-duplicate-refund" in result.output
    assert "1 passed, 0 failed" in result.output


def test_broken_scenarios_exit_2_and_name_every_broken_file() -> None:
    result = validate(str(BROKEN), "--personas", "tests/fixtures/personas")
    assert result.exit_code == 2, result.output
    broken = sorted(p for p in BROKEN.glob("*.yaml") if p.name != "dup_id_a.yaml")
    assert len(broken) == 14
    for path in broken:
        assert f"{path}:" in result.output, path
    assert "error: 14 problem(s)" in result.output
    assert (
        f"{BROKEN / 'unknown_arg.yaml'}:16 [workflow[1].args.chrage_id]: "
        "refund_charge has no argument 'chrage_id'"
    ) in result.output
    assert f"{BROKEN / 'unknown_promise.yaml'}:16 [forbidden[0].disclose[1].promise]" in (
        result.output
    )
    assert "passed" not in result.output


def test_broken_personas_exit_2_and_name_both_files() -> None:
    result = validate("tests/fixtures/scenarios", "--personas", "tests/fixtures/broken/personas")
    assert result.exit_code == 2, result.output
    assert "tests/fixtures/broken/personas/twin_b.yaml:1 [id]" in result.output
    assert "tests/fixtures/broken/personas/unknown_field.yaml:4 [patince]" in result.output


def test_a_scenario_its_oracle_cannot_pass_exits_1(tmp_path: Path) -> None:
    text = FIXTURE.read_text()
    # the closing message no longer says "refund": the last say step cannot pass
    old = "text: Done, the refund of 30 USD for CH-2 is on its way."
    assert old in text
    bad = tmp_path / "unpassable.yaml"
    bad.write_text(
        text.replace(old, "text: Done, it is on its way.").replace(
            "id: mock-duplicate-refund", "id: mock-unpassable"
        )
    )
    result = validate(str(bad), "--personas", "tests/fixtures/personas")
    assert result.exit_code == 1, result.output
    assert "mock-unpassable" in result.output
    assert "0 passed, 1 failed" in result.output


def test_one_failing_oracle_among_passing_ones_exits_1(tmp_path: Path) -> None:
    text = FIXTURE.read_text()
    (tmp_path / "good.yaml").write_text(text)
    (tmp_path / "bad.yaml").write_text(
        text.replace("id: mock-duplicate-refund", "id: mock-unpassable").replace(
            'say: [CH-2, "30",', 'say: [CH-2, "45",'
        )
    )
    result = validate(str(tmp_path), "--personas", "tests/fixtures/personas")
    assert result.exit_code == 1, result.output
    assert "1 passed, 1 failed" in result.output


# --- hostile or mistaken input: exit 2 with the file and line, never a traceback or a hang --


@pytest.mark.parametrize(
    ("tail", "message"),
    [
        ("notes: " + "[" * 5000 + "]" * 5000 + "\n", "nested deeper than 64 levels"),
        ("max_turns: " + "9" * 5000 + "\n", "[max_turns]: integer longer than 40 digits"),
        ("notes: &n [a, b]\nmore: [*n, *n]\n", "YAML aliases (*n) are not accepted"),
    ],
    ids=["deep", "long-int", "alias"],
)
def test_hostile_yaml_exits_2_naming_file_and_line(tmp_path: Path, tail: str, message: str) -> None:
    text = FIXTURE.read_text()
    lines = len(text.splitlines())
    bad = tmp_path / "hostile.yaml"
    bad.write_text(text + tail)
    result = validate(str(bad), "--personas", "tests/fixtures/personas")
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    where = lines + (2 if "alias" in message else 1)
    assert f"{bad}:{where}" in result.output and message in result.output
    assert "Traceback" not in result.output


def test_a_named_pipe_among_the_scenarios_is_refused_by_name(tmp_path: Path) -> None:
    import os
    import signal

    (tmp_path / "good.yaml").write_text(FIXTURE.read_text())
    os.mkfifo(tmp_path / "pipe.yaml")

    def hung(signum: int, frame: object) -> None:  # the bug: open() waits for a writer
        raise AssertionError("validate blocked on the named pipe")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.setitimer(signal.ITIMER_REAL, 60)
    try:
        result = validate(str(tmp_path), "--personas", "tests/fixtures/personas")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert result.exit_code == 2, result.output
    assert f"{tmp_path / 'pipe.yaml'}: not a regular file" in result.output


def test_a_missing_personas_folder_is_named(tmp_path: Path) -> None:
    result = validate(str(FIXTURE), "--personas", str(tmp_path / "no-such-personas"))
    assert result.exit_code == 2, result.output
    assert f"{tmp_path / 'no-such-personas'}: no such folder or file" in result.output


def test_json_is_one_array_with_an_object_per_scenario() -> None:
    """One JSON document (``json.load``, ``jq '.[]'``), not one object per line: the docs
    say so (docs/reference/cli.md is generated from this help text)."""
    import json

    result = validate("tests/fixtures/scenarios", "--personas", "tests/fixtures/personas", "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    ids = sorted(p.stem for p in (ROOT / "tests/fixtures/scenarios").glob("*.yaml"))
    assert isinstance(rows, list) and len(rows) == len(ids)
    for row in rows:
        assert {"id", "source", "domain", "oracle_passed", "partial", "problems"} <= set(row)
        assert row["oracle_passed"] is True
