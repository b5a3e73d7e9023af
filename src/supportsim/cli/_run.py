"""``supportsim run``: the run flags into a ``RunRequest``, tracing started, one run
driven end to end (``app.run_command``); ``bare_ray`` gives ``--ray`` its default."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from supportsim.cli._app import app, err, fail_input, out
from supportsim.cli._options import CacheDirOpt, FailUnderOpt, response_cache
from supportsim.errors import InputError


@app.command()
def run(
    config: Annotated[
        Path | None, typer.Option(help="Run config YAML (flags override it).")
    ] = None,
    scenarios: Annotated[
        list[str] | None, typer.Option("--scenarios", help="Scenario file or folder (repeat).")
    ] = None,
    tag: Annotated[
        list[str] | None, typer.Option("--tag", help="Keep scenarios with this category (repeat).")
    ] = None,
    scenario_id: Annotated[
        list[str] | None, typer.Option("--id", help="Keep this scenario id (repeat).")
    ] = None,
    suite: Annotated[
        str | None, typer.Option(help="A named suite from scenarios/suites.yaml.")
    ] = None,
    agent: Annotated[list[str] | None, typer.Option("--agent", help="Agent spec (repeat).")] = None,
    customer: Annotated[
        list[str] | None,
        typer.Option(
            "--customer",
            help="Customer spec: scripted or a model (repeat: every unit under each, paired).",
        ),
    ] = None,
    customer_seed: Annotated[
        str | None,
        typer.Option(
            "--customer-seed",
            help="Seed setting of the Customer's model calls (default 0), or none.",
        ),
    ] = None,
    replay_customer: Annotated[
        str | None,
        typer.Option(
            "--replay-customer",
            help="Reuse RUN_DIR's Customer replies while the conversation follows it.",
            metavar="RUN_DIR",
        ),
    ] = None,
    trials: Annotated[
        int | None, typer.Option(min=1, help="Trials per scenario and agent.")
    ] = None,
    concurrency: Annotated[
        str | None,
        typer.Option(
            help="Conversations at once: a number, auto, or auto:N (auto, at most N in "
            "flight; docs: guide/long-runs.md)."
        ),
    ] = None,
    workers: Annotated[
        str | None,
        typer.Option(
            help="Processes running conversations: a number, or auto (docs: guide/scale.md)."
        ),
    ] = None,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            help="Run workers on Ray: local (also --ray alone), auto or ray://host:10001 "
            "(supportsim[ray]).",
        ),
    ] = None,
    run_id: Annotated[
        str | None, typer.Option("--run-id", help="Run id (default: name-date).")
    ] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Continue --run-id.")] = False,
    force: Annotated[bool, typer.Option("--force", help="Resume even if the run changed.")] = False,
    budget_usd: Annotated[float | None, typer.Option("--budget-usd", min=0)] = None,
    deadline: Annotated[
        str | None, typer.Option("--deadline", "--deadline-s", help="Seconds, or 30m, 8h.")
    ] = None,
    max_turns: Annotated[int | None, typer.Option("--max-turns", min=1)] = None,
    timeout_s: Annotated[
        float | None, typer.Option("--timeout-s", min=0, help="Per conversation.")
    ] = None,
    conversation_mode: Annotated[
        str | None,
        typer.Option(
            "--conversation-mode",
            help="auto (tau2's conventions for imported tau2 tasks), supportsim or tau2.",
        ),
    ] = None,
    models: Annotated[str | None, typer.Option("--models", help="Models file (YAML).")] = None,
    personas: Annotated[str | None, typer.Option("--personas", help="Persona folder.")] = None,
    out_dir: Annotated[str | None, typer.Option("--out", help="Parent of run directories.")] = None,
    cache: Annotated[
        bool,
        typer.Option(
            "--cache",
            help="Keep the simulated Customer's (and statement judge's) replies on disk "
            "(docs: guide/models.md).",
        ),
    ] = False,
    cache_agents: Annotated[
        bool,
        typer.Option("--cache-agents", help="With --cache: the Agents' model replies too."),
    ] = False,
    cache_dir: CacheDirOpt = None,
    otel: Annotated[
        bool,
        typer.Option("--otel", help="Send OpenTelemetry spans over OTLP (docs: guide/tracing.md)."),
    ] = False,
    otel_content: Annotated[
        bool, typer.Option("--otel-content", help="--otel, with prompts, replies and tool data.")
    ] = False,
    fail_under: FailUnderOpt = None,
    tools: Annotated[
        str | None,
        typer.Option("--tools", help="How built-in agents reach tools: inprocess, mcp, mcp-stdio."),
    ] = None,
    assertion_judge: Annotated[
        str | None,
        typer.Option(
            "--assertion-judge",
            help="Model judging imported tau2 tasks' NL assertions (tau2: openai:gpt-4.1).",
        ),
    ] = None,
    statement_judge: Annotated[
        str | None,
        typer.Option(
            "--statement-judge",
            help="Model deciding the communication checks, or none (rules only). Default: "
            "the Customer's model when the Customer is an LLM, else none.",
        ),
    ] = None,
) -> None:
    """Run conversations (scenario x agent x trial) and write a run directory."""
    import os

    from supportsim import _early_workers

    # Started before the imports below, so the workers' own imports overlap them.
    _early_workers.start_early(_early_workers.early_count(workers, ray))
    try:
        from supportsim.app import run_command
        from supportsim.batch import RunFlags, RunRequest, check_run_id, parse_thresholds

        try:
            if run_id is not None:
                check_run_id(run_id)  # it becomes a folder under --out: one safe name
            gates = parse_thresholds(fail_under) if fail_under else None
        except InputError as exc:
            raise fail_input(exc) from None

        flags = RunFlags(
            scenarios=scenarios,
            tags=tag,
            ids=scenario_id,
            suite=suite,
            agents=agent,
            customer=customer,
            customer_seed=customer_seed,
            replay_customer=replay_customer,
            trials=trials,
            concurrency=concurrency,
            workers=workers,
            ray=ray,
            budget_usd=budget_usd,
            deadline_s=deadline,
            max_turns=max_turns,
            timeout_s=timeout_s,
            conversation_mode=conversation_mode,
            models_file=models,
            personas=personas,
            out=out_dir,
            fail_under=gates,
            tools=tools,
            assertion_judge=assertion_judge,
            statement_judge=statement_judge,
        )
        try:
            replies = response_cache(cache or cache_agents, cache_dir)
        except InputError as exc:
            raise fail_input(exc) from None
        request = RunRequest(
            config,
            flags,
            run_id=run_id,
            resume=resume,
            force=force,
            cache=replies,
            cache_agents=cache_agents,
        )
        _start_tracing(otel or otel_content, otel_content)  # no-op unless --otel or OTEL_* ask
        code = run_command(request, env=os.environ, console=out, err=err)
        raise typer.Exit(code)
    finally:  # the run's workers are all started by now: those not taken are ended
        _early_workers.discard()


def _start_tracing(flag: bool, content: bool) -> None:
    """Spans over OTLP when ``--otel`` or the OTEL_* variables ask (supportsim._tracing);
    the SDK flushes them at exit. Without the ``otel`` extra, ``--otel`` is bad input
    (exit 2) while an endpoint variable set for other tools only earns a warning."""
    import os

    from supportsim._tracing import TracingUnavailable, start_tracing

    try:
        start_tracing(flag=flag, content=content, env=os.environ)
    except TracingUnavailable as exc:
        if flag:
            raise fail_input(InputError(f"--otel: {exc}")) from None
        err.print(f"warning: OTEL_* set but not tracing: {exc}", markup=False, highlight=False)


def bare_ray(args: list[str]) -> list[str]:
    """``--ray`` given without an address means ``local`` (as ``ray.init()`` decides:
    ``RAY_ADDRESS``, else a cluster started on this machine, else a new one). Click has no
    optional option values, so the default is put in here."""
    out: list[str] = []
    for i, arg in enumerate(args):
        out.append(arg)
        following = args[i + 1] if i + 1 < len(args) else None
        if arg == "--ray" and (following is None or following.startswith("-")):
            out.append("local")
    return out
