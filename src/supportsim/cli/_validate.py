"""``supportsim validate``: the scenario and persona files checked, the oracle run on
each, and (when asked) coverage, perturbed variants, the baseline agents and the
Customer check; printed as tables or one JSON document."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from supportsim._printable import printable
from supportsim.cli._app import app, err, fail_input, out
from supportsim.cli._options import PathsArg, PersonasOpt, load_inputs
from supportsim.domains import Domain, DomainCatalogue
from supportsim.errors import InputError
from supportsim.scenario import Persona, Scenario

if TYPE_CHECKING:
    from supportsim.report import CustomerCheck
    from supportsim.validate import BaselineResult, ScenarioVerdict


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
        raise fail_input(InputError(f"{given}: applies to the Customer check, give --customer"))
    try:
        domains, persona_set, scenarios = load_inputs(paths, personas)
    except InputError as exc:
        raise fail_input(exc) from None
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
        raise fail_input(exc) from None
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
