"""The terminal view of ``agreement_summary``: rich tables, computed nothing.

Model-written text (justifications) and names are passed as ``rich.text.Text`` so markup in
them is printed, not interpreted, and through ``printable`` so escape sequences in them are
shown, not obeyed by the terminal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from supportsim._tables import fit, text_cell
from supportsim.judges._rubric import OVERALL

LIST_LIMIT = 20
"""Rows of the split list and of each rules-disagreement list shown in the terminal."""
DASH = "-"


def _num(value: float | None, digits: int = 2) -> str:
    return DASH if value is None else f"{value:.{digits}f}"


def _usd(value: float | None) -> str:
    return "unknown" if value is None else f"${value:.4f}"


def _rate(cell: Mapping[str, Any] | None) -> Text:
    if not cell or not cell.get("n"):
        return text_cell(DASH)
    low, high = cell["ci95"]
    return text_cell(f"{cell['rate']:.2f} [{low:.2f}, {high:.2f}] n={cell['n']}")


def _pass_rates(summary: Mapping[str, Any]) -> Table:
    raters = ["strict", *summary["judges"], "majority"]
    table = Table(title="pass rate per agent (overall verdict, 95% Wilson interval)")
    table.add_column("agent", no_wrap=True)
    for rater in raters:
        table.add_column(text_cell(rater), justify="right")
    for agent, row in summary["pass_rates"].items():
        table.add_row(text_cell(agent), *(_rate(row.get(r)) for r in raters))
    return fit(table)


def _judges_table(summary: Mapping[str, Any]) -> Table:
    human = bool(summary.get("vs_human"))
    table = Table(title="each judge against the rules (strict verdict) and itself")
    for column in ("judge", "units", "agree", "kappa", "pass/rules fail", "fail/rules pass"):
        table.add_column(column, justify="left" if column == "judge" else "right")
    table.add_column("self-consistency", justify="right")
    table.add_column("infra errors", justify="right")
    if human:
        table.add_column("human agree", justify="right")
        table.add_column("human kappa", justify="right")
    for judge in summary["judges"]:
        strict = summary["vs_strict"][judge]
        consistency = summary["self_consistency"][judge]
        row: list[Text | str] = [
            text_cell(judge),
            str(strict["n"]),
            _num(strict["agreement"]),
            _num(strict["kappa"]),
            str(strict["judge_pass_reference_fail"]),
            str(strict["judge_fail_reference_pass"]),
            _num(consistency["mean"])
            + (f" ({consistency['units']} units)" if consistency["units"] else ""),
            str(summary["coverage"][judge]["infra_errors"]),
        ]
        if human:
            vs = summary["vs_human"].get(judge, {}).get(OVERALL) or {}
            row += [_num(vs.get("agreement")), _num(vs.get("kappa"))]
        table.add_row(*row)
    return fit(table)


def _pairwise(summary: Mapping[str, Any]) -> Table:
    taus = {(t["a"], t["b"]): t["tau"] for t in summary["ranking"]["tau"]}
    table = Table(title="judge pairs (overall verdict)")
    for column in ("judge a", "judge b", "units", "agree", "Cohen's kappa", "Kendall's tau"):
        table.add_column(
            column, justify="right" if column not in ("judge a", "judge b") else "left"
        )
    for pair in summary["pairwise"][OVERALL]:
        table.add_row(
            text_cell(pair["a"]),
            text_cell(pair["b"]),
            str(pair["n"]),
            _num(pair["agreement"]),
            _num(pair["kappa"]),
            _num(taus.get((pair["a"], pair["b"]))),
        )
    return fit(table)


def _ranking(summary: Mapping[str, Any]) -> Table:
    table = Table(title="agent ranking agreement (Kendall's tau-b of pass rates)")
    for column in ("rater a", "rater b", "agents", "tau"):
        table.add_column(column, justify="right" if column in ("agents", "tau") else "left")
    for t in summary["ranking"]["tau"]:
        table.add_row(text_cell(t["a"]), text_cell(t["b"]), str(t["agents"]), _num(t["tau"]))
    return fit(table)


def _criteria(summary: Mapping[str, Any]) -> Table:
    judges = summary["judges"]
    table = Table(title="per criterion: agreement between judges and pass rates")
    table.add_column("criterion", no_wrap=True)
    table.add_column("mean pairwise agree", justify="right")
    table.add_column("Fleiss' kappa", justify="right")
    for judge in judges:
        table.add_column(text_cell(f"{judge} pass"), justify="right")
    rates = summary["criteria_pass_rates"]
    for criterion in summary["rubric"]["criteria"]:
        fleiss = summary["fleiss"][criterion]
        table.add_row(
            text_cell(criterion),
            _num(summary["mean_pairwise_agreement"][criterion]),
            _num(fleiss["kappa"]) + (f" (n={fleiss['n']})" if fleiss["kappa"] is not None else ""),
            *(_num(rates[j][criterion]["rate"]) for j in judges),
        )
    return fit(table)


def _splits(splits: Sequence[Mapping[str, Any]], judges: Sequence[str]) -> RenderableType:
    if not splits:
        return text_cell("judges agree on every conversation's overall verdict")
    table = Table(title=f"judges split on {len(splits)} conversation(s): review these")
    table.add_column("unit", no_wrap=True)
    table.add_column("strict")
    for judge in judges:
        table.add_column(text_cell(judge))
    table.add_column("criteria split")
    for split in splits[:LIST_LIMIT]:
        table.add_row(
            text_cell(split["unit_id"]),
            "pass" if split["strict"] else "fail",
            *(text_cell(split["verdicts"].get(j, DASH)) for j in judges),
            text_cell(", ".join(split["criteria_split"])),
        )
    if len(splits) > LIST_LIMIT:
        table.caption = f"and {len(splits) - LIST_LIMIT} more (see the JSON summary)"
    return fit(table)


def _rules_lists(summary: Mapping[str, Any]) -> list[RenderableType]:
    out: list[RenderableType] = []
    for judge in summary["judges"]:
        vs = summary["vs_strict"][judge]
        for key, label in (
            ("judge_passes_rules_fail", "passes what the rules fail"),
            ("judge_fails_rules_pass", "fails what the rules pass"),
        ):
            units = vs[key]
            if units:
                shown = ", ".join(units[:LIST_LIMIT])
                more = f" and {len(units) - LIST_LIMIT} more" if len(units) > LIST_LIMIT else ""
                out.append(text_cell(f"{judge} {label} ({len(units)}): {shown}{more}"))
    return out


def _cost(summary: Mapping[str, Any]) -> Text:
    cost = summary["cost"]
    judges = ", ".join(f"{j} {_usd(v)}" for j, v in cost["judges_usd"].items())
    return text_cell(
        f"cost: conversations {_usd(cost['conversations_usd'])}; judges "
        f"{_usd(cost['judges_total_usd'])}"
        + (f" ({judges})" if judges else "")
        + f"; total {_usd(cost['total_usd'])}"
    )


def render_terminal(summary: Mapping[str, Any]) -> RenderableType:
    """The judge section of a report, for ``Console.print``."""
    if not summary.get("available"):
        return text_cell(str(summary.get("reason") or "no judgments"))
    judges = summary["judges"]
    overall = summary["fleiss"][OVERALL]
    human = summary.get("human")
    head = text_cell(
        f"LLM judges: {len(judges)} judge(s) over {summary['units']} completed conversation(s), "
        f"rubric {summary['rubric']['name']}",
        style="bold",
    )
    parts: list[RenderableType] = [head, _pass_rates(summary), _judges_table(summary)]
    if len(judges) >= 2:
        parts.append(_pairwise(summary))
        parts.append(
            text_cell(
                f"Fleiss' kappa (overall, {overall['n']} units, {overall['raters']} judges): "
                f"{_num(overall['kappa'])}; mean pairwise agreement "
                f"{_num(summary['mean_pairwise_agreement'][OVERALL])}"
            )
        )
    parts += [_ranking(summary), _criteria(summary)]
    if human:
        parts.append(text_cell(f"human labels: {human['labels']} on {human['units']} units"))
    parts += _rules_lists(summary)
    if len(judges) >= 2:
        parts.append(_splits(summary["splits"], judges))
    parts.append(_cost(summary))
    return Group(*parts)
