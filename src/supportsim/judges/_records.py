"""judgments.jsonl, judges.json and human_labels.json in a run directory.

judgments.jsonl is append-only, one judgment (unit, judge, sample) per line, flushed and
fsynced like conversations.jsonl, so a killed judging session loses only the judgments in
flight; resuming makes exactly the judgments without a verdict under the current rubric.
judges.json keeps the rubric the statistics are computed under, and the sessions.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from supportsim.llm import Scrubber
from supportsim.store import (
    JsonlWriter,
    JudgesManifest,
    JudgmentRecord,
    iter_jsonl,
    read_doc,
    read_json,
    write_doc,
)

JUDGMENTS = "judgments.jsonl"
JUDGES_MANIFEST = "judges.json"
HUMAN_LABELS = "human_labels.json"


class JudgmentWriter(JsonlWriter):
    """Appends judgments to judgments.jsonl, fsynced each (a judgment costs seconds of
    model time, so one fsync each is cheap)."""

    def __init__(self, run_dir: Path, scrub: Scrubber | None = None) -> None:
        super().__init__(run_dir / JUDGMENTS, fsync_each=True, scrub=scrub)


def iter_judgments(run_dir: Path) -> Iterator[JudgmentRecord]:
    """Every complete judgment in file order; a torn or invalid line is skipped."""
    return iter_jsonl(run_dir / JUDGMENTS, JudgmentRecord)


def read_judges_manifest(run_dir: Path) -> dict[str, Any] | None:
    """judges.json, validated (``store.JudgesManifest``): a damaged file is an InputError
    naming the file and the field (exit 2), never a traceback; None when never judged."""
    path = run_dir / JUDGES_MANIFEST
    if not path.exists():
        return None
    return read_doc(path, JudgesManifest).model_dump(mode="json", exclude_unset=True)


def save_judges_manifest(run_dir: Path, manifest: dict[str, Any]) -> None:
    write_doc(run_dir / JUDGES_MANIFEST, JudgesManifest, manifest)


def read_human_labels(run_dir: Path) -> dict[str, Any] | None:
    path = run_dir / HUMAN_LABELS
    return read_json(path) if path.exists() else None
