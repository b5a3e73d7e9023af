"""A fresh mock LLM server per test, and the environment that points judges at it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from supportsim.testing import MockLLMServer


@pytest.fixture
async def server() -> AsyncIterator[MockLLMServer]:
    async with MockLLMServer() as srv:
        yield srv


@pytest.fixture
def env(server: MockLLMServer) -> dict[str, str]:
    return {
        "OPENAI_API_KEY": "sk-test-judge",
        "OPENAI_BASE_URL": server.url + "/v1",
        "ANTHROPIC_API_KEY": "sk-ant-test-judge",
        "ANTHROPIC_BASE_URL": server.url,
    }
