"""The run directory: append-only conversations.jsonl, run.json, summary.json.

Records are appended one line each and written to the file at once (a killed process
loses nothing that finished: the kernel has the bytes). ``sync`` fsyncs them for power
loss; the batch runner calls it a few times a second rather than per record, because one
fsync blocks the event loop for milliseconds. A torn last line (a crash mid-write) is
detected and dropped on read and truncated away before appending resumes. JSON documents
are replaced atomically.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import orjson
from pydantic import BaseModel, ValidationError

from supportsim.errors import InputError
from supportsim.store._records import ConversationRecord

CONVERSATIONS = "conversations.jsonl"
MANIFEST = "run.json"
SUMMARY = "summary.json"
M = TypeVar("M", bound=BaseModel)


def write_json(path: Path, data: Any) -> None:
    """Write a JSON document atomically (temp file, fsync, rename)."""
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("wb") as f:
        f.write(orjson.dumps(data, option=orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS))
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def read_json(path: Path) -> Any:
    return orjson.loads(path.read_bytes())


def iter_jsonl(path: Path, model: type[M]) -> Iterator[M]:
    """Every complete line of a JSONL file as ``model``, in file order; a torn last line or
    an invalid line is skipped (readers of a run still being written see what finished)."""
    if not path.exists():
        return
    with path.open("rb") as f:
        for line in f:
            if not line.endswith(b"\n"):
                return  # torn last line: the process died mid-write
            try:
                yield model.model_validate_json(line)
            except ValidationError:  # invalid JSON is a ValidationError too
                continue


def iter_records(run_dir: Path) -> Iterator[ConversationRecord]:
    """Every complete record of a run directory, in file order."""
    return iter_jsonl(run_dir / CONVERSATIONS, ConversationRecord)


def latest_records(run_dir: Path) -> dict[str, ConversationRecord]:
    """The last record of each unit (readers take a unit's last record)."""
    return {r.unit_id: r for r in iter_records(run_dir)}


def final_unit_ids(records: Iterable[ConversationRecord]) -> set[str]:
    """Units that have a final record: any status but infra_error (which resume retries)."""
    return {r.unit_id for r in records if r.status != "infra_error"}


class JsonlWriter:
    """Appends pydantic models to a JSONL file, one line each. Opening repairs a torn last
    line left by a crash.

    Args:
        path: The file (its folder must exist).
        fsync_each: fsync after every line (simple, ~4 ms each: right when a line costs
            seconds of model time); otherwise call ``sync`` periodically and ``close``.
    """

    def __init__(self, path: Path, *, fsync_each: bool = False) -> None:
        self.path = path
        _drop_torn_tail(self.path)
        self._file = self.path.open("ab")
        self._fsync_each = fsync_each
        self._dirty = False
        self.written = 0

    def append(self, item: BaseModel) -> None:
        """Write one line and hand it to the kernel (survives SIGKILL)."""
        self._file.write(item.__pydantic_serializer__.to_json(item) + b"\n")
        self._file.flush()
        self.written += 1
        self._dirty = True
        if self._fsync_each:
            self.sync()

    def sync(self) -> None:
        """fsync what was appended since the last sync (survives power loss)."""
        if self._dirty and not self._file.closed:
            os.fsync(self._file.fileno())
            self._dirty = False

    def close(self) -> None:
        if not self._file.closed:
            self.sync()
            self._file.close()


class RecordWriter(JsonlWriter):
    """Appends conversation records to a run directory's conversations.jsonl."""

    def __init__(self, run_dir: Path, *, fsync_each: bool = False) -> None:
        super().__init__(run_dir / CONVERSATIONS, fsync_each=fsync_each)


def _drop_torn_tail(path: Path) -> None:
    if not path.exists() or path.stat().st_size == 0:
        return
    data = path.read_bytes()
    if data.endswith(b"\n"):
        return
    keep = data.rfind(b"\n") + 1
    with path.open("r+b") as f:
        f.truncate(keep)
        f.flush()
        os.fsync(f.fileno())


class RunLock:
    """One writer per run directory: an exclusive ``flock`` on ``<run>/.lock``.

    Two processes resuming one run at once would run its units twice; the second is
    refused instead. The kernel drops the lock when the process dies, so a crash never
    leaves a run locked.

    Raises:
        InputError: another process (or another session in this one) holds the run.
    """

    def __init__(self, run_dir: Path) -> None:
        self._file = (run_dir / ".lock").open("a+b")
        try:
            fcntl.flock(self._file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self._file.close()
            raise InputError(
                f"{run_dir} is being written by another supportsim session; wait for it to "
                "end (or stop it) before resuming"
            ) from None

    def release(self) -> None:
        if not self._file.closed:
            fcntl.flock(self._file.fileno(), fcntl.LOCK_UN)
            self._file.close()
