"""Inline SVG charts for the HTML report, drawn from the aggregates (no JS chart library).

Pure layout: values come from ``summarise()``; this module only maps them to pixels.
Every label (agent names, categories) goes through ``markupsafe.escape``; the result is
``Markup`` so the template inserts it as-is.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

from supportsim.report._format import DASH, ms, pct
from supportsim.store import AgentRow, Rate

PALETTE = (
    "#4e79a7",
    "#f28e2b",
    "#59a14f",
    "#e15759",
    "#76b7b2",
    "#b07aa1",
    "#edc948",
    "#ff9da7",
    "#9c755f",
    "#bab0ac",
)
FONT = 'font-family="system-ui, sans-serif" font-size="12"'


def agent_colours(agents: Sequence[str]) -> dict[str, str]:
    """One colour per agent, the same in every chart."""
    return {a: PALETTE[i % len(PALETTE)] for i, a in enumerate(agents)}


def _nice_ticks(high: float, count: int = 5) -> list[float]:
    """Round tick values from 0 to at least ``high``."""
    if high <= 0:
        return [0.0, 1.0]
    raw = high / count
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    return [i * step for i in range(math.ceil(high / step - 1e-9) + 1)]


def _svg(width: int, height: int, body: list[str], label: str) -> Markup:
    return Markup(
        f'<svg class="chart" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'role="img" aria-label="{escape(label)}" {FONT}>' + "".join(body) + "</svg>"
    )


def _text(x: float, y: float, text: str, **attrs: str) -> str:
    extra = "".join(f' {k.rstrip("_").replace("_", "-")}="{escape(v)}"' for k, v in attrs.items())
    return f'<text x="{x:.1f}" y="{y:.1f}"{extra}>{escape(text)}</text>'


def strict_vs_partial(agents: Sequence[str], stats: Mapping[str, Rate]) -> Markup:
    """Per agent: the strict bar with its 95% interval, the partial bar, and the gap."""
    colours = agent_colours(agents)
    left, right, row = 170, 500, 46
    width, height = right + 190, 30 + row * len(agents) + 30
    scale = right - left
    body = [_text(left, 16, "strict (solid, 95% CI) vs partial (light)", fill="#444")]
    axis_y = 30 + row * len(agents)
    for t in (0, 0.25, 0.5, 0.75, 1.0):
        x = left + t * scale
        body.append(
            f'<line x1="{x:.1f}" x2="{x:.1f}" y1="24" y2="{axis_y}" stroke="#ddd" '
            'stroke-dasharray="2,3"/>'
        )
        body.append(_text(x, axis_y + 14, pct(t, 0), text_anchor="middle", fill="#666"))
    for i, name in enumerate(agents):
        a = stats[name]
        y = 28 + i * row
        colour = colours[name]
        body.append(_label(left - 8, y + 20, name, 24))
        s, p = a.strict_rate, a.partial_mean
        if p is not None:
            body.append(
                f'<rect x="{left}" y="{y + 22}" width="{p * scale:.1f}" height="14" '
                f'fill="{colour}" fill-opacity="0.35"><title>partial {pct(p)}</title></rect>'
            )
            body.append(_text(left + p * scale + 4, y + 34, f"partial {pct(p)}", fill="#555"))
        if s is not None:
            body.append(
                f'<rect x="{left}" y="{y + 4}" width="{s * scale:.1f}" height="16" '
                f'fill="{colour}"><title>strict {pct(s)}</title></rect>'
            )
            lo, hi = a.strict_ci95 or (s, s)
            body.append(
                f'<line x1="{left + lo * scale:.1f}" x2="{left + hi * scale:.1f}" '
                f'y1="{y + 12}" y2="{y + 12}" stroke="#222" stroke-width="1.5"/>'
            )
            gap = a.partial_gap
            note = f"strict {pct(s)}" + (f" · gap {gap * 100:+.1f} pts" if gap is not None else "")
            body.append(_text(left + max(s, hi) * scale + 4, y + 16, note, font_weight="600"))
    return _svg(width, height + 4, body, "strict versus partial per agent")


@dataclass(frozen=True, slots=True)
class Point:
    label: str
    x: float | None
    y: float | None
    y_ci: tuple[float, float] | None
    colour: str


def scatter(
    points: Sequence[Point],
    *,
    x_label: str,
    y_label: str,
    x_fmt: Callable[[float], str],
    title: str,
    empty: str = "no data to plot",
) -> Markup:
    """One dot per agent: y is a rate (0..1) with its interval, x a latency or a cost.

    With no point that has both values, no axes are drawn (empty axes read as a chart of
    zeros): a ``p.no-data`` with ``empty`` stands in their place."""
    left, top, plot_w, plot_h = 60, 20, 420, 260
    width, height = left + plot_w + 150, top + plot_h + 50
    drawn = [p for p in points if p.x is not None and p.y is not None]
    if not drawn:
        return Markup('<p class="no-data">') + escape(empty) + Markup("</p>")
    ticks = _nice_ticks(max((p.x for p in drawn if p.x is not None), default=1.0) * 1.1)
    x_max = ticks[-1] or 1.0
    body: list[str] = []
    for t in (0, 0.25, 0.5, 0.75, 1.0):
        y = top + plot_h * (1 - t)
        body.append(
            f'<line x1="{left}" x2="{left + plot_w}" y1="{y:.1f}" y2="{y:.1f}" stroke="#eee"/>'
        )
        body.append(_text(left - 6, y + 4, pct(t, 0), text_anchor="end", fill="#666"))
    for t in ticks:
        x = left + plot_w * t / x_max
        body.append(
            f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{top}" y2="{top + plot_h}" stroke="#eee"/>'
        )
        body.append(_text(x, top + plot_h + 16, x_fmt(t), text_anchor="middle", fill="#666"))
    body.append(
        f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#999"/>'
    )
    body.append(_text(left + plot_w / 2, height - 6, x_label, text_anchor="middle"))
    body.append(
        f'<text transform="translate(14 {top + plot_h / 2:.0f}) rotate(-90)" '
        f'text-anchor="middle">{escape(y_label)}</text>'
    )
    placed: list[tuple[float, float, float]] = []  # label boxes: x from, x to, baseline
    for p in sorted(drawn, key=lambda p: -(p.y or 0)):
        assert p.x is not None and p.y is not None
        cx, cy = left + plot_w * p.x / x_max, top + plot_h * (1 - p.y)
        if p.y_ci:
            y1, y2 = top + plot_h * (1 - p.y_ci[0]), top + plot_h * (1 - p.y_ci[1])
            body.append(
                f'<line x1="{cx:.1f}" x2="{cx:.1f}" y1="{y1:.1f}" y2="{y2:.1f}" '
                f'stroke="{p.colour}" stroke-width="2" stroke-opacity="0.5"/>'
            )
        body.append(
            f'<circle class="dot" cx="{cx:.1f}" cy="{cy:.1f}" r="7" fill="{p.colour}" '
            f'stroke="#fff" stroke-width="1.5"><title>{escape(p.label)}: {pct(p.y)}, '
            f"{escape(x_fmt(p.x))}</title></circle>"
        )
        label = _clip(p.label, 24)
        span = 7.2 * len(label)
        to_left = cx + 10 + span > width - 4
        x1 = cx - 10 - span if to_left else cx + 10
        y = cy + 4
        while any(x1 < b and x1 + span > a and abs(y - base) < 14 for a, b, base in placed):
            y += 14  # nudge down past a label already there
        placed.append((x1, x1 + span, y))
        body.append(
            _text(
                cx - 10 if to_left else cx + 10,
                y,
                label,
                font_weight="600",
                text_anchor="end" if to_left else "start",
            )
        )
    missing = [p.label for p in points if p not in drawn]
    if missing:
        note = "not shown (no data): " + ", ".join(_clip(m, 24) for m in missing)
        body.append(_text(left, height + 14, note, fill="#a00"))
        height += 22
    return _svg(width, height, body, title)


def latency_boxes(
    agents: Sequence[str], stats: Mapping[str, AgentRow], colours: Mapping[str, str]
) -> Markup:
    """Per agent, per Agent reply: whiskers p10–p90, box p25–p75, median, p99 tick.

    The median's label sits beside the median's own tick (its upper end, above the box),
    on the side with room, so it cannot be read as belonging to another mark."""
    left, right, row = 170, 560, 46
    width, height = right + 110, 20 + row * len(agents) + 34
    dists = {a: stats[a].latency for a in agents}
    top_value = max((d.p99 or 0 for d in dists.values()), default=0.0)
    ticks = _nice_ticks(top_value * 1.05)
    hi = ticks[-1] or 1.0
    scale = (right - left) / hi
    axis_y = 16 + row * len(agents)
    body: list[str] = []
    for t in ticks:
        x = left + t * scale
        body.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="8" y2="{axis_y}" stroke="#eee"/>')
        body.append(_text(x, axis_y + 14, ms(t), text_anchor="middle", fill="#666"))
    body.append(
        _text(
            (left + right) / 2,
            axis_y + 30,
            "response time per Agent reply (ms)",
            text_anchor="middle",
        )
    )
    for i, name in enumerate(agents):
        d, top, c = dists[name], 12 + i * row, colours[name]
        y = top + 14  # the box's top edge
        body.append(_label(left - 8, y + 14, name, 24))
        if not d.n:
            body.append(_text(left, y + 14, f"no replies {DASH}", fill="#999"))
            continue
        # n > 0: every quantile is known
        p10, p25, p50, p75, p90, p99 = (
            v or 0.0 for v in (d.p10, d.p25, d.p50, d.p75, d.p90, d.p99)
        )

        def px(v: float) -> float:
            return left + v * scale

        tip = escape(
            f"{name}: p10 {ms(p10)} · p25 {ms(p25)} · p50 {ms(p50)} · "
            f"p75 {ms(p75)} · p90 {ms(p90)} · p99 {ms(p99)} ms (n={d.n})"
        )
        body.append(f"<g><title>{tip}</title>")
        body.append(
            f'<line x1="{px(p10):.1f}" x2="{px(p90):.1f}" y1="{y + 10}" '
            f'y2="{y + 10}" stroke="{c}" stroke-width="2"/>'
        )
        box_w = max(px(p75) - px(p25), 1)
        body.append(
            f'<rect x="{px(p25):.1f}" y="{y}" width="{box_w:.1f}" '
            f'height="20" fill="{c}" fill-opacity="0.45" stroke="{c}"/>'
        )
        median_x = px(p50)
        body.append(
            f'<line class="p50" x1="{median_x:.1f}" x2="{median_x:.1f}" y1="{top}" '
            f'y2="{y + 22}" stroke="#222" stroke-width="2"/>'
        )
        body.append(
            f'<line x1="{px(p99):.1f}" x2="{px(p99):.1f}" y1="{y + 4}" y2="{y + 16}" '
            f'stroke="{c}" stroke-width="2"/>'
        )
        body.append("</g>")
        label = f"p50 {ms(p50)} ms"
        room_right = median_x + 4 + 7 * len(label) <= width - 4
        body.append(
            _text(
                median_x + 4 if room_right else median_x - 4,
                top + 9,
                label,
                fill="#444",
                text_anchor="start" if room_right else "end",
                class_="p50-label",
            )
        )
    return _svg(width, height, body, "response time distribution per agent")


def heatmap(agents: Sequence[str], by_category: Mapping[str, Mapping[str, Rate]]) -> Markup:
    """Category x agent, coloured by strict rate, each cell labelled with rate and n."""
    groups = sorted({g for per in by_category.values() for g in per})
    left, top, cell_w, cell_h = 170, 30, 120, 30
    width, height = left + cell_w * len(agents) + 10, top + cell_h * len(groups) + 10
    body: list[str] = []
    for j, name in enumerate(agents):
        x = left + j * cell_w + cell_w / 2
        body.append(_label(x, top - 10, name, 14, text_anchor="middle", font_weight="600"))
    for i, g in enumerate(groups):
        y = top + i * cell_h
        body.append(_label(left - 8, y + 19, g, 24))
        for j, name in enumerate(agents):
            x = left + j * cell_w
            cell = by_category.get(name, {}).get(g)
            rate = cell.strict_rate if cell else None
            fill = "#f3f3f3" if rate is None else _heat(rate)
            label = DASH if cell is None else f"{pct(rate, 0)} (n={cell.n})"
            tip = f"{g} · {name}: " + (
                "no scored conversation" if cell is None else f"strict {pct(rate)}, n={cell.n}"
            )
            body.append(
                f'<rect class="heat" x="{x}" y="{y}" width="{cell_w - 2}" height="{cell_h - 2}" '
                f'fill="{fill}"><title>{escape(tip)}</title></rect>'
            )
            body.append(_text(x + cell_w / 2 - 1, y + 19, label, text_anchor="middle"))
    return _svg(width, height, body, "strict rate per category and agent")


def _heat(rate: float) -> str:
    """Red (0) through pale yellow (0.5) to green (1)."""
    low, mid, high = (215, 48, 39), (255, 241, 168), (26, 152, 80)
    a, b, t = (low, mid, rate * 2) if rate < 0.5 else (mid, high, (rate - 0.5) * 2)
    r, g, bl = (round(a[k] + (b[k] - a[k]) * t) for k in range(3))
    return f"#{r:02x}{g:02x}{bl:02x}"


def _label(x: float, y: float, text: str, limit: int, **attrs: str) -> str:
    """A label clipped to ``limit`` characters; the full text shows on hover."""
    attrs.setdefault("text_anchor", "end")
    extra = "".join(f' {k.replace("_", "-")}="{escape(v)}"' for k, v in attrs.items())
    return (
        f'<text x="{x:.1f}" y="{y:.1f}"{extra}><title>{escape(text)}</title>'
        f"{escape(_clip(text, limit))}</text>"
    )


def _clip(text: str, limit: int = 20) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def forest(rows: Sequence[tuple[str, float | None, Sequence[float] | None, bool]]) -> Markup:
    """B − A per row (overall, then categories): a dot at the delta, a line for the 95% CI,
    on an axis symmetric around zero. Rows are (label, delta points, ci points, detected)."""
    left, right, row_h = 170, 560, 26
    width, height = right + 80, 20 + row_h * len(rows) + 30
    extent = max(
        [abs(v) for _, d, ci, _ in rows for v in ([d] if d is not None else []) + list(ci or [])]
        + [5.0]
    )
    ticks = _nice_ticks(extent * 1.05, 3)
    hi = ticks[-1]
    mid = (left + right) / 2

    def px(v: float) -> float:
        return mid + v / hi * (right - left) / 2

    axis_y = 12 + row_h * len(rows)
    body: list[str] = []
    for t in ticks:
        for v in {t, -t}:
            colour = "#999" if v == 0 else "#eee"
            body.append(
                f'<line x1="{px(v):.1f}" x2="{px(v):.1f}" y1="6" y2="{axis_y}" stroke="{colour}"/>'
            )
            tick = "0" if v == 0 else f"{v:+.0f}"
            body.append(_text(px(v), axis_y + 14, tick, text_anchor="middle", fill="#666"))
    body.append(_text(mid, axis_y + 28, "B − A (points)", text_anchor="middle"))
    for i, (label, delta, ci, detected) in enumerate(rows):
        y = 20 + i * row_h
        weight = "600" if i == 0 else "400"
        body.append(_text(left - 8, y + 4, _clip(label, 24), text_anchor="end", font_weight=weight))
        if delta is None:
            continue
        colour = ("#1a9850" if delta > 0 else "#d73027") if detected else "#555"
        if ci:
            body.append(
                f'<line x1="{px(ci[0]):.1f}" x2="{px(ci[1]):.1f}" y1="{y}" y2="{y}" '
                f'stroke="{colour}" stroke-width="2"/>'
            )
        body.append(
            f'<circle cx="{px(delta):.1f}" cy="{y}" r="5" fill="{colour}">'
            f"<title>{escape(label)}: {delta:+.1f} points</title></circle>"
        )
        body.append(_text(right + 6, y + 4, f"{delta:+.1f}", fill=colour))
    return _svg(width, height, body, "difference B minus A with 95% intervals")
