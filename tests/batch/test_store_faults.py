"""A store that cannot write (disk full, read-only): the batch stops starting units, lets
running ones finish, leaves run.json terminal and saying why, no temp files, exit 1 with
one line; ``--resume`` after freeing space completes the run. The full disk is injected at
the store's write function, never made by filling a disk."""

from __future__ import annotations

import errno
import io
import json
import os
from collections import Counter
from pathlib import Path

import pytest
from batch_helpers import request
from rich.console import Console

from supportsim.app import run_command
from supportsim.store import CONVERSATIONS, iter_records
from supportsim.store import _files as files

TRIALS = 4
ENOSPC = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def command(out: Path, **overrides: object) -> tuple[int, str, str]:
    text, errors = io.StringIO(), io.StringIO()
    code = run_command(
        request(out, run_id="night", trials=TRIALS, concurrency=2, **overrides),  # type: ignore[arg-type]
        env={},
        console=Console(file=text, width=200),
        err=Console(file=errors, width=200),
    )
    return code, text.getvalue(), errors.getvalue()


def disk_full_after(monkeypatch: pytest.MonkeyPatch, records: int, *, everything: bool) -> None:
    """conversations.jsonl takes ``records`` more lines, then ENOSPC (half a line is
    written first, as a real full disk does). With ``everything``, new files (run.json's
    temp copy, summary.json) fail too from then on; rewriting a file's own blocks works."""
    real = files._write_all
    count = 0

    def write(fd: int, data: bytes) -> None:
        nonlocal count
        path = os.readlink(f"/proc/self/fd/{fd}")
        if path.endswith(CONVERSATIONS):
            count += 1
            if count > records:
                os.write(fd, data[: len(data) // 2])
                raise ENOSPC
        elif everything and count > records and not path.endswith("run.json"):
            raise ENOSPC
        real(fd, data)

    monkeypatch.setattr(files, "_write_all", write)


@pytest.mark.parametrize("everything", [False, True], ids=["records", "whole-disk"])
def test_a_full_disk_stops_the_run_cleanly_and_resume_completes_it(
    out: Path, monkeypatch: pytest.MonkeyPatch, everything: bool
):
    disk_full_after(monkeypatch, 3, everything=everything)
    code, printed, errors = command(out)

    run_dir = out / "night"
    assert code == 1
    assert "Traceback" not in printed + errors
    assert (
        "error: store: No space left on device: stopped starting conversations; running "
        "ones finished" in errors
    )
    manifest = json.loads((run_dir / "run.json").read_text())
    assert manifest["status"] == "stopped"
    assert manifest["stop_reason"] == "store: No space left on device"
    assert not list(run_dir.glob("*.tmp"))
    kept = list(iter_records(run_dir))  # whole lines only: the half line is gone
    assert len(kept) == 3
    assert (run_dir / CONVERSATIONS).read_bytes().endswith(b"}\n")
    assert f"--out {out} --run-id night --resume" in printed
    if everything:
        assert "error: summary.json not written: No space left on device" in errors
        assert not (run_dir / "summary.json").exists()
    else:
        assert manifest["sessions"][-1]["units_recorded"] == 3

    monkeypatch.undo()  # space freed
    code, printed, errors = command(out, resume=True)
    assert code == 0, printed + errors
    every = list(iter_records(run_dir))
    assert len(every) == 2 * TRIALS
    assert set(Counter(r.unit_id for r in every).values()) == {1}
    assert json.loads((run_dir / "run.json").read_text())["status"] == "completed"


def test_a_run_directory_that_cannot_be_created_is_bad_input(
    out: Path, monkeypatch: pytest.MonkeyPatch
):
    def read_only(self: Path, *args: object, **kwargs: object) -> None:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(Path, "mkdir", read_only)
    code, _, errors = command(out)
    assert code == 2
    assert f"{out / 'night'}: cannot create the run directory (Read-only file system)" in errors
    assert "Traceback" not in errors


def test_a_manifest_that_cannot_be_written_at_the_start_leaves_nothing(
    out: Path, monkeypatch: pytest.MonkeyPatch
):
    def full(fd: int, data: bytes) -> None:
        raise ENOSPC

    monkeypatch.setattr(files, "_write_all", full)
    code, _, errors = command(out)
    assert code == 2
    assert "cannot write run.json (No space left on device)" in errors
    assert not (out / "night").exists()
