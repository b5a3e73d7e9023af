"""The one edge where SDK and transport exceptions become ``ProviderError``.

Callers above ``supportsim.llm`` only ever see ``ProviderError``/``ProviderTimeout``, with
``status``, ``retryable`` and ``retry_after_s`` filled in, so retry and reporting logic does
not depend on which SDK (or SDK version) raised. The SDKs are looked up in ``sys.modules``
rather than imported: an exception of an SDK that was never imported cannot occur, and
importing this package must not import them (they read environment variables on import).
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import httpx2

from supportsim.errors import ProviderError, ProviderTimeout

from ._context import context_error

# 408 timeout, 409 conflict/lock, 429 rate limit: the same request may succeed later.
_RETRYABLE_STATUS = frozenset({408, 409, 429})
# Error types a provider sends inside a 200 stream, mapped to the status they stand for.
_STREAM_ERROR_STATUS = {
    "overloaded_error": 529,
    "api_error": 500,
    "server_error": 500,
    "rate_limit_error": 429,
    "timeout_error": 504,
    "invalid_request_error": 400,
    "authentication_error": 401,
    "permission_error": 403,
    "not_found_error": 404,
    "request_too_large": 413,
}


def is_retryable_status(status: int) -> bool:
    """Whether an HTTP status means the same request may succeed if sent again."""
    return status in _RETRYABLE_STATUS or status >= 500


def parse_retry_after(
    headers: Mapping[str, str] | None, *, now: float | None = None
) -> float | None:
    """Seconds the server asked us to wait, from ``retry-after-ms`` or ``Retry-After``.

    ``Retry-After`` may be seconds or an HTTP date. Negative or unparsable values are
    ignored rather than trusted.
    """
    if headers is None:
        return None
    for name, divisor in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            seconds = float(value) / divisor
        except ValueError:
            if divisor != 1.0:
                continue
            parsed = email.utils.parsedate_tz(value)
            if parsed is None:
                continue
            seconds = email.utils.mktime_tz(parsed) - (time.time() if now is None else now)
        if seconds >= 0 and seconds != float("inf"):
            return seconds
    return None


def _status_error(
    model: str, exc: object, status: int, headers: Mapping[str, str] | None
) -> ProviderError:
    message = getattr(exc, "message", None) or str(exc)
    if status < 400:
        # An error event inside a 200 stream: its body's type says what it stands for.
        kind = getattr(exc, "type", None) or _body_type(getattr(exc, "body", None))
        mapped = _STREAM_ERROR_STATUS.get(kind or "")
        if mapped is not None and (too_long := context_error(model, mapped, message)):
            return too_long
        return ProviderError(
            model,
            f"error in stream ({kind or 'unknown'}): {message}",
            status=mapped,
            retryable=mapped is None or is_retryable_status(mapped),
        )
    if (too_long := context_error(model, status, message)) is not None:
        return too_long
    return ProviderError(
        model,
        f"HTTP {status}: {message}",
        status=status,
        retryable=is_retryable_status(status),
        retry_after_s=parse_retry_after(headers),
    )


def _body_type(body: object) -> str | None:
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and isinstance(inner.get("type"), str):
            return inner["type"]
    return None


# Each SDK's root exception; anything under it that is not an APIError is still the SDK's.
_SDK_ROOTS = {"openai": "OpenAIError", "anthropic": "AnthropicError"}


def _translate_sdk(model: str, exc: Exception, sdk: Any, root: str) -> ProviderError | None:
    """Map one SDK's exception, or None if it is not that SDK's."""
    if not isinstance(exc, sdk.APIError):
        if isinstance(exc, getattr(sdk, root)):
            return ProviderError(model, f"{type(exc).__name__}: {exc}")
        return None
    if isinstance(exc, sdk.APITimeoutError):
        return ProviderTimeout(model)
    if isinstance(exc, sdk.APIStatusError):
        headers = getattr(getattr(exc, "response", None), "headers", None)
        return _status_error(model, exc, int(getattr(exc, "status_code", 0)), headers)
    if isinstance(exc, sdk.APIConnectionError):
        cause = exc.__cause__
        detail = f" ({type(cause).__name__}: {cause})" if cause else ""
        return ProviderError(model, f"connection error{detail}", retryable=True)
    # A bare APIError: an error object inside a stream (OpenAI) or a response the SDK could
    # not validate; only a request the provider calls invalid is worth not retrying.
    kind = _body_type(getattr(exc, "body", None)) or getattr(exc, "type", None)
    retryable = kind not in {"invalid_request_error", "authentication_error", "permission_error"}
    return ProviderError(model, f"{type(exc).__name__}: {exc}", retryable=retryable)


def translate(model: str, exc: Exception) -> ProviderError | None:
    """The ``ProviderError`` an exception stands for, or None if it is not a provider failure."""
    if isinstance(exc, ProviderError):
        return exc
    for name, root in _SDK_ROOTS.items():
        sdk = sys.modules.get(name)
        if sdk is not None and (mapped := _translate_sdk(model, exc, sdk, root)) is not None:
            return mapped
    if isinstance(exc, TimeoutError | httpx2.TimeoutException):
        return ProviderTimeout(model)
    if isinstance(exc, httpx2.RequestError):
        # The Anthropic SDK lets transport errors met while reading a stream through raw.
        return ProviderError(
            model, f"connection error ({type(exc).__name__}: {exc})", retryable=True
        )
    if isinstance(exc, json.JSONDecodeError):
        return ProviderError(model, f"malformed stream data: {exc}", retryable=True)
    return None


@asynccontextmanager
async def provider_call(
    model: str, timeout_s: float, scrub: Callable[[str], str] | None = None
) -> AsyncIterator[None]:
    """One provider call: SDK errors translated, the whole call under ``timeout_s``.

    The SDK's own timeout only bounds each read; a stream that keeps sending pings (as
    Anthropic's does) or trickles tokens would never trip it. This deadline covers the call.
    ``scrub`` (the client's ``Scrubber``) cleans the error text: a provider may echo the
    key, and that text is stored in records and reports.
    """
    with _provider_errors(model, scrub):
        try:
            async with asyncio.timeout(timeout_s):
                yield
        except TimeoutError as exc:
            raise ProviderTimeout(model, f"no complete reply within {timeout_s:g} s") from exc


@contextmanager
def _provider_errors(model: str, scrub: Callable[[str], str] | None = None) -> Iterator[None]:
    """Translate SDK, transport and timeout exceptions raised inside the block.

    Anything else (a bug of ours, CancelledError) propagates unchanged.
    """
    try:
        yield
    except Exception as exc:
        mapped = translate(model, exc)
        if mapped is None or mapped is exc:
            raise
        if scrub is not None and (clean := scrub(str(mapped))) != str(mapped):
            mapped.args = (clean,)
            raise mapped from None  # the SDK's exception quotes the secret: not chained
        raise mapped from exc
