"""Writing a workspace: ``supportsim init`` (the bundled files), ``new domain`` (a
skeleton), ``generate`` (LLM-drafted scenarios that pass the oracle) and ``import``
(other benchmarks' tasks as scenarios)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated

import typer

from supportsim._printable import printable
from supportsim.cli._app import app, fail_input, out
from supportsim.cli._options import CacheDirOpt, CacheFlag, PersonasOpt, load_inputs, response_cache
from supportsim.errors import InputError


@app.command()
def init(
    folder: Annotated[
        Path, typer.Argument(help="Workspace to create or fill (default: here).")
    ] = Path("."),
) -> None:
    """Copy the bundled scenarios, personas, suites and a starter run config to edit.

    Refuses (exit 2, naming the file) when any of them is there already: nothing is
    overwritten, nothing is half-copied."""
    from supportsim.scenario import init_workspace

    try:
        written = init_workspace(folder)
    except InputError as exc:
        raise fail_input(exc) from None
    tops = sorted({p.parts[0] for p in written})
    out.print(
        f"wrote {len(written)} files to {printable(folder)}: {', '.join(tops)}",
        markup=False,
        highlight=False,
    )
    where = "" if folder == Path(".") else f"cd {printable(folder)} && "
    out.print(f"next: {where}supportsim run --config runs/demo.yaml", markup=False)


new_app = typer.Typer(help="Write a working skeleton to edit.", no_args_is_help=True)
app.add_typer(new_app, name="new")


@new_app.command("domain")
def new_domain(
    name: Annotated[str, typer.Argument(help="The domain's name (lowercase, digits, _).")],
) -> None:
    """A domain in the data form (policy, fixture, state schema, two tools), one scenario
    that `supportsim validate` passes, and the domain listed in supportsim.yaml."""
    from supportsim.workspace import new_domain as write

    try:
        written = write(name)
    except InputError as exc:
        raise fail_input(exc) from None
    for path in [*written.files, written.workspace_file]:
        out.print(f"wrote {printable(path)}", markup=False, highlight=False)
    out.print("next: supportsim validate", markup=False, highlight=False)


@app.command()
def generate(
    domain: Annotated[str, typer.Option(help="Domain to write scenarios for.")],
    category: Annotated[str, typer.Option(help="Primary category of the scenarios.")],
    model: Annotated[str, typer.Option(help="Model spec that drafts them.")],
    count: Annotated[int, typer.Option(min=1, help="Scenarios to keep.")] = 1,
    candidates: Annotated[int, typer.Option(min=1, help="Drafts allowed per kept one.")] = 3,
    out_dir: Annotated[Path, typer.Option("--out", help="Where kept drafts go.")] = Path(
        "scenarios/generated"
    ),
    scenarios: Annotated[
        list[Path] | None, typer.Option("--scenarios", help="Existing scenarios (ids taken).")
    ] = None,
    personas: PersonasOpt = None,
    models: Annotated[Path | None, typer.Option("--models", help="Models file.")] = None,
    cache: CacheFlag = False,
    cache_dir: CacheDirOpt = None,
) -> None:
    """Draft scenarios with an LLM; keep only those that validate and pass the oracle."""
    import os

    from supportsim.authoring import Drafts, write_drafts
    from supportsim.authoring import generate as draft
    from supportsim.llm import ModelPool, load_models_file, parse_model_spec
    from supportsim.workspace import find_workspace

    try:
        workspace = find_workspace()
        if category not in workspace.categories:
            known = ", ".join(workspace.categories)
            raise InputError(f"--category {category!r}: one of {known}")
        existing_paths = scenarios or list(workspace.scenarios)
        domains, persona_set, existing = load_inputs(
            [p for p in existing_paths if p.exists()] or existing_paths, personas
        )
        if domain not in domains:
            raise InputError(f"--domain {domain!r}: one of {', '.join(sorted(domains))}")
        config = parse_model_spec(model, load_models_file(models) if models else {})
        pool = ModelPool(
            env=dict(os.environ),
            cache=response_cache(cache, cache_dir),
            cache_roles=frozenset({"author"}),
        )
        pool.check({config.name: config})
    except InputError as exc:
        raise fail_input(exc) from None

    async def go() -> Drafts:
        try:
            return await draft(
                domain=domains[domain],
                domains=domains,
                category=category,
                count=count,
                caller=pool.caller(config, "author"),
                personas=persona_set,
                existing=existing,
                candidates=candidates,
            )
        finally:
            await pool.aclose()

    drafts = asyncio.run(go())
    for rejected in drafts.rejected:
        out.print(
            f"draft {rejected.attempt} rejected: " + printable("; ".join(rejected.reasons[:4])),
            markup=False,
            highlight=False,
        )
    for path in write_drafts(drafts, out_dir, model=model):
        out.print(f"kept: {printable(path)}", markup=False, highlight=False)
    out.print(f"{len(drafts.kept)} kept of {drafts.attempts} drafts")
    raise typer.Exit(0 if len(drafts.kept) == count else 1)


import_app = typer.Typer(help="Import other benchmarks' tasks as scenarios.", no_args_is_help=True)
app.add_typer(import_app, name="import")


@import_app.command("tau2")
def import_tau2_command(
    data_dir: Annotated[
        Path,
        typer.Argument(help="tau2 data directory (data/tau2 of a clone) or its retail folder."),
    ],
    split: Annotated[
        str | None, typer.Option(help="train | test | base (default: every task).")
    ] = None,
    out_dir: Annotated[Path, typer.Option("--out", help="Folder to write.")] = Path(
        "scenarios/tau2_retail"
    ),
    persona: Annotated[str, typer.Option(help="Persona id the scenarios name.")] = "calm_precise",
) -> None:
    """Import tau2-bench retail tasks: one scenario per task plus the data the run needs;
    exit 2 (nothing written) listing every task that cannot be imported."""
    from supportsim.importers.tau2 import import_tau2

    try:
        if split not in (None, "train", "test", "base"):
            raise InputError(f"--split {split!r}: one of train, test, base")
        done = import_tau2(data_dir, split=split, out=out_dir, persona=persona)  # type: ignore[arg-type]
    except InputError as exc:
        raise fail_input(exc) from None
    out.print(
        f"imported {len(done.scenario_ids)} tau2 tasks into {done.out} "
        f"({done.ignored_actions} gold actions ignored: they raise on tau2's tools)",
        markup=False,
        highlight=False,
    )
