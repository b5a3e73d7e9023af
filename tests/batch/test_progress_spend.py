"""The live progress (panel and status line) never shows an unknown cost as $0."""

from __future__ import annotations

import io
from types import SimpleNamespace

from rich.console import Console

from supportsim.app import Progress
from supportsim.batch import BatchState
from supportsim.llm import CallStats


def _progress(stats: CallStats, spend: float) -> tuple[Progress, io.StringIO]:
    buffer = io.StringIO()
    batch = SimpleNamespace(
        state=BatchState(total=4, done=1),
        gate=SimpleNamespace(limit=8),
        work_lag=SimpleNamespace(recent_p99=lambda: None),
    )
    console = Console(file=buffer, width=300)
    return Progress(console, batch, stats=stats, spend=lambda: spend, live=False), buffer  # type: ignore[arg-type]


def _shown(progress: Progress, buffer: io.StringIO) -> tuple[str, str]:
    progress.console.print(progress.render())
    return progress.status_line(), buffer.getvalue()


def test_unpriced_calls_show_an_unknown_spend_not_zero() -> None:
    stats = CallStats(calls=6, unpriced_calls=6)
    line, panel = _shown(*_progress(stats, 0.0))
    for text in (line, panel):
        assert "$0.0000" not in text
        assert "spend - (unknown: 6 unpriced calls)" in text


def test_a_partly_priced_spend_says_what_it_leaves_out() -> None:
    stats = CallStats(calls=3, unpriced_calls=1, spend_usd=0.0125)
    line, panel = _shown(*_progress(stats, 0.0125))
    for text in (line, panel):
        assert "spend $0.0125 + unknown (1 unpriced call)" in text


def test_a_fully_priced_or_free_run_shows_its_amount() -> None:
    line, _ = _shown(*_progress(CallStats(calls=2, spend_usd=0.5), 0.5))
    assert "spend $0.5000," in line
    line, _ = _shown(*_progress(CallStats(), 0.0))  # no model call at all: nothing was paid
    assert "spend $0.0000," in line
