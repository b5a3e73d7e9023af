"""Fixtures: a fresh mock LLM server per test, the fixture scenario and its persona."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from supportsim.domains import DomainCatalogue, mock
from supportsim.scenario import Persona, Scenario, load_personas, load_scenarios
from supportsim.testing import MockLLMServer

FIXTURES = Path(__file__).parents[1] / "fixtures"


@pytest.fixture
async def server() -> AsyncIterator[MockLLMServer]:
    async with MockLLMServer() as srv:
        yield srv


@pytest.fixture
def persona() -> Persona:
    return load_personas([FIXTURES / "personas"])["tester"]


@pytest.fixture
def scenario(persona: Persona) -> Scenario:
    (loaded,) = load_scenarios(
        [FIXTURES / "scenarios" / "mock_duplicate_refund.yaml"],
        catalogue=DomainCatalogue({"mock": mock.domain()}),
        personas={persona.id: persona},
    )
    return loaded


@pytest.fixture(params=["openai", "anthropic"])
def provider(request: pytest.FixtureRequest) -> str:
    """Every provider-facing test runs over both wire formats."""
    return request.param
