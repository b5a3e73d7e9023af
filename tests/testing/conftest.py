"""Fixtures: a fresh mock server per test and real SDK clients pointed at it.

The clients are the SDKs' own defaults except ``verify=False``: the server is plain-HTTP
loopback, and loading the CA bundle costs ~0.1 s of CPU per test for nothing.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import anthropic
import openai
import pytest

from supportsim.testing import MockLLMServer

API_KEY = "sk-test-SECRET-do-not-leak"


@pytest.fixture
def api_key() -> str:
    """The key the clients send; it must never show up in a RecordedRequest."""
    return API_KEY


@pytest.fixture
async def server() -> AsyncIterator[MockLLMServer]:
    async with MockLLMServer() as srv:
        yield srv


@pytest.fixture
async def oai(server: MockLLMServer) -> AsyncIterator[openai.AsyncOpenAI]:
    client = openai.AsyncOpenAI(
        base_url=server.url + "/v1",
        api_key=API_KEY,
        max_retries=0,
        http_client=openai.DefaultAsyncHttpxClient(verify=False),
    )
    yield client
    await client.close()


@pytest.fixture
async def anth(server: MockLLMServer) -> AsyncIterator[anthropic.AsyncAnthropic]:
    client = anthropic.AsyncAnthropic(
        base_url=server.url,
        api_key=API_KEY,
        max_retries=0,
        http_client=anthropic.DefaultAsyncHttpxClient(verify=False),
    )
    yield client
    await client.close()
