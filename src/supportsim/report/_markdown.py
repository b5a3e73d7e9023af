"""``report --markdown PATH``: the leaderboard and the worst checks as GitHub-flavoured
Markdown, short enough for a job summary (``$GITHUB_STEP_SUMMARY``) or a PR comment.

Renders ``summarise()`` output; computes nothing. Names, check ids and reasons are model
or scenario text: each cell is escaped so it stays one table cell and only text. Newlines
become spaces, ``|`` cannot end a cell, the characters that open inline markup are
backslash-escaped (no emphasis, code, links or images can be injected) and so is a
leading ``#``, ``-`` or ``+``, ``<`` and ``&`` become entities (no raw HTML), and ``$`` is
escaped (GitHub renders ``$...$`` as math). Control characters are made visible first
(``printable``).
"""

from __future__ import annotations

import re

from supportsim._printable import printable
from supportsim.report._format import (
    DASH,
    agreement_lines,
    ci,
    counts,
    leaderboard_order,
    ms,
    pass_k_columns,
    pct,
    scores_cell,
    spread,
    trials_phrase,
    usd,
)
from supportsim.store import CustomersSection, RunSection, Summary

REASON_CHARS = 160
"""Longest reason shown in a cell (the HTML report has them whole)."""
_INLINE = re.compile(r"([\\`*_\[\]|~$!])")
"""Characters that start inline markup (emphasis, code, links, images, strikethrough,
math) or end a table cell; block markup (``#``, ``-``, ``>``) only counts at a line's
start, handled apart."""


def md(value: object, limit: int | None = None) -> str:
    """Text safe in a Markdown table cell: one line, no markup, no HTML."""
    text = " ".join(printable(value, newlines=True).split())
    if limit is not None and len(text) > limit:
        text = text[: limit - 1] + "…"
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    # GFM would ping an @mention and autolink a bare URL or www. host from model text.
    text = text.replace("@", "&#64;").replace("://", ":&#47;&#47;").replace("www.", "www&#46;")
    text = _INLINE.sub(r"\\\1", text)
    return "\\" + text if text[:1] in ("#", "+", "-", "=") else text


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _table(header: list[str], align: list[str], rows: list[list[str]]) -> list[str]:
    rule = ["---:" if a == "r" else "---" for a in align]
    return [_row(header), _row(rule), *(_row(r) for r in rows), ""]


def _money(value: float | None) -> str:
    return md(usd(value)) if value is not None else DASH


def _customers(section: CustomersSection) -> list[str]:
    """Each Agent under each Customer (strict / partial), the spread, the rank agreement."""
    out = ["### Customers", ""]
    header = ["agent", *(md(c) for c in section.customers)]
    header += ["strict spread pts", "partial spread pts"]
    rows = [
        [
            md(agent),
            *(md(scores_cell(row.by_customer[c])) for c in section.customers),
            md(spread(row.strict_spread)),
            md(spread(row.partial_spread)),
        ]
        for agent, row in section.agents.items()
    ]
    out += _table(header, ["l"] + ["r"] * (len(header) - 1), rows)
    out += [f"- {md(line)}" for line in agreement_lines(section)]
    return [*out, ""]


def render_markdown(summary: Summary, *, run_id: str, gate_lines: list[str] | None = None) -> str:
    """The Markdown summary of a run: header, leaderboard, not-scored units, worst checks
    and (when given) the gate results."""
    agents = summary.agents
    order = leaderboard_order(agents)
    ks = pass_k_columns(summary.trials)
    run = summary.run or RunSection()
    out = [f"## supportsim report: {md(run_id)}", ""]
    facts = []
    if run.status:
        facts.append(f"run {md(run.status)}")
    planned = run.units_planned
    units = summary.units
    facts.append(f"{units} of {planned} units finished" if planned else f"{units} units")
    facts.append(f"{len(agents)} agent(s), {trials_phrase(summary)}")
    out += [", ".join(facts), ""]
    if gate_lines:
        out += ["### Gates", "", *(f"- {md(line)}" for line in gate_lines), ""]
    out += ["### Leaderboard", ""]
    header = ["agent", "scored / units", "strict", "95% CI", "partial", "gap pts"]
    header += [f"pass\\^{k}" for k in ks]
    header += ["resp p50 ms", "p90 ms", "agent \\$ / conv", "total \\$ / conv"]
    rows = []
    for name in order:
        a = agents[name]
        gap = a.partial_gap
        rows.append(
            [
                md(name),
                f"{a.n} / {a.units}",
                md(pct(a.strict_rate)),
                md(ci(a.strict_ci95)),
                md(pct(a.partial_mean)),
                DASH if gap is None else md(f"{gap * 100:+.1f}"),
                *(md(pct(a.pass_hat_k[k])) for k in ks),
                md(ms(a.response_ms.p50)),
                md(ms(a.response_ms.p90)),
                _money(a.agent_cost_mean_usd),
                _money(a.cost_mean_usd),
            ]
        )
    out += _table(header, ["l"] + ["r"] * (len(header) - 1), rows)
    unscored = {
        name: {k: v for k, v in agents[name].status.items() if k != "completed"} for name in order
    }
    unscored = {k: v for k, v in unscored.items() if v}
    if unscored:
        out += ["Not scored (errors are counted, never scored):", ""]
        out += [f"- {md(name)}: {md(counts(s))}" for name, s in unscored.items()]
        out.append("")
    if summary.customers is not None:
        out += _customers(summary.customers)
    out += ["### Checks that fail most often", ""]
    failing = summary.failing_checks
    if not failing:
        out += ["No check failed.", ""]
    else:
        rows = [
            [
                md(c.scenario_id),
                md(f"{c.check_id} ({c.kind})"),
                f"{c.failed} / {c.evaluated}",
                md(", ".join(f"{a} {n}" for a, n in c.agents.items())),
                md(c.reasons[0].reason, REASON_CHARS) if c.reasons else DASH,
            ]
            for c in failing
        ]
        out += _table(
            ["scenario", "check", "failed", "by agent", "commonest reason"],
            ["l", "l", "r", "l", "l"],
            rows,
        )
    return "\n".join(out)
