"""Workers started early (``_early_workers``): ``supportsim run --workers N`` starts them
before its heavy imports, the local launcher takes them for the hub, tells each where the
hub is on its stdin, and none is left behind when fewer are needed."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from batch_helpers import LOOKUP, PERSONAS, SCENARIOS, exited, once_each, records, request, run

from supportsim import _early_workers
from supportsim.batch import read_manifest
from supportsim.batch._launch import LocalLauncher
from supportsim.testing import MockLLMServer

pytestmark = pytest.mark.skipif(
    not hasattr(__import__("os"), "pidfd_open"), reason="early workers need os.pidfd_open"
)


@pytest.fixture(autouse=True)
def none_left() -> Iterator[None]:
    yield
    _early_workers.discard()


async def test_a_run_takes_the_early_workers_and_leaves_none_running(
    server: MockLLMServer, out: Path
):
    early = _early_workers.start_early(3)
    assert len(early) == 3 and _early_workers.waiting() == 3
    session, _ = await run(
        server, request(out, agents=["oracle"], trials=4, concurrency=4, workers=2)
    )
    assert session.status == "completed"
    assert len(once_each(session)) == len(records(session)) > 0
    workers = read_manifest(session.run_dir)["sessions"][0]["workers"]
    assert workers["count"] == 2 and workers["restarts"] == 0 and workers["lost"] == 0
    # Two served the run and exited when it ended; the third was never needed: killed.
    assert _early_workers.waiting() == 0
    codes = sorted(process.returncode for process in early)
    assert codes == [-9, 0, 0], codes


CRASH = "import sys; sys.stderr.write('Traceback ...\\nImportError: no agent here\\n'); sys.exit(3)"
"""A worker that dies at import, saying why on its stderr."""


async def crashed_early(monkeypatch: pytest.MonkeyPatch) -> subprocess.Popen[bytes]:
    """One early worker that has died at import (not yet reaped), the command restored."""
    with monkeypatch.context() as patch:
        patch.setattr(_early_workers, "worker_command", lambda: [sys.executable, "-c", CRASH])
        (early,) = _early_workers.start_early(1)
    await exited(early.pid)
    return early


async def test_an_early_worker_dead_before_it_is_taken_says_why_through_its_handle(
    monkeypatch: pytest.MonkeyPatch,
):
    """Found by a review: ``take`` skipped (and closed) an early worker that had died, so
    what it wrote on its stderr was lost. It is handed over like a live one: telling it
    where the hub is finds a closed pipe (no error), and its wait reports its exit with the
    last line it wrote, read through the loop's pipe transport."""
    early = await crashed_early(monkeypatch)
    handle = await LocalLauncher().start("w0", 1, "token")
    assert (handle.pid, handle.describe()) == (early.pid, f"pid {early.pid}")
    how = await handle.wait()
    assert how == f"(pid {early.pid}) exited with code 3: ImportError: no agent here"
    assert list(handle.tail) == ["Traceback ...", "ImportError: no agent here"]
    assert _early_workers.waiting() == 0 and early.returncode == 3  # reaped


async def test_a_run_counts_an_early_worker_that_died_as_lost_and_replaces_it(
    server: MockLLMServer, out: Path, monkeypatch: pytest.MonkeyPatch
):
    await crashed_early(monkeypatch)
    session, _ = await run(server, request(out, agents=["oracle"], trials=2, workers=2))
    assert session.status == "completed" and len(once_each(session)) > 0
    workers = read_manifest(session.run_dir)["sessions"][0]["workers"]
    assert (workers["lost"], workers["restarts"]) == (1, 1)  # was (0, 0): never heard of


def test_a_run_command_that_needs_no_worker_ends_the_early_ones(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
):
    """One unit: the run stays in one process, and the command ends the workers it started
    early for ``--workers 2`` when it ends (the session never saw them)."""
    started: list[subprocess.Popen[bytes]] = []
    real = _early_workers.start_early
    monkeypatch.setattr(_early_workers, "start_early", lambda n: started.extend(real(n)) or started)
    monkeypatch.setattr(_early_workers, "usable_cores", lambda: 2)
    from typer.testing import CliRunner

    from supportsim.cli import app

    args = ["run", "--scenarios", str(SCENARIOS), "--id", LOOKUP, "--personas", str(PERSONAS)]
    args += ["--agent", "oracle", "--customer", "scripted", "--workers", "2"]
    result = CliRunner().invoke(app, [*args, "--out", str(tmp_path), "--run-id", "one"])
    assert result.exit_code == 0, result.output
    assert read_manifest(tmp_path / "one")["sessions"][0].get("workers") is None  # in-process
    assert (
        len(started) == 1 and _early_workers.waiting() == 0
    )  # 2 cores: one, the other the driver's
    assert [process.returncode for process in started] == [-9]


def test_an_early_worker_whose_stdin_ends_before_it_is_told_exits_quietly():
    """The driver exited (or was SIGKILLed) before it needed this worker."""
    worker = subprocess.run(
        _early_workers.worker_command(),
        env=_early_workers.worker_environment(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=300,  # a guard against a worker that would wait for ever, not a speed bound
    )
    assert (worker.returncode, worker.stdout, worker.stderr) == (0, b"", b"")


def test_no_worker_is_started_early_for_one_or_for_more_than_a_config_allows(
    monkeypatch: pytest.MonkeyPatch,
):
    assert _early_workers.start_early(0) == []
    assert _early_workers.start_early(_early_workers.MAX_WORKERS + 1) == []
    assert _early_workers.waiting() == 0
    for cores, workers, early in ((2, "1", 0), (2, "2", 1), (8, "4", 4), (8, "16", 7), (1, "2", 1)):
        monkeypatch.setattr(_early_workers, "usable_cores", lambda n=cores: n)
        assert _early_workers.early_count(workers, None) == early, (cores, workers)
    assert _early_workers.early_count("1025", None) == 0


def test_the_run_command_starts_them_only_for_an_explicit_count_without_ray(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
):
    asked: list[int] = []
    started: list[subprocess.Popen[bytes]] = []
    real = _early_workers.start_early

    def start_early(count: int) -> list[subprocess.Popen[bytes]]:
        asked.append(count)
        started.extend(real(count))
        return started

    monkeypatch.setattr(_early_workers, "start_early", start_early)
    monkeypatch.setattr(_early_workers, "usable_cores", lambda: 2)
    from typer.testing import CliRunner

    from supportsim.cli import app

    runner = CliRunner()
    for extra in (
        ["--workers", "3"],  # one per core but one: 1 early on 2 cores, the hub starts the rest
        ["--workers", "auto"],
        ["--workers", "2", "--ray", "local"],
        ["--workers", "1"],
        [],
    ):
        # a bad run id ends each invocation before anything is run or written
        result = runner.invoke(app, ["run", "--run-id", "../bad", "--out", str(tmp_path), *extra])
        assert result.exit_code == 2, result.output
    assert asked == [1, 0, 0, 0, 0] and len(started) == 1
    assert not list(tmp_path.iterdir())
    # The command ended on bad input: the workers it started early are ended with it.
    assert _early_workers.waiting() == 0
    assert [process.returncode for process in started] == [-9]


@pytest.mark.parametrize("value", ["\u00b2", "2.0", "-2", "two"])
def test_a_workers_value_that_is_no_plain_number_is_bad_input_naming_the_field(
    value: str, tmp_path: Path
):
    from typer.testing import CliRunner

    from supportsim.cli import app

    result = CliRunner().invoke(app, ["run", "--workers", value, "--out", str(tmp_path)])
    assert result.exit_code == 2, result.output
    assert "workers" in result.output and "Traceback" not in result.output
    assert _early_workers.waiting() == 0 and not list(tmp_path.iterdir())
