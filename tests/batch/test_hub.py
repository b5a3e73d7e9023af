"""The hub against workers it does not trust: peers speaking the wire protocol over TCP
(batch/_hub.py, _frames.py, _remote.py), with heartbeats ticked by hand."""

from __future__ import annotations

import asyncio
import contextlib
import struct
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from supportsim.batch._frames import MAX_HELLO, FrameError, frame, read_frame
from supportsim.batch._hub import Hub
from supportsim.batch._lag import LoopLag
from supportsim.batch._remote import Timing, domain_digest, worker_fingerprint
from supportsim.domains import builtin_domains
from supportsim.llm import ModelPool, RateLimit


class FakeHandle:
    """A worker process that never runs: it ends when killed."""

    def __init__(self) -> None:
        self.ended = asyncio.Event()
        self.kills = 0

    def describe(self) -> str:
        return "pid 0"

    async def wait(self) -> str:
        await self.ended.wait()
        return "(pid 0) exited with code -9"

    def kill(self) -> None:
        self.kills += 1
        self.ended.set()


class FakeLauncher:
    mode = "local"
    host = "127.0.0.1"

    def __init__(self) -> None:
        self.handles: dict[str, FakeHandle] = {}

    async def start(self, worker_id: str, port: int, token: str) -> FakeHandle:
        self.handles[worker_id] = handle = FakeHandle()
        return handle

    def close(self) -> None:
        return None


def no_ctx() -> Any:
    return SimpleNamespace(domains={}, scenarios={})


async def hub_for(count: int = 1, timing: Timing | None = None) -> Hub:
    """A started hub whose heartbeats only the test ticks (``hub.tick()``)."""
    hub = Hub(
        FakeLauncher(),
        count=count,
        setup={},
        fingerprint={},
        pool=ModelPool(env={}),
        ctx=no_ctx(),
        lag=LoopLag(),
        timing=timing or Timing(ready_s=3600, silence_s=3600),
    )
    hub.grace_s = 0.0  # the fake workers exit only when killed: no waiting for a bye
    await hub.start()
    assert hub._watchdog is not None
    hub._watchdog.cancel()
    return hub


class Peer:
    """One end of a connection to the hub, speaking frames."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def connect(cls, hub: Hub) -> Peer:
        return cls(*await asyncio.open_connection("127.0.0.1", hub.port))

    def send(self, header: dict[str, Any], payload: bytes = b"") -> None:
        self.writer.write(frame(header, payload))

    async def next(self, kind: str) -> dict[str, Any]:
        """The next frame of ``kind`` (pings and other frames in between skipped)."""
        while True:
            header, _ = await read_frame(self.reader)
            if header.get("t") == kind:
                return header

    async def closed(self) -> bool:
        """Whether the hub closed the connection (reads to EOF; the hub sends little)."""
        with contextlib.suppress(ConnectionResetError):
            while await self.reader.read(65536):
                pass
        return True


async def ready_worker(hub: Hub, worker_id: str = "w0") -> Peer:
    peer = await Peer.connect(hub)
    peer.send({"t": "hello", "token": hub.token, "worker": worker_id, "pid": 1})
    setup = await peer.next("setup")
    assert setup["heartbeat_s"] == hub.timing.heartbeat_s
    peer.send({"t": "ready", "fingerprint": hub.expected})
    await roundtrip(peer, 0)  # the hub has handled everything sent so far
    assert hub.workers[worker_id].ready
    return peer


LIMITED = {"name": "ep", "limit": {"max_concurrency": 3}, "default": None}


async def roundtrip(peer: Peer, request_id: int) -> None:
    """A permit of an unbounded limiter asked for and handed back: a sync point."""
    free = {"name": "free", "limit": {}, "default": None}
    peer.send({"t": "acq", "id": f"sync{request_id}", **free})
    await peer.next("grant")
    peer.send({"t": "rel", **free})


async def test_a_200_mib_hello_is_refused_before_any_of_it_is_read():
    hub = await hub_for(count=0)
    hub.hello_timeout_s = 3600  # only the size may end this connection
    peer = await Peer.connect(hub)
    size = 200 * 1024 * 1024
    peer.writer.write(struct.pack(">II", size, 100))  # what a hello of 200 MiB announces
    peer.writer.write(b"x" * 65536)  # and the start of it
    async with asyncio.timeout(30):  # a guard: the hub answers at once, or never
        assert await peer.closed()
    await hub.close()


async def test_a_hello_at_the_cap_with_a_wrong_token_is_read_and_refused_in_silence():
    hub = await hub_for(count=1)
    peer = await Peer.connect(hub)
    hello = {"t": "hello", "token": "not the token", "worker": "w0", "pad": ""}
    hello["pad"] = "x" * (MAX_HELLO - len(frame(hello)) + 4)
    assert len(frame(hello)) - 4 == MAX_HELLO
    peer.send(hello)
    async with asyncio.timeout(30):
        assert await peer.closed()
    assert not hub.workers["w0"].gone  # a stranger does not cost a worker
    await hub.close()


async def test_pending_hellos_end_with_the_hub_and_print_nothing(capsys: pytest.CaptureFixture):
    loop = asyncio.get_running_loop()
    errors: list[dict[str, Any]] = []
    loop.set_exception_handler(lambda _loop, context: errors.append(context))
    hub = await hub_for(count=0)
    peers = [await Peer.connect(hub) for _ in range(4)]
    for peer in peers:
        peer.writer.write(struct.pack(">II", 1000, 10) + b"x" * 100)  # half a hello
    await roundtrip_with_a_stranger(hub)
    await hub.close()
    serving = [t for t in asyncio.all_tasks() if "Hub._serve" in repr(t.get_coro())]
    assert serving == []  # none left for the loop's end to cancel (and print)
    for _ in range(3):
        await asyncio.sleep(0)  # the stream callbacks of the ended connections run
    assert errors == []
    assert "CancelledError" not in capsys.readouterr().err


async def roundtrip_with_a_stranger(hub: Hub) -> None:
    """Until the hub has accepted connections made so far (a wrong token, closed)."""
    peer = await Peer.connect(hub)
    peer.send({"t": "hello", "token": "no"})
    assert await peer.closed()


async def test_a_lost_workers_late_frames_move_nothing_but_its_call_counters():
    hub = await hub_for()
    peer = await ready_worker(hub)
    worker = hub.workers["w0"]
    for request_id in (1, 2):
        peer.send({"t": "acq", "id": request_id, **LIMITED})
        await peer.next("grant")
    peer.send({"t": "took", **LIMITED})
    peer.send({"t": "acq", "id": 3, **LIMITED})  # the limit is reached: it waits
    await roundtrip(peer, 1)
    gate = hub.pool.limiter_named("ep", RateLimit(), None).gate
    assert gate is not None
    assert (gate.in_flight, gate.waiting, worker.held["ep"]) == (3, 1, 3)
    waiting = list(worker.acquiring.values())

    hub._lose(worker, "(pid 0) sent nothing for 9 s (stopped or hung)")
    await asyncio.wait(waiting)
    assert (gate.in_flight, gate.waiting) == (0, 0)  # what it held went back, once
    # Frames it sent before it was lost, read after: none moves the limiter or a record.
    calls = hub.pool.stats.calls
    late = [
        {"t": "rel", **LIMITED},
        {"t": "rel", **LIMITED},
        {"t": "took", **LIMITED},
        {"t": "acq", "id": 4, **LIMITED},
        {"t": "ready", "fingerprint": hub.expected},
        {"t": "stats", "d": {"calls": 2}},
        {"t": "done", "info": {"unit_id": "x|y|1"}, "d": {"calls": 1}},
    ]
    for header in late:
        hub._handle(worker, header, b"")
    assert (gate.in_flight, gate.waiting) == (0, 0)
    assert worker.acquiring == {} and not worker.held
    assert hub.pool.stats.calls == calls + 3  # those calls were made and billed
    assert await peer.closed()
    await hub.close()


async def test_a_worker_never_releases_more_than_it_holds():
    hub = await hub_for()
    peer = await ready_worker(hub)
    peer.send({"t": "acq", "id": 1, **LIMITED})
    await peer.next("grant")
    for _ in range(3):
        peer.send({"t": "rel", **LIMITED})
    await roundtrip(peer, 1)
    gate = hub.pool.limiter_named("ep", RateLimit(), None).gate
    assert gate is not None and gate.in_flight == 0
    await hub.close()


async def test_silence_is_counted_in_heartbeats_and_loses_the_worker():
    hub = await hub_for(timing=Timing(ready_s=3600, silence_s=2.0))
    beat = hub.timing.heartbeat_s
    assert beat == 0.1  # a twentieth of the bound
    peer = await ready_worker(hub)
    worker = hub.workers["w0"]
    hub.tick()  # it was heard from since: this beat is not missed
    for _ in range(19):
        hub.tick()
    assert not worker.gone and worker.missed == 19
    await roundtrip(peer, 1)  # a frame: the count starts again
    hub.tick()
    assert worker.missed == 0
    for _ in range(19):
        hub.tick()
    assert not worker.gone
    hub.tick()
    assert worker.gone
    assert hub.launcher.handles["w0"].kills >= 1  # type: ignore[attr-defined]
    assert hub.restarts == 1 and hub.lost == 1
    await asyncio.sleep(0)  # the replacement's start runs
    assert "w1" in hub.workers
    await hub.close()


async def test_pings_reach_the_worker_every_heartbeat():
    hub = await hub_for()
    peer = await ready_worker(hub)
    hub.tick()
    hub.tick()
    assert (await peer.next("ping"))["t"] == "ping"
    assert (await peer.next("ping"))["t"] == "ping"
    await hub.close()


async def test_a_worker_not_ready_in_time_is_killed_and_replaced():
    hub = await hub_for(timing=Timing(ready_s=1.0, silence_s=3600))
    assert hub.timing.heartbeat_s == 0.05
    peer = await Peer.connect(hub)  # connected and set up, but never ready
    peer.send({"t": "hello", "token": hub.token, "worker": "w0", "pid": 1})
    await peer.next("setup")
    for _ in range(19):
        hub.tick()
    assert not hub.workers["w0"].gone
    hub.tick()
    assert hub.workers["w0"].gone
    assert hub.launcher.handles["w0"].kills >= 1  # type: ignore[attr-defined]
    assert hub.restarts == 1
    await hub.close()


async def test_when_the_run_stops_a_silent_worker_is_given_up_sooner():
    hub = await hub_for(timing=Timing(ready_s=3600, silence_s=600))
    await ready_worker(hub)
    hub.stop()
    hub.tick()  # heard from since the last beat
    beats = round(5.0 / hub.timing.heartbeat_s)  # STOPPING_SILENCE_S
    for _ in range(beats - 1):
        hub.tick()
    assert not hub.workers["w0"].gone
    hub.tick()
    assert hub.workers["w0"].gone
    assert hub.restarts == 0  # stopping: no replacement
    await hub.close()


async def test_a_batch_stopped_for_any_reason_stops_the_hub_within_a_heartbeat():
    hub = await hub_for()
    stopped: list[str] = []
    hub._stopped = lambda: bool(stopped)
    hub.tick()
    assert not hub.stopping
    stopped.append("deadline")
    hub.tick()
    assert hub.stopping
    await hub.close()


async def test_a_worker_with_another_version_or_domain_data_is_refused():
    hub = await hub_for()
    peer = await Peer.connect(hub)
    peer.send({"t": "hello", "token": hub.token, "worker": "w0", "pid": 1})
    await peer.next("setup")
    theirs = {**hub.expected, "supportsim": "0.0.1", "domains": {"mock": "other"}}
    peer.send({"t": "ready", "fingerprint": theirs})
    refused = await peer.next("refused")
    assert refused["error"] == "its inputs differ from the driver's (domains, supportsim)"
    assert await peer.closed()
    assert hub.workers["w0"].gone and hub.restarts == 0
    await hub.close()


def test_the_worker_fingerprint_names_the_version_and_each_used_domains_data(
    monkeypatch: pytest.MonkeyPatch,
):
    domains = builtin_domains()
    inputs = {"scenarios": {"a": "1"}, "personas": {}, "models": {}, "config": {"x": 1}}
    print_ = worker_fingerprint(inputs, domains, ["mock", "retail", "mock"])
    assert set(print_) == {"scenarios", "personas", "models", "supportsim", "domains"}
    assert set(print_["domains"]) == {"mock", "retail"}
    assert print_ == worker_fingerprint(inputs, builtin_domains(), ["retail", "mock"])
    mock = domains["mock"]
    other = type(mock)(**{**mock.__dict__, "policy": mock.policy + " Refunds need a reason."})
    assert domain_digest(other) != domain_digest(mock)


async def test_frames_carry_non_string_keys_and_readers_refuse_oversized_ones():
    data = frame({"t": "stats", "d": {1: 2, "x": {3: 4}}}, b"line")
    reader = asyncio.StreamReader()
    reader.feed_data(data + struct.pack(">II", 100, 10))
    reader.feed_eof()
    assert await read_frame(reader) == ({"t": "stats", "d": {"1": 2, "x": {"3": 4}}}, b"line")
    with pytest.raises(FrameError, match="at most 50"):
        await read_frame(reader, max_size=50)


def test_a_workers_stderr_tail_keeps_lines_bounded(tmp_path: Path):
    from supportsim.batch._launch import TAIL_LINE_CHARS, StderrTail

    tail = StderrTail()
    long_line = b"y" * 100 * 1024
    for start in range(0, len(long_line), 4096):  # as chunks of a pipe come
        tail.feed(long_line[start : start + 4096])
    tail.feed(b"\nlast words\npartial")
    tail.close()
    assert list(tail.lines) == ["y" * TAIL_LINE_CHARS + " [cut]", "last words", "partial"]


async def test_a_100_kib_stderr_line_neither_kills_the_supervisor_nor_blocks_the_worker():
    from supportsim.batch._launch import LocalHandle

    script = (
        "import sys; sys.stderr.write('x' * 100 * 1024 + '\\n');"
        "sys.stderr.write('y' * 1024 * 1024);"  # more than a pipe holds: read, or it blocks
        "sys.stderr.write('\\nbad thing\\n'); sys.exit(3)"
    )
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", script, stderr=asyncio.subprocess.PIPE
    )
    handle = LocalHandle(process)
    async with asyncio.timeout(60):  # a guard: a worker blocked on its pipe never exits
        how = await handle.wait()
    assert how == f"(pid {process.pid}) exited with code 3: bad thing"
    assert all(len(line) < 1100 for line in handle.tail)


class FakeHub:
    """The driver's end for a real ``_worker.serve``: sends the setup, records the rest."""

    def __init__(self, setup: dict[str, Any], events: list[str]) -> None:
        self.setup, self.events = setup, events
        self.frames: list[dict[str, Any]] = []
        self.ended = asyncio.Event()

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_frame(reader)  # the hello
        writer.write(frame({"t": "setup", **self.setup, "heartbeat_s": 1.0, "silence_s": 60.0}))
        with contextlib.suppress(asyncio.IncompleteReadError, ConnectionError):
            while True:
                header, _ = await read_frame(reader)
                self.frames.append(header)
                if header["t"] == "ready":
                    self.events.append("ready")
                    writer.write(frame({"t": "bye"}))
        writer.close()
        self.ended.set()


async def serve_a_worker(tmp_path: Path, events: list[str]) -> tuple[int, list[dict[str, Any]]]:
    from batch_helpers import request

    from supportsim.batch import prepare_run
    from supportsim.batch._launch import worker_setup
    from supportsim.batch._worker import serve

    prepared = prepare_run(request(tmp_path / "runs", tools="mcp"), {})
    setup = worker_setup(
        prepared.config, prepared.pool, run_id="r1", concurrency=prepared.session.concurrency
    )
    hub = FakeHub({**setup, "open_at": 8, "deadline_in_s": None}, events)
    server = await asyncio.start_server(hub.serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with asyncio.timeout(120):
        code = await serve("127.0.0.1", port, "token", "w0")
        await hub.ended.wait()  # it read all the worker sent
    server.close()
    return code, hub.frames


async def test_a_worker_says_ready_only_after_its_warm_up_and_mcp_host(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    from supportsim.batch import _worker

    events: list[str] = []

    async def warm(self: Any) -> None:
        for _ in range(20):
            await asyncio.sleep(0)  # room for a ready sent too early to arrive first
        events.append("warm")

    hosted = _worker.with_mcp_host

    async def with_host(ctx: Any, work: Any) -> Any:
        async def inside() -> Any:
            events.append("host")
            return await work

        return await hosted(ctx, inside())

    monkeypatch.setattr(ModelPool, "warm", warm)
    monkeypatch.setattr(_worker, "with_mcp_host", with_host)
    code, frames = await serve_a_worker(tmp_path, events)
    assert code == 0
    assert events == ["warm", "host", "ready"]
    assert frames[0]["t"] == "ready"


async def test_a_worker_whose_set_up_fails_says_so_and_is_never_ready(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    from supportsim.batch import _worker

    async def no_host(ctx: Any, work: Any) -> Any:
        work.close()
        raise OSError("cannot bind the MCP host")

    monkeypatch.setattr(_worker, "with_mcp_host", no_host)
    code, frames = await serve_a_worker(tmp_path, [])
    assert code == 2
    assert [f["t"] for f in frames] == ["failed"]
    assert frames[0]["error"] == "set-up failed: OSError: cannot bind the MCP host"
