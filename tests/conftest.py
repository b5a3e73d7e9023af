"""Shared paths and the test domain (never ``builtin_domains()``: tests use ``mock`` alone)."""

from __future__ import annotations

import compileall
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import supportsim
from supportsim.domains import Domain, mock
from supportsim.testing import MockLLMServer

FIXTURES = Path(__file__).parent / "fixtures"
TAU2_TUTORIAL = Path(__file__).parents[1] / "docs" / "tutorials" / "tau2.md"


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


@pytest.fixture(scope="session")
def tau2_tutorial(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``docs/tutorials/tau2.md`` run once, every block as a reader would
    (``tests/docs/blocks.py``), with ``tests/fixtures/tau2`` where the page clones
    tau2-bench; returns the reader's work folder.

    Its ``validate --json`` of all 74 imported train tasks (``tau2/tasks.json``) is both the
    page's test (tests/docs/test_tutorials.py) and the tau2 import's proof
    (tests/tau2/test_import.py): the slowest single command of the suite, run once for both.
    """
    docs_tests = str(Path(__file__).parent / "docs")
    if docs_tests not in sys.path:
        sys.path.insert(0, docs_tests)
    from blocks import docs_blocks, run_blocks

    folder = tmp_path_factory.mktemp("tau2-tutorial")
    shutil.copytree(FIXTURES / "tau2", folder / "home" / "tau2-bench" / "data" / "tau2")
    reader = run_blocks(docs_blocks(TAU2_TUTORIAL.read_text(encoding="utf-8")), folder)
    assert reader.real_cli, "no supportsim command of the tau2 page ran as a child process"
    return reader.work
