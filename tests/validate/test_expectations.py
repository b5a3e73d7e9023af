"""The counted expectation files only shrink: a new failure and a listed one that holds now
both fail the comparison, and so does a count that does not match the lines."""

from __future__ import annotations

from pathlib import Path

import pytest
from expectations import Known, compare_known, write_known

A = Known(scenario="s1", kind="valid", check="step:confirm", why="lacks concept")
B = Known(scenario="s2", kind="sloppy", check="refund", why="scores strict 1")


def test_a_written_list_agrees_with_what_it_was_written_from(tmp_path: Path) -> None:
    path = tmp_path / "known.yaml"
    write_known(path, "header line", [B, A])
    text = path.read_text()
    assert text.startswith("# header line\ncounts: {sloppy: 1, valid: 1}\nknown:\n")
    assert len(text.splitlines()) == 5  # one line per failure
    assert compare_known(path, "header line", [A, B]) == []
    # The reason is documentation: a listed failure that fails another way is still listed.
    assert compare_known(path, "", [A.model_copy(update={"why": "other"}), B]) == []


def test_a_new_failure_and_one_that_holds_now_are_both_reported(tmp_path: Path) -> None:
    path = tmp_path / "known.yaml"
    write_known(path, "", [A])
    (new,) = compare_known(path, "", [A, B])
    assert new.startswith("new failure") and "s2 sloppy refund" in new
    (fixed,) = compare_known(path, "", [])
    assert "holds now (remove the line)" in fixed and "s1 valid step:confirm" in fixed


def test_counts_must_match_the_lines(tmp_path: Path) -> None:
    path = tmp_path / "known.yaml"
    write_known(path, "", [A, B])
    path.write_text(path.read_text().replace("valid: 1", "valid: 2"))
    (problem,) = compare_known(path, "", [A, B])
    assert "counts" in problem


def test_the_rewrite_switch_writes_and_still_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "known.yaml"
    monkeypatch.setenv("SUPPORTSIM_WRITE_KNOWN", "1")
    (message,) = compare_known(path, "", [A])
    assert "rewritten" in message and path.exists()
    monkeypatch.delenv("SUPPORTSIM_WRITE_KNOWN")
    assert compare_known(path, "", [A]) == []
