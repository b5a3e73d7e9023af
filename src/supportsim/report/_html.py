"""The self-contained HTML views: jinja2 (autoescape on), inline SVG, CSS, JS and data.

No network is needed to open the file. Model and scenario text reaches the page in two
ways only: through autoescaped template fields, or inside the JSON data block (``tojson``
escapes ``<``, ``>``, ``&`` and ``'`` as ``\\u003c``...), which the script renders with
``textContent``. A Content-Security-Policy allows only the report's own script (by hash),
so even a missed escape could not run injected script.
"""

from __future__ import annotations

import base64
import hashlib
import os
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from importlib import metadata, resources
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup
from rich.console import Console

from supportsim.report import _format
from supportsim.report._charts import (
    Point,
    agent_colours,
    forest,
    heatmap,
    latency_boxes,
    scatter,
    strict_vs_partial,
)
from supportsim.store import AgentRow, ConversationRecord, RunSection, Summary, TrialCell


def html_environment(package: str) -> Environment:
    """A jinja2 environment over ``package``'s ``templates/`` for HTML: autoescape on (model
    text is always text), undefined names an error, block tags trimmed."""
    return Environment(
        loader=PackageLoader(package, "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


@cache
def _environment() -> Environment:
    env = html_environment("supportsim.report")
    env.globals.update(f=_format, num=_num, bar=_bar, outcome=_outcome, version=_version())
    return env


def _version() -> str:
    try:
        return metadata.version("supportsim")
    except metadata.PackageNotFoundError:
        return "unknown"


def _num(value: float | int | None) -> str:
    """A sort key for ``data-sort``: the number, or empty (sorted last)."""
    return "" if value is None else repr(value)


def _bar(rate: float | None) -> str:
    return "0" if rate is None else f"{rate * 100:.1f}"


def _outcome(trial: TrialCell) -> str:
    if trial.status != "completed":
        return "error"
    if not trial.strict and trial.customer_hindered:
        return "fail hindered"  # a failure, shown apart: the Customer's doing
    return "pass" if trial.strict else "fail"


@cache
def _script(name: str) -> str:
    return (resources.files("supportsim.report") / "templates" / name).read_text("utf-8")


def _csp_hash(script: str) -> str:
    digest = hashlib.sha256(script.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


def _render(template: str, script_name: str | None, **context: Any) -> str:
    script = _script(script_name) if script_name else ""
    context["script"] = Markup(script)
    context["script_src"] = _csp_hash(script) if script else "'none'"
    context.setdefault("back_href", None)
    context["css"] = Markup(_script("report.css"))
    return _environment().get_template(template).render(**context)


def _transcript(record: ConversationRecord) -> dict[str, Any]:
    """What the drill-down shows of one unit (model calls are summarised in messages)."""
    return record.model_dump(mode="json", exclude={"llm_calls", "scenario_sha256", "tags"})


def _charts(summary: Summary, agents: Sequence[str]) -> dict[str, Markup]:
    stats = summary.agents
    colours = agent_colours(agents)

    def points(x: Callable[[AgentRow], float | None]) -> list[Point]:
        return [
            Point(
                name,
                x(stats[name]),
                stats[name].strict_rate,
                _interval(stats[name].strict_ci95),
                colours[name],
            )
            for name in agents
        ]

    return {
        "strict_partial": strict_vs_partial(agents, stats),
        "speed": scatter(
            points(lambda a: a.response_ms_mean),
            x_label="mean response time per Agent reply (ms)",
            y_label="strict success",
            x_fmt=_format.ms,
            title="strict success against mean response time",
            empty="No timed Agent replies to plot yet.",
        ),
        "cost": scatter(
            points(lambda a: a.agent_cost_mean_usd),
            x_label="Agent cost per conversation (USD)",
            y_label="strict success",
            x_fmt=_format.usd,
            title="strict success against cost",
            empty="No priced calls: no Agent here has a known cost, so there is nothing to "
            "plot (unpriced cost is unknown, not $0). Give the models a price in the models "
            "file to see quality against cost.",
        ),
        "latency": latency_boxes(agents, stats, colours),
        "heatmap": heatmap(agents, summary.by_category),
    }


def _interval(values: Sequence[float] | None) -> tuple[float, float] | None:
    return (values[0], values[1]) if values else None


def _summary_context(summary: Summary, judges_html: str | None) -> dict[str, Any]:
    """What ``_summary.html.j2`` (leaderboards, charts, status, failing checks) needs."""
    agents = _format.leaderboard_order(summary.agents)
    return {
        "summary": summary,
        "run": summary.run or RunSection(),
        "agents": agents,
        "ks": _format.pass_k_columns(summary.trials),
        "colours": agent_colours(agents),
        "charts": _charts(summary, agents),
        "domains": sorted({g for per in summary.by_domain.values() for g in per}),
        "statuses": sorted({k for a in summary.agents.values() for k in a.status}),
        "terminations": sorted({k for a in summary.agents.values() for k in a.termination}),
        "judges_html": judges_html,
    }


def render_report(
    summary: Summary,
    records: Sequence[ConversationRecord],
    *,
    run_id: str,
    in_progress: bool,
    judges_html: str | None = None,
) -> str:
    """The run report: leaderboard, charts, failing checks, judges' agreement (when the run
    was judged; ``judges_html`` is ``supportsim.judges.render_html``'s escaped fragment),
    scenario grid, transcripts."""
    failing = {
        sid: any(
            t.status == "completed" and not t.strict
            for cell in row.agents.values()
            for t in cell.trials
        )
        for sid, row in summary.scenarios.items()
    }
    return _render(
        "report.html.j2",
        "report.js",
        **_summary_context(summary, judges_html),
        run_id=run_id,
        in_progress=in_progress,
        failing=failing,
        transcripts={r.unit_id: _transcript(r) for r in records},
    )


def render_summary_sections(summary: Summary, *, judges_html: str | None = None) -> Markup:
    """The report's leaderboards, charts, status table, failing checks and judge sections
    as one escaped HTML fragment (no script, no style: the page around it brings
    ``report_css()``), for a page that shows a run another way (``supportsim view``)."""
    template = _environment().get_template("_summary.html.j2")
    return Markup(template.render(**_summary_context(summary, judges_html)))


def report_css() -> str:
    """The report's style sheet (inlined in every report page; served by the viewer)."""
    return _script("report.css")


def render_comparison(comparison: Mapping[str, Any], *, back_href: str | None = None) -> str:
    """The comparison of two runs: verdicts, paired deltas per agent and per category
    (``back_href``: a link back, for a page served by the viewer)."""
    charts = {}
    for row in comparison["agents"]:
        for metric in ("strict", "partial"):
            m = row[metric]
            rows = [("all categories", m["delta_points"], m["ci95_points"], m["detected"])]
            rows += [
                (cat, g[metric]["delta_points"], g[metric]["ci95_points"], g[metric]["detected"])
                for cat, g in row["by_category"].items()
            ]
            charts[(row["label"], metric)] = forest(rows)
    return _render("compare.html.j2", "report.js", c=comparison, charts=charts, back_href=back_href)


def write_text_atomic(path: Path, text: str) -> None:
    """Write a file whole or not at all (temp file in the same folder, then rename).

    Raises:
        OSError: The folder or file cannot be written (the temp file is removed).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    try:
        with tmp.open("w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)  # no stray temp file when the write fails
        raise


def write_output(path: Path, text: str, err: Console) -> bool:
    """Write a command's output file whole, saying so on ``err``; a folder or a path that
    cannot be written is bad input (a message, False: the caller exits 2)."""
    if path.is_dir():
        err.print(f"error: {path}: is a folder; give the file's path", markup=False)
        return False
    try:
        write_text_atomic(path, text)
    except OSError as exc:
        err.print(f"error: {path}: cannot write ({exc.strerror or exc})", markup=False)
        return False
    err.print(f"wrote {path}", markup=False, highlight=False)
    return True
