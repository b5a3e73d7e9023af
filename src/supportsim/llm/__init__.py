"""The one model-access layer: provider clients on the official async SDKs behind one
neutral interface, the models file, and the pool that every model call goes through.

``parse_model_spec`` -> ``resolve_credentials`` -> ``make_client`` gives an ``LLMClient``
whose ``complete`` makes one attempt; wrap it in ``with_retries`` to retry. SDK exceptions
never leave this package: they become ``ProviderError``/``ProviderTimeout``.

``ModelPool`` is what a run, the judges and drafting use: per model name it resolves the
credentials and builds the client once, and ``caller(config, role)`` gives a
``ModelCaller`` with the endpoint's and the model's rate limits (``Limiter``), retries
(``RetryPolicy``), the usage and cost ledger (``CallStats``) and, for a conversation, its
time budget (``TimeBudget``, passed in: this package imports nothing above it).

Importing this package reads no environment variable, opens no socket and does not import
the SDKs (they read environment variables on import); a client imports its SDK when built.
"""

from __future__ import annotations

from ._anthropic import AnthropicMessagesClient
from ._budget import NO_TIME_BUDGET, TimeBudget
from ._cache import ResponseCache, cache_scope, open_cache, request_key
from ._clients import make_client
from ._config import (
    DEFAULT_URL_ENV,
    ModelConfig,
    ModelParams,
    RateLimit,
    ResolvedModel,
    connection_key,
    cost_usd,
    load_models_file,
    parse_model_spec,
    resolve_credentials,
    takes_seed,
    with_table_price,
)
from ._context import ContextTooLong, check_context, estimate_tokens
from ._ledger import CallStats
from ._limits import AdaptiveGate, Limiter, RequestWindow, TokenWindow, WaitTooLong
from ._openai import OpenAIChatClient
from ._pool import ModelPool
from ._prices import Price, PriceTable, Usage, charge, price_table
from ._retry import RetryPolicy, with_retries
from ._sanitise import sanitised
from ._secrets import Scrubber, scrub_url_credentials, scrubber
from ._structured import (
    StructuredMode,
    retry_request,
    structured_candidates,
    structured_mode,
)
from ._types import (
    LLMClient,
    LLMMessage,
    LLMRequest,
    LLMResponse,
    ModelCaller,
    Role,
    ToolCall,
    ToolChoice,
    ToolSpec,
    WireTiming,
)

__all__ = [
    "DEFAULT_URL_ENV",
    "NO_TIME_BUDGET",
    "AdaptiveGate",
    "AnthropicMessagesClient",
    "CallStats",
    "ContextTooLong",
    "LLMClient",
    "LLMMessage",
    "LLMRequest",
    "LLMResponse",
    "Limiter",
    "ModelCaller",
    "ModelConfig",
    "ModelParams",
    "ModelPool",
    "OpenAIChatClient",
    "Price",
    "PriceTable",
    "RateLimit",
    "RequestWindow",
    "ResolvedModel",
    "ResponseCache",
    "RetryPolicy",
    "Role",
    "Scrubber",
    "StructuredMode",
    "TimeBudget",
    "TokenWindow",
    "ToolCall",
    "ToolChoice",
    "ToolSpec",
    "Usage",
    "WaitTooLong",
    "WireTiming",
    "cache_scope",
    "charge",
    "check_context",
    "connection_key",
    "cost_usd",
    "estimate_tokens",
    "load_models_file",
    "make_client",
    "open_cache",
    "parse_model_spec",
    "price_table",
    "request_key",
    "resolve_credentials",
    "retry_request",
    "sanitised",
    "scrub_url_credentials",
    "scrubber",
    "structured_candidates",
    "structured_mode",
    "takes_seed",
    "with_retries",
    "with_table_price",
]
