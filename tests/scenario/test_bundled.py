"""Where scenario and persona paths resolve (the bundled copy only when there is no local
folder), and ``init_workspace`` (copies everything, overwrites nothing)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from supportsim.cli import app
from supportsim.errors import InputError
from supportsim.scenario import (
    bundled_root,
    find_suites_file,
    init_workspace,
    load_personas,
    resolve_data_path,
)

REPO = Path(__file__).parents[2]


def test_the_bundle_is_found_in_a_checkout() -> None:
    root = bundled_root()
    assert root is not None
    assert (root / "scenarios" / "suites.yaml").is_file()
    assert (root / "personas").is_dir()
    assert (root / "runs" / "demo.yaml").is_file()


def test_without_a_local_folder_the_bundled_one_is_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    root = bundled_root()
    assert root is not None
    assert resolve_data_path(Path("scenarios")) == root / "scenarios"
    assert resolve_data_path(Path("scenarios/retail")) == root / "scenarios" / "retail"
    assert resolve_data_path(Path("personas")) == root / "personas"
    assert find_suites_file(["scenarios"]) == root / "scenarios" / "suites.yaml"
    assert "angry" in load_personas([Path("personas")])


def test_a_local_folder_always_wins_and_other_paths_stay_as_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "scenarios").mkdir()
    # ./scenarios exists: even a path missing inside it is not taken from the bundle,
    # so the loader's error names what the user typed.
    assert resolve_data_path(Path("scenarios")) == Path("scenarios")
    assert resolve_data_path(Path("scenarios/retail")) == Path("scenarios/retail")
    assert find_suites_file(["scenarios"]) is None
    assert resolve_data_path(Path("my_cases")) == Path("my_cases")
    assert resolve_data_path(Path("personas/none-such")) == Path("personas/none-such")
    absolute = tmp_path / "elsewhere" / "scenarios"
    assert resolve_data_path(absolute) == absolute


def test_init_copies_the_bundle(tmp_path: Path) -> None:
    written = init_workspace(tmp_path / "ws")
    root = bundled_root()
    assert root is not None
    assert Path("scenarios/suites.yaml") in written
    assert Path("runs/demo.yaml") in written
    for rel in written:
        assert (tmp_path / "ws" / rel).read_bytes() == (root / rel).read_bytes()
    assert len(written) == len(set(written))


def test_init_refuses_an_existing_file_and_writes_nothing(tmp_path: Path) -> None:
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "demo.yaml").write_text("mine", encoding="utf-8")
    with pytest.raises(InputError, match=r"runs/demo\.yaml: already exists"):
        init_workspace(tmp_path)
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["demo.yaml", "runs"]
    assert (tmp_path / "runs" / "demo.yaml").read_text(encoding="utf-8") == "mine"


def test_init_refuses_a_file_as_the_folder(tmp_path: Path) -> None:
    target = tmp_path / "a-file"
    target.write_text("x", encoding="utf-8")
    with pytest.raises(InputError, match="not a folder"):
        init_workspace(target)


def test_init_command_exit_codes(tmp_path: Path) -> None:
    runner = CliRunner()
    first = runner.invoke(app, ["init", str(tmp_path / "ws")], env={"COLUMNS": "300"})
    assert first.exit_code == 0, first.output
    assert "supportsim run --config runs/demo.yaml" in first.output
    again = runner.invoke(app, ["init", str(tmp_path / "ws")], env={"COLUMNS": "300"})
    assert again.exit_code == 2
    assert "already exists" in again.output
    assert "Traceback" not in again.output
