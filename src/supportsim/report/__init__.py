"""Reports: aggregates over a run directory, rendered for the terminal, JSON and HTML."""

from supportsim.report._aggregate import agent_summary, summarise

__all__ = ["agent_summary", "summarise"]
