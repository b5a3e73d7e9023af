"""--workers N: units in worker processes, one writer in the driver, global limits, and
what happens when a worker or the driver dies (batch/_hub.py, batch/_worker.py)."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from batch_helpers import (
    LOOKUP,
    PERSONAS,
    REFUND,
    SCENARIOS,
    Watch,
    all_ready_before_units,
    env_for,
    exited,
    kill_a_busy_worker_on,
    live_workers,
    once_all_busy,
    once_each,
    records,
    request,
    run,
)
from typer.testing import CliRunner

from supportsim.batch import RunConfig, prepare_run, read_manifest
from supportsim.batch._launch import worker_count
from supportsim.cli import app, bare_ray, main
from supportsim.errors import InputError
from supportsim.store import iter_records
from supportsim.testing import MockLLMServer, RecordedRequest, Reply, autopilot, hang, http_error
from supportsim.testing import say as say_reply

AGENTS = ["oracle", "openai:agent-o", "anthropic:agent-a", "python:batch_agents:Broken"]


def by_unit(session: Any) -> dict[str, tuple[Any, ...]]:
    return {
        r.unit_id: (
            r.status,
            r.strict,
            r.partial,
            r.state_sha256,
            [(c.id, c.passed) for c in r.checks],
            # the statement judge's calls left out: a verdict already asked in the same
            # process is reused, so which unit pays for it depends on where units ran
            [c.role for c in r.llm_calls if c.role != "judge"],
        )
        for r in records(session)
    }


def session_workers(session: Any, index: int = -1) -> dict[str, Any]:
    return read_manifest(session.run_dir)["sessions"][index]["workers"]


async def test_two_workers_give_the_same_records_as_one(server: MockLLMServer, out: Path):
    common = {"agents": AGENTS, "customer": "openai:customer-m", "trials": 2, "concurrency": 4}
    one, _ = await run(server, request(out, run_id="one", workers=1, **common))
    two, pool = await run(server, request(out, run_id="two", workers=2, **common))
    assert two.status == "completed"
    assert once_each(two) == once_each(one) and len(once_each(two)) == 16
    assert by_unit(two) == by_unit(one)  # scores, checks, final state, call log per unit
    assert Counter(r.status for r in records(two))["harness_error"] == 4  # python: agent ran
    workers = session_workers(two)
    assert workers["mode"] == "local" and workers["count"] == 2
    assert workers["restarts"] == 0 and workers["lost"] == 0
    assert set(workers["loop_lag"]) == {"w0", "w1"}
    entry = read_manifest(two.run_dir)["sessions"][0]
    assert entry["calls"]["attempts"] == pool.stats.calls > 0  # the workers' calls, counted
    assert entry["calls"]["input_tokens"] > 0
    assert "workers" not in read_manifest(one.run_dir)["sessions"][0]
    assert "sk-test" not in (two.run_dir / "run.json").read_text()
    # Each message's loop lag is its worker's own (the driver builds no record), and the
    # session's lag is the workers' samples, the idle driver's kept apart.
    replies = [m for r in records(two) for m in r.messages if m.response_ms is not None]
    assert replies and all(m.loop_lag_ms is not None for m in replies)
    per_worker = sum(lag["samples"] for lag in workers["loop_lag"].values())
    assert entry["loop_lag"]["samples"] == per_worker > 0
    assert workers["driver_loop_lag"]["samples"] > 0


async def test_a_first_ctrl_c_stops_the_workers_cleanly_and_resume_completes(
    server: MockLLMServer, out: Path
):
    watch = Watch()
    common = {"agents": ["openai:agent"], "trials": 5, "concurrency": 2, "workers": 2}

    def on_record(_record: Any, state: Any) -> None:
        if state.done == 2:
            watch.batch.stop("interrupted")  # what the first Ctrl-C does

    first, _ = await run(server, request(out, **common), watch=watch, on_record=on_record)
    assert first.status == "interrupted"
    done = once_each(first)
    assert 2 <= len(done) < 10  # the running ones finished; the rest never started
    again, _ = await run(server, request(out, resume=True, **{**common, "workers": 1}))
    assert again.status == "completed"
    assert len(again.todo) == 10 - len(done)
    assert len(once_each(again)) == 10


def priced_models(tmp_path: Path, server: MockLLMServer) -> Path:
    path = tmp_path / "models.yaml"
    path.write_text(
        "models:\n  priced:\n    provider: openai\n    model: priced\n"
        f"    base_url: {server.url}/v1\n    api_key_env: null\n"
        "    price: {input_per_mtok: 1.0, output_per_mtok: 0.0}\n",
        encoding="utf-8",
    )
    return path


async def test_the_budget_is_enforced_at_the_driver_across_workers(
    server: MockLLMServer, out: Path, tmp_path: Path
):
    # $0.001 per agent call: a lookup unit costs $0.002, a refund unit $0.003.
    server.default("priced", lambda _r: say_reply("Noted.", input_tokens=1000, output_tokens=5))
    models = str(priced_models(tmp_path, server))
    common = {"agents": ["priced"], "models_file": models, "trials": 4, "workers": 2}
    session, pool = await run(server, request(out, budget_usd=0.008, concurrency=2, **common))
    assert session.status == "budget"
    spent = sum(r.cost_usd or 0 for r in records(session))
    assert 0 < spent <= 0.008 + 2 * 0.003  # at most the units in flight past the line
    assert pool.stats.spend_usd == pytest.approx(spent)  # the workers' calls reached the ledger
    assert len(once_each(session)) < 8
    rest = {**common, "workers": 1}
    done, _ = await run(server, request(out, budget_usd=1.0, concurrency=2, resume=True, **rest))
    assert done.status == "completed" and len(once_each(done)) == 8


def count_in_flight(server: MockLLMServer) -> dict[str, list[int]]:
    """Per API: [now, most] requests the server is answering at once."""
    seen = {"openai": [0, 0], "anthropic": [0, 0]}
    handle = server._handle

    async def counted(request: Any, api: Any) -> Any:
        now = seen[api]
        now[0] += 1
        now[1] = max(now[1], now[0])
        try:
            return await handle(request, api)
        finally:
            now[0] -= 1

    server._handle = counted  # type: ignore[method-assign]
    return seen


async def test_limits_hold_across_workers_and_a_429_cuts_the_shared_gate(
    server: MockLLMServer, out: Path
):
    # openai: one call at a time across both workers. anthropic: 8 at most, and its first
    # two calls are answered 429: the driver's gate for that endpoint is cut once.
    server.latency(ttft_ms=2, total_ms=5)  # calls overlap unless a limit holds them
    server.script("burst", [http_error(429)] * 2)
    seen = count_in_flight(server)
    session, pool = await run(
        server,
        request(
            out,
            agents=["openai:agent", "anthropic:burst"],
            trials=3,
            concurrency=8,
            workers=2,
            rate_limits={"openai": {"max_concurrency": 1}, "anthropic": {"max_concurrency": 8}},
        ),
    )
    assert session.status == "completed" and len(once_each(session)) == 12
    assert seen["openai"][1] == 1
    assert seen["anthropic"][1] > 1  # unlimited calls do overlap: the first could fail
    assert pool.stats.rate_limited == 2
    endpoints = read_manifest(session.run_dir)["sessions"][0]["limits"]["endpoints"]
    (openai,) = [e for name, e in endpoints.items() if name.startswith("openai")]
    (anthropic,) = [e for name, e in endpoints.items() if name.startswith("anthropic")]
    assert openai["configured"] == {"max_concurrency": 1} and openai["concurrency_cuts"] == 0
    assert anthropic["concurrency_cuts"] == 1 and anthropic["concurrency_limit"] < 8


async def test_a_worker_killed_mid_run_loses_and_duplicates_nothing(
    server: MockLLMServer, out: Path
):
    watch = Watch()
    killed: list[int] = []

    server.default("agent", kill_a_busy_worker_on(5, server, watch, killed))
    session, _ = await run(
        server,
        request(out, agents=["openai:agent"], trials=4, concurrency=4, workers=2),
        watch=watch,
    )
    assert killed
    assert session.status == "completed"
    assert len(once_each(session)) == 8
    assert all(r.status == "completed" for r in records(session))
    workers = session_workers(session)
    assert workers["lost"] == 1 and workers["restarts"] == 1


async def test_a_unit_that_kills_two_workers_becomes_its_harness_error(
    server: MockLLMServer, out: Path
):
    watch = Watch()

    def poison(request: RecordedRequest) -> Reply:
        if "refund" in request.text.lower():  # every refund conversation kills its worker
            for worker in watch.batch.hub.workers.values():
                if worker.pid and any("refund" in u for u in worker.units) and not worker.gone:
                    os.kill(worker.pid, signal.SIGKILL)
                    break
        return autopilot(request)

    server.default("agent", poison)
    session, _ = await run(
        server,
        request(out, agents=["openai:agent"], concurrency=1, workers=2),
        watch=watch,
    )
    statuses = {r.scenario_id: r for r in records(session)}
    assert len(once_each(session)) == 2
    assert statuses[LOOKUP].status == "completed"
    assert statuses[REFUND].status == "harness_error"
    assert "poison unit: 3 workers died while it was in flight" in (statuses[REFUND].error or "")
    assert "exited with code -9" in (statuses[REFUND].error or "")
    assert session_workers(session)["lost"] == 3  # twice, then once alone: the proof
    assert session.status == "completed"  # the unit has its final record: the batch went on


async def test_a_worker_with_other_inputs_is_refused(server: MockLLMServer, out: Path):
    prepared = prepare_run(request(out, trials=4, concurrency=4, workers=2), env_for(server))
    prepared.session.fingerprint["scenarios"] = {LOOKUP: "another file"}
    from supportsim.batch import execute

    try:
        session = await execute(prepared.session, prepared.ctx, prepared.config, pool=prepared.pool)
    finally:
        await prepared.pool.aclose()
    assert session.status == "stopped"
    assert "inputs differ from the driver's (scenarios)" in (session.stop_reason or "")
    assert records(session) == []
    assert session_workers(session)["restarts"] == 0


def test_worker_count_rule():
    def config(**fields: Any) -> RunConfig:
        return RunConfig.model_validate(fields)

    assert worker_count(config(), 1000, cores=8) == 1  # default concurrency 8: one process
    assert worker_count(config(concurrency=256), 40, cores=8) == 1  # a small run
    assert worker_count(config(concurrency=256), 100, cores=8) == 2
    assert worker_count(config(concurrency=256), 10_000, cores=8) == 8
    assert worker_count(config(concurrency="auto"), 10_000, cores=2) == 2
    assert worker_count(config(concurrency="auto:32"), 10_000, cores=8) == 2  # the ceiling
    assert worker_count(config(workers=3), 10, cores=1) == 3
    assert worker_count(config(workers=3), 2, cores=8) == 2  # never more than the units
    assert worker_count(config(ray="auto"), 5, cores=4) == 4
    assert worker_count(config(ray="auto", workers=2), 50, cores=4) == 2


@pytest.mark.parametrize("value", ["0", "x", "-1", "1025", "2.5"])
def test_bad_workers_values_are_refused_with_nothing_written(tmp_path: Path, value: str):
    result = CliRunner().invoke(app, [*cli_args(tmp_path / "runs"), "--workers", value])
    assert result.exit_code == 2, result.output
    assert "workers" in result.output
    assert not (tmp_path / "runs").exists()


@pytest.mark.parametrize("value", ["1", "2", "auto"])
def test_good_workers_values_are_accepted(value: str):
    assert RunConfig.model_validate({"workers": value}).workers == (
        value if value == "auto" else int(value)
    )


def test_ray_without_the_extra_is_bad_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails, as when missing
    result = CliRunner().invoke(app, [*cli_args(tmp_path / "runs"), "--ray", "local"])
    assert result.exit_code == 2, result.output
    assert "supportsim[ray]" in result.output
    assert not (tmp_path / "runs").exists()
    with pytest.raises(InputError, match="ray is not installed"):
        prepare_run(request(tmp_path / "runs", ray="auto"), {})


def test_ray_alone_means_a_local_cluster_and_an_address_is_kept():
    assert bare_ray(["run", "--ray"]) == ["run", "--ray", "local"]
    assert bare_ray(["run", "--ray", "--workers", "2"]) == [
        "run",
        "--ray",
        "local",
        "--workers",
        "2",
    ]
    assert bare_ray(["run", "--ray", "auto"]) == ["run", "--ray", "auto"]
    assert bare_ray(["run", "--ray", "ray://head:10001"]) == ["run", "--ray", "ray://head:10001"]


def test_the_console_script_takes_ray_without_an_address(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    monkeypatch.setitem(sys.modules, "ray", None)  # fails after parsing: the flag was taken
    monkeypatch.setattr(sys, "argv", ["supportsim", *cli_args(tmp_path / "runs"), "--ray"])
    with pytest.raises(SystemExit) as exit_:
        main()
    assert exit_.value.code == 2
    err = capsys.readouterr()
    assert "supportsim[ray]" in err.out + err.err
    assert "requires an argument" not in err.out + err.err
    assert not (tmp_path / "runs").exists()


def cli_args(out: Path) -> list[str]:
    return [
        "run",
        "--scenarios",
        str(SCENARIOS),
        "--personas",
        str(PERSONAS),
        "--out",
        str(out),
        "--run-id",
        "r",
    ]


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rpartition(")")[2].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def ended(pid: int) -> bool:
    """Process ``pid`` has exited and was reaped."""
    return not Path(f"/proc/{pid}").exists()


async def test_sigkill_of_the_driver_ends_its_workers_and_resume_completes(
    server: MockLLMServer, out: Path
):
    # The Agent answers until two units are done, then every call hangs, so units are in
    # flight when the driver dies. (A count of answered calls would not do: four units in
    # flight can share seven answers and none of them finish.)
    answering = True

    def until_two_finished(request: RecordedRequest) -> Reply:
        return autopilot(request) if answering else hang()

    server.default("agent", until_two_finished)
    args = [
        *cli_args(out),
        "--agent",
        "openai:agent",
        "--trials",
        "4",
        "--concurrency",
        "4",
        "--workers",
        "2",
    ]
    env = {**os.environ, **env_for(server), "PYTHONUNBUFFERED": "1", "COLUMNS": "200"}
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        "from supportsim.cli import main; main()",
        *args,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    assert proc.stdout is not None
    try:
        # a guard against a run that never prints, not a speed target: a loaded CI machine
        # starts a driver and two workers slowly
        async with asyncio.timeout(300):
            finished = 0
            while finished < 2:
                line = (await proc.stdout.readline()).decode()
                assert line, "the run ended before it could be killed"
                finished += ": completed" in line
            answering = False
    except BaseException:
        proc.kill()
        await proc.wait()
        raise
    workers = children(proc.pid)
    assert len(workers) == 2
    proc.send_signal(signal.SIGKILL)
    await proc.wait()
    async with asyncio.timeout(120):  # the workers saw EOF and exited by themselves
        await asyncio.gather(*(exited(pid) for pid in workers))
    before = Counter(r.unit_id for r in iter_records(out / "r"))
    assert 2 <= len(before) < 8

    server.default("agent", autopilot)
    again, _ = await run(
        server,
        request(
            out,
            run_id="r",
            resume=True,
            agents=["openai:agent"],
            trials=4,
            concurrency=4,
            workers=2,
        ),
    )
    assert again.status == "completed"
    assert len(once_each(again)) == 8


def workers_that_run(
    monkeypatch: pytest.MonkeyPatch, script: str, on_start: Any = None
) -> list[int]:
    """Local "workers" that run ``python -c script`` instead (``on_start(worker_id)`` after
    each start); their pids."""
    from supportsim.batch import _launch

    started: list[int] = []

    async def start(self: Any, worker_id: str, port: int, token: str) -> Any:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-c", script, stderr=asyncio.subprocess.PIPE
        )
        started.append(process.pid)
        if on_start is not None:
            on_start(worker_id)
        return _launch.LocalHandle(process)

    monkeypatch.setattr(_launch.LocalLauncher, "start", start)
    return started


async def test_when_no_worker_can_start_the_run_stops_with_nothing_lost(
    server: MockLLMServer, out: Path, monkeypatch: pytest.MonkeyPatch
):
    crash = "import sys; print('cannot import the agent', file=sys.stderr); sys.exit(3)"
    workers_that_run(monkeypatch, crash)
    session, _ = await run(server, request(out, trials=4, concurrency=4, workers=2))
    assert session.status == "stopped"
    assert "exited with code 3: cannot import the agent" in (session.stop_reason or "")
    assert records(session) == []
    manifest = read_manifest(session.run_dir)
    assert manifest["status"] == "stopped"
    assert manifest["sessions"][0]["workers"]["restarts"] == 2  # bounded: max(2, N)
    # Workers that can start: the same run resumes to the end.
    monkeypatch.undo()
    again, _ = await run(server, request(out, trials=4, concurrency=4, workers=1, resume=True))
    assert again.status == "completed" and len(once_each(again)) == 8


def test_a_limiter_is_open_only_when_nothing_in_it_can_make_a_call_wait():
    from supportsim.batch._remote import initially_open
    from supportsim.llm import RateLimit

    assert initially_open(RateLimit(), 8, 8)  # the default: bound = the run's concurrency
    assert initially_open(RateLimit(max_concurrency=16), None, 8)
    assert not initially_open(RateLimit(max_concurrency=4), 8, 8)  # a tighter bound waits
    assert not initially_open(RateLimit(rpm=100), 8, 8)
    assert not initially_open(RateLimit(tpm=1000), 8, 8)
    assert not initially_open(RateLimit(), 8, None)


async def test_a_second_ctrl_c_cancels_the_workers_units_and_resume_runs_them(
    server: MockLLMServer, out: Path
):
    server.latency(ttft_ms=5, total_ms=20)  # units are in flight when the keys are pressed
    common = {"agents": ["openai:agent"], "trials": 5, "concurrency": 4, "workers": 2}
    pressed: list[int] = []

    def on_record(_record: Any, state: Any) -> None:
        if state.done == 1 and not pressed:
            pressed.append(1)
            os.kill(os.getpid(), signal.SIGINT)  # first: start nothing new
            os.kill(os.getpid(), signal.SIGINT)  # second: cancel the running units

    first, _ = await run(server, request(out, **common), on_record=on_record)
    assert first.status == "cancelled"
    done = once_each(first)
    assert 1 <= len(done) < 10
    again, _ = await run(server, request(out, resume=True, **{**common, "workers": 1}))
    assert again.status == "completed" and len(once_each(again)) == 10


def sigstop_a_worker(
    server: MockLLMServer, monkeypatch: pytest.MonkeyPatch, *, ctrl_c: bool = False
) -> tuple[Watch, list[int]]:
    """SIGSTOP one of two workers once both run units and a record is in (then press
    Ctrl-C once, if asked); the stopped pid goes to the list."""
    all_ready_before_units(monkeypatch)
    watch = Watch()
    stopped: list[int] = []

    def stop_one(workers: list[Any]) -> None:
        stopped.append(workers[0].pid)
        os.kill(workers[0].pid, signal.SIGSTOP)
        if ctrl_c:
            os.kill(os.getpid(), signal.SIGINT)  # the first Ctrl-C

    server.default("agent", once_all_busy(server, watch, 2, stop_one))
    return watch, stopped


async def test_a_stopped_worker_is_lost_and_its_units_run_elsewhere_blaming_none(
    server: MockLLMServer, out: Path, monkeypatch: pytest.MonkeyPatch
):
    watch, stopped = sigstop_a_worker(server, monkeypatch)
    common = {"agents": ["openai:agent"], "trials": 4, "concurrency": 4, "workers": 2}
    # A short bound for the test: a worker silent for 2 s (20 heartbeats) is lost.
    session, _ = await run(server, request(out, worker_silence_s=2, **common), watch=watch)
    assert stopped
    assert session.status == "completed"
    assert len(once_each(session)) == 8
    assert all(r.status == "completed" for r in records(session))  # none blamed
    workers = session_workers(session)
    assert workers["lost"] >= 1 and workers["restarts"] >= 1
    assert ended(stopped[0])  # killed, not left stopped


async def test_ctrl_c_still_ends_a_run_whose_worker_hangs(
    server: MockLLMServer, out: Path, monkeypatch: pytest.MonkeyPatch
):
    watch, stopped = sigstop_a_worker(server, monkeypatch, ctrl_c=True)
    common = {"agents": ["openai:agent"], "trials": 4, "concurrency": 4, "workers": 2}
    # The default silence bound (timeout_s + 60 s): only the stop gives up on the worker.
    first, _ = await run(server, request(out, **common), watch=watch)
    assert stopped and first.status == "interrupted"
    done = once_each(first)
    assert 1 <= len(done) < 8  # the other's finished; the hung one's were left to resume
    assert all(r.status == "completed" for r in records(first))
    assert ended(stopped[0])
    again, _ = await run(server, request(out, resume=True, **common))
    assert again.status == "completed" and len(once_each(again)) == 8
    assert all(r.status == "completed" for r in records(again))


async def test_both_workers_killed_twice_blame_no_unit_and_resume_completes(
    server: MockLLMServer, out: Path, monkeypatch: pytest.MonkeyPatch
):
    all_ready_before_units(monkeypatch)
    watch = Watch()
    killed: list[int] = []

    def pids(workers: list[Any]) -> list[int]:
        return [w.handle.pid for w in workers if w.handle is not None]

    def kill_both_twice(request: RecordedRequest) -> Reply:
        workers = [w for w in watch.batch.hub.workers.values() if not w.gone]
        if not killed and all(w.units for w in workers):  # both busy: kill both
            killed.extend(pids(workers))
        elif len(killed) == 2 and any(j.losses for w in workers for j in w.units.values()):
            killed.extend(pids(workers))  # both replacements, as one runs a unit again
        else:
            return autopilot(request)
        for pid in killed[-2:]:
            os.kill(pid, signal.SIGKILL)
        return autopilot(request)

    server.default("agent", kill_both_twice)
    common = {"agents": ["openai:agent"], "trials": 6, "concurrency": 8, "workers": 2}
    first, _ = await run(server, request(out, **common), watch=watch)
    assert len(killed) == 4
    assert first.status in ("completed", "stopped")  # four deaths may be a crash loop
    kept = records(first)
    blamed = [
        (r.unit_id, r.status, r.termination, r.error) for r in kept if r.status != "completed"
    ]
    assert blamed == []  # none blamed
    assert len({r.unit_id for r in kept}) == len(kept)  # none twice
    assert session_workers(first)["lost"] == 4
    server.default("agent", autopilot)
    again, _ = await run(server, request(out, resume=True, **common))
    assert again.status == "completed"
    assert len(once_each(again)) == 12
    assert all(r.status == "completed" for r in records(again))


async def test_a_poison_unit_among_others_is_proved_alone_and_blamed_alone(
    server: MockLLMServer, out: Path
):
    watch = Watch()
    poison = f"{REFUND}|openai:agent|2"
    killed: list[int] = []

    def kills_its_worker(request: RecordedRequest) -> Reply:
        for worker in live_workers(watch):
            if poison in worker.units and worker.pid not in killed:
                killed.append(worker.pid)
                os.kill(worker.pid, signal.SIGKILL)
        return autopilot(request)

    server.default("agent", kills_its_worker)
    session, _ = await run(
        server,
        request(out, agents=["openai:agent"], trials=4, concurrency=4, workers=2),
        watch=watch,
    )
    assert session.status == "completed"
    got = {r.unit_id: r for r in records(session)}
    assert len(once_each(session)) == 8
    assert got[poison].status == "harness_error"
    assert "poison unit" in (got[poison].error or "")
    assert "the last while it ran alone" in (got[poison].error or "")
    assert all(r.status == "completed" for u, r in got.items() if u != poison)
    assert len(killed) == 3  # two deaths make it a suspect, a third alone proves it


async def test_a_worker_that_never_gets_ready_is_replaced_then_the_run_stops_cleanly(
    server: MockLLMServer, out: Path, monkeypatch: pytest.MonkeyPatch
):
    started = workers_that_run(monkeypatch, "import time; time.sleep(3600)")
    common = {"trials": 4, "concurrency": 4, "workers": 2}
    session, _ = await run(server, request(out, worker_ready_s=1, **common))
    assert session.status == "stopped"
    assert "was not ready 1 s after it was started" in (session.stop_reason or "")
    assert records(session) == []
    manifest = read_manifest(session.run_dir)
    assert manifest["status"] == "stopped" and manifest["stop_reason"] == session.stop_reason
    assert manifest["sessions"][0]["workers"]["restarts"] == 2
    assert len(started) == 4
    assert all(ended(pid) for pid in started)  # every one killed
    monkeypatch.undo()  # workers that get ready: (the stored 1 s bound would not do)
    again, _ = await run(server, request(out, resume=True, worker_ready_s=180, **common))
    assert again.status == "completed", again.stop_reason
    assert len(once_each(again)) == 8


async def test_ctrl_c_ends_a_run_whose_workers_never_get_ready(
    server: MockLLMServer, out: Path, monkeypatch: pytest.MonkeyPatch
):
    def ctrl_c_at_the_first_replacement(worker_id: str) -> None:
        if worker_id == "w2":  # units wait for a worker
            os.kill(os.getpid(), signal.SIGINT)  # the first Ctrl-C

    workers_that_run(monkeypatch, "import time; time.sleep(3600)", ctrl_c_at_the_first_replacement)
    common = {"trials": 4, "concurrency": 4, "workers": 2, "worker_ready_s": 1}
    session, _ = await run(server, request(out, **common))
    # At once, not "stopped" once the replacements too were not ready in time.
    assert session.status == "interrupted"
    assert records(session) == []
