"""The HTML view of ``agreement_summary``: one ``<section>`` for the report page to embed.

Plain tables, no script and no inline style, so it fits the report's Content-Security-
Policy and stylesheet. Everything is autoescaped: judge names, unit ids and justifications
are model or user text.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup


def _fmt(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.0f}%"


def _usd(value: float | None) -> str:
    return "unknown" if value is None else f"${value:.4f}"


def _num(value: float | None) -> str:
    return "" if value is None else repr(value)


@cache
def _environment() -> Environment:
    env = Environment(
        loader=PackageLoader("supportsim.judges", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals.update(fmt=_fmt, pct=_pct, usd=_usd, num=_num)
    return env


def render_html(summary: Mapping[str, Any]) -> Markup:
    """The judge section as safe HTML (embed with ``{{ judges_html }}`` in a template)."""
    raters = ["strict", *summary.get("judges", []), "majority"]
    html = _environment().get_template("judges.html.j2").render(s=summary, raters=raters)
    return Markup(html)  # safe: rendered with autoescape on
