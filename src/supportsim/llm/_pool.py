"""Model access: one client per model, shared limits, retries, a ledger.

Every model call goes through ``ModelPool.caller``: a run's Agents, Customer and statement
judge, the LLM judges of a stored run, drafting; each builds a pool and asks it for a
caller per model and role. Each attempt passes the limits
of its provider endpoint (``connection_key``: the Agent and the Customer share them when
they share the endpoint) and, when configured, of its model:

* an ``AdaptiveGate`` on calls in flight, halved on 429/529 and raised again slowly (AIMD);
* a pause for the whole endpoint when a 429 says Retry-After, so the other conversations
  do not keep hammering it;
* a ``RequestWindow`` on requests per minute (a sliding log);
* a ``TokenWindow`` on tokens per minute, fed from responses' usage.

Both windows survive a restart of the driver the conservative way: a resumed run starts
them as if its previous session had been sending at the full rate until it ended (until
now, when it was killed): ``ModelPool.assume_busy``.

Then ``with_retries`` retries 429, 5xx, connection errors and timeouts with capped
exponential backoff and jitter, honouring Retry-After up to the policy's ``max_delay_s``
(the endpoint pause too). SDK clients are built with ``max_retries=0``, so each call is
retried here, once.

Time: a call is made on the pool's ``budget`` (a ``TimeBudget``, ``_budget.py``; a run
passes its conversation's wall-clock bound, ``conversation.CONVERSATION_BUDGET``). It
pauses the budget (queueing, failed attempts and back-off are not the Agent being slow)
and then charges the Agent's successful attempt to it. Bounds still apply while waiting:
a wait that would outlast the budget's time left or the run's deadline (``deadline_at``)
is not waited; the call fails at once as an infra error, retried on resume.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from supportsim._tracing import traced_model_call
from supportsim.errors import ProviderError

from ._budget import NO_TIME_BUDGET, TimeBudget
from ._cache import ResponseCache
from ._clients import make_client
from ._config import (
    DEFAULT_URL_ENV,
    ModelConfig,
    RateLimit,
    ResolvedModel,
    connection_key,
    resolve_credentials,
)
from ._ledger import CallStats
from ._limits import Clock, Limiter, WaitTooLong
from ._retry import RetryPolicy, with_retries
from ._sanitise import sanitised
from ._types import LLMClient, LLMRequest, LLMResponse, ModelCaller

OVERLOAD_STATUS = frozenset({429, 529})
UNBOUNDED = 4096


def _merge(*limits: RateLimit | None) -> RateLimit:
    """Later limits override earlier ones field by field."""
    out: dict[str, Any] = {}
    for limit in limits:
        if limit is not None:
            out.update(limit.model_dump(exclude_none=True))
    return RateLimit.model_validate(out)


def _from_model(config: ModelConfig) -> RateLimit:
    """The models-file ``rate_limit``, only the fields the file actually set."""
    rate = config.rate_limit
    return RateLimit.model_validate({k: getattr(rate, k) for k in rate.model_fields_set})


@dataclass(slots=True)
class ModelPool:
    """Clients and limiters for a run, keyed by model name and by endpoint.

    Args:
        env: Where credentials and base URLs are read from (the CLI passes os.environ).
        policy: Retries of one call.
        limits: The run config's ``rate_limits`` (provider, base URL or model name keys).
        default_concurrency: An endpoint's starting in-flight limit when nothing sets one:
            the run's concurrency, so only AIMD ever lowers it.
        budget: The clock calls are made on (see the module docstring); the default is
            nobody's: no bound, nothing paused or charged.
    """

    env: Mapping[str, str]
    policy: RetryPolicy = field(default_factory=RetryPolicy)
    limits: Mapping[str, RateLimit] = field(default_factory=dict)
    default_concurrency: int = UNBOUNDED
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    clock: Clock = time.monotonic
    window_s: float = 5.0
    deadline_at: float | None = None
    """The run's deadline on ``clock``: no call waits past it (see the module docstring)."""
    stats: CallStats = field(default_factory=CallStats)
    cache: ResponseCache | None = None
    """``--cache``: replies of the ``cache_roles`` callers are kept on disk (llm/_cache)."""
    cache_roles: frozenset[str] = frozenset()
    make_limiter: Callable[[str, RateLimit, int | None], Any] | None = None
    """A worker process's limiters: stand-ins asking the driver's (``batch/_worker.py``)."""
    budget: TimeBudget = NO_TIME_BUDGET
    busy_ago_s: float | None = None
    """Set on resume: the run's previous session may have sent requests until this many
    seconds ago, so every rpm and tpm window starts as if it had, at the full rate."""
    _shared: dict[str, tuple[Limiter, bool]] = field(default_factory=dict)
    _checked: dict[str, ModelConfig] = field(default_factory=dict)
    _resolved: dict[str, ResolvedModel] = field(default_factory=dict)
    _clients: dict[str, LLMClient] = field(default_factory=dict)
    _endpoints: dict[tuple[str, str], Limiter] = field(default_factory=dict)
    _models: dict[str, Limiter | None] = field(default_factory=dict)
    _endpoint_models: dict[tuple[str, str], list[ModelConfig]] = field(default_factory=dict)

    def check(self, configs: Mapping[str, ModelConfig]) -> None:
        """Resolve every model's credentials and build its client now, before the loop runs.

        A missing key fails before any work, and the SDK imports (seconds on a busy
        machine) do not block the event loop in the middle of the first conversations.
        """
        for config in configs.values():
            self._checked[config.name] = config
            key = connection_key(self.resolved(config).config)
            self._endpoint_models.setdefault(key, []).append(config)
        for config in configs.values():
            self.client(config)

    def resolved(self, config: ModelConfig, *, purpose: str = "agent") -> ResolvedModel:
        """``config``'s key and endpoint, read from ``env`` once per model name (the
        client, the endpoint's limits and the scrubber of a run or a judging session all
        use this one). ``purpose`` names the model's user in the error (agent, judge).

        Raises:
            InputError: The key's variable is not set.
        """
        if config.name not in self._resolved:
            self._resolved[config.name] = resolve_credentials(config, self.env, purpose=purpose)
        return self._resolved[config.name]

    def client(self, config: ModelConfig) -> LLMClient:
        if config.name not in self._clients:
            self._clients[config.name] = make_client(self.resolved(config))
        return self._clients[config.name]

    def endpoint(self, config: ModelConfig) -> Limiter:
        """The shared limiter of the endpoint ``config`` calls."""
        key = connection_key(self.client(config).config)
        if key not in self._endpoints:
            models = self._endpoint_models.get(key) or [config]
            from_files = [_from_model(m) for m in models]
            # Several models on one endpoint: the strictest value of each field applies.
            strictest = {
                name: min(values)
                for name in ("rpm", "tpm", "max_concurrency")
                if (values := [v for lim in from_files if (v := getattr(lim, name)) is not None])
            }
            limit = _merge(
                RateLimit.model_validate(strictest),
                self.limits.get(key[0]),
                self.limits.get(key[1]),
            )
            self._endpoints[key] = self._limiter(
                f"{key[0]} {key[1]}", limit, self.default_concurrency
            )
        return self._endpoints[key]

    def model_limiter(self, config: ModelConfig) -> Limiter | None:
        if config.name not in self._models:
            limit = self.limits.get(config.name)
            self._models[config.name] = (
                self._limiter(config.name, limit, None) if limit is not None else None
            )
        return self._models[config.name]

    def _limiter(self, name: str, limit: RateLimit, default: int | None) -> Limiter:
        if self.make_limiter is not None:
            return self.make_limiter(name, limit, default)
        limiter = Limiter(
            name,
            limit,
            default_concurrency=default,
            clock=self.clock,
            sleep=self.sleep,
            window_s=self.window_s,
            max_pause_s=self.policy.max_delay_s,
        )
        if self.busy_ago_s is not None:
            limiter.assume_busy(self.busy_ago_s)
        return limiter

    def assume_busy(self, ago_s: float) -> None:
        """A previous session of this run may have sent requests at the full rate until
        ``ago_s`` seconds ago: the rpm and tpm windows made so far, and every one made
        from now on, count them (a conservative start: at most a minute at a reduced
        rate, never more than the limit in any minute around a restart)."""
        self.busy_ago_s = ago_s
        own = [*self._endpoints.values(), *self._models.values()]
        for limiter in [*own, *(lim for lim, _ in self._shared.values())]:
            if isinstance(limiter, Limiter):
                limiter.assume_busy(ago_s)

    def limiter_named(self, name: str, limit: RateLimit, default: int | None) -> Limiter:
        """The run-wide limiter a worker's stand-in named (its endpoint's, or its model's
        when ``default`` is None), made on first use with the limits the worker derived
        from the same config and models."""
        for own in (*self._endpoints.values(), *self._models.values()):
            if own is not None and own.name == name:
                return own
        if name not in self._shared:
            self._shared[name] = (self._limiter(name, limit, default), default is not None)
        return self._shared[name][0]

    def credential_env(self) -> dict[str, str]:
        """The variables the run's models read (keys and base URLs), for workers: sent
        over the hub's connection, never written anywhere."""
        names = {DEFAULT_URL_ENV.get(c.provider, "") for c in self._checked.values()}
        names |= {c.api_key_env for c in self._checked.values() if c.api_key_env}
        return {n: self.env[n] for n in sorted(names) if n in self.env}

    def wait_limit(self, conversation_left: float | None) -> tuple[float, str] | None:
        """How long a call may still wait, and which bound says so (None: unbounded)."""
        limits = []
        if conversation_left is not None:
            limits.append((conversation_left, "the conversation's time left"))
        if self.deadline_at is not None:
            limits.append((max(0.0, self.deadline_at - self.clock()), "the run's deadline"))
        return min(limits) if limits else None

    def caller(self, config: ModelConfig, role: str) -> ModelCaller:
        """The call function for ``config``: limits, retries, the ledger, and the
        conversation clock (only an ``agent`` call's answer is charged to it)."""
        client = self.client(config)
        limiters = [self.endpoint(config)]
        if (own := self.model_limiter(config)) is not None:
            limiters.append(own)
        stats = self.stats
        budget = self.budget

        def gave_up(wait_s: float, why: tuple[float, str], cause: str) -> ProviderError:
            return ProviderError(
                config.name,
                f"{cause}; not waiting {wait_s:g} s: more than {why[1]} ({why[0]:.3g} s)",
            )

        async def acquire(left: float | None) -> list[Limiter]:
            held: list[Limiter] = []
            limit = self.wait_limit(left)
            try:
                async with asyncio.timeout(None if limit is None else limit[0]):
                    for limiter in limiters:
                        await limiter.acquire(None if limit is None else limit[0])
                        held.append(limiter)
            except BaseException as exc:
                for limiter in held:
                    limiter.release()
                if limit is not None and isinstance(exc, WaitTooLong):
                    raise gave_up(exc.wait_s, limit, "endpoint paused (Retry-After)") from None
                if limit is not None and isinstance(exc, TimeoutError):
                    raise gave_up(limit[0], limit, "queued for a rate limit") from None
                raise
            return held

        async def call(request: LLMRequest) -> LLMResponse:
            left = budget.time_left()  # frozen while the call pauses the budget
            spent = 0.0
            last: list[ProviderError] = []

            async def attempt() -> LLMResponse:
                nonlocal spent
                held = await acquire(left)
                try:
                    stats.calls += 1
                    response = sanitised(await client.complete(request))
                    spent = response.llm_ms / 1000.0  # the call alone, not SDK warm-up
                except ProviderError as exc:
                    if exc.status in OVERLOAD_STATUS:
                        stats.rate_limited += 1
                        for limiter in limiters:
                            limiter.overloaded(exc.retry_after_s)
                    raise
                finally:
                    for limiter in held:
                        limiter.release()
                self._account(response, limiters)
                return response

            def on_retry(error: ProviderError, _attempt: int, _delay: float) -> None:
                stats.retries += 1
                last[:] = [error]

            async def backoff(seconds: float) -> None:
                limit = self.wait_limit(left)
                if limit is not None and seconds > limit[0]:
                    stats.retries -= 1  # announced, never made
                    raise gave_up(seconds, limit, str(last[0]) if last else "retry")
                await self.sleep(seconds)

            try:
                with budget.paused():  # waiting on a provider is not the Agent's time
                    response = await with_retries(
                        attempt, self.policy, sleep=backoff, on_retry=on_retry
                    )
            except ProviderError:
                stats.errors += 1
                raise
            if role == "agent":
                budget.charge(spent)  # but the model's answer is
            return response

        answer: ModelCaller = call
        # An owned service's reply is its tool calls too (over MCP): a replay would skip them.
        if self.cache is not None and role in self.cache_roles and not client.config.owned:
            # Keyed on the resolved config: the endpoint the environment chose is part of it.
            answer = self.cache.wrap(client.config, answer)  # a hit passes no limiter, is free
        return traced_model_call(answer, config, role)  # the identity when tracing is off

    def _account(self, response: LLMResponse, limiters: list[Limiter]) -> None:
        tokens = self.stats.add(response)
        for limiter in limiters:
            limiter.succeeded(tokens)

    def snapshot(self) -> dict[str, Any]:
        """Limits as they ended, per endpoint and model, for run.json."""
        shared = self._shared.values()
        return {
            "endpoints": {lim.name: lim.snapshot() for lim in self._endpoints.values()}
            | {lim.name: lim.snapshot() for lim, endpoint in shared if endpoint},
            "models": {n: lim.snapshot() for n, lim in self._models.items() if lim is not None}
            | {lim.name: lim.snapshot() for lim, endpoint in shared if not endpoint},
        }

    async def warm(self) -> None:
        """Warm every client's SDK before units start, so the first conversation's first
        turn is not charged the SDK's one-time import and type-building costs."""
        for client in self._clients.values():
            await client.warm()

    async def aclose(self) -> None:
        for client in self._clients.values():
            await client.aclose()
        self._clients.clear()
