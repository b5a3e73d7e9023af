"""What ``supportsim rescore RUN_DIR`` does, so the cli stays thin: find the scenarios,
rescore, print what changed, return the exit code (0 done, 2 bad input).

By default the scenarios are the files the run's manifest lists (``scenario_files`` in
run.json, resolved from the current directory as the run was), then the run's configured
scenario paths, then ``scenarios/``. A listed file that no longer exists is left out, and
its units are listed as not rescorable.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

import orjson
from rich.console import Console
from rich.table import Table
from rich.text import Text

from supportsim.domains import Domain
from supportsim.errors import InputError
from supportsim.rescore._judge import RUN_JUDGE
from supportsim.rescore._run import Flip, RescoreResult, rescore_run
from supportsim.scenario import Persona, load_personas, load_scenarios, resolve_data_path
from supportsim.scoring import StatementJudge
from supportsim.store import (
    MANIFEST,
    read_json,
)
from supportsim.workspace import catalogue_of_run, domains_of_run


def _manifest(run_dir: Path) -> Mapping[str, Any]:
    path = run_dir / MANIFEST
    if not path.exists():
        return {}
    try:
        manifest = read_json(path)
    except (OSError, orjson.JSONDecodeError) as exc:
        raise InputError(f"{path}: cannot read the run manifest: {exc}") from None
    if not isinstance(manifest, dict):
        raise InputError(f"{path}: the run manifest is not a JSON object")
    return manifest


def default_scenario_paths(manifest: Mapping[str, Any]) -> list[Path]:
    """The scenario files the run used that still exist; else the run's configured
    scenario paths that exist; else ``scenarios/``."""
    files = manifest.get("scenario_files")
    if isinstance(files, dict):
        found = sorted({Path(p) for p in files.values() if isinstance(p, str)})
        if existing := [p for p in found if p.exists()]:
            return existing
    config = manifest.get("config")
    configured = config.get("scenarios") if isinstance(config, dict) else None
    paths = (
        [Path(p) for p in configured if isinstance(p, str)] if isinstance(configured, list) else []
    )
    if existing := [p for p in paths if p.exists()]:
        return existing
    return [Path("scenarios")]


def _personas_dir(manifest: Mapping[str, Any]) -> Path:
    config = manifest.get("config")
    configured = config.get("personas") if isinstance(config, dict) else None
    # As `run` read it: a relative "personas" with no such folder here is the bundled copy.
    return resolve_data_path(Path(configured) if isinstance(configured, str) else Path("personas"))


def _flip(f: Flip) -> str:
    def show(v: bool | None) -> str:
        return "absent" if v is None else "pass" if v else "fail"

    return f"{f.check_id} {show(f.old)}->{show(f.new)}"


def render_rescore(result: RescoreResult, console: Console) -> None:
    """The counts, a table of the units that changed, and the units not rescored."""
    console.print(
        f"{result.rescored} rescored, {result.verdicts_changed} verdicts changed "
        f"({len(result.changed)} units changed in any check), {result.carried} carried "
        f"(not completed), {len(result.not_rescorable)} not rescorable",
        markup=False,
        highlight=False,
    )
    if result.changed:
        table = Table(title="changes (strict 1 = pass)")
        for column in ("unit", "strict", "partial", "flipped checks"):
            table.add_column(column, overflow="fold")
        for c in result.changed:
            table.add_row(
                Text(c.unit_id),
                Text(f"{int(c.old_strict)} -> {int(c.new_strict)}"),
                Text(f"{c.old_partial:.2f} -> {c.new_partial:.2f}"),
                Text(", ".join(_flip(f) for f in c.flipped) or "-"),
            )
        console.print(table)
    for item in result.not_rescorable:
        console.print(f"not rescorable: {item.unit_id}: {item.reason}", markup=False)
    j = result.judge
    if j.judge is None:
        line = "statement judge: none, rules only"
    else:
        line = (
            f"statement judge: {j.judge}: {j.reused} verdicts reused, {j.asked} questions "
            f"asked ({j.calls} calls)"
        )
        if j.missing:
            line += (
                f", {j.missing} questions without a stored verdict decided by the rules "
                f"(rescore --statement-judge {j.judge} asks them)"
            )
    console.print(line, markup=False, highlight=False)


def rescore_command(
    run_dir: Path,
    *,
    scenario_paths: Sequence[Path],
    personas_dir: Path | None,
    out: Console,
    err: Console,
    judge: str | None = RUN_JUDGE,
    open_judge: OpenJudge | None = None,
) -> int:
    """Rescore ``run_dir`` with the current scenarios (default: the files the run used)
    and scorer, print the changes, and return 0, 1 when a unit's statement judge failed
    after retries (that unit is kept as it was), or 2 on bad input (message names the
    file).

    ``judge``: ``"run"`` (default: the run's own judge, stored verdicts only, no call), a
    judge spec (``open_judge(spec, manifest)`` opens it), or None (rules only)."""
    try:
        if not run_dir.is_dir():
            raise InputError(f"{run_dir}: not a run directory (no such directory)")
        manifest = _manifest(run_dir)
        paths = list(scenario_paths) or default_scenario_paths(manifest)
        personas_path = personas_dir or _personas_dir(manifest)
        if personas_dir is not None and not personas_dir.is_dir():
            raise InputError(f"{personas_dir}: no such persona folder (--personas)")
        domains = domains_of_run(manifest.get("config") or {})
        personas = load_personas([personas_path]) if personas_path.is_dir() else {}
        catalogue = catalogue_of_run(manifest.get("config") or {}, domains)  # as `run` had it
        loaded = load_scenarios(paths, catalogue=catalogue, personas=personas)
        result = asyncio.run(
            _rescore(
                run_dir, {s.id: s for s in loaded}, domains, judge, open_judge, manifest, personas
            )
        )
    except InputError as exc:
        err.print(f"error: {exc}", markup=False, highlight=False)
        return 2
    out.print(
        f"scenarios: {', '.join(map(str, paths))} ({len(loaded)} loaded)",
        markup=False,
        highlight=False,
    )
    render_rescore(result, out)
    out.print(
        f"wrote {result.path} ({run_dir / 'conversations.jsonl'} unchanged)",
        markup=False,
        highlight=False,
    )
    return 1 if result.judge_failed else 0


OpenJudge = Callable[
    [str, Mapping[str, Any]], AbstractAsyncContextManager[tuple[StatementJudge, dict[str, Any]]]
]
"""Opens the statement judge a spec names for a run (its manifest given): the judge and
its model's run.json fingerprint (``batch.open_statement_judge``)."""


async def _rescore(
    run_dir: Path,
    scenarios: Mapping[str, Any],
    domains: Mapping[str, Domain],
    judge: str | None,
    open_judge: OpenJudge | None,
    manifest: Mapping[str, Any],
    personas: Mapping[str, Persona] | None = None,
) -> RescoreResult:
    if judge is None or judge == RUN_JUDGE:
        return await rescore_run(run_dir, scenarios, domains, judge=judge, personas=personas)
    if open_judge is None:
        raise InputError(f"--statement-judge {judge}: no way to call a model here")
    async with open_judge(judge, manifest) as (statement_judge, models):
        return await rescore_run(
            run_dir,
            scenarios,
            domains,
            judge=statement_judge,
            judge_models=models,
            personas=personas,
        )
