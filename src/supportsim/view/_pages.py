"""The viewer's HTML pages: jinja2 with autoescape on, so model text is always text.

Pages carry no inline script or style block: the server's Content-Security-Policy allows
scripts from the viewer's own ``/static/`` only, so even a missed escape could not run a
payload from a transcript. The run page embeds the HTML report's summary sections
(``render_summary_sections``), its leaderboards and charts, rather than drawing them again.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any
from urllib.parse import quote, urlencode

from jinja2 import Environment
from markupsafe import Markup, escape

from supportsim.report import _format, html_environment, render_summary_sections
from supportsim.store import ConversationRecord, RunSection, Summary
from supportsim.view._reader import Glance, Snapshot
from supportsim.view._units import (
    FILTERS,
    UnitQuery,
    pass_k_by_scenario,
    select_units,
    unit_row,
)

_MESSAGE_REF = re.compile(r"\bmessages? (\d+)\b")


@cache
def _environment() -> Environment:
    env = html_environment("supportsim.view")
    env.globals.update(f=_format, unit_href=unit_href, run_href=run_href, pretty=_pretty)
    env.filters["linked"] = linked
    return env


def _render(template: str, **context: Any) -> str:
    return _environment().get_template(template).render(**context)


def run_href(name: str, params: Mapping[str, str] | None = None) -> str:
    """The run page's URL (run names are folder names: quoted, never a path)."""
    query = f"?{urlencode(params)}" if params else ""
    return f"/runs/{quote(name, safe='')}{query}"


def unit_href(name: str, unit_id: str) -> str:
    return f"/runs/{quote(name, safe='')}/units/{quote(unit_id, safe='')}"


def linked(reason: str) -> Markup:
    """A check's reason, escaped, with each "message N" linked to that message."""
    text = str(escape(reason))
    return Markup(_MESSAGE_REF.sub(lambda m: f'<a href="#m-{m[1]}">{m[0]}</a>', text))


def _pretty(arguments: str) -> str:
    import json

    try:
        return json.dumps(json.loads(arguments), indent=2, ensure_ascii=False)
    except ValueError:
        return arguments


@dataclass(frozen=True, slots=True)
class AgentFigures:
    name: str
    strict: float | None
    partial: float | None
    p50_ms: float | None
    cost_usd: float | None


def _agents(summary: Summary | None) -> list[AgentFigures]:
    if summary is None:
        return []
    return [
        AgentFigures(
            name,
            summary.agents[name].strict_rate,
            summary.agents[name].partial_mean,
            summary.agents[name].response_ms.p50,
            summary.agents[name].cost_mean_usd,
        )
        for name in _format.leaderboard_order(summary.agents)
    ]


def render_index(glances: Sequence[Glance], version: str) -> str:
    """Every run: status, when, Agents, Customers, figures, progress (newest name first)."""
    runs = [
        {
            "name": g.name,
            "run_id": g.run_id,
            "status": g.status,
            "started_at": g.started_at,
            "units": g.units,
            "planned": g.planned,
            "agents": _agents(g.summary),
            "customers": g.customers,
            "problem": g.problem,
            "bad_lines": g.bad_lines,
        }
        for g in reversed(glances)
    ]
    return _render("index.html.j2", runs=runs, version=version, poll="/api/state")


def render_run(snap: Snapshot, query: UnitQuery, version: str) -> str:
    """A run: the report's summary sections, pass^k per scenario, the unit table."""
    assert snap.run is not None and snap.summary is not None
    rows = [unit_row(r) for r in snap.records]
    page = select_units(rows, query)
    section = snap.summary.run or RunSection()
    ks = [int(k) for k in _format.pass_k_columns(snap.run.trials)]
    return _render(
        "run.html.j2",
        snap=snap,
        run=snap.run,
        section=section,
        summary_html=render_summary_sections(snap.summary),
        pass_k=pass_k_by_scenario(snap.records, ks),
        ks=ks,
        page=page,
        query=query,
        filters=FILTERS,
        version=version,
        poll=f"/api/state?run={quote(snap.name, safe='')}",
    )


def render_conversation(snap: Snapshot, record: ConversationRecord) -> str:
    """One unit: transcript with tool calls and results, checks linked to messages,
    per-message latency, the customer's review (when the record has one)."""
    review = record.customer_review
    findings = review.findings if review is not None else []
    return _render(
        "conversation.html.j2",
        snap=snap,
        r=record,
        findings=findings,
        review_failed=review.failed if review is not None else None,
        reviewed=review is not None,
        hindered=record.customer_hindered,
        seed=record.customer_seed,
        by_message={f.message_index for f in findings},
    )


def render_problem(title: str, message: str, status: int = 404) -> str:
    return _render("problem.html.j2", title=title, message=message, status=status)
