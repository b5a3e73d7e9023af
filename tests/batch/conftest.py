"""Batch fixtures: a mock LLM server (autopilot by default) and an output folder."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from supportsim.testing import MockLLMServer, autopilot


@pytest.fixture
async def server() -> AsyncIterator[MockLLMServer]:
    async with MockLLMServer() as srv:
        srv.default(None, autopilot)
        yield srv


@pytest.fixture
def out(tmp_path: Path) -> Path:
    return tmp_path / "runs"
