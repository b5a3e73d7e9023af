"""The run's concurrency is one value (``batch/_concurrency.py``): what a number, ``auto``
and ``auto:N`` mean is said once, the value is resolved once where the run is planned
(``prepare_run``), and the gate, the endpoints' default limit, the hub and the workers
all read that value."""

from __future__ import annotations

from pathlib import Path

import pytest
from batch_helpers import Watch, request, run
from pydantic import ValidationError

from supportsim.batch import RunConfig, prepare_run, read_manifest
from supportsim.batch._concurrency import AUTO_CEILING, MAX_CONCURRENCY, Concurrency
from supportsim.batch._launch import worker_count
from supportsim.testing import MockLLMServer


def test_a_number_is_fixed_at_that_many_conversations():
    assert RunConfig(concurrency=32).bounds == Concurrency(32, 32, 32, auto=False)
    assert RunConfig(concurrency="32").bounds == Concurrency(32, 32, 32, auto=False)
    assert RunConfig(concurrency=1).bounds == Concurrency(1, 1, 1, auto=False)
    assert RunConfig(concurrency=MAX_CONCURRENCY).bounds.ceiling == 4096


def test_auto_starts_at_16_may_go_down_to_4_and_never_passes_1024():
    assert AUTO_CEILING == 1024
    assert RunConfig(concurrency="auto").bounds == Concurrency(16, 4, AUTO_CEILING, auto=True)
    assert RunConfig().bounds == Concurrency(8, 8, 8, auto=False)  # the default is a number


def test_auto_n_never_passes_n_and_starts_no_higher():
    assert RunConfig(concurrency="auto:256").bounds == Concurrency(16, 4, 256, auto=True)
    assert RunConfig(concurrency="auto:10").bounds == Concurrency(10, 4, 10, auto=True)
    assert RunConfig(concurrency="auto:3").bounds == Concurrency(3, 3, 3, auto=True)
    assert RunConfig(concurrency=" auto:4096 ").bounds.ceiling == MAX_CONCURRENCY
    assert RunConfig(concurrency="auto:256").concurrency == "auto:256"  # stored as written


@pytest.mark.parametrize(
    "value", [0, -1, 4097, "0", "4097", "auto:0", "auto:4097", "auto:", "auto:x", "lots", True, 2.5]
)
def test_a_value_out_of_bounds_is_refused_saying_what_is_accepted(value: object):
    with pytest.raises(ValidationError, match=r"a number from 1 to 4096, auto, or auto:N"):
        RunConfig(concurrency=value)  # type: ignore[arg-type]


def test_preparing_a_run_resolves_the_value_once_for_the_session_and_the_pool(out: Path):
    prepared = prepare_run(request(out, concurrency="auto:48"), {})
    assert prepared.session.concurrency == Concurrency(16, 4, 48, auto=True)
    assert prepared.pool.default_concurrency == 48  # calls in flight <= conversations
    prepared.session.lock.release()  # type: ignore[union-attr]


def test_workers_auto_counts_from_the_ceiling_it_is_given():
    config = RunConfig(concurrency=8)  # one process at 8 by the config alone
    assert worker_count(config, 10_000, cores=8) == 1
    given = Concurrency.of("auto:64")
    assert worker_count(config, 10_000, cores=8, concurrency=given) == 4  # 64 / 16


async def test_the_runner_and_the_workers_use_the_same_ceiling(server: MockLLMServer, out: Path):
    watch = Watch()
    common = {"agents": ["openai:agent"], "trials": 4, "workers": 2}
    session, pool = await run(server, request(out, concurrency="auto:32", **common), watch=watch)
    assert session.status == "completed"
    assert session.concurrency == Concurrency(16, 4, 32, auto=True)
    gate = watch.batch.gate  # the runner's
    assert (gate.floor, gate.ceiling) == (4, 32)
    assert watch.batch.hub.open_at == 32  # the launcher's: when a worker's limiter is open
    entry = read_manifest(session.run_dir)["sessions"][-1]
    assert entry["concurrency"][0] == 16
    assert entry["workers"]["count"] == 2
    # the endpoint's limiter was made from the workers' own pools: their default is 32 too
    (endpoint,) = entry["limits"]["endpoints"].values()
    assert endpoint["concurrency_limit"] == 32
    assert pool.default_concurrency == 32
