"""Bad input to the ``supportsim`` commands exits 2 with a message naming the flag, field or
file, writes nothing, and never shows a traceback.

Names that become folders (``--run-id``, a run config's ``name``) must be one safe path
segment: nothing may be written outside ``--out``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from supportsim.cli import app

TESTS = Path(__file__).parent
SCENARIOS = TESTS / "batch" / "scenarios"
PERSONAS = TESTS / "fixtures" / "personas"


def invoke(*args: str) -> Result:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "400"})


def run_args(out: Path, *extra: str) -> list[str]:
    return [
        "run",
        "--scenarios",
        str(SCENARIOS),
        "--personas",
        str(PERSONAS),
        "--out",
        str(out),
        "--id",
        "mock-charge-lookup",
        *extra,
    ]


def files_under(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*")) if folder.exists() else []


def assert_input_error(result: Result, *needles: str) -> None:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    for needle in needles:
        assert needle in result.output, result.output


def test_a_plain_run_id_is_accepted(tmp_path: Path) -> None:
    result = invoke(*run_args(tmp_path / "runs", "--run-id", "nightly-2026.01_a"))
    assert result.exit_code == 0, result.output
    assert (tmp_path / "runs" / "nightly-2026.01_a" / "run.json").exists()


@pytest.mark.parametrize(
    "run_id",
    ["../../escaped", "ABSOLUTE", "a/b/c", "x" * 300, "bad\x1b[31mred", "..", ".hidden"],
    ids=["dotdot", "absolute", "nested", "300-chars", "escape", "parent", "hidden"],
)
def test_a_run_id_that_is_not_one_folder_name_exits_2(tmp_path: Path, run_id: str) -> None:
    out = tmp_path / "deep" / "runs"
    run_id = run_id.replace("ABSOLUTE", str(tmp_path / "absolute-run"))
    result = invoke(*run_args(out, "--run-id", run_id))
    assert_input_error(result, "--run-id:")
    assert files_under(tmp_path) == []  # nothing written, inside --out or outside it


def test_a_run_id_with_nul_is_refused_where_it_enters() -> None:
    # argv cannot carry NUL, so the check is exercised directly
    from supportsim.batch import check_run_id
    from supportsim.errors import InputError

    assert check_run_id("ok-1") == "ok-1"
    with pytest.raises(InputError, match="--run-id: one folder name"):
        check_run_id("a\x00b")
    with pytest.raises(InputError, match="--run-id: must not be empty"):
        check_run_id("")


@pytest.mark.parametrize(
    "name", ["../../escaped", "/abs", "a/b", "y" * 300, "tab\there"], ids=str.__len__
)
def test_a_config_name_that_is_not_one_folder_name_exits_2_naming_the_field(
    tmp_path: Path, name: str
) -> None:
    config = tmp_path / "nightly.yaml"
    config.write_text(f"name: {name!r}\n".replace("'", '"'), encoding="utf-8")
    out = tmp_path / "deep" / "runs"
    result = invoke(*run_args(out, "--config", str(config)))
    assert_input_error(result, f"{config}:1 [name]")
    assert files_under(tmp_path) == [config]


def test_a_config_file_name_becomes_a_safe_default_name(tmp_path: Path) -> None:
    config = tmp_path / "my nightly (v2).yaml"
    config.write_text("trials: 1\n", encoding="utf-8")
    result = invoke(*run_args(tmp_path / "runs", "--config", str(config)))
    assert result.exit_code == 0, result.output
    [run_dir] = (tmp_path / "runs").iterdir()
    assert run_dir.name.startswith("my-nightly-v2-2")


# --- output paths ------------------------------------------------------------------------


@pytest.fixture
def run_copy(tmp_path: Path) -> Path:
    import shutil

    target = tmp_path / "v1"
    shutil.copytree(TESTS / "fixtures" / "runs" / "v1", target)
    return target


def test_an_html_path_that_is_a_folder_exits_2(run_copy: Path, tmp_path: Path) -> None:
    good = tmp_path / "r.html"
    assert invoke("report", str(run_copy), str(good), "--html").exit_code == 0
    assert good.read_text(encoding="utf-8").startswith("<!doctype html>")
    folder = tmp_path / "reports"
    folder.mkdir()
    result = invoke("report", str(run_copy), str(folder), "--html")
    assert_input_error(result, f"{folder}: is a folder")
    assert files_under(folder) == [] and not (tmp_path / "reports.tmp").exists()
    result = invoke("compare", str(run_copy), str(run_copy), str(folder), "--html")
    assert_input_error(result, f"{folder}: is a folder")


def test_an_html_path_that_cannot_be_written_exits_2(run_copy: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    target = blocker / "report.html"  # its folder is a file: as unwritable as read-only
    result = invoke("report", str(run_copy), str(target), "--html")
    assert_input_error(result, f"{target}: cannot write")


def test_a_mock_server_port_in_use_exits_2() -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = invoke("mock-server", "--port", str(port))
    assert_input_error(result, f"--port {port}: cannot listen on 127.0.0.1:{port}")


def test_an_out_folder_that_cannot_be_created_exits_2(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    out = blocker / "runs"  # as unwritable as a read-only --out, and root cannot bypass it
    result = invoke(*run_args(out, "--run-id", "r1"))
    assert_input_error(result, f"{out / 'r1'}: cannot create the run directory")


@pytest.mark.parametrize("with_flags", [True, False], ids=["flags", "stored-config"])
def test_resuming_a_run_with_a_torn_run_json_exits_2(tmp_path: Path, with_flags: bool) -> None:
    out = tmp_path / "runs"
    assert invoke(*run_args(out, "--run-id", "r1")).exit_code == 0
    manifest = out / "r1" / "run.json"
    whole = manifest.read_bytes()
    manifest.write_bytes(whole[:100])  # torn: a crash while it was rewritten in place
    records = (out / "r1" / "conversations.jsonl").read_bytes()
    args = run_args(out) if with_flags else ["run", "--out", str(out)]
    result = invoke(*args, "--run-id", "r1", "--resume")
    assert_input_error(result, f"{manifest}: cannot read the run manifest (not valid JSON")
    assert manifest.read_bytes() == whole[:100]  # nothing rewritten
    assert (out / "r1" / "conversations.jsonl").read_bytes() == records
    manifest.write_bytes(whole)
    assert invoke(*args, "--run-id", "r1", "--resume").exit_code == 0  # intact: resumes
