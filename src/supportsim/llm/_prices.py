"""Prices: the shipped, dated price table and how one call's usage is charged.

The table (``prices.yaml`` in this package) holds common OpenAI and Anthropic models with
input, cached input, cache write and output rates. A models-file ``price:`` replaces a
table entry, ``price: null`` leaves the model unpriced. Specs and models-file entries get
their price when they are parsed (``_config``), so ``run.json`` records the rates a run
was charged at.

How the providers bill prompt caching, and so how ``Usage`` counts it: ``input_tokens`` is
every prompt token sent. OpenAI reports cache reads inside ``prompt_tokens``
(``prompt_tokens_details.cached_tokens``); Anthropic reports ``input_tokens`` *without*
cache reads and writes, which come as ``cache_read_input_tokens`` and
``cache_creation_input_tokens``. Both are brought to the same shape by the clients, and
``charge`` prices the uncached part at the input rate, reads at the cached rate and writes
at the cache-write rate. A token class that occurred but has no rate makes the cost
unknown (None): a made-up 0 or a full-price guess would read as a fact.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from supportsim._yaml import parse_yaml
from supportsim.errors import ScenarioError

TABLE_FILE = "prices.yaml"
# Snapshot suffixes that do not change the price: -2025-04-14, -20250929, -latest.
_SNAPSHOT = re.compile(r"-(?:\d{4}-\d{2}-\d{2}|\d{8}|latest)$")


class Price(BaseModel):
    """USD per million tokens. Cache rates left out are unknown, not free."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    input_per_mtok: float = Field(ge=0)
    """Prompt tokens not read from or written to the provider's cache."""
    output_per_mtok: float = Field(ge=0)
    """Completion tokens, reasoning included."""
    cached_input_per_mtok: float | None = Field(default=None, ge=0)
    """Prompt tokens read from the cache (OpenAI cached input, Anthropic cache hits)."""
    cache_write_per_mtok: float | None = Field(default=None, ge=0)
    """Prompt tokens written to the cache (Anthropic cache writes; OpenAI has none)."""


@dataclass(frozen=True, slots=True)
class Usage:
    """Token counts of one call, in the one shape both wire protocols are brought to.

    Attributes:
        input_tokens: Every prompt token, cached or not; None when the provider did not say.
        output_tokens: Completion tokens billed; None when unknown.
        cached_input_tokens: The part of ``input_tokens`` read from the cache.
        cache_write_tokens: The part of ``input_tokens`` written to the cache.
    """

    input_tokens: int | None
    output_tokens: int | None
    cached_input_tokens: int = 0
    cache_write_tokens: int = 0


def charge(price: Price | None, usage: Usage) -> float | None:
    """The cost of one call in USD; None when unpriced, a count is unknown, or a token
    class that occurred has no rate."""
    if price is None or usage.input_tokens is None or usage.output_tokens is None:
        return None
    cached, written = usage.cached_input_tokens, usage.cache_write_tokens
    uncached = max(0, usage.input_tokens - cached - written)
    total = uncached * price.input_per_mtok + usage.output_tokens * price.output_per_mtok
    for tokens, rate in (
        (cached, price.cached_input_per_mtok),
        (written, price.cache_write_per_mtok),
    ):
        if tokens:
            if rate is None:
                return None
            total += tokens * rate
    return total / 1e6


class _Table(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    as_of: str
    sources: dict[str, str]
    models: dict[Literal["openai", "anthropic"], dict[str, Price]]


@dataclass(frozen=True, slots=True)
class PriceTable:
    """The shipped table: when it was checked, where from, and the rates per provider."""

    as_of: str
    sources: dict[str, str]
    models: dict[str, dict[str, Price]]

    def lookup(self, provider: str, model: str) -> Price | None:
        """The price of ``model`` (a snapshot id falls back to its family), or None."""
        rates = self.models.get(provider, {})
        if model in rates:
            return rates[model]
        family = _SNAPSHOT.sub("", model)
        return rates.get(family)


@cache
def price_table() -> PriceTable:
    """The shipped price table, read once per process on first use (never at import).

    Raises:
        ScenarioError: The shipped file is broken (a packaging bug, named with its field).
    """
    text = resources.files("supportsim.llm").joinpath(TABLE_FILE).read_text("utf-8")
    doc, problems = parse_yaml(text, TABLE_FILE)
    if doc is None:
        raise ScenarioError(problems)
    try:
        table = _Table.model_validate(doc.data)
    except ValidationError as exc:
        raise ScenarioError(
            [doc.problem(tuple(e["loc"]), e["msg"]) for e in exc.errors()]
        ) from None
    return PriceTable(
        table.as_of, dict(table.sources), {k: dict(v) for k, v in table.models.items()}
    )
