"""tau2-bench's own metrics in a report: which units are tau2's, and their summary figures.

The figures are computed in the tau2 plug-in (``supportsim.tau2``, ``_figures.py``: as
tau2's ``metrics/agent_metrics.py`` computes them), imported only when an agent ran a tau2
task, so a report of a run without one never imports it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict

from supportsim.report._facts import UnitFacts
from supportsim.store import ConversationRecord, Tau2Figures

Unit = ConversationRecord | UnitFacts


def is_tau2(record: Unit) -> bool:
    """Whether ``record`` is a unit of a tau2 task (its domain is one of tau2's)."""
    return record.domain.startswith("tau2_")


def tau2_metrics(records: Sequence[Unit], trials: int) -> Tau2Figures | None:
    """tau2's headline figures over one agent's tau2 units; None when it ran none
    (``supportsim.tau2.tau2_figures``)."""
    units = [r for r in records if is_tau2(r)]
    if not units:
        return None
    from supportsim.tau2 import tau2_figures

    return Tau2Figures(**asdict(tau2_figures(units, trials)))


__all__ = ["is_tau2", "tau2_metrics"]
