"""What a person watching a run sees: a live rich display, or plain log lines.

On a terminal: one panel refreshed twice a second from an asyncio task (rich's own refresh
thread is off), with units done / total, ETA, throughput, strict and partial so far per
agent, spend, retries and errors, and event-loop lag. Elsewhere (CI, ``nohup``, a pipe):
one line per finished unit and a status line every ``status_every_s``. Names (agent
labels, unit ids) are shown through ``printable``: an escape sequence in one is displayed,
never obeyed by the terminal, and markup in one is text.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from rich.console import Console, Group
from rich.live import Live
from rich.table import Table
from rich.text import Text

from supportsim._printable import printable
from supportsim._tables import name_cell
from supportsim.batch import Batch, BatchState
from supportsim.store import ConversationRecord


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    seconds = int(seconds)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}h{minutes:02d}m" if hours else f"{minutes}m{secs:02d}s"


def spend_text(priced_usd: float, unpriced_calls: int) -> str:
    """The spend as the progress shows it. A call without a price has an unknown cost,
    never $0: with none priced the spend is ``-`` (unknown), with some it is the priced
    part and how many calls are not in it (``$0.0123 + unknown (4 unpriced calls)``)."""
    if not unpriced_calls:
        return f"${priced_usd:.4f}"
    calls = f"{unpriced_calls} unpriced call{'s' if unpriced_calls != 1 else ''}"
    if not priced_usd:
        return f"- (unknown: {calls})"
    return f"${priced_usd:.4f} + unknown ({calls})"


def _rate(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


class Progress:
    """Progress of one session; ``watch`` runs until cancelled, ``on_record`` per record.

    Args:
        console: Where to draw; ``console.is_terminal`` picks live or plain.
        batch: The running batch (its state, gate and lag monitor are read).
        stats: The model pool's counters (calls, retries, rate_limited, errors).
        spend: Live spend of the whole run.
        budget_usd: Shown next to the spend.
        live: Force live (True) or plain (False) output.
    """

    def __init__(
        self,
        console: Console,
        batch: Batch,
        *,
        stats: Any,
        spend: Callable[[], float],
        budget_usd: float | None = None,
        live: bool | None = None,
        status_every_s: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.console = console
        self.batch = batch
        self.stats = stats
        self.spend = spend
        self.budget_usd = budget_usd
        self.live = console.is_terminal if live is None else live
        self.status_every_s = status_every_s
        self._clock = clock
        self._live: Live | None = None

    # -- numbers -------------------------------------------------------------------------

    def figures(self) -> dict[str, Any]:
        """The numbers both displays show."""
        state = self.batch.state
        elapsed = max(1e-9, self._clock() - state.started_s)
        rate = state.done / elapsed
        left = state.total - state.done
        lag = self.batch.work_lag.recent_p99()  # the conversations' loops (workers')
        return {
            "done": state.done,
            "total": state.total,
            "running": state.running,
            "limit": self.batch.gate.limit,
            "elapsed_s": elapsed,
            "per_s": rate,
            "eta_s": left / rate if rate > 0 and not state.stopped_because else None,
            "spend": spend_text(self.spend(), getattr(self.stats, "unpriced_calls", 0)),
            "calls": self.stats.calls,
            "retries": self.stats.retries,
            "rate_limited": self.stats.rate_limited,
            "errors": sum(n for s, n in state.statuses.items() if s != "completed"),
            "lag_p99": lag,
        }

    def status_line(self) -> str:
        f = self.figures()
        budget = f" / ${self.budget_usd:.2f}" if self.budget_usd is not None else ""
        stopping = self.batch.state.stopped_because
        return (
            f"{f['done']}/{f['total']} units, {f['running']} running, "
            f"{f['per_s']:.2f} conv/s, ETA {_duration(f['eta_s'])}, spend {f['spend']}"
            f"{budget}, calls {f['calls']}, retries {f['retries']} (429: {f['rate_limited']}), "
            f"unit errors {f['errors']}, loop lag p99 {_rate(f['lag_p99'], 1)} ms"
            + (f", stopping: {stopping}" if stopping else "")
        )

    def render(self) -> Group:
        f = self.figures()
        state: BatchState = self.batch.state
        width = 30
        filled = int(width * f["done"] / f["total"]) if f["total"] else width
        head = Text.assemble(
            ("█" * filled + "░" * (width - filled), "green"),
            f" {f['done']}/{f['total']} units  ETA {_duration(f['eta_s'])}  "
            f"{f['per_s']:.2f} conv/s  running {f['running']}/{f['limit']}  "
            f"elapsed {_duration(f['elapsed_s'])}",
        )
        table = Table(box=None, pad_edge=False)
        for column in ("agent", "done", "strict", "partial", "not completed"):
            table.add_column(column)
        for agent, tally in sorted(state.agents.items()):
            problems = ", ".join(
                f"{s}={n}" for s, n in sorted(tally.statuses.items()) if s != "completed"
            )
            table.add_row(
                name_cell(agent),  # an operator's label: no markup, escapes shown
                str(sum(tally.statuses.values())),
                _rate(tally.strict_rate),
                _rate(tally.partial_mean),
                problems or "-",
            )
        budget = f" / ${self.budget_usd:.2f}" if self.budget_usd is not None else ""
        lag = f["lag_p99"]
        foot = Text(
            f"spend {f['spend']}{budget}   calls {f['calls']}   retries {f['retries']} "
            f"(429: {f['rate_limited']})   unit errors {f['errors']}   "
            f"loop lag p99 {_rate(lag, 1)} ms",
            style="red" if lag is not None and lag > 10 else "",
        )
        parts: list[Any] = [head, table, foot]
        if state.stopped_because:
            parts.append(
                Text(f"stopping ({state.stopped_because}): running units finish", "yellow")
            )
        return Group(*parts)

    # -- lifecycle -----------------------------------------------------------------------

    def on_record(self, record: ConversationRecord, state: BatchState) -> None:
        """Plain: a line per unit. Live: a line (above the panel) per unit that failed."""
        if self.live and record.status == "completed":
            return
        scored = f" strict={int(bool(record.strict))} partial={record.partial or 0.0:.2f}"
        self.console.print(
            f"[{state.done}/{state.total}] {printable(record.unit_id)}: {record.status}"
            + (scored if record.status == "completed" else f" ({record.termination})")
            + f" {record.duration_s:.1f}s",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )

    def note(self, message: str) -> None:
        """A one-off message (e.g. the first Ctrl-C), shown in either mode."""
        self.console.print(message, markup=False, highlight=False)

    async def watch(self, refresh_s: float = 0.5) -> None:
        """Redraw (live) or print status lines (plain) until cancelled."""
        if not self.live:
            while True:
                await asyncio.sleep(self.status_every_s)
                self.note(self.status_line())
        with Live(self.render(), console=self.console, auto_refresh=False, transient=False) as live:
            self._live = live
            try:
                while True:
                    await asyncio.sleep(refresh_s)
                    live.update(self.render(), refresh=True)
            finally:
                live.update(self.render(), refresh=True)
                self._live = None
