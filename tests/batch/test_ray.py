"""--ray: workers as Ray actors on a local cluster (two worker processes on this machine).

One cluster for the module (starting one takes seconds); each test is one short run.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import ray
from batch_helpers import Watch, kill_a_busy_worker_on, once_each, records, request, run

from supportsim.batch import read_manifest
from supportsim.testing import MockLLMServer


@pytest.fixture(scope="module", autouse=True)
def cluster() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, logging_level="WARNING", log_to_driver=False)
    yield
    ray.shutdown()


async def test_two_actors_run_every_unit_once_with_the_same_scores(
    server: MockLLMServer, out: Path
):
    common = {"agents": ["oracle", "openai:agent"], "customer": "openai:customer", "trials": 2}
    one, _ = await run(server, request(out, run_id="one", workers=1, concurrency=4, **common))
    on_ray, pool = await run(
        server, request(out, run_id="ray", ray="auto", concurrency=4, **common)
    )
    assert on_ray.status == "completed"
    assert once_each(on_ray) == once_each(one)
    scores = {r.unit_id: (r.status, r.strict, r.partial, r.state_sha256) for r in records(one)}
    assert {
        r.unit_id: (r.status, r.strict, r.partial, r.state_sha256) for r in records(on_ray)
    } == (scores)
    entry = read_manifest(on_ray.run_dir)["sessions"][0]
    assert entry["workers"]["mode"] == "ray" and entry["workers"]["count"] == 2  # the CPUs
    assert entry["workers"]["address"] == "auto"
    assert entry["calls"]["attempts"] == pool.stats.calls > 0


async def test_an_actor_killed_mid_run_is_replaced_and_nothing_is_lost(
    server: MockLLMServer, out: Path
):
    watch = Watch()
    killed: list[int] = []

    server.default("agent", kill_a_busy_worker_on(5, server, watch, killed))
    session, _ = await run(
        server,
        request(out, agents=["openai:agent"], trials=4, concurrency=4, ray="auto", workers=2),
        watch=watch,
    )
    assert killed and session.status == "completed"
    assert len(once_each(session)) == 8
    assert all(r.status == "completed" for r in records(session))
    workers = read_manifest(session.run_dir)["sessions"][0]["workers"]
    assert workers["lost"] == 1 and workers["restarts"] == 1
