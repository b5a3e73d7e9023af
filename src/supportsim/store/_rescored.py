"""rescored.jsonl: the verdicts of ``supportsim rescore``, beside the original ones.

One writer (``write_rescored``, whole file then rename) and one reader (``read_rescored``);
``apply_rescored`` puts the new verdicts on the records they were made from, for reports.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from supportsim.errors import InputError
from supportsim.store._check_records import CheckRecord
from supportsim.store._customer_records import CustomerReviewRecord
from supportsim.store._records import ConversationRecord

RESCORED = "rescored.jsonl"
RESCORE_SCHEMA_VERSION = 2
"""Version 2: ``strict`` and ``partial`` are null on lines of units that were not scored
(carried), as in conversations.jsonl records of version 2."""
Disposition = Literal["rescored", "carried", "not_rescorable"]


class PreviousVerdict(BaseModel):
    """The verdict conversations.jsonl holds for the unit."""

    model_config = ConfigDict(extra="ignore", allow_inf_nan=False)
    strict: bool | None
    partial: float | None
    failed: list[str] = []
    """Ids of the checks that failed."""


class RescoredRecord(BaseModel):
    """One line of rescored.jsonl: a unit's verdict under the current scenario and scorer.

    Only ``disposition == "rescored"`` lines carry a new verdict; ``carried`` (the unit did
    not complete) and ``not_rescorable`` lines repeat the stored one and say why.
    """

    model_config = ConfigDict(extra="ignore", allow_inf_nan=False)
    schema_version: int = RESCORE_SCHEMA_VERSION
    unit_id: str
    scenario_id: str
    scenario_sha256: str
    """The scenario file the verdict comes from: the current file's when rescored."""
    disposition: Disposition
    reason: str = ""
    """Why a unit was carried or could not be rescored."""
    strict: bool | None
    """null for a unit that was not scored (carried)."""
    partial: float | None
    checks: list[CheckRecord]
    previous: PreviousVerdict
    record_started_at: str
    """With ``record_ended_at``: which record of the unit was rescored, so a record added
    later (a resumed run) is not given this verdict."""
    record_ended_at: str
    rescored_at: str
    """UTC, ISO 8601."""
    statement_judge: str | None = None
    """The statement judge whose verdicts decided the communication checks (null: rules
    only)."""
    customer_review: CustomerReviewRecord | None = None
    """The customer review made again with the current scenario and persona (null: the
    record's stands: a carried line, or one written before rescore reviewed)."""
    customer_hindered: bool = False
    """``customer_hindered`` under the new strict and review."""


def write_rescored(run_dir: Path, lines: Iterable[RescoredRecord]) -> Path:
    """Replace RUN_DIR/rescored.jsonl atomically (temp file, fsync, rename)."""
    path = run_dir / RESCORED
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("wb") as f:
        for line in lines:
            f.write(line.__pydantic_serializer__.to_json(line) + b"\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    return path


def read_rescored(run_dir: Path) -> list[RescoredRecord]:
    """Every line of RUN_DIR/rescored.jsonl (empty when the run was never rescored).

    Raises:
        InputError: a line cannot be read; the file is written whole, so a bad line means
            it was edited or damaged, and using part of it would mix verdicts silently.
    """
    path = run_dir / RESCORED
    if not path.exists():
        return []
    out = []
    with path.open("rb") as f:
        for number, raw in enumerate(f, 1):
            if not raw.strip():
                continue
            try:
                out.append(RescoredRecord.model_validate_json(raw))
            except ValidationError as exc:
                first = exc.errors(include_url=False)[0]
                where = ".".join(str(p) for p in first["loc"]) or "line"
                raise InputError(
                    f"{path}:{number} [{where}]: {first['msg']} (run `supportsim rescore` again)"
                ) from None
    return out


@dataclass(frozen=True, slots=True)
class Applied:
    """Records with the rescored verdicts in place, and when they were rescored."""

    records: list[ConversationRecord]
    units: int
    """How many records took a rescored verdict."""
    rescored_at: str | None


def apply_rescored(
    records: Sequence[ConversationRecord], lines: Sequence[RescoredRecord]
) -> Applied:
    """Put each ``rescored`` line's strict, partial, checks and customer review on the
    record it was made from (same unit, same started/ended times); other records are
    returned as they are."""
    by_unit = {line.unit_id: line for line in lines if line.disposition == "rescored"}
    out, units, at = [], 0, None
    for record in records:
        line = by_unit.get(record.unit_id)
        if (
            line is None
            or record.status != "completed"
            or (line.record_started_at, line.record_ended_at)
            != (record.started_at, record.ended_at)
        ):
            out.append(record)
            continue
        update: dict[str, object] = {
            "strict": line.strict,
            "partial": line.partial,
            "checks": line.checks,
        }
        if line.customer_review is not None:
            update["customer_review"] = line.customer_review
            update["customer_hindered"] = line.customer_hindered
        out.append(record.model_copy(update=update))
        units += 1
        at = max(at or line.rescored_at, line.rescored_at)
    return Applied(out, units, at)
