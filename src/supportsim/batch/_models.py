"""Model access for a run: one client per model, shared rate limits, retries, a ledger.

Every model call of a run goes through ``ModelPool.caller``: a request-rate throttle per
provider endpoint (``connection_key``), so the Agent and the Customer share a provider's
limit when they share the provider; then ``with_retries``. SDK clients are built with
``max_retries=0``: retries happen here, once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field

from asyncio_throttle import Throttler

from supportsim.conversation import ModelCaller
from supportsim.errors import ProviderError
from supportsim.llm import (
    LLMClient,
    LLMRequest,
    LLMResponse,
    ModelConfig,
    RetryPolicy,
    connection_key,
    make_client,
    resolve_credentials,
    with_retries,
)


@dataclass(slots=True)
class CallStats:
    """Counters the progress display and summary read."""

    calls: int = 0
    retries: int = 0
    errors: int = 0
    spend_usd: float = 0.0


@dataclass(slots=True)
class ModelPool:
    """Clients and throttles for a run, keyed by model name and endpoint."""

    env: Mapping[str, str]
    policy: RetryPolicy = field(default_factory=RetryPolicy)
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    stats: CallStats = field(default_factory=CallStats)
    _clients: dict[str, LLMClient] = field(default_factory=dict)
    _throttles: dict[tuple[str, str], Throttler] = field(default_factory=dict)

    def check(self, configs: Mapping[str, ModelConfig]) -> None:
        """Resolve every model's credentials now, so a missing key fails before any work."""
        for config in configs.values():
            resolve_credentials(config, self.env)

    def client(self, config: ModelConfig) -> LLMClient:
        if config.name not in self._clients:
            self._clients[config.name] = make_client(resolve_credentials(config, self.env))
        return self._clients[config.name]

    def throttle(self, config: ModelConfig) -> Throttler | None:
        rpm = config.rate_limit.rpm if config.rate_limit else None
        if not rpm:
            return None
        key = connection_key(config)
        if key not in self._throttles:
            self._throttles[key] = Throttler(rate_limit=rpm, period=60.0)
        return self._throttles[key]

    def caller(self, config: ModelConfig, role: str) -> ModelCaller:
        client = self.client(config)
        throttle = self.throttle(config)
        stats = self.stats

        async def attempt(request: LLMRequest) -> LLMResponse:
            if throttle is not None:
                async with throttle:
                    pass
            stats.calls += 1
            response = await client.complete(request)
            if response.cost_usd is not None:
                stats.spend_usd += response.cost_usd
            return response

        def on_retry(_error: ProviderError, _attempt: int, _delay: float) -> None:
            stats.retries += 1

        async def call(request: LLMRequest) -> LLMResponse:
            try:
                return await with_retries(
                    lambda: attempt(request), self.policy, sleep=self.sleep, on_retry=on_retry
                )
            except ProviderError:
                stats.errors += 1
                raise

        return call

    async def aclose(self) -> None:
        for client in self._clients.values():
            await client.aclose()
        self._clients.clear()
