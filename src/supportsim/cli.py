"""The ``supportsim`` command line: parse, build a config value, run one coroutine, exit.

Exit codes: 0 success; 1 the work ran but something failed (an oracle run, a unit) or a
gate was missed (``--fail-under``, ``--fail-on-regression``); 2 bad input (files, flags,
environment), with every problem named by file and field (table: docs/reference/exit-codes.md).
"""

from __future__ import annotations

import asyncio
import inspect
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from typer.core import TyperGroup

from supportsim._printable import printable
from supportsim.domains import Domain, DomainCatalogue
from supportsim.errors import InputError
from supportsim.scenario import Persona, Scenario

if TYPE_CHECKING:
    from supportsim.llm import ResponseCache
    from supportsim.report import CustomerCheck
    from supportsim.validate import BaselineResult, ScenarioVerdict

COMMAND_ORDER = (
    "run",
    "report",
    "compare",
    "view",
    "validate",
    "init",
    "new",
    "mock-server",
    "export",
    "trend",
    "rescore",
    "judge",
    "judge-eval",
    "generate",
    "import",
    "mcp-stdio",
    "schemas",
)
"""``supportsim --help`` lists the commands in the order a user meets them: run one, read
it, compare two, browse them, then write scenarios, then the rest."""


class _Commands(TyperGroup):
    """The top-level group: commands in ``COMMAND_ORDER`` (any other after them), each
    shown by its docstring's first paragraph on one line. (Typer's rich help keeps the
    docstring's line breaks in the command list, which breaks a sentence mid-line.)"""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for command in self.commands.values():
            if command.help and not command.short_help:
                first = inspect.cleandoc(command.help).split("\n\n", 1)[0]
                command.short_help = " ".join(first.split())

    def list_commands(self, ctx: Any) -> list[str]:  # typer's own (vendored) click Context
        rank = {name: i for i, name in enumerate(COMMAND_ORDER)}
        names: list[str] = super().list_commands(ctx)
        return sorted(names, key=lambda name: rank.get(name, len(rank)))


app = typer.Typer(
    cls=_Commands,
    name="supportsim",
    help="Evaluate customer-support AI agents against simulated customers.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console()
# Messages are never wrapped: a path or a unit id split over two lines cannot be searched
# for or copied (rich wraps at 80 columns in a pipe or CI log). Tables still fit the width.
err = Console(stderr=True, soft_wrap=True)

PathsArg = Annotated[list[Path] | None, typer.Argument(help="Scenario files or folders.")]
PersonasOpt = Annotated[
    Path | None,
    typer.Option(
        "--personas", help="Folder of persona files [default: the workspace's].", show_default=False
    ),
]


def _fail_input(exc: InputError) -> typer.Exit:
    err.print(f"[bold red]error:[/] {len(getattr(exc, 'problems', [])) or 1} problem(s)")
    err.print(printable(exc, newlines=True), markup=False, highlight=False)
    return typer.Exit(2)


def load_inputs(
    paths: list[Path] | None, personas_dir: Path | None
) -> tuple[dict[str, Domain], dict[str, Persona], list[Scenario]]:
    """Domains, personas and scenarios of the workspace (``supportsim.yaml``, or the
    defaults), the arguments overriding its paths; fully validated (raises InputError)."""
    from supportsim.workspace import find_workspace
    from supportsim.workspace import load_inputs as load

    inputs = load(find_workspace(), scenarios=paths or None, personas=personas_dir)
    return inputs.domains, inputs.personas, inputs.scenarios


@app.command()
def schemas(
    folder: Annotated[Path, typer.Argument(help="Where to write them.")] = Path("schemas"),
) -> None:
    """Write the JSON Schema of every file in a run directory (<name>.schema.json)."""
    from supportsim.store import export_schemas

    for path in export_schemas(folder):
        out.print(f"wrote {printable(path)}", markup=False, highlight=False)


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
        raise _fail_input(exc) from None
    for path in [*written.files, written.workspace_file]:
        out.print(f"wrote {printable(path)}", markup=False, highlight=False)
    out.print("next: supportsim validate", markup=False, highlight=False)


@app.command()
def validate(
    paths: PathsArg = None,
    personas: PersonasOpt = None,
    show_coverage: Annotated[
        bool, typer.Option("--coverage", help="Also print what the scenarios cover.")
    ] = False,
    with_perturb: Annotated[
        bool,
        typer.Option(
            "--perturb",
            help="Also replay valid and invalid variations of each reference conversation: "
            "valid ones must pass, invalid ones must fail the check they target.",
        ),
    ] = False,
    with_baselines: Annotated[
        bool,
        typer.Option(
            "--baselines",
            help="Also run the baseline agents (do-nothing, refuse, transfer, claim-done) on "
            "each scenario: each must score strict 0 everywhere and mean partial <= 15%.",
        ),
    ] = False,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json",
            help="Print one JSON array instead, an object per scenario (id, source, domain, "
            "oracle_passed, partial, state hashes, problems; perturb and baselines when asked).",
        ),
    ] = False,
    customer: Annotated[
        str | None,
        typer.Option(
            "--customer",
            help="Also measure this simulated Customer (a model spec or models-file name; "
            "scripted: the built-in) with a perfect Agent: the oracle plays every scenario "
            "against it, so every failure is the Customer's. Prints its success rate per "
            "scenario, persona and finding.",
        ),
    ] = None,
    trials: Annotated[
        int, typer.Option("--trials", min=1, help="With --customer: trials per scenario.")
    ] = 1,
    threshold: Annotated[
        float | None,
        typer.Option(
            "--threshold",
            min=0.0,
            max=1.0,
            help="With --customer: exit 1 when its success rate is below this (0..1).",
        ),
    ] = None,
    max_turns: Annotated[
        int | None,
        typer.Option("--max-turns", min=1, help="With --customer: override max_turns."),
    ] = None,
    models_file: Annotated[
        Path | None,
        typer.Option("--models-file", help="With --customer: YAML file of named models."),
    ] = None,
    runs_out: Annotated[
        Path,
        typer.Option("--out", help="With --customer: where its run directory is written."),
    ] = Path("runs"),
    sloppy: Annotated[
        bool,
        typer.Option(
            "--sloppy",
            help="With --customer: also run a sloppy agent that only claims it is done, and "
            "report how often the Customer pushed back instead of ending satisfied.",
        ),
    ] = False,
) -> None:
    """Check scenario and persona files (schema, references, citations) and run the oracle
    on each; exit 1 when an oracle run, a citation, (with --perturb) a variant, (with
    --baselines) a baseline fails, or (with --customer and --threshold) the Customer's
    success rate with the oracle is below the threshold."""
    from supportsim.validate import run_baselines, validate_scenarios

    if customer is None and (threshold is not None or sloppy):
        given = "--threshold" if threshold is not None else "--sloppy"
        raise _fail_input(InputError(f"{given}: applies to the Customer check, give --customer"))
    try:
        domains, persona_set, scenarios = load_inputs(paths, personas)
    except InputError as exc:
        raise _fail_input(exc) from None
    if show_coverage and not as_json:
        _print_coverage(scenarios, domains, persona_set)

    async def check() -> tuple[list[ScenarioVerdict], list[BaselineResult]]:
        verdicts = await validate_scenarios(domains, scenarios, with_perturb=with_perturb)
        return verdicts, (await run_baselines(domains, scenarios) if with_baselines else [])

    verdicts, baselines = asyncio.run(check())
    failures = sum(not v.ok for v in verdicts)
    baselines_failed = any(not b.ok for b in baselines)
    checked = None
    if customer is not None:
        checked = _check_customer(
            customer, paths, personas, trials, threshold, max_turns, models_file, runs_out, sloppy
        )
        baselines_failed = baselines_failed or not checked.passed
    if as_json:
        import orjson

        rows = [_verdict_json(v) for v in verdicts]
        for entry in rows if checked is not None else []:
            entry["customer"] = _customer_json(checked, str(entry["id"]))
        for i, entry in enumerate(rows if baselines else []):
            entry["baselines"] = {
                b.name: {"strict": b.runs[i].score.strict, "partial": b.runs[i].score.partial}
                for b in baselines
            }
        doc: object = rows
        if checked is not None:  # one document: the scenarios and the whole Customer check
            from supportsim.report import customer_check_json

            doc = {"scenarios": rows, "customer": customer_check_json(checked).model_dump()}
        sys.stdout.write(orjson.dumps(doc, option=orjson.OPT_INDENT_2).decode() + "\n")
        raise typer.Exit(1 if failures or baselines_failed else 0)
    table = Table(title=f"oracle check of {len(scenarios)} scenarios")
    table.add_column("scenario", no_wrap=True)
    for column in ("domain", "tags", "lang", "oracle", "partial"):
        table.add_column(column)
    if with_perturb:
        table.add_column("valid passed", justify="right")
        table.add_column("invalid caught", justify="right")
    for v in verdicts:
        row = [
            v.scenario.id,
            v.scenario.domain,
            ",".join(v.scenario.tags),
            v.scenario.language,
            "[green]pass[/]" if v.oracle_passed else "[red]FAIL[/]",
            f"{v.score.partial:.2f}",
        ]
        if v.perturbed is not None:
            p = v.perturbed
            row += [f"{p.valid_passed}/{p.valid}", f"{p.invalid_caught}/{p.invalid}"]
        table.add_row(*row)
    out.print(table)
    for v in verdicts:
        if not v.ok:
            text = f"{v.scenario.source}: {v.scenario.id}\n    " + "\n    ".join(v.problems())
            out.print(printable(text, newlines=True), markup=False, highlight=False)
    if with_perturb:
        perturbed = [v.perturbed for v in verdicts if v.perturbed is not None]
        out.print(
            f"variants: valid {sum(p.valid_passed for p in perturbed)}/"
            f"{sum(p.valid for p in perturbed)} passed, invalid "
            f"{sum(p.invalid_caught for p in perturbed)}/{sum(p.invalid for p in perturbed)} "
            f"caught, {sum(p.discarded for p in perturbed)} not realisable (discarded)"
        )
    out.print(f"{len(scenarios) - failures} passed, {failures} failed")
    if baselines:
        _print_baselines(baselines)
    if checked is not None:
        from supportsim._tables import fit
        from supportsim.report import customer_check_tables, customer_check_verdict

        for table in customer_check_tables(checked):
            out.print(fit(table, out))
        out.print(customer_check_verdict(checked), markup=False, highlight=False, emoji=False)
    raise typer.Exit(1 if failures or baselines_failed else 0)


def _customer_json(checked: CustomerCheck | None, scenario_id: str) -> dict[str, object] | None:
    """``validate --customer --json``: the Customer's figures on one scenario."""
    rate = checked.by_scenario.get(scenario_id) if checked is not None else None
    if checked is None or rate is None:
        return None
    row: dict[str, object] = {
        "played": rate.played,
        "succeeded": rate.succeeded,
        "rate": rate.rate,
        "not_counted": rate.not_counted,
        "failures": rate.findings,
    }
    if (pushed := checked.pushed_back_by_scenario.get(scenario_id)) is not None:
        row["pushed_back"] = pushed.succeeded
        row["accepted"] = pushed.played - pushed.succeeded
    return row


def _check_customer(
    customer: str,
    paths: list[Path] | None,
    personas: Path | None,
    trials: int,
    threshold: float | None,
    max_turns: int | None,
    models_file: Path | None,
    runs_out: Path,
    sloppy: bool,
) -> CustomerCheck:
    """``validate --customer``: the oracle against the Customer (``app.check_customer``)."""
    from supportsim.app import check_customer
    from supportsim.workspace import find_workspace

    workspace = find_workspace()
    scenario_paths = [str(p) for p in (paths or workspace.scenarios)]
    try:
        checked, run_dir = asyncio.run(
            check_customer(
                customer,
                scenarios=scenario_paths,
                personas=str(personas or workspace.personas),
                trials=trials,
                threshold=threshold,
                max_turns=max_turns,
                models_file=str(models_file) if models_file else None,
                out=runs_out,
                sloppy=sloppy,
            )
        )
    except InputError as exc:
        raise _fail_input(exc) from None
    err.print(f"customer check run: {printable(run_dir)}", markup=False, highlight=False)
    return checked


def _print_baselines(results: list[BaselineResult]) -> None:
    from supportsim.validate import MAX_MEAN_PARTIAL

    n = len(results[0].runs) if results else 0
    table = Table(title=f"baseline agents on {n} scenarios (each must pass none)")
    table.add_column("baseline", no_wrap=True)
    table.add_column("strict passes", justify="right")
    table.add_column("mean partial", justify="right")
    table.add_column("scenarios passed")
    for b in results:
        table.add_row(
            b.name,
            f"{len(b.passed)}/{len(b.runs)}",
            f"{b.mean_partial:.1%}",
            ", ".join(b.passed) or "none",
        )
    out.print(table)
    problems = [p for b in results for p in b.problems()]
    for problem in problems:
        out.print(printable(problem), markup=False, highlight=False)
    verdict = "failed" if problems else "passed"
    out.print(
        f"baselines {verdict}: strict 0 everywhere and mean partial <= {MAX_MEAN_PARTIAL:.0%}",
        markup=False,
        highlight=False,
    )


def _verdict_json(v: object) -> dict[str, object]:
    from supportsim.validate import ScenarioVerdict

    assert isinstance(v, ScenarioVerdict)
    row: dict[str, object] = {
        "id": v.scenario.id,
        "source": v.scenario.source,
        "domain": v.scenario.domain,
        "oracle_passed": v.oracle_passed,
        "partial": v.score.partial,
        "state_sha256": v.state_sha256,
        "initial_state_sha256": v.initial_sha256,
        "unscored": list(v.score.unscored),
        "uncited": v.uncited,
        "problems": v.problems(),
    }
    if v.perturbed is not None:
        p = v.perturbed
        row["perturb"] = {
            "valid": p.valid,
            "valid_passed": p.valid_passed,
            "invalid": p.invalid,
            "invalid_caught": p.invalid_caught,
            "discarded": p.discarded,
        }
    return row


def _print_coverage(
    scenarios: list[Scenario], domains: dict[str, Domain], personas: dict[str, Persona]
) -> None:
    from supportsim.scenario import CATEGORIES, coverage

    cov = coverage(scenarios, DomainCatalogue(domains), personas)
    table = Table(title=f"coverage of {cov.scenarios} scenarios (a scenario counts in each tag)")
    table.add_column("category", no_wrap=True)
    for domain in sorted(cov.by_domain):
        table.add_column(domain, justify="right")
    table.add_column("all", justify="right")
    table.add_column("primary", justify="right")
    for category in CATEGORIES:
        counts = [str(cov.by_domain_category[(d, category)]) for d in sorted(cov.by_domain)]
        table.add_row(
            category, *counts, str(cov.by_category[category]), str(cov.by_primary[category])
        )
    totals = [str(cov.by_domain[d]) for d in sorted(cov.by_domain)]
    table.add_row("scenarios", *totals, str(cov.scenarios), str(cov.scenarios))
    out.print(table)

    def line(label: str, counter: object) -> None:
        items = sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))  # type: ignore[attr-defined]
        out.print(f"{label}: " + (", ".join(f"{k} {v}" for k, v in items) or "none"))

    line("languages", cov.languages)
    line("personas", cov.personas)
    out.print("personas never used: " + (", ".join(cov.personas_unused) or "none"))
    line("outcomes", cov.outcomes)
    line("fault types", cov.faults)
    out.print(f"required workflow steps per scenario: {cov.required_steps_mean:.2f}")
    for domain in sorted(cov.tools_used):
        line(f"tools exercised ({domain})", cov.tools_used[domain])
        out.print(
            f"tools never used ({domain}): " + (", ".join(cov.tools_unused[domain]) or "none")
        )


def _not_yet(command: str) -> None:
    err.print(f"supportsim {command}: not yet available in this version")
    raise typer.Exit(2)


# --- response cache (--cache) ------------------------------------------------------------

CacheFlag = Annotated[
    bool,
    typer.Option(
        "--cache", help="Keep model replies on disk and reuse them (docs: guide/models.md)."
    ),
]
CacheDirOpt = Annotated[
    Path | None,
    typer.Option(
        "--cache-dir",
        help="Where --cache keeps replies (default ~/.cache/supportsim/responses); implies it.",
    ),
]


def _response_cache(enabled: bool, folder: Path | None) -> ResponseCache | None:
    """The ``ResponseCache`` the flags ask for, or None (typer cannot parse an option with
    an optional value, hence ``--cache`` plus ``--cache-dir DIR``)."""
    import os

    from supportsim.llm import open_cache

    if not enabled and folder is None:
        return None
    return open_cache(folder, os.environ)


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
        raise _fail_input(InputError(f"--deadline: {exc}")) from None
    try:
        code = judge_command(
            run_dir,
            deadline_s=deadline_s,
            cache=_response_cache(cache, cache_dir),
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
        raise _fail_input(exc) from None
    raise typer.Exit(code)


HtmlFlag = Annotated[bool, typer.Option("--html", help="Also write a self-contained HTML file.")]
FailUnderOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--fail-under",
        help="Gate per agent, e.g. strict=0.8,partial=0.9 (or pass^2=0.5): exit 1 when an "
        "agent is below (repeatable).",
    ),
]


@app.command()
def report(
    run_dir: Annotated[Path, typer.Argument(help="A run directory (runs/<id>).")],
    path: Annotated[
        Path | None,
        typer.Argument(
            help="Where --html writes (default RUN_DIR/report.html); with --json alone, where "
            "the JSON goes (- for standard output).",
        ),
    ] = None,
    html: HtmlFlag = False,
    json_out: Annotated[
        bool,
        typer.Option(
            "--json",
            help="Write the summary JSON: to RUN_DIR/summary.json, or to PATH; --json - prints "
            "it on standard output (and nothing else goes there).",
        ),
    ] = False,
    junit: Annotated[
        Path | None, typer.Option("--junit", help="Write JUnit XML (one test case per unit).")
    ] = None,
    markdown: Annotated[
        Path | None,
        typer.Option(
            "--markdown",
            help="Write a Markdown summary to PATH, or with - to standard output "
            '(>> "$GITHUB_STEP_SUMMARY").',
        ),
    ] = None,
    fail_under: FailUnderOpt = None,
) -> None:
    """Summarise a run (finished or not) in the terminal, as summary.json, HTML, JUnit XML
    or Markdown; with --fail-under exit 1 when an agent is below a gate."""
    from supportsim.batch import parse_thresholds
    from supportsim.report import report_command

    try:
        gates = parse_thresholds(fail_under) if fail_under else None
    except InputError as exc:
        raise _fail_input(exc) from None
    json_path: str | None = None
    if json_out and path is not None and (str(path) == "-" or not html):
        json_path, path = str(path), None  # --json -, or --json PATH without --html
    code = report_command(
        run_dir,
        json_out=json_out and json_path is None,
        json_path=json_path,
        html=html,
        html_path=path,
        junit_path=junit,
        markdown_path=markdown,
        fail_under=gates,
        out=out,
        err=err,
    )
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


@app.command()
def compare(
    run_a: Annotated[Path, typer.Argument(help="The baseline run directory (A).")],
    run_b: Annotated[Path, typer.Argument(help="The run compared with it (B).")],
    path: Annotated[
        Path | None,
        typer.Argument(help="Where --html writes (default ./compare-<A>-vs-<B>.html)."),
    ] = None,
    html: HtmlFlag = False,
    pair: Annotated[
        list[str] | None,
        typer.Option("--pair", help="Compare A_AGENT in A with B_AGENT in B (repeat)."),
    ] = None,
    fail_on_regression: Annotated[
        list[str] | None,
        typer.Option(
            "--fail-on-regression",
            help="strict, partial, latency_p90 or cost (repeat or comma-list): exit 1 when "
            "the comparison's test calls B worse on one; refused (exit 2) when the runs' "
            "setups differ, unless --allow-different.",
        ),
    ] = None,
    allow_different: Annotated[
        bool,
        typer.Option(
            "--allow-different",
            help="Gate with --fail-on-regression even when the runs' setups differ "
            "(Customer, scenarios, judges, models, supportsim version).",
        ),
    ] = False,
    json_out: Annotated[
        str | None,
        typer.Option("--json", help="Also write the comparison as JSON to PATH (-: stdout)."),
    ] = None,
    customer: Annotated[
        str | None,
        typer.Option(
            "--customer",
            help="Compare under this Customer (needed when a run played several).",
        ),
    ] = None,
) -> None:
    """Compare two runs, paired by scenario and trial: deltas, intervals, tests, verdict."""
    from supportsim.report import compare_command

    code = compare_command(
        run_a,
        run_b,
        pairs=pair or [],
        html=html,
        html_path=path,
        out=out,
        err=err,
        fail_on_regression=fail_on_regression or [],
        allow_different=allow_different,
        json_path=json_out,
        customer=customer,
    )
    raise typer.Exit(code)


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

    if workers is not None and workers.strip().isdigit() and ray is None:
        # Started before the imports below, so the workers' own imports overlap them.
        _early_workers.start_early(int(workers))

    from supportsim.app import run_command
    from supportsim.batch import RunFlags, RunRequest, check_run_id, parse_thresholds

    try:
        if run_id is not None:
            check_run_id(run_id)  # it becomes a folder under --out: one safe name
        gates = parse_thresholds(fail_under) if fail_under else None
    except InputError as exc:
        raise _fail_input(exc) from None

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
        response_cache = _response_cache(cache or cache_agents, cache_dir)
    except InputError as exc:
        raise _fail_input(exc) from None
    request = RunRequest(
        config,
        flags,
        run_id=run_id,
        resume=resume,
        force=force,
        cache=response_cache,
        cache_agents=cache_agents,
    )
    _start_tracing(otel or otel_content, otel_content)  # no-op unless --otel or OTEL_* ask
    code = run_command(request, env=os.environ, console=out, err=err)
    raise typer.Exit(code)


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
            raise _fail_input(InputError(f"--otel: {exc}")) from None
        err.print(f"warning: OTEL_* set but not tracing: {exc}", markup=False, highlight=False)


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
        raise _fail_input(exc) from None
    tops = sorted({p.parts[0] for p in written})
    out.print(
        f"wrote {len(written)} files to {printable(folder)}: {', '.join(tops)}",
        markup=False,
        highlight=False,
    )
    where = "" if folder == Path(".") else f"cd {printable(folder)} && "
    out.print(f"next: {where}supportsim run --config runs/demo.yaml", markup=False)


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
            cache=_response_cache(cache, cache_dir),
            cache_roles=frozenset({"author"}),
        )
        pool.check({config.name: config})
    except InputError as exc:
        raise _fail_input(exc) from None

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


@app.command("mock-server")
def mock_server(
    port: Annotated[int, typer.Option(help="TCP port on 127.0.0.1 (0: any free port).")] = 8765,
    script: Annotated[
        Path | None,
        typer.Option(help="YAML/JSON file of scripted replies (and latency) per model."),
    ] = None,
    latency: Annotated[
        list[str] | None,
        typer.Option(
            "--latency",
            help="MODEL=TTFT/TOTAL in ms (repeatable; * for every other model): that "
            "model's replies stream their first token at TTFT and end at TOTAL.",
        ),
    ] = None,
) -> None:
    """Serve the OpenAI and Anthropic wire protocols on loopback, for offline dry runs.

    Point a run at it with OPENAI_BASE_URL=http://127.0.0.1:PORT/v1 (or
    ANTHROPIC_BASE_URL=http://127.0.0.1:PORT) and any API key; unscripted models are
    answered by the autopilot. A scripted model whose replies run out is said on stderr.
    Stop it with Ctrl-C.
    """
    from supportsim.testing import parse_latency, serve

    def ready(server: object) -> None:
        url = server.url  # type: ignore[attr-defined]
        out.print(f"mock LLM server on {url}  (OpenAI base_url {url}/v1, Anthropic {url})")

    def warn(line: str) -> None:
        err.print(line, markup=False, highlight=False)

    try:
        timings = dict(parse_latency(spec) for spec in latency or ())
        asyncio.run(serve("127.0.0.1", port, script, ready=ready, latency=timings, warn=warn))
    except InputError as exc:
        raise _fail_input(exc) from None
    except KeyboardInterrupt:
        out.print("stopped")


@app.command()
def export(
    run_dir: Annotated[Path, typer.Argument(help="A run directory (runs/<id>).")],
    to: Annotated[str, typer.Option("--to", help="File format: csv or parquet.")] = "csv",
    level: Annotated[
        str, typer.Option("--level", help="One row per: unit, message, check or call.")
    ] = "unit",
    out_path: Annotated[
        str | None,
        typer.Option(
            "--out",
            help="File (or folder) to write; - for standard output (CSV). "
            "Default RUN_DIR/export/<level>.<csv|parquet>.",
        ),
    ] = None,
    raw: Annotated[
        bool,
        typer.Option(
            "--raw",
            help="CSV: write text cells as they are. By default a cell starting with = + - @ "
            "(a spreadsheet formula) gets a leading ' so opening the file runs nothing.",
        ),
    ] = False,
) -> None:
    """Export a run as a flat table (units, messages, checks or tool calls) for pandas,
    polars or DuckDB; parquet needs the `parquet` extra."""
    from supportsim.export import export_command

    raise typer.Exit(export_command(run_dir, to=to, level=level, out=out_path, err=err, raw=raw))


@app.command()
def trend(
    run_dirs: Annotated[
        list[str], typer.Argument(help="Run directories, or a quoted glob ('runs/nightly-*').")
    ],
    html_path: Annotated[
        Path | None, typer.Option("--html", help="Also write the trend as an HTML page here.")
    ] = None,
    json_path: Annotated[
        str | None,
        typer.Option("--json", help="Also write the trend as JSON here (- : standard output)."),
    ] = None,
) -> None:
    """Strict, partial, pass^k, latency and cost per agent over runs (oldest first), with
    the changes the paired comparison test calls significant marked."""
    from supportsim.report import trend_command

    code = trend_command(run_dirs, html_path=html_path, json_path=json_path, out=out, err=err)
    raise typer.Exit(code)


@app.command()
def view(
    runs_dir: Annotated[
        Path, typer.Argument(help="A folder of run directories (or one run directory).")
    ] = Path("runs"),
    host: Annotated[
        str, typer.Option(help="Loopback address to serve on (127.0.0.1, ::1, localhost).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port (0: any free port).")] = 8600,
) -> None:
    """Browse runs in a local web viewer: an index of runs, each run's leaderboards,
    filterable units and conversations, compare and trend; live while a run writes.

    Loopback only (transcripts hold customer data; there is no login). It reads the run
    directories and never writes them. Stop it with Ctrl-C.
    """
    from supportsim.view import view_command

    raise typer.Exit(view_command(runs_dir, host=host, port=port, out=out, err=err))


@app.command("worker", hidden=True)
def worker() -> None:
    """A worker process of ``supportsim run --workers`` (started by the run, not by hand:
    it reads the hub's address and token from its stdin)."""
    from supportsim.batch import worker_main

    raise typer.Exit(worker_main())


@app.command("mcp-stdio")
def mcp_stdio(
    url: Annotated[
        str | None,
        typer.Argument(
            help="The conversation's MCP session URL (AgentContext.mcp_url). Better in the "
            "SUPPORTSIM_MCP_URL variable: a command line is visible to every local user.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Serve one conversation's tools over stdio, for an agent that spawns its tool server.

    A proxy to the session URL, read from SUPPORTSIM_MCP_URL (or the argument): every
    call lands in that conversation's call log.
    """
    import os

    from supportsim.environment import MCP_URL_ENV, BridgeError, serve_stdio_bridge

    url = url or os.environ.pop(MCP_URL_ENV, "")
    if not url:
        err.print(f"error: mcp-stdio: no session URL: set {MCP_URL_ENV}", markup=False)
        raise typer.Exit(2)
    if not url.startswith(("http://", "https://")):
        err.print("error: mcp-stdio: URL must be an http:// session URL", markup=False)
        raise typer.Exit(2)
    try:
        asyncio.run(serve_stdio_bridge(url))
    except BridgeError as exc:
        err.print(f"error: mcp-stdio: {exc}", markup=False, highlight=False)
        raise typer.Exit(2) from None
    except KeyboardInterrupt:
        pass


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
        raise _fail_input(exc) from None
    out.print(
        f"imported {len(done.scenario_ids)} tau2 tasks into {done.out} "
        f"({done.ignored_actions} gold actions ignored: they raise on tau2's tools)",
        markup=False,
        highlight=False,
    )


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


def main() -> None:
    """Console-script entry point."""
    sys.exit(app(args=bare_ray(sys.argv[1:])))
