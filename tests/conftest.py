"""Shared paths and the test domain (never ``builtin_domains()``: tests use ``mock`` alone)."""

from __future__ import annotations

from pathlib import Path

import pytest

from supportsim.domains import Domain, mock

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def fixtures_dir() -> Path:
    return FIXTURES


@pytest.fixture
def mock_domain() -> Domain:
    return mock.domain()
