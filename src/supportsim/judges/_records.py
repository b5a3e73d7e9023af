"""judgments.jsonl, judges.json and human_labels.json in a run directory.

judgments.jsonl is append-only, one judgment (unit, judge, sample) per line, flushed and
fsynced like conversations.jsonl, so a killed judging session loses only the judgments in
flight; resuming makes exactly the judgments without a verdict under the current rubric.
judges.json keeps the rubric the statistics are computed under, and the sessions.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, ValidationError

from supportsim.store import read_json, write_json

JUDGMENTS = "judgments.jsonl"
JUDGES_MANIFEST = "judges.json"
HUMAN_LABELS = "human_labels.json"
SCHEMA_VERSION = 1


class JudgmentRecord(BaseModel):
    """One judge's verdict on one conversation, or the infra error that prevented it.

    ``verdicts`` maps each criterion id (``overall`` included) to ``{"verdict": "pass" |
    "fail", "justification": ...}``; it is empty for an infra error. ``conversation_ended_at``
    ties the judgment to the conversation record it read: if the unit is re-run, the old
    judgment no longer counts. Costs and tokens cover every attempt, the malformed ones too.
    """

    model_config = ConfigDict(extra="ignore")

    schema_version: int = SCHEMA_VERSION
    unit_id: str
    scenario_id: str
    agent: str
    trial: int
    judge: str
    model: str = ""
    sample: int
    rubric: str
    rubric_sha256: str
    status: Literal["ok", "infra_error"]
    verdicts: dict[str, dict[str, str]] = {}
    attempts: int = 0
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost_usd: float | None = None
    llm_ms: float = 0.0
    duration_ms: float = 0.0
    error: str | None = None
    conversation_ended_at: str = ""
    started_at: str
    ended_at: str

    @property
    def key(self) -> tuple[str, str, int]:
        return (self.unit_id, self.judge, self.sample)

    def passed(self, criterion: str) -> bool | None:
        """The verdict on ``criterion`` as a bool; None when absent."""
        found = self.verdicts.get(criterion)
        return None if found is None else found.get("verdict") == "pass"


class JudgmentWriter:
    """Appends judgments durably (write, flush, fsync: a judgment costs seconds of model
    time, so one fsync each is cheap); opening repairs a torn last line left by a crash.

    The same discipline as ``store.RecordWriter``, which is bound to conversations.jsonl;
    to be replaced by a generic store JSONL writer once the store offers one.
    """

    def __init__(self, run_dir: Path) -> None:
        self.path = run_dir / JUDGMENTS
        _drop_torn_tail(self.path)
        self._file = self.path.open("ab")

    def append(self, judgment: JudgmentRecord) -> None:
        self._file.write(judgment.model_dump_json().encode() + b"\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        if not self._file.closed:
            self._file.close()


def _drop_torn_tail(path: Path) -> None:
    """Cut a last line without its newline (a crash mid-write) before appending."""
    if not path.exists() or path.stat().st_size == 0:
        return
    data = path.read_bytes()
    if data.endswith(b"\n"):
        return
    with path.open("r+b") as f:
        f.truncate(data.rfind(b"\n") + 1)
        f.flush()
        os.fsync(f.fileno())


def iter_judgments(run_dir: Path) -> Iterator[JudgmentRecord]:
    """Every complete judgment in file order; a torn or invalid line is skipped."""
    path = run_dir / JUDGMENTS
    if not path.exists():
        return
    with path.open("rb") as f:
        for line in f:
            if not line.endswith(b"\n"):
                return
            try:
                yield JudgmentRecord.model_validate(orjson.loads(line))
            except (orjson.JSONDecodeError, ValidationError):
                continue


def read_judges_manifest(run_dir: Path) -> dict[str, Any] | None:
    path = run_dir / JUDGES_MANIFEST
    return read_json(path) if path.exists() else None


def save_judges_manifest(run_dir: Path, manifest: dict[str, Any]) -> None:
    write_json(run_dir / JUDGES_MANIFEST, manifest)


def read_human_labels(run_dir: Path) -> dict[str, Any] | None:
    path = run_dir / HUMAN_LABELS
    return read_json(path) if path.exists() else None
