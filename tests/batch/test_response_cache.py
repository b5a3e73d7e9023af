"""The response cache behind the model pool: keyed by the whole request, marked when used,
written atomically, per role and per scope (trial, sample)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest
from batch_helpers import records, request, run

from supportsim.errors import InputError, ProviderError
from supportsim.llm import (
    LLMMessage,
    LLMRequest,
    ModelPool,
    ResponseCache,
    RetryPolicy,
    ToolSpec,
    cache_scope,
    open_cache,
    parse_model_spec,
    request_key,
)
from supportsim.report import summarise
from supportsim.testing import MockLLMServer, autopilot, http_error, reply, say

ASK = LLMRequest(system="s", messages=(LLMMessage(role="user", content="hi"),))
KEY = "sk-secret-cache-test"


@pytest.fixture
async def server() -> AsyncIterator[MockLLMServer]:
    async with MockLLMServer() as mock:
        yield mock


def entries(folder: Path) -> list[Path]:
    return list(folder.iterdir())


def pool_for(server: MockLLMServer, cache: ResponseCache, roles: set[str]) -> ModelPool:
    env = {"OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": server.url + "/v1"}
    return ModelPool(
        env=env,
        policy=RetryPolicy(max_attempts=1),
        cache=cache,
        cache_roles=frozenset(roles),
    )


def test_the_key_covers_the_whole_request_and_nothing_else() -> None:
    config = parse_model_spec("openai:gpt-4.1-mini", {})
    base = request_key(config, ASK)
    assert base == request_key(config, ASK)
    tool = ToolSpec("t", "d", {"type": "object"})
    variants = [
        request_key(config, LLMRequest("s2", ASK.messages)),
        request_key(config, LLMRequest("s", (LLMMessage(role="user", content="hi!"),))),
        request_key(config, LLMRequest("s", ASK.messages, tools=(tool,))),
        request_key(config, LLMRequest("s", ASK.messages, structured=tool)),
        request_key(config.model_copy(update={"model": "gpt-4o"}), ASK),
        request_key(config.model_copy(update={"base_url": "http://other:1/v1"}), ASK),
        request_key(
            config.model_copy(update={"params": config.params.model_copy(update={"seed": 1})}), ASK
        ),
        request_key(config, ASK, scope="trial=2"),
    ]
    assert base not in variants and len(set(variants)) == len(variants)
    # Neither the display name, the key variable, the timeout nor URL passwords matter.
    same = config.model_copy(update={"name": "alias", "api_key_env": "OTHER", "timeout_s": 5})
    assert request_key(same, ASK) == base
    with_pw = config.model_copy(update={"base_url": "http://u:pw1@h:1/v1"})
    other_pw = config.model_copy(update={"base_url": "http://u:pw2@h:1/v1"})
    assert request_key(with_pw, ASK) == request_key(other_pw, ASK)


async def test_a_repeated_call_is_answered_from_disk_and_marked(
    server: MockLLMServer, tmp_path: Path
) -> None:
    server.script("gpt-4.1-mini", [say("Hello", input_tokens=100, output_tokens=10)])
    cache = ResponseCache(tmp_path / "cache")
    pool = pool_for(server, cache, {"judge"})
    call = pool.caller(parse_model_spec("openai:gpt-4.1-mini", {}), "judge")
    try:
        first = await call(ASK)
        second = await call(ASK)
    finally:
        await pool.aclose()
    assert len(server.requests(model="gpt-4.1-mini")) == 1
    assert (first.cached, second.cached) == (False, True)
    assert second.content == "Hello" and second.input_tokens == 100
    assert first.cost_usd is not None and first.cost_usd > 0
    assert second.cost_usd == 0.0 and second.ttft_ms is None  # nothing paid, nothing timed
    assert (cache.hits, cache.misses) == (1, 1)
    assert pool.stats.calls == 1  # a hit passes no limiter and is not a provider call
    files = list((tmp_path / "cache").rglob("*"))
    stored = [f for f in files if f.is_file()]
    assert len(stored) == 1 and stored[0].name.endswith(".json")
    assert not [f for f in stored if f.name.startswith(".tmp-")]  # atomic: no leftovers
    assert KEY not in stored[0].read_text()


async def test_roles_outside_the_cache_roles_always_call_the_model(
    server: MockLLMServer, tmp_path: Path
) -> None:
    server.script("agent", [say("one"), say("two")])
    pool = pool_for(server, ResponseCache(tmp_path), {"customer"})
    call = pool.caller(parse_model_spec("openai:agent", {}), "agent")
    try:
        replies = [await call(ASK), await call(ASK)]
    finally:
        await pool.aclose()
    assert [r.content for r in replies] == ["one", "two"]
    assert not any(r.cached for r in replies)
    assert entries(tmp_path) == []


async def test_an_owned_agent_is_never_replayed_even_with_cache_agents(
    server: MockLLMServer, tmp_path: Path
) -> None:
    """An owned service's reply is also the tool calls it makes over MCP: a replay would
    skip them and score a conversation that never touched the Environment."""
    server.script("svc", [say("one"), say("two")])
    pool = pool_for(server, ResponseCache(tmp_path), {"customer", "agent"})
    config = parse_model_spec("openai:svc", {}).model_copy(
        update={"owned": True, "base_url": server.url + "/v1"}
    )
    call = pool.caller(config, "agent")
    try:
        replies = [await call(ASK), await call(ASK)]
    finally:
        await pool.aclose()
    assert [r.content for r in replies] == ["one", "two"]
    assert entries(tmp_path) == []
    cached_plain = pool_for(server, ResponseCache(tmp_path / "plain"), {"agent"})
    server.script("plain", [say("three"), say("four")])
    plain = cached_plain.caller(parse_model_spec("openai:plain", {}), "agent")
    try:
        again = [await plain(ASK), await plain(ASK)]
    finally:
        await cached_plain.aclose()
    assert [r.content for r in again] == ["three", "three"]  # a non-owned agent is replayed


async def test_each_scope_is_its_own_draw(server: MockLLMServer, tmp_path: Path) -> None:
    server.script("m", [say("trial one"), say("trial two")])
    pool = pool_for(server, ResponseCache(tmp_path), {"judge"})
    call = pool.caller(parse_model_spec("openai:m", {}), "judge")
    try:
        with cache_scope("trial=1"):
            one = await call(ASK)
        with cache_scope("trial=2"):
            two = await call(ASK)
        with cache_scope("trial=1"):
            again = await call(ASK)
    finally:
        await pool.aclose()
    assert (one.content, two.content, again.content) == ("trial one", "trial two", "trial one")
    assert again.cached and not two.cached


async def test_errors_are_never_stored_and_a_broken_file_is_a_miss(
    server: MockLLMServer, tmp_path: Path
) -> None:
    server.script("m", [http_error(400, message="bad"), reply("fine")])
    cache = ResponseCache(tmp_path)
    pool = pool_for(server, cache, {"judge"})
    config = parse_model_spec("openai:m", {})
    call = pool.caller(config, "judge")
    try:
        with pytest.raises(ProviderError):
            await call(ASK)
        assert entries(tmp_path) == []
        path = cache.path(
            request_key(config.model_copy(update={"base_url": server.url + "/v1"}), ASK)
        )
        path.parent.mkdir(parents=True)
        path.write_text("{not json", encoding="utf-8")
        response = await call(ASK)
    finally:
        await pool.aclose()
    assert response.content == "fine" and not response.cached
    assert '"fine"' in path.read_text(encoding="utf-8")  # overwritten whole


def test_open_cache_defaults_under_the_user_cache_and_rejects_a_file(tmp_path: Path) -> None:
    cache = open_cache(None, {"XDG_CACHE_HOME": str(tmp_path)})
    assert cache.root == tmp_path / "supportsim" / "responses"
    assert open_cache(None, {"HOME": str(tmp_path)}).root == (
        tmp_path / ".cache" / "supportsim" / "responses"
    )
    a_file = tmp_path / "file"
    a_file.write_text("x")
    with pytest.raises(InputError, match="not a directory"):
        open_cache(a_file, {})


async def test_a_run_with_cache_agents_replays_every_call_and_keeps_them_out_of_latency(
    tmp_path: Path,
) -> None:
    out = tmp_path / "runs"
    cache = ResponseCache(tmp_path / "cache")
    spec = {"agents": ["openai:agent-o"], "customer": "openai:customer-m", "trials": 2}
    async with MockLLMServer() as server:
        server.default(None, autopilot)
        first, _ = await run(server, replace(request(out, **spec), cache=cache, cache_agents=True))
        sent = len(server.requests())
        second, pool = await run(
            server, replace(request(out, run_id="r2", **spec), cache=cache, cache_agents=True)
        )
        assert len(server.requests()) == sent  # the second run paid for nothing
    assert pool.stats.calls == 0
    fresh, replayed = records(first), records(second)
    assert [r.status for r in replayed] == ["completed"] * len(fresh)
    assert {r.unit_id: r.strict for r in replayed} == {r.unit_id: r.strict for r in fresh}
    assert not any(c.cached for r in fresh for c in r.llm_calls)
    assert all(c.cached for r in replayed for c in r.llm_calls)
    replies = [m for r in replayed for m in r.messages if m.role == "agent" and m.cached]
    assert replies and all(m.response_ms is None and m.ttft_ms is None for m in replies)
    latency = summarise(replayed).agents["openai:agent-o"].response_ms
    assert latency.p50 is None  # no cached turn is counted as a measured latency
    assert summarise(fresh).agents["openai:agent-o"].response_ms.p50 is not None


async def test_a_run_with_cache_alone_never_caches_the_agent(tmp_path: Path) -> None:
    out = tmp_path / "runs"
    cache = ResponseCache(tmp_path / "cache")
    spec = {"agents": ["openai:agent-o"], "customer": "openai:customer-m"}
    async with MockLLMServer() as server:
        server.default(None, autopilot)
        await run(server, replace(request(out, **spec), cache=cache))
        agent_calls = len(server.requests(model="agent-o"))
        customer_calls = len(server.requests(model="customer-m"))
        second, _ = await run(server, replace(request(out, run_id="r2", **spec), cache=cache))
        assert len(server.requests(model="agent-o")) == 2 * agent_calls  # asked again
        assert len(server.requests(model="customer-m")) == customer_calls  # replayed
    calls = [c for r in records(second) for c in r.llm_calls]
    assert all(c.cached for c in calls if c.role == "customer")
    assert not any(c.cached for c in calls if c.role == "agent")


@pytest.mark.parametrize("command", ["run", "judge"])
def test_a_cache_dir_that_is_a_file_exits_2_and_writes_nothing(
    tmp_path: Path, command: str
) -> None:
    from typer.testing import CliRunner

    from supportsim.cli import app

    a_file = tmp_path / "not-a-dir"
    a_file.write_text("x")
    out = tmp_path / "runs"
    args = (
        ["run", "--scenarios", str(Path(__file__).parent / "scenarios"), "--out", str(out)]
        if command == "run"
        else ["judge", str(tmp_path), "--judge", "openai:j"]
    )
    result = CliRunner().invoke(app, [*args, "--cache-dir", str(a_file)], env={"COLUMNS": "400"})
    assert result.exit_code == 2
    assert "--cache-dir" in result.output and "not a directory" in result.output
    assert not out.exists()
