"""judgments.jsonl, judges.json and human_labels.json in a run directory.

judgments.jsonl is append-only, one judgment (unit, judge, sample) per line, flushed and
fsynced like conversations.jsonl, so a killed judging session loses only the judgments in
flight; resuming makes exactly the judgments without a verdict under the current rubric.
judges.json keeps the rubric the statistics are computed under, and the sessions.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from supportsim.llm import Scrubber
from supportsim.store import JsonlWriter, iter_jsonl, read_json, write_json

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
    cached: bool = False
    """Every reply came from the response cache (``--cache``): nothing paid, no latency."""
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


class JudgmentWriter(JsonlWriter):
    """Appends judgments to judgments.jsonl, fsynced each (a judgment costs seconds of
    model time, so one fsync each is cheap)."""

    def __init__(self, run_dir: Path, scrub: Scrubber | None = None) -> None:
        super().__init__(run_dir / JUDGMENTS, fsync_each=True, scrub=scrub)


def iter_judgments(run_dir: Path) -> Iterator[JudgmentRecord]:
    """Every complete judgment in file order; a torn or invalid line is skipped."""
    return iter_jsonl(run_dir / JUDGMENTS, JudgmentRecord)


def read_judges_manifest(run_dir: Path) -> dict[str, Any] | None:
    path = run_dir / JUDGES_MANIFEST
    return read_json(path) if path.exists() else None


def save_judges_manifest(run_dir: Path, manifest: dict[str, Any]) -> None:
    write_json(run_dir / JUDGES_MANIFEST, manifest)


def read_human_labels(run_dir: Path) -> dict[str, Any] | None:
    path = run_dir / HUMAN_LABELS
    return read_json(path) if path.exists() else None
