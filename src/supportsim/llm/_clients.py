"""Building the client of a resolved model: the one place a provider's SDK client is made."""

from __future__ import annotations

from ._anthropic import AnthropicMessagesClient
from ._config import ResolvedModel
from ._openai import OpenAIChatClient
from ._types import LLMClient


def make_client(resolved: ResolvedModel) -> LLMClient:
    """Build the client for a resolved model's provider."""
    if resolved.config.provider == "anthropic":
        return AnthropicMessagesClient(resolved)
    return OpenAIChatClient(resolved)
