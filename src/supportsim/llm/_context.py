"""A prompt that does not fit the model's context: a clear error, never a retry.

Two ways to know: the models file's ``context_window`` (checked before sending, on an
estimate) or the server's own 400 ("maximum context length is 8192 tokens", llama.cpp's
"exceeds the available context size", Anthropic's "prompt is too long"). Either way the
error names the limit, so the fix (a bigger ``--ctx-size``, a larger model, a shorter
rubric) is plain, and it is not retryable: the same prompt never fits the second time.
"""

from __future__ import annotations

import json
import math
import re

from supportsim.errors import ProviderError

from ._config import ModelConfig
from ._types import LLMRequest

CHARS_PER_TOKEN = 3.0
"""The estimate's divisor. Tokenisers average 3-4 characters per token on English and
JSON, so 3 errs towards "too long" only for prompts that nearly fill the window."""

_HINT = re.compile(
    r"context[ _](?:length|size|window)|prompt is too long|maximum context|too many tokens",
    re.IGNORECASE,
)
_LIMIT = (
    re.compile(r"maximum context length is (\d+)", re.IGNORECASE),
    re.compile(r">\s*(\d+)\s+maximum", re.IGNORECASE),
    re.compile(r"\bn_ctx\W+(\d+)", re.IGNORECASE),
    re.compile(r"context (?:size|window|length)(?: of| is)? (\d+)", re.IGNORECASE),
)


class ContextTooLong(ProviderError):
    """The prompt does not fit the model's context window (never retryable).

    Attributes:
        limit: The window in tokens when known (models file or the server's message).
    """

    def __init__(self, model: str, message: str, *, limit: int | None, status: int | None) -> None:
        super().__init__(model, message, status=status, retryable=False)
        self.limit = limit


def estimate_tokens(request: LLMRequest) -> int:
    """A rough prompt size: every character sent (system, messages, tool schemas) / 3."""
    size = len(request.system)
    for message in request.messages:
        size += len(message.content) + sum(
            len(c.arguments) + len(c.name) for c in message.tool_calls
        )
    for tool in (*request.tools, *((request.structured,) if request.structured else ())):
        size += len(tool.name) + len(tool.description) + len(json.dumps(tool.parameters))
    return math.ceil(size / CHARS_PER_TOKEN)


def check_context(config: ModelConfig, request: LLMRequest) -> None:
    """Raise ``ContextTooLong`` when ``config.context_window`` is set and the estimated
    prompt plus the reply's ``max_tokens`` would not fit it."""
    window = config.context_window
    if window is None:
        return
    prompt = estimate_tokens(request)
    reply = config.params.max_tokens or 0
    if prompt + reply > window:
        raise ContextTooLong(
            config.name,
            f"the prompt (about {prompt} tokens, estimated"
            + (f", plus max_tokens {reply}" if reply else "")
            + f") does not fit the context_window of {window} tokens set in the models file;"
            " raise context_window if the server has more, or use a model with a larger one",
            limit=window,
            status=None,
        )


def context_error(model: str, status: int, message: str) -> ContextTooLong | None:
    """The server's 400/413 about context length as a ``ContextTooLong``, else None."""
    if status not in (400, 413) or _HINT.search(message) is None:
        return None
    limit = None
    for pattern in _LIMIT:
        if (found := pattern.search(message)) is not None:
            limit = int(found.group(1))
            break
    named = f" of {limit} tokens" if limit else ""
    return ContextTooLong(
        model,
        f"the prompt does not fit the model's context window{named} (HTTP {status}: {message});"
        " not retried: give the server a larger context (llama.cpp --ctx-size, vLLM"
        " --max-model-len) or use a model with a larger one",
        limit=limit,
        status=status,
    )
