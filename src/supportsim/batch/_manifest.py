"""run.json: what a run was asked to do, so ``--resume`` can refuse a changed run.

The fingerprint is what decides which units exist and what they mean: the configuration
(agents, customer, trials, turn and time limits), every selected scenario file's hash, the
personas those scenarios use, and the model configurations the specs resolve to. How the
run gets there may change between sessions: concurrency, limits, retries, budget, deadline,
and how the scenarios were selected (the selected set itself is compared by hash).

run.json also keeps every session's status, counters, event-loop lag and limits, and the
package and SDK versions, so a report can say how a number was produced.
"""

from __future__ import annotations

import hashlib
import platform
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import orjson

from supportsim.batch._config import RunConfig
from supportsim.errors import InputError
from supportsim.llm import ModelConfig, Scrubber
from supportsim.scenario import Persona, Scenario
from supportsim.store import (
    DOCUMENT_SCHEMA_VERSION,
    MANIFEST,
    RunManifest,
    SessionEntry,
    StoreError,
    checked,
    read_json,
    rewrite_json_in_place,
    write_doc,
)

FREE_TO_CHANGE = frozenset(
    {
        "name",
        "concurrency",
        "rate_limits",
        "budget_usd",
        "deadline_s",
        "out",
        "retries",
        "call_timeout_s",
        "scenarios",
        "personas",
        "tags",
        "ids",
        "suite",
        "models_file",
        "fail_under",
        "categories",
        "workers",
        "worker_ready_s",
        "worker_silence_s",
        "ray",
    }
)
ADDED_LATER: dict[str, Any] = {"customer_seed": None, "replay_customer": None}
"""Config keys newer than some stored runs, with the value such a run is resumed under
when the key is absent from its run.json and the resume does not set it: as it ran, no
replay and no seed (``as_it_ran``; a seed setting given on resume is a change)."""


def as_it_ran(config: RunConfig, stored: Mapping[str, Any]) -> RunConfig:
    """``config`` (a resume's) with each ``ADDED_LATER`` key the stored run's ``config``
    lacks, and the resume did not set, at its ``ADDED_LATER`` value: the run goes on as
    it ran (a run from before seeds sends none, not the default setting's); and the
    stored order of its Customers when the resume names the same ones in another."""
    update = {
        key: value
        for key, value in ADDED_LATER.items()
        if key not in stored and key not in config.model_fields_set
    }
    # The same Customers in another order name the same units (a unit id carries its
    # Customer, never a position): the run keeps its own order, which the report's
    # Customers, its A/B pairs and ``statement_judge: auto`` (the first model) follow.
    ran = stored.get("customer")
    ran = [ran] if isinstance(ran, str) else ran
    if isinstance(ran, list) and ran != config.customer and sorted(ran) == sorted(config.customer):
        update["customer"] = [str(c) for c in ran]
    return config.model_copy(update=update) if update else config


_URLS = Scrubber()
# Fields of a model config that do not change what a conversation is.
_MODEL_FREE = {"rate_limit", "timeout_s", "api_key_env", "name"}


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def versions() -> dict[str, str]:
    out = {"python": platform.python_version()}
    for package in ("supportsim", "openai", "anthropic", "langgraph", "pydantic", "httpx2"):
        try:
            out[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            out[package] = "not installed"
    return out


def model_fingerprints(models: Mapping[str, ModelConfig]) -> dict[str, Any]:
    """What each model spec resolves to (never credentials: only the variable's name)."""
    return {
        name: config.model_dump(mode="json", exclude=_MODEL_FREE)
        for name, config in sorted(models.items())
    }


_LATER_PERSONA_FIELDS = frozenset({"cooperation", "honesty", "slips"})
"""Persona fields added after runs were made: hashed only when the file sets them, so an
unchanged persona file keeps the hash an older run recorded (and the run resumes)."""


def persona_sha256(persona: Persona) -> str:
    """The hash run.json records of a persona (``personas``; replay compares it): of what
    decides how the persona is played: every field as before the fields of
    ``_LATER_PERSONA_FIELDS``, and those only when the file sets them."""
    unset = set(_LATER_PERSONA_FIELDS - persona.model_fields_set)
    return hashlib.sha256(orjson.dumps(persona.model_dump(mode="json", exclude=unset))).hexdigest()


def persona_hashes(scenarios: Sequence[Scenario], personas: Mapping[str, Persona]) -> dict:
    used = sorted({s.persona for s in scenarios if s.persona in personas})
    return {pid: persona_sha256(personas[pid]) for pid in used}


def fingerprint(
    config: RunConfig,
    scenarios: Sequence[Scenario],
    models: Mapping[str, ModelConfig],
    personas: Mapping[str, Persona],
    *,
    agents: Mapping[str, str],
) -> dict[str, Any]:
    """What decides which units exist and what they mean. ``agents``: each Agent's label
    (the plan's, in ``--agent`` order) -> the spec it was given as."""
    # URL credentials are scrubbed here, as the store scrubs them from run.json, so a
    # resumed run compares like with like (a password is not what a conversation is).
    return _URLS.data(
        {
            "config": config.model_dump(mode="json"),
            "scenarios": {s.id: s.sha256 for s in scenarios},
            "agents": dict(agents),
            "scenario_files": {s.id: str(s.source) for s in scenarios},
            "personas": persona_hashes(scenarios, personas),
            "models": model_fingerprints(models),
        }
    )


def new_manifest(run_id: str, fingerprint: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "schema_version": DOCUMENT_SCHEMA_VERSION,
        "run_id": run_id,
        **fingerprint,
        "versions": versions(),
        "started_at": now_iso(),
        "ended_at": None,
        "status": "running",
        "sessions": [],
    }


def changes(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    """What differs between a stored run and this invocation (empty: safe to resume)."""
    found = []
    before = {
        k: v for k, v in {**ADDED_LATER, **old.get("config", {})}.items() if k not in FREE_TO_CHANGE
    }
    now = {k: v for k, v in new["config"].items() if k not in FREE_TO_CHANGE}
    for key in sorted(set(before) | set(now)):
        if before.get(key) != now.get(key):
            found.append(f"config {key}: {before.get(key)!r} -> {now.get(key)!r}")
    if old.get("agents"):  # runs written before labels were stored lack it
        found += _diff("agent", old["agents"], new["agents"], "spec changed")
    found += _diff("scenario", old.get("scenarios", {}), new["scenarios"], "file changed")
    found += _diff("persona", old.get("personas", {}), new["personas"], "file changed")
    found += _diff("model", old.get("models", {}), new["models"], "configuration changed")
    return found


def _diff(kind: str, old: Mapping[str, Any], new: Mapping[str, Any], what: str) -> list[str]:
    found = []
    for key in sorted(set(old) | set(new)):
        if key not in new:
            found.append(f"{kind} {key}: no longer selected")
        elif key not in old:
            found.append(f"{kind} {key}: newly selected")
        elif old[key] != new[key]:
            found.append(f"{kind} {key}: {what}")
    return found


def read_manifest(run_dir: Path) -> dict[str, Any]:
    """run.json, validated (``store.RunManifest``): a field that does not fit is an
    InputError naming it, never a silent default."""
    path = run_dir / MANIFEST
    return checked(RunManifest, read_json(path), path)


def manifest_to_resume(run_dir: Path) -> dict[str, Any]:
    """run.json of a run being resumed, or a clear refusal.

    Raises:
        InputError: run.json is unreadable, torn (a crash while it was rewritten in place)
            or not a run manifest; the message names the file (exit code 2).
    """
    path = run_dir / MANIFEST
    try:
        manifest = read_manifest(run_dir)
    except (OSError, ValueError) as exc:  # orjson.JSONDecodeError is a ValueError
        detail = exc.strerror if isinstance(exc, OSError) else f"not valid JSON: {exc}"
        raise InputError(
            f"{path}: cannot read the run manifest ({detail}); the run cannot be resumed "
            f"(its finished conversations are in {run_dir.name}/conversations.jsonl)"
        ) from None
    if not isinstance(manifest, dict) or not isinstance(manifest.get("config"), dict):
        raise InputError(f"{path}: not a run manifest (no config); the run cannot be resumed")
    return manifest


def save_manifest(run_dir: Path, manifest: Mapping[str, Any]) -> None:
    write_doc(run_dir / MANIFEST, RunManifest, manifest)


def close_manifest(
    run_dir: Path, entry: SessionEntry, *, status: str, stop_reason: str | None
) -> str | None:
    """Record a session's end in run.json: its entry, the run's status and why it stopped.

    A full disk cannot take a new copy of run.json, but the file's own blocks can take
    the terminal state (without the new entry). Returns what went wrong, or None.
    """
    try:
        manifest = read_manifest(run_dir)
    except (OSError, ValueError, InputError) as exc:  # replaced or damaged under our feet
        return f"cannot read {MANIFEST}: {exc}"
    sessions = manifest.get("sessions")
    before = sessions if isinstance(sessions, list) else []
    written = entry.model_dump(mode="json", exclude_unset=True)
    manifest.update(
        sessions=[*before, written],
        status=status,
        stop_reason=stop_reason,
        ended_at=now_iso(),
        loop_lag=written.get("loop_lag"),
    )
    try:
        save_manifest(run_dir, manifest)
    except StoreError:
        try:
            rewrite_json_in_place(run_dir / MANIFEST, {**manifest, "sessions": before})
        except StoreError as exc:
            return f"cannot write {MANIFEST}: {exc.strerror}"
    return None


def seconds_since_last_request(manifest: Mapping[str, Any], now: datetime | None = None) -> float:
    """How long ago the run's last session may still have sent a model request: 0 when
    it did not close (killed, or run.json could not be closed: it says ``running``), else
    the time since its ``ended_at`` (whole seconds, so one less). Resume starts the rate
    windows from this (``ModelPool.assume_busy``)."""
    if manifest.get("status") == "running":
        return 0.0
    sessions = manifest.get("sessions") or []
    ended = sessions[-1].get("ended_at") if sessions else manifest.get("ended_at")
    try:
        at = datetime.fromisoformat(str(ended))
    except ValueError:
        return 0.0
    if at.tzinfo is None:
        at = at.replace(tzinfo=UTC)
    return max(0.0, ((now or datetime.now(UTC)) - at).total_seconds() - 1.0)
