"""Secrets never stored: URL credentials and configured key values are scrubbed, including
from provider error text (a provider may echo the key), asserted through the real SDKs
against the loopback mock server."""

from __future__ import annotations

import pytest

from supportsim.errors import ProviderError
from supportsim.llm import (
    LLMMessage,
    LLMRequest,
    make_client,
    parse_model_spec,
    resolve_credentials,
    scrub_url_credentials,
    scrubber,
)
from supportsim.testing import MockLLMServer, http_error

KEY = "sk-live-0123456789abcdef"


def test_url_credentials_are_scrubbed_and_plain_urls_kept() -> None:
    assert scrub_url_credentials("https://user:pw@host/v1") == "https://***@host/v1"
    assert (
        scrub_url_credentials("see http://a%40b:p%3Aw@h:8080/x ok") == "see http://***@h:8080/x ok"
    )
    for kept in (
        "https://api.openai.com/v1",
        "mail me at someone@example.com",
        '{"url":"ftp://host","mail":"a@b"}',  # JSON around a URL is never swallowed
        "http://host/path@v2",
    ):
        assert scrub_url_credentials(kept) == kept


def test_key_values_are_scrubbed_wherever_they_appear() -> None:
    scrub = scrubber([KEY, "short", None, "not-needed"], ["https://u:hunter22@h/v1", None])
    assert scrub(f"Incorrect API key provided: {KEY}.") == "Incorrect API key provided: ***."
    assert scrub("hunter22 was the password") == "*** was the password"
    assert scrub("short texts and not-needed stay") == "short texts and not-needed stay"
    data = {"a": [f"x{KEY}y", ("https://u:hunter22@h/v1",)], KEY: 3, "n": 1}
    assert scrub.data(data) == {"a": ["x***y", ("https://***@h/v1",)], "***": 3, "n": 1}
    assert scrubber().data({"k": KEY}) == {"k": KEY}  # URLs only without secret values


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
async def test_a_provider_error_that_echoes_the_key_is_stored_without_it(
    provider: str,
) -> None:
    async with MockLLMServer() as server:
        server.script("m", [http_error(401, message=f"Incorrect API key provided: {KEY}")])
        url_env = "OPENAI_BASE_URL" if provider == "openai" else "ANTHROPIC_BASE_URL"
        key_env = "OPENAI_API_KEY" if provider == "openai" else "ANTHROPIC_API_KEY"
        base = server.url + ("/v1" if provider == "openai" else "")
        resolved = resolve_credentials(
            parse_model_spec(f"{provider}:m", {}), {key_env: KEY, url_env: base}
        )
        client = make_client(resolved)
        try:
            with pytest.raises(ProviderError) as info:
                await client.complete(LLMRequest("sys", (LLMMessage("user", "hi"),)))
        finally:
            await client.aclose()
    err = info.value
    assert err.status == 401 and "Incorrect API key provided: ***" in str(err)
    assert KEY not in str(err) and KEY not in repr(err.args)
    assert err.__cause__ is None and err.__suppress_context__  # the SDK's text quotes it


async def test_a_provider_error_without_secrets_keeps_its_cause() -> None:
    async with MockLLMServer() as server:
        server.script("m", [http_error(400, message="bad request")])
        resolved = resolve_credentials(
            parse_model_spec("openai:m", {}),
            {"OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": server.url + "/v1"},
        )
        client = make_client(resolved)
        try:
            with pytest.raises(ProviderError) as info:
                await client.complete(LLMRequest("sys", (LLMMessage("user", "hi"),)))
        finally:
            await client.aclose()
    assert "bad request" in str(info.value) and info.value.__cause__ is not None
