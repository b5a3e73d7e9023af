"""The run directory: append-only conversations.jsonl, run.json, summary.json.

Records are appended one line each, flushed and fsynced, so a killed run loses nothing
that finished; a torn last line (a crash mid-write) is detected and dropped on read and
truncated away before appending resumes. JSON documents are replaced atomically.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
from pydantic import ValidationError

from supportsim.store._records import ConversationRecord

CONVERSATIONS = "conversations.jsonl"
MANIFEST = "run.json"
SUMMARY = "summary.json"


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


def iter_records(run_dir: Path) -> Iterator[ConversationRecord]:
    """Every complete record in file order; a torn or invalid line is skipped."""
    path = run_dir / CONVERSATIONS
    if not path.exists():
        return
    with path.open("rb") as f:
        for line in f:
            if not line.endswith(b"\n"):
                return  # torn last line: the process died mid-write
            try:
                yield ConversationRecord.model_validate(orjson.loads(line))
            except (orjson.JSONDecodeError, ValidationError):
                continue


def latest_records(run_dir: Path) -> dict[str, ConversationRecord]:
    """The last record of each unit (readers take a unit's last record)."""
    return {r.unit_id: r for r in iter_records(run_dir)}


class RecordWriter:
    """Appends records durably. Opening repairs a torn last line left by a crash."""

    def __init__(self, run_dir: Path) -> None:
        self.path = run_dir / CONVERSATIONS
        _drop_torn_tail(self.path)
        self._file = self.path.open("ab")

    def append(self, record: ConversationRecord) -> None:
        self._file.write(orjson.dumps(record.model_dump(mode="json")) + b"\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()


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
