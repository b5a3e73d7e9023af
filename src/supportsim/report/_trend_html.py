"""The trend as a self-contained HTML page: a line chart per metric (inline SVG, one line
per agent over the runs) with the significant changes ringed, and a table per agent.

Renders ``trend()`` output. Agent labels and run ids are escaped in the SVG
(``markupsafe.escape``) and by the template's autoescape; the page has no script at all,
so its Content-Security-Policy allows none.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import pairwise
from typing import Any

from markupsafe import Markup, escape

from supportsim.report._charts import _clip, _nice_ticks, _svg, _text, agent_colours
from supportsim.report._format import ms, pct, usd
from supportsim.report._html import _render

RING = {"improvement": "#1a9850", "regression": "#d73027"}


def _direction(delta_points: float) -> str:
    return "improvement" if delta_points > 0 else "regression"


def _series_lines(xy: Sequence[tuple[float, float] | None], colour: str, name: str) -> list[str]:
    """An agent's line through its points: solid between consecutive runs, dashed across
    runs without a value (the agent was not in them, or the metric was unknown there), so
    every point an agent has is joined to the next, never left alone in the chart."""
    known = [(i, p) for i, p in enumerate(xy) if p is not None]
    solid: list[str] = []
    lines: list[str] = []
    for (i, (x0, y0)), (j, (x1, y1)) in pairwise(known):
        if j == i + 1:
            solid.append(f"M{x0:.1f},{y0:.1f} L{x1:.1f},{y1:.1f}")
        else:
            gap = escape(f"{name}: no value in {j - i - 1} run(s) between these")
            lines.append(
                f'<path class="gap" d="M{x0:.1f},{y0:.1f} L{x1:.1f},{y1:.1f}" fill="none" '
                f'stroke="{colour}" stroke-width="2" stroke-dasharray="5 4" '
                f'stroke-opacity="0.7"><title>{gap}</title></path>'
            )
    if solid:
        lines.insert(
            0,
            f'<path class="line" d="{" ".join(solid)}" fill="none" stroke="{colour}" '
            'stroke-width="2"/>',
        )
    return lines


def line_chart(
    doc: Mapping[str, Any],
    key: str,
    *,
    title: str,
    fmt: Callable[[float], str],
    rate: bool,
    tested: str | None = None,
) -> Markup:
    """One metric over the runs, a line per agent; with ``tested``, the points whose
    change the paired test calls significant get a ring (green up, red down)."""
    runs: Sequence[Mapping[str, Any]] = doc["runs"]
    agents = list(doc["agents"])
    colours = agent_colours(agents)
    left, top, plot_w, plot_h = 64, 24, max(120 * (len(runs) - 1), 240), 180
    width, height = left + plot_w + 190, top + plot_h + 48
    values = [
        p[key] for s in doc["agents"].values() for p in s if p is not None and p[key] is not None
    ]
    ticks = [0.0, 0.25, 0.5, 0.75, 1.0] if rate else _nice_ticks(max(values, default=0) * 1.05)
    high = ticks[-1] or 1.0

    def px(i: int) -> float:
        return left + (plot_w * i / (len(runs) - 1) if len(runs) > 1 else plot_w / 2)

    def py(v: float) -> float:
        return top + plot_h - v / high * plot_h

    body = [_text(left, 14, title, fill="#444", font_weight="600")]
    for t in ticks:
        body.append(
            f'<line x1="{left}" x2="{left + plot_w}" y1="{py(t):.1f}" y2="{py(t):.1f}" '
            'stroke="#eee"/>'
        )
        body.append(_text(left - 6, py(t) + 4, fmt(t), text_anchor="end", fill="#666"))
    for i, run in enumerate(runs):
        body.append(
            f'<text x="{px(i):.1f}" y="{top + plot_h + 18}" text-anchor="middle" fill="#444">'
            f"<title>{escape(run['run_id'])}</title>{escape(_clip(run['run_id'], 16))}</text>"
        )
    for a, name in enumerate(agents):
        colour = colours[name]
        series = doc["agents"][name]
        body += _series_lines(
            [
                (px(i), py(p[key])) if p is not None and p[key] is not None else None
                for i, p in enumerate(series)
            ],
            colour,
            name,
        )
        for i, p in enumerate(series):
            if p is None or p[key] is None:
                continue
            x, y = px(i), py(p[key])
            tip = escape(f"{name} · {runs[i]['run_id']}: {fmt(p[key])}")
            body.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{colour}"><title>{tip}</title>'
                "</circle>"
            )
            change = p["change"]
            if tested and change and change[tested]["detected"]:
                m = change[tested]
                direction = _direction(m["delta_points"])
                note = escape(
                    f"{name}: {tested} {direction} from {change['from_run']}: "
                    f"{m['delta_points']:+.1f} points (p = {m['p']:.2g})"
                )
                body.append(
                    f'<circle class="mark {direction}" cx="{x:.1f}" cy="{y:.1f}" r="9" '
                    f'fill="none" stroke="{RING[direction]}" stroke-width="2.5">'
                    f"<title>{note}</title></circle>"
                )
        legend_y = top + 8 + a * 18
        body.append(
            f'<rect x="{left + plot_w + 20}" y="{legend_y - 9}" width="10" height="10" '
            f'fill="{colour}"/>'
        )
        body.append(
            f'<text x="{left + plot_w + 36}" y="{legend_y}"><title>{escape(name)}</title>'
            f"{escape(_clip(name, 22))}</text>"
        )
    return _svg(width, height, body, title)


def _charts(doc: Mapping[str, Any]) -> list[Markup]:
    k = doc["settings"]["k"]
    return [
        line_chart(
            doc, "strict", title="strict", fmt=lambda v: pct(v, 0), rate=True, tested="strict"
        ),
        line_chart(
            doc, "partial", title="partial", fmt=lambda v: pct(v, 0), rate=True, tested="partial"
        ),
        line_chart(doc, "pass_hat_k", title=f"pass^{k}", fmt=lambda v: pct(v, 0), rate=True),
        line_chart(doc, "response_ms_p50", title="response time p50 (ms)", fmt=ms, rate=False),
        line_chart(doc, "response_ms_p90", title="response time p90 (ms)", fmt=ms, rate=False),
        line_chart(doc, "cost_mean_usd", title="cost per conversation", fmt=usd, rate=False),
    ]


def render_trend_html(doc: Mapping[str, Any], *, back_href: str | None = None) -> str:
    """The whole page (no script, no external resource; ``back_href``: a link back, for a
    page served by the viewer)."""
    return _render(
        "trend.html.j2",
        None,
        back_href=back_href,
        t=doc,
        charts=_charts(doc),
        rows=list(zip(doc["runs"], range(len(doc["runs"])), strict=True)),
    )
