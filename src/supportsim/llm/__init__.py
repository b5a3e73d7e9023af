"""Provider clients on the official async SDKs, behind one neutral interface.

``parse_model_spec`` -> ``resolve_credentials`` -> ``make_client`` gives an ``LLMClient``
whose ``complete`` makes one attempt; wrap it in ``with_retries`` to retry. SDK exceptions
never leave this package: they become ``ProviderError``/``ProviderTimeout``.

Importing this package reads no environment variable, opens no socket and does not import
the SDKs (they read environment variables on import); a client imports its SDK when built.
"""

from __future__ import annotations

from ._anthropic import AnthropicMessagesClient
from ._cache import ResponseCache, cache_scope, open_cache, request_key
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
    with_table_price,
)
from ._context import ContextTooLong, check_context, estimate_tokens
from ._openai import OpenAIChatClient
from ._prices import Price, PriceTable, Usage, charge, price_table
from ._retry import RetryPolicy, with_retries
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
    Role,
    ToolCall,
    ToolChoice,
    ToolSpec,
    WireTiming,
)

__all__ = [
    "DEFAULT_URL_ENV",
    "AnthropicMessagesClient",
    "ContextTooLong",
    "LLMClient",
    "LLMMessage",
    "LLMRequest",
    "LLMResponse",
    "ModelConfig",
    "ModelParams",
    "OpenAIChatClient",
    "Price",
    "PriceTable",
    "RateLimit",
    "ResolvedModel",
    "ResponseCache",
    "RetryPolicy",
    "Role",
    "Scrubber",
    "StructuredMode",
    "ToolCall",
    "ToolChoice",
    "ToolSpec",
    "Usage",
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
    "scrub_url_credentials",
    "scrubber",
    "structured_candidates",
    "structured_mode",
    "with_retries",
    "with_table_price",
]


def make_client(resolved: ResolvedModel) -> LLMClient:
    """Build the client for a resolved model's provider."""
    if resolved.config.provider == "anthropic":
        return AnthropicMessagesClient(resolved)
    return OpenAIChatClient(resolved)
