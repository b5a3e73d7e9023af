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
    assert len(broken) == 13
    for path in broken:
        assert f"{path}:" in result.output, path
    assert "error: 13 problem(s)" in result.output
    assert (
        f"{BROKEN / 'unknown_arg.yaml'}:16 [workflow[1].args.chrage_id]: "
        "refund_charge has no argument 'chrage_id'"
    ) in result.output
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
