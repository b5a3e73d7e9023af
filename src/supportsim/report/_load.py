"""Read a run directory for reporting, finished or not.

A run still going (or interrupted) has no summary.json and may end in a torn line; the
report covers what has finished. When the run was rescored (``supportsim rescore``), the
verdicts in rescored.jsonl replace the stored ones for the records they were made from.
Reading never writes to the run directory.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from supportsim._printable import printable
from supportsim.errors import InputError
from supportsim.store import (
    CONVERSATIONS,
    MANIFEST,
    MAX_TRIALS,
    ConversationRecord,
    Foreign,
    RunPlan,
    apply_rescored,
    gc_paused,
    iter_records,
    live_status,
    read_json,
    read_rescored,
    split_planned,
)


class NotARunError(InputError):
    """The path is not a run directory (no run.json and no conversations.jsonl)."""


@dataclass(frozen=True, slots=True)
class RunData:
    """A run's manifest (when present) and the latest record of every finished unit, with
    rescored verdicts in place (``rescored_units`` of them, rescored at ``rescored_at``)."""

    run_dir: Path
    run_id: str
    manifest: dict[str, Any] | None
    records: list[ConversationRecord]
    trials: int
    rescored_at: str | None = None
    rescored_units: int = 0
    plan: RunPlan | None = None
    """The units run.json plans (None without a manifest: every record counts)."""
    foreign: Foreign = field(default_factory=Foreign)
    """Units with records but outside run.json's plan, and why: never counted."""

    @property
    def agents(self) -> list[str]:
        """The run's Agents by label, sorted: its plan's, and any with (planned) records
        (a run without run.json has only the latter)."""
        names = {r.agent for r in self.records}
        if self.plan is not None:
            names |= set(self.plan.agents)
        return sorted(names)


def load_run(run_dir: Path) -> RunData:
    """Load a run directory; raises NotARunError / InputError naming the file.

    ``trials`` is the configured trial count from run.json (so pass^k spans every trial
    asked for, even before all have finished), else the largest trial seen.
    """
    with gc_paused():  # every record is kept: see gc_paused
        return assemble_run(run_dir, read_manifest(run_dir), iter_records(run_dir))


def read_manifest(run_dir: Path) -> dict[str, Any] | None:
    """A run directory's run.json (None when it has none yet), its status as it really is
    (``live_status``: a dead writer's ``running`` is ``interrupted``).

    Raises:
        NotARunError: The path is not a folder, or has neither run.json nor records.
        InputError: run.json cannot be read or is not a JSON object (naming it).
    """
    if not run_dir.is_dir():
        raise NotARunError(f"{run_dir}: not a run directory (no such directory)")
    manifest_path, records_path = run_dir / MANIFEST, run_dir / CONVERSATIONS
    if not manifest_path.exists() and not records_path.exists():
        raise NotARunError(
            f"{run_dir}: not a run directory (neither {MANIFEST} nor {CONVERSATIONS} found)"
        )
    if not manifest_path.exists():
        return None
    try:
        manifest = read_json(manifest_path)
    except (OSError, orjson.JSONDecodeError) as exc:
        raise InputError(f"{manifest_path}: cannot read the run manifest: {exc}") from None
    if not isinstance(manifest, dict):
        raise InputError(f"{manifest_path}: the run manifest is not a JSON object")
    _check_trials(manifest, manifest_path)
    manifest["status"] = live_status(run_dir, manifest.get("status"))  # dead: interrupted
    return manifest


def assemble_run(
    run_dir: Path, manifest: dict[str, Any] | None, records: Iterable[ConversationRecord]
) -> RunData:
    """A run from its manifest and records already read (``load_run`` reads them; the
    viewer keeps them between requests and passes them in): the plan's units only, the
    latest record of each, rescored verdicts in place (rescored.jsonl is read here)."""
    plan = RunPlan.of_manifest(manifest)
    planned, foreign = split_planned(records, plan)
    latest = list({r.unit_id: r for r in planned}.values())
    rescored = apply_rescored(latest, read_rescored(run_dir))
    configured = _configured_trials(manifest)
    trials = configured or max((r.trial for r in latest), default=1)
    run_id = str((manifest or {}).get("run_id") or run_dir.resolve().name)
    return RunData(
        run_dir,
        run_id,
        manifest,
        rescored.records,
        trials,
        rescored.rescored_at,
        rescored.units,
        plan,
        foreign,
    )


def _is_trial_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_TRIALS


def _check_trials(manifest: dict[str, Any], path: Path) -> None:
    """run.json's ``config.trials``, when it has one, is a count a run can ask for: every
    reader sizes the plan and pass^k by it (a hand-edited 10**9 would hang them).

    Raises:
        InputError: naming the file and the field.
    """
    config = manifest.get("config")
    if isinstance(config, dict) and "trials" in config and not _is_trial_count(config["trials"]):
        shown = printable(repr(config["trials"]))
        shown = shown if len(shown) <= 40 else shown[:40] + "..."
        raise InputError(
            f"{path}: config.trials: {shown} is not a trial count "
            f"(a whole number from 1 to {MAX_TRIALS})"
        )


def _configured_trials(manifest: dict[str, Any] | None) -> int | None:
    config = (manifest or {}).get("config")
    trials = config.get("trials") if isinstance(config, dict) else None
    return trials if _is_trial_count(trials) else None
