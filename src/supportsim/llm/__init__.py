"""Provider clients on the official async SDKs, behind one neutral interface.

``parse_model_spec`` -> ``resolve_credentials`` -> ``make_client`` gives an ``LLMClient``
whose ``complete`` makes one attempt; wrap it in ``with_retries`` to retry. SDK exceptions
never leave this package: they become ``ProviderError``/``ProviderTimeout``.

Importing this package reads no environment variable, opens no socket and does not import
the SDKs (they read environment variables on import); a client imports its SDK when built.
"""

from __future__ import annotations

from ._anthropic import AnthropicMessagesClient
from ._config import (
    ModelConfig,
    ModelParams,
    Price,
    RateLimit,
    ResolvedModel,
    connection_key,
    cost_usd,
    load_models_file,
    parse_model_spec,
    resolve_credentials,
)
from ._openai import OpenAIChatClient
from ._retry import RetryPolicy, with_retries
from ._secrets import Scrubber, scrub_url_credentials, scrubber
from ._types import (
    LLMClient,
    LLMMessage,
    LLMRequest,
    LLMResponse,
    Role,
    ToolCall,
    ToolChoice,
    ToolSpec,
)

__all__ = [
    "AnthropicMessagesClient",
    "LLMClient",
    "LLMMessage",
    "LLMRequest",
    "LLMResponse",
    "ModelConfig",
    "ModelParams",
    "OpenAIChatClient",
    "Price",
    "RateLimit",
    "ResolvedModel",
    "RetryPolicy",
    "Role",
    "Scrubber",
    "ToolCall",
    "ToolChoice",
    "ToolSpec",
    "connection_key",
    "cost_usd",
    "load_models_file",
    "make_client",
    "parse_model_spec",
    "resolve_credentials",
    "scrub_url_credentials",
    "scrubber",
    "with_retries",
]


def make_client(resolved: ResolvedModel) -> LLMClient:
    """Build the client for a resolved model's provider."""
    if resolved.config.provider == "anthropic":
        return AnthropicMessagesClient(resolved)
    return OpenAIChatClient(resolved)
