"""Shared paths and the test domain (never ``builtin_domains()``: tests use ``mock`` alone)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from supportsim.domains import Domain, mock
from supportsim.testing import MockLLMServer

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def fixtures_dir() -> Path:
    return FIXTURES


@pytest.fixture
def mock_domain() -> Domain:
    return mock.domain()


@pytest.fixture
def threaded_server() -> Iterator[MockLLMServer]:
    """A mock server serving from its own thread, for tests that drive the CLI (it runs its
    own event loop)."""
    server = MockLLMServer()
    server.start_in_thread()
    try:
        yield server
    finally:
        server.stop_thread()
