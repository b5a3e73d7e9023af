"""run.json: what a run was asked to do, so ``--resume`` can refuse a changed run.

The fingerprint is the configuration that decides what units exist and what they mean
(agents, customer, trials, turn and time limits, selection) plus every selected scenario
file's hash. Concurrency, budget and deadline may change between sessions of one run.
"""

from __future__ import annotations

import platform
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from supportsim.batch._config import RunConfig
from supportsim.scenario import Scenario
from supportsim.store import MANIFEST, read_json, write_json

FREE_TO_CHANGE = {"concurrency", "budget_usd", "deadline_s", "out", "retries", "call_timeout_s"}


def versions() -> dict[str, str]:
    out = {"python": platform.python_version()}
    for package in ("supportsim", "openai", "anthropic", "langgraph", "pydantic"):
        try:
            out[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            out[package] = "not installed"
    return out


def new_manifest(run_id: str, config: RunConfig, scenarios: Sequence[Scenario]) -> dict[str, Any]:
    return {
        "run_id": run_id,
        "config": config.model_dump(mode="json"),
        "scenarios": {s.id: s.sha256 for s in scenarios},
        "versions": versions(),
        "started_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "ended_at": None,
        "status": "running",
        "sessions": 1,
    }


def changes(old: Mapping[str, Any], config: RunConfig, scenarios: Sequence[Scenario]) -> list[str]:
    """What differs between a stored run and this invocation (empty: safe to resume)."""
    found = []
    before = {k: v for k, v in old.get("config", {}).items() if k not in FREE_TO_CHANGE}
    now = {k: v for k, v in config.model_dump(mode="json").items() if k not in FREE_TO_CHANGE}
    for key in sorted(set(before) | set(now)):
        if before.get(key) != now.get(key):
            found.append(f"config {key}: {before.get(key)!r} -> {now.get(key)!r}")
    old_hashes: Mapping[str, str] = old.get("scenarios", {})
    new_hashes = {s.id: s.sha256 for s in scenarios}
    for sid in sorted(set(old_hashes) | set(new_hashes)):
        if sid not in new_hashes:
            found.append(f"scenario {sid}: no longer selected")
        elif sid not in old_hashes:
            found.append(f"scenario {sid}: newly selected")
        elif old_hashes[sid] != new_hashes[sid]:
            found.append(f"scenario {sid}: file changed")
    return found


def read_manifest(run_dir: Path) -> dict[str, Any]:
    return read_json(run_dir / MANIFEST)


def save_manifest(run_dir: Path, manifest: Mapping[str, Any]) -> None:
    write_json(run_dir / MANIFEST, dict(manifest))
