"""Batch test helpers: the batch scenarios, requests and a run helper.

Runs go through ``prepare_run`` + ``execute`` exactly as ``supportsim run`` does, with the
real SDKs against the loopback mock server; retry waits use a no-wait sleep.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from supportsim.batch import RunRequest, Session, execute, prepare_run
from supportsim.store import ConversationRecord, iter_records
from supportsim.testing import MockLLMServer

HERE = Path(__file__).parent
SCENARIOS = HERE / "scenarios"
PERSONAS = HERE.parent / "fixtures" / "personas"
LOOKUP, REFUND = "mock-charge-lookup", "mock-duplicate-refund"


async def no_wait(_seconds: float) -> None:
    await asyncio.sleep(0)


def env_for(server: MockLLMServer) -> dict[str, str]:
    return {
        "OPENAI_API_KEY": "sk-test",
        "OPENAI_BASE_URL": server.url + "/v1",
        "ANTHROPIC_API_KEY": "sk-test",
        "ANTHROPIC_BASE_URL": server.url,
    }


def request(
    out: Path,
    *,
    run_id: str = "r1",
    resume: bool = False,
    force: bool = False,
    config: Path | None = None,
    **overrides: Any,
) -> RunRequest:
    base = {
        "scenarios": [str(SCENARIOS)],
        "personas": str(PERSONAS),
        "out": str(out),
        "retries": {"max_attempts": 3, "base_delay_s": 0.001, "max_delay_s": 0.001},
    }
    return RunRequest(config, {**base, **overrides}, run_id=run_id, resume=resume, force=force)


async def run(server: MockLLMServer, req: RunRequest, **kwargs: Any) -> tuple[Session, Any]:
    """One session; returns it and the pool (for its counters)."""
    prepared = prepare_run(req, env_for(server))
    prepared.pool.sleep = no_wait
    try:
        session = await execute(
            prepared.session, prepared.ctx, prepared.config, pool=prepared.pool, **kwargs
        )
    finally:
        await prepared.pool.aclose()
    return session, prepared.pool


def records(session: Session) -> list[ConversationRecord]:
    return list(iter_records(session.run_dir))
