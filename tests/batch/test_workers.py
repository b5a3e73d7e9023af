"""--workers N: units in worker processes, one writer, global limits (batch/_hub.py)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from batch_helpers import records, request, run

from supportsim.batch import read_manifest
from supportsim.testing import MockLLMServer

AGENTS = ["oracle", "openai:agent-o", "anthropic:agent-a"]


def by_unit(session) -> dict[str, tuple]:
    return {
        r.unit_id: (
            r.status,
            r.strict,
            r.partial,
            r.state_sha256,
            [(c.id, c.passed) for c in r.checks],
            [c.role for c in r.llm_calls],
        )
        for r in records(session)
    }


async def test_two_workers_give_the_same_records_as_one(server: MockLLMServer, out: Path):
    common = {"agents": AGENTS, "customer": "openai:customer-m", "trials": 2, "concurrency": 4}
    one, _ = await run(server, request(out, run_id="one", workers=1, **common))
    two, pool = await run(server, request(out, run_id="two", workers=2, **common))
    assert two.status == "completed"
    got = records(two)
    assert Counter(r.unit_id for r in got) == Counter(r.unit_id for r in records(one))
    assert len(got) == 12 and len({r.unit_id for r in got}) == 12
    assert by_unit(two) == by_unit(one)
    entry = read_manifest(two.run_dir)["sessions"][0]
    assert entry["workers"]["mode"] == "local" and entry["workers"]["count"] == 2
    assert entry["workers"]["restarts"] == 0
    assert entry["calls"]["attempts"] == pool.stats.calls > 0
    assert "workers" not in read_manifest(one.run_dir)["sessions"][0]
