"""The terminal view of a summary (rich). Renders a ``Summary`` (``summarise()``); computes nothing.
A comparison of two runs has its own view (``_compare_terminal``).

Every cell that may hold scenario or model text is passed as ``rich.text.Text`` so a
``[bold]`` in a check reason is printed, not interpreted as markup, and every name (agent
labels, run ids, scenario ids) and text goes through ``printable``, so an escape sequence
in it is shown, not obeyed by the terminal.
"""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

from supportsim._printable import printable
from supportsim._tables import fit, min_width, name_cell, text_cell
from supportsim.report._customer_terminal import attributable_table, customer_tables
from supportsim.report._format import (
    DASH,
    agreement_lines,
    ci,
    counts,
    floor,
    leaderboard_order,
    ms,
    number,
    pass_k_columns,
    pct,
    scores_cell,
    spread,
    tool_time_note,
    trials_phrase,
    usd,
)
from supportsim.report._statements import DISAGREEMENTS_SHOWN
from supportsim.store import (
    AgentRow,
    CustomersSection,
    Rate,
    RunSection,
    StatementJudgeSection,
    Summary,
)


def _header(summary: Summary) -> Text:
    run = summary.run or RunSection()
    parts = [f"run {printable(run.run_id)}"] if run.run_id else []
    if run.status:
        parts.append(printable(run.status))
    planned = run.units_planned
    done = summary.units
    parts.append(f"{done} of {planned} units finished" if planned else f"{done} units")
    parts.append(trials_phrase(summary))
    if rescored := summary.rescored:
        parts.append(f"verdicts rescored at {rescored.at} ({rescored.units} units)")
    return Text(" · ".join(parts), style="bold")


def quality_table(summary: Summary) -> Table:
    agents = summary.agents
    ks = pass_k_columns(summary.trials)
    table = Table(title="leaderboard: quality (completed conversations are scored)")
    table.add_column("agent", no_wrap=True)
    table.add_column("scored/units", justify="right")
    table.add_column("strict", justify="right")
    table.add_column("95% CI", justify="right", no_wrap=True)
    table.add_column("partial", justify="right")
    table.add_column("gap pts", justify="right")
    for k in ks:
        table.add_column(f"pass^{k}", justify="right")
    for name in leaderboard_order(agents):
        a = agents[name]
        gap = a.partial_gap
        table.add_row(
            name_cell(name),
            f"{a.n}/{a.units}",
            pct(a.strict_rate),
            ci(a.strict_ci95),
            pct(a.partial_mean),
            DASH if gap is None else f"{gap * 100:+.1f}",
            *(_pass_k(a, k) for k in ks),
        )
    return table


def _pass_k(agent: AgentRow, k: str) -> str:
    """pass^k, and over how many scenarios when some had fewer than k scored trials."""
    used, total = agent.pass_hat_k_scenarios[k], agent.scenarios
    value = pct(agent.pass_hat_k[k])
    return value if used == total or not used else f"{value} ({used}/{total} sc.)"


def tau2_table(summary: Summary) -> Table | None:
    """tau2-bench's own figures for agents that ran tau2 tasks (``_tau2.py``), or None."""
    agents = {n: a.tau2 for n, a in summary.agents.items() if a.tau2 is not None}
    if not agents:
        return None
    ks = sorted({k for t in agents.values() for k in t.pass_hat_k}, key=int)
    table = Table(title="tau2-bench metrics, computed as tau2 computes them")
    table.add_column("agent", no_wrap=True)
    columns = ("tasks", "sims", "avg reward", *(f"pass^{k}" for k in ks), "unjudged", "infra err")
    for column in columns:
        table.add_column(column, justify="right")
    for name in leaderboard_order(summary.agents):
        if (t := agents.get(name)) is None:
            continue
        table.add_row(
            name_cell(name),
            str(t.tasks),
            str(t.simulations),
            pct(t.avg_reward),
            *(pct(t.pass_hat_k.get(k)) for k in ks),
            str(t.not_fully_scored),
            str(t.infra_errors),
        )
    return table


def speed_table(summary: Summary) -> Table:
    agents = summary.agents
    table = Table(title="leaderboard: speed and cost (per Agent reply / per conversation)")
    table.add_column("agent", no_wrap=True)
    columns = ("resp p50 ms", "p90", "p99", "ttft p50 ms", "tokens in", "tokens out")
    for column in (*columns, "agent $/conv", "total $/conv"):
        table.add_column(column, justify="right")
    for name in leaderboard_order(agents):
        a = agents[name]
        r, tok = a.response_ms, a.tokens
        table.add_row(
            name_cell(name),
            ms(r.p50),
            ms(r.p90),
            ms(r.p99),
            ms(a.ttft_ms.p50),
            number(tok.input_mean),
            number(tok.output_mean),
            usd(a.agent_cost_mean_usd),
            usd(a.cost_mean_usd),
        )
    table.caption = tool_time_note(summary)
    return table


def status_table(summary: Summary) -> Table:
    agents = summary.agents
    table = Table(title="units by status and termination")
    table.add_column("agent", no_wrap=True)
    table.add_column("status")
    table.add_column("termination")
    for name in leaderboard_order(agents):
        a = agents[name]
        table.add_row(
            name_cell(name), text_cell(counts(a.status)), text_cell(counts(a.termination))
        )
    return table


def _by(summary: Summary, key: str) -> dict[str, dict[str, Rate]]:
    """agent -> group -> rate, by ``category`` or ``domain``."""
    return summary.by_category if key == "category" else summary.by_domain


def breakdown_table(summary: Summary, key: str) -> Table:
    """Rows: category (or domain); columns: agent; cell: strict / partial (n)."""
    by = _by(summary, key)
    agents = leaderboard_order(summary.agents)
    groups = sorted({g for per in by.values() for g in per})
    table = Table(title=f"strict / partial per {key}")
    table.add_column(key, no_wrap=True)
    for name in agents:
        table.add_column(name_cell(name), justify="right")
    for g in groups:
        cells: list[Text | str] = [name_cell(g)]
        for name in agents:
            cell = by.get(name, {}).get(g)
            cells.append(
                f"{pct(cell.strict_rate, 0)} / {pct(cell.partial_mean, 0)} ({cell.n})"
                if cell
                else DASH
            )
        table.add_row(*cells)
    return table


def stacked_breakdown_table(summary: Summary, key: str) -> Table:
    """``breakdown_table`` in long form, a row per (group, agent): for many agents."""
    by = _by(summary, key)
    table = Table(title=f"strict / partial per {key}")
    table.add_column(key)
    table.add_column("agent")
    for column in ("strict", "partial", "n"):
        table.add_column(column, justify="right")
    for g in sorted({g for per in by.values() for g in per}):
        first = True
        for name in leaderboard_order(summary.agents):
            if (cell := by.get(name, {}).get(g)) is None:
                continue
            table.add_row(
                name_cell(g) if first else "",
                name_cell(name),
                pct(cell.strict_rate, 0),
                pct(cell.partial_mean, 0),
                str(cell.n),
            )
            first = False
    return table


def failing_table(summary: Summary) -> Table:
    table = Table(title="checks that fail most often", show_lines=True)
    table.add_column("scenario / check")
    table.add_column("failed", justify="right", no_wrap=True)
    table.add_column("reasons (by agent)", ratio=1)
    for f in summary.failing_checks:
        reasons = "\n".join(f"{r.count}× {r.reason}" for r in f.reasons)
        table.add_row(
            text_cell(f"{f.scenario_id}\n{f.check_id}"),
            f"{f.failed}/{f.evaluated}"
            + (f"\n({f.hindered} customer-hindered)" if f.hindered else ""),
            text_cell(f"{reasons}\n({counts(f.agents)})"),
        )
    return table


def judge_tables(section: StatementJudgeSection) -> tuple[Table, Table | None]:
    """Rules against the statement judge per check kind and language, and the first
    disagreements (None when there are none)."""
    judges = ", ".join(printable(j) for j in section.judges) or DASH
    agreement = Table(
        title=f"statement judge ({judges}) vs rules: {section.agree}/{section.checks} "
        f"checks agree, {section.unclear} unclear, {section.not_judged} decided by rules"
    )
    for column in ("kind", "lang", "checks", "agree", "κ", "rules pass, judge fail"):
        agreement.add_column(column, justify="left" if column in ("kind", "lang") else "right")
    agreement.add_column("rules fail, judge pass", justify="right")
    agreement.add_column("unclear", justify="right")
    for row in section.by_kind:
        agreement.add_row(
            name_cell(row.kind),
            name_cell(row.language),
            str(row.checks),
            pct(row.agreement),
            number(row.kappa, 2),
            str(row.rule_pass_judge_fail),
            str(row.rule_fail_judge_pass),
            str(row.unclear),
        )
    shown = section.disagreements[:DISAGREEMENTS_SHOWN]
    if not shown:
        return agreement, None
    more = section.disagreements_total - len(shown)
    title = "rules and judge disagree" + (
        f" (first {len(shown)}; {more} more in summary.json)" if more else ""
    )
    table = Table(title=title, show_lines=True)
    for column in ("unit / check", "rules", "judge", "quote"):
        table.add_column(column, ratio=1 if column == "quote" else None)
    for d in shown:
        where = f" (message {d.message})" if d.message is not None else ""
        table.add_row(
            text_cell(f"{d.unit_id}\n{d.check_id}"),
            "pass" if d.rule else "fail",
            f"{d.answer}: {'pass' if d.judged else 'fail'}",
            text_cell(f"{d.quote!r}{where}"),
        )
    return agreement, table


def customers_table(section: CustomersSection) -> Table:
    """Each Agent's strict and partial under each Customer, and the spread."""
    table = Table(title="Customers: each Agent's strict / partial under each Customer")
    table.add_column("agent", no_wrap=True)
    for customer in section.customers:
        table.add_column(name_cell(customer), justify="right")
    table.add_column("strict spread pts", justify="right")
    table.add_column("partial spread pts", justify="right")
    for agent, row in section.agents.items():
        cells = [scores_cell(row.by_customer[c]) for c in section.customers]
        table.add_row(
            name_cell(agent), *cells, spread(row.strict_spread), spread(row.partial_spread)
        )
    return table


def _customers(summary: Summary, console: Console) -> None:
    if (section := summary.customers) is None:
        return
    console.print(fit(customers_table(section), console))
    for line in agreement_lines(section):
        console.print(printable(line), markup=False, highlight=False)


def _leaderboards(summary: Summary, console: Console) -> None:
    """Quality, tau2's figures, speed and cost: each fitted to the width, never cut."""
    # quality: agent, scored/units, strict, 95% CI, partial, gap pts, then the pass^k shown
    # (pass_k_columns): narrow, the highest k goes first, pass^1 last
    shown = len(pass_k_columns(summary.trials))
    higher_k = [6 + k for k in range(shown - 1, 0, -1)]
    console.print(fit(quality_table(summary), console, drop=[*higher_k, 5, 3, 6, 1]))
    if (tau2 := tau2_table(summary)) is not None:
        ks = len(tau2.columns) - 6  # agent, tasks, sims, avg reward, pass^k..., unjudged, infra
        console.print(fit(tau2, console, drop=[2, 4 + ks, 5 + ks, *range(3 + ks, 4, -1), 1]))
    # speed: agent, p50, p90, p99, ttft p50, tokens in, tokens out, agent $/conv, total $/conv
    console.print(fit(speed_table(summary), console, drop=[6, 5, 2, 4, 8, 3]))
    _customers(summary, console)


def render_leaderboard(summary: Summary, console: Console) -> None:
    """The per-agent tables (quality, then speed and cost): the end of ``supportsim run``."""
    if summary.agents:
        _leaderboards(summary, console)
        if (own := attributable_table(summary)) is not None:
            console.print(fit(own, console))
        _floor(summary, console)


def _floor(summary: Summary, console: Console) -> None:
    """The do-nothing floor, when the run has one: what the figures are read against."""
    if (line := floor(summary)) is not None:
        console.print(line, markup=False, highlight=False)


def render_summary(summary: Summary, console: Console) -> None:
    """Print the whole terminal report: leaderboard, breakdowns, failing checks."""
    console.print(_header(summary))
    _floor(summary, console)
    if not summary.agents:
        console.print("no conversation has finished yet")
        return
    _leaderboards(summary, console)
    console.print(fit(status_table(summary), console))
    for key in ("category", "domain"):
        if _by(summary, key):
            table = breakdown_table(summary, key)
            if min_width(table) > console.width:  # one column per agent does not fit: stack
                table = stacked_breakdown_table(summary, key)
            console.print(fit(table, console))
    if summary.failing_checks:
        console.print(fit(failing_table(summary), console))
    else:
        console.print("no check failed")
    if section := summary.statement_judge:
        for judged in judge_tables(section):
            if judged is not None:
                console.print(fit(judged, console, drop=[4, 5]))
    for part in customer_tables(summary):
        if isinstance(part, str):
            console.print(part, markup=False, highlight=False)
        else:
            console.print(fit(part, console))
