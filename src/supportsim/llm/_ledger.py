"""The usage and cost ledger of a run's model calls: what was sent, retried, refused,
spent.

One ``CallStats`` per pool (``ModelPool.stats``), updated by its callers on every attempt;
the progress display, the budget's live spend, run.json and the summary read it, and a
worker process sends its increments to the driver's (``batch/_worker.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ._types import LLMResponse


@dataclass(slots=True)
class CallStats:
    """Counters the progress display, run.json and the summary read."""

    calls: int = 0
    """Attempts sent (retries included)."""
    retries: int = 0
    rate_limited: int = 0
    """Attempts answered 429 (or Anthropic's 529 overloaded)."""
    errors: int = 0
    """Calls that still failed after their retries."""
    spend_usd: float = 0.0
    unpriced_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0

    def add(self, response: LLMResponse) -> int:
        """Count a successful attempt's usage and cost (an unpriced one as unpriced, never
        as free); returns its tokens, input and output, for the tpm windows."""
        self.input_tokens += response.input_tokens or 0
        self.output_tokens += response.output_tokens or 0
        if response.cost_usd is None:
            self.unpriced_calls += 1
        else:
            self.spend_usd += response.cost_usd
        return (response.input_tokens or 0) + (response.output_tokens or 0)
