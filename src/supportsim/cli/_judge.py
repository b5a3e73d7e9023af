"""Judging a stored run: ``supportsim judge`` (LLM judges and their trust),
``judge-eval`` (a statement judge against a labelled corpus) and ``rescore`` (the
run scored again with the current scenarios and scorer)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from supportsim.cli._app import app, err, fail_input, out
from supportsim.cli._options import CacheDirOpt, CacheFlag, response_cache
from supportsim.errors import InputError


@app.command()
def judge(
    run_dir: Annotated[Path, typer.Argument(help="The run directory (runs/<id>).")],
    judge_spec: Annotated[
        list[str] | None,
        typer.Option("--judge", help="Judge model: openai:M, anthropic:M, a models-file name."),
    ] = None,
    samples: Annotated[int, typer.Option(min=1, help="Verdicts per judge; majority wins.")] = 1,
    rubric: Annotated[
        Path | None, typer.Option(help="Rubric YAML replacing the default rubric.")
    ] = None,
    human: Annotated[
        Path | None, typer.Option(help="CSV of unit_id,criterion,label: human labels.")
    ] = None,
    concurrency: Annotated[int, typer.Option(min=1, help="Judgments at once.")] = 8,
    budget_usd: Annotated[
        float | None, typer.Option("--budget-usd", min=0, help="Cap of this session's judge spend.")
    ] = None,
    models: Annotated[Path | None, typer.Option("--models", help="Models file (YAML).")] = None,
    deadline: Annotated[
        str | None,
        typer.Option("--deadline", help="Stop starting judgments after this long (30m, 2h)."),
    ] = None,
    cache: CacheFlag = False,
    cache_dir: CacheDirOpt = None,
) -> None:
    """Run LLM judges over a stored run and show how far each can be trusted."""
    import os

    from supportsim.batch import parse_duration
    from supportsim.judges import judge_command

    try:
        deadline_s = None if deadline is None else parse_duration(deadline)
    except ValueError as exc:
        raise fail_input(InputError(f"--deadline: {exc}")) from None
    try:
        code = judge_command(
            run_dir,
            deadline_s=deadline_s,
            cache=response_cache(cache, cache_dir),
            judge_specs=judge_spec or [],
            samples=samples,
            rubric_path=rubric,
            human_path=human,
            concurrency=concurrency,
            budget_usd=budget_usd,
            models_path=models,
            env=dict(os.environ),
            console=out,
        )
    except InputError as exc:
        raise fail_input(exc) from None
    raise typer.Exit(code)


@app.command("judge-eval")
def judge_eval(
    corpus: Annotated[
        str, typer.Argument(help="tune, holdout (the bundled splits), a folder or a file.")
    ],
    statement_judge: Annotated[
        str,
        typer.Option("--statement-judge", help="The model to measure, or none for the rule path."),
    ],
    models: Annotated[Path | None, typer.Option("--models", help="Models file.")] = None,
    language: Annotated[
        list[str] | None, typer.Option("--language", help="Only this language (repeat).")
    ] = None,
    errors: Annotated[
        str | None,
        typer.Option("--errors", help="List the mistakes of one dimension:label:lang."),
    ] = None,
) -> None:
    """Measure a statement judge (or the rules) against a labelled statement corpus:
    precision, recall and kappa per label and language."""
    import os

    from supportsim.judges import judge_eval_command

    code = judge_eval_command(
        corpus,
        judge=statement_judge,
        models_path=models,
        languages=language or [],
        errors=errors,
        env=os.environ,
        out=out,
        err=err,
    )
    raise typer.Exit(code)


@app.command()
def rescore(
    run_dir: Annotated[Path, typer.Argument(help="A run directory (runs/<id>).")],
    scenarios: Annotated[
        list[Path] | None,
        typer.Option("--scenarios", help="Scenario file or folder (repeat; default: the run's)."),
    ] = None,
    personas: Annotated[
        Path | None, typer.Option("--personas", help="Persona folder (default: the run's).")
    ] = None,
    statement_judge: Annotated[
        str | None,
        typer.Option(
            "--statement-judge",
            help="Judge the communication checks with this model (stored verdicts of the "
            "same request reused), or none for rules only. Default: the run's judge, "
            "stored verdicts only.",
        ),
    ] = None,
    models: Annotated[
        Path | None, typer.Option("--models", help="Models file (default: the run's).")
    ] = None,
) -> None:
    """Score a stored run again with the current scenarios and scorer, with no model call
    (unless --statement-judge asks new questions); writes RUN_DIR/rescored.jsonl beside the
    original verdicts."""
    import contextlib
    import os

    from supportsim.batch import models_for, open_statement_judge, run_config_of
    from supportsim.rescore import rescore_command

    @contextlib.asynccontextmanager
    async def open_judge(spec: str, manifest: Any) -> Any:
        found = models_for(models, manifest)
        config = run_config_of(manifest)
        async with open_statement_judge(spec, models=found, env=os.environ, config=config) as j:
            yield j

    judge: str | None = "run"
    if statement_judge is not None:
        judge = None if statement_judge.strip().lower() == "none" else statement_judge.strip()
    code = rescore_command(
        run_dir,
        scenario_paths=scenarios or [],
        personas_dir=personas,
        out=out,
        err=err,
        judge=judge,
        open_judge=open_judge,
    )
    raise typer.Exit(code)
