"""The ``mock`` domain: a tiny account-and-charges world for tests and examples.

It exercises every runtime feature (identity gating, write tools, refunds with limits,
knowledge base) with a few records, so tests can reason about exact states.
"""

from supportsim.domains.mock._domain import domain

__all__ = ["domain"]
