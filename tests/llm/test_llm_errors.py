"""SDK and transport exceptions become ProviderError at one edge."""

from __future__ import annotations

import json

import anthropic
import httpx2
import openai
import pytest

from supportsim.errors import ProviderError, ProviderTimeout
from supportsim.llm._errors import _provider_errors, parse_retry_after

REQUEST = httpx2.Request("POST", "http://127.0.0.1/v1/chat/completions")


def response(status: int, headers: dict[str, str] | None = None) -> httpx2.Response:
    return httpx2.Response(status, headers=headers or {}, request=REQUEST)


def raised(exc: BaseException) -> ProviderError:
    with pytest.raises(ProviderError) as info, _provider_errors("openai:m"):
        raise exc
    assert not isinstance(info.value, openai.OpenAIError | anthropic.AnthropicError)
    return info.value


@pytest.mark.parametrize("sdk", [openai, anthropic])
def test_rate_limit_with_retry_after(sdk: object) -> None:
    exc = sdk.RateLimitError(  # type: ignore[attr-defined]
        "slow down", response=response(429, {"retry-after": "3"}), body=None
    )
    err = raised(exc)
    assert (err.status, err.retryable, err.retry_after_s) == (429, True, 3.0)
    assert err.model == "openai:m"
    assert isinstance(err.__cause__, sdk.RateLimitError)  # type: ignore[attr-defined]


@pytest.mark.parametrize("sdk", [openai, anthropic])
@pytest.mark.parametrize(
    ("status", "retryable"),
    [(400, False), (401, False), (404, False), (408, True), (409, True), (500, True), (529, True)],
)
def test_status_codes(sdk: object, status: int, retryable: bool) -> None:
    exc = sdk.APIStatusError("x", response=response(status), body=None)  # type: ignore[attr-defined]
    err = raised(exc)
    assert (err.status, err.retryable, err.retry_after_s) == (status, retryable, None)


@pytest.mark.parametrize("sdk", [openai, anthropic])
def test_timeouts_and_connection_errors(sdk: object) -> None:
    err = raised(sdk.APITimeoutError(request=REQUEST))  # type: ignore[attr-defined]
    assert isinstance(err, ProviderTimeout)
    assert err.retryable
    err = raised(sdk.APIConnectionError(request=REQUEST))  # type: ignore[attr-defined]
    assert not isinstance(err, ProviderTimeout)
    assert err.retryable
    assert err.status is None


def test_raw_transport_errors_from_a_stream() -> None:
    assert isinstance(raised(httpx2.ReadTimeout("slow", request=REQUEST)), ProviderTimeout)
    assert isinstance(raised(TimeoutError()), ProviderTimeout)
    err = raised(httpx2.RemoteProtocolError("incomplete chunked read", request=REQUEST))
    assert err.retryable
    assert raised(json.JSONDecodeError("x", "{", 0)).retryable


def test_anthropic_error_event_inside_a_200_stream() -> None:
    body = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    exc = anthropic.APIStatusError("overloaded", response=response(200), body=body)
    err = raised(exc)
    assert (err.status, err.retryable) == (529, True)
    body = {"type": "error", "error": {"type": "invalid_request_error", "message": "no"}}
    err = raised(anthropic.APIStatusError("bad", response=response(200), body=body))
    assert (err.status, err.retryable) == (400, False)


def test_openai_error_object_inside_a_stream() -> None:
    err = raised(openai.APIError("oops", REQUEST, body={"type": "server_error"}))
    assert err.retryable
    err = raised(openai.APIError("bad", REQUEST, body={"type": "invalid_request_error"}))
    assert not err.retryable


def test_other_sdk_errors_are_translated_too() -> None:
    err = raised(openai.OpenAIError("misconfigured"))
    assert not err.retryable


def test_unrelated_exceptions_pass_through() -> None:
    with pytest.raises(KeyError), _provider_errors("m"):
        raise KeyError("bug")
    original = ProviderError("m", "already ours", status=418)
    with pytest.raises(ProviderError) as info, _provider_errors("m"):
        raise original
    assert info.value is original


def test_parse_retry_after() -> None:
    assert parse_retry_after({"retry-after-ms": "1500", "retry-after": "9"}) == 1.5
    assert parse_retry_after({"retry-after": "2.5"}) == 2.5
    assert (
        parse_retry_after({"retry-after": "Wed, 21 Oct 2015 07:28:10 GMT"}, now=1445412480.0) == 10
    )
    assert parse_retry_after({"retry-after": "soon"}) is None
    assert parse_retry_after({"retry-after": "-1"}) is None
    assert parse_retry_after({}) is None
    assert parse_retry_after(None) is None
    # httpx2 headers are case-insensitive, as servers send Retry-After capitalised.
    assert parse_retry_after(httpx2.Headers({"Retry-After": "4"})) == 4.0
