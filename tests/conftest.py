"""Shared paths and the test domain (never ``builtin_domains()``: tests use ``mock`` alone)."""

from __future__ import annotations

import compileall
from collections.abc import Iterator
from pathlib import Path

import pytest

import supportsim
from supportsim.domains import Domain, mock
from supportsim.testing import MockLLMServer

FIXTURES = Path(__file__).parent / "fixtures"


def pytest_sessionstart(session: pytest.Session) -> None:
    """Bytecode for the package under test, written once before any test starts a process.

    Many tests start ``supportsim`` (workers, the CLI, the stdio bridge) as a child process.
    Where ``PYTHONDONTWRITEBYTECODE`` is set, as on our CI machines, no import writes a
    ``.pyc``, so every child compiled all of ``src`` again: about 1.2 s a process. compileall
    writes the bytecode whatever that variable says (and skips what is up to date).
    """
    compileall.compile_dir(Path(supportsim.__file__).parent, quiet=1, workers=1)


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
