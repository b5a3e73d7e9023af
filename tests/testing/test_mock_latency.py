"""Per-model latency on the mock server (``--latency MODEL=TTFT/TOTAL``, the script file's
``latency:``) and the loud note when a model's script runs out.

Timing is asserted from below only (the server never answers early): a loaded machine
can only make a reply later, so these cannot flake.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import openai
import pytest
from typer.testing import CliRunner

from supportsim.cli import app
from supportsim.errors import InputError
from supportsim.testing import Latency, MockLLMServer, load_script_file, parse_latency, say
from supportsim.testing.autopilot import AGENT_LINE, serve

USER: Any = [{"role": "user", "content": "hi"}]


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("gpt-4o=300/1200", ("gpt-4o", Latency(300, 1200))),
        (" slow = 80.5 / 90 ", ("slow", Latency(80.5, 90))),
        ("m=250", ("m", Latency(250, 250))),
        ("*=10/20", ("*", Latency(10, 20))),
        ("openai:gpt=0/0", ("openai:gpt", Latency(0, 0))),
    ],
)
def test_parse_latency(spec: str, expected: tuple[str, Latency]) -> None:
    assert parse_latency(spec) == expected


@pytest.mark.parametrize(
    ("spec", "needle"),
    [
        ("gpt-4o", "expected MODEL=TTFT/TOTAL"),
        ("=1/2", "expected MODEL=TTFT/TOTAL"),
        ("m=", "expected MODEL=TTFT/TOTAL"),
        ("m=fast/2", "'fast' is not a number of milliseconds"),
        ("m=-5/10", "must be a finite number of ms, 0 or more"),
        ("m=nan/10", "must be a finite number of ms"),
        ("m=500/100", "total 100 ms is before the first token at 500 ms"),
    ],
)
def test_parse_latency_refuses_bad_values(spec: str, needle: str) -> None:
    with pytest.raises(InputError) as info:
        parse_latency(spec)
    assert f"--latency {spec!r}" in str(info.value)
    assert needle in str(info.value)


def test_script_file_latency_forms(tmp_path: Path) -> None:
    path = tmp_path / "script.yaml"
    path.write_text(
        "fast:\n"
        "  latency: 80/300\n"
        "  replies:\n"
        "    - say: Hello\n"
        "slow:\n"
        "  latency: {ttft_ms: 400, total_ms: 2500}\n"
        "plain:\n"
        "  - say: Hi\n",
        encoding="utf-8",
    )
    script = load_script_file(path)
    assert script.latency == {"fast": Latency(80, 300), "slow": Latency(400, 2500)}
    assert [r.text for r in script.replies["fast"]] == ["Hello"]
    assert [r.text for r in script.replies["plain"]] == ["Hi"]
    assert "slow" not in script.replies  # no replies: the autopilot answers it


@pytest.mark.parametrize(
    ("entry", "needle"),
    [
        ("  latency: 9/1\n", "[m][latency]: total 1 ms is before the first token at 9 ms"),
        ("  latency: [1, 2]\n", "[m][latency]: expected TTFT/TOTAL in ms"),
        ("  latency: {ttft: 1}\n", "[m][latency]: expected {ttft_ms: N, total_ms: N}"),
        (
            "  speed: 1\n",
            "[m]: expected a list of replies, or a mapping of latency and replies; unknown key(s) "
            "['speed']",
        ),
        ("  replies: {say: x}\n", "[m]: expected a list of replies"),
    ],
)
def test_script_file_bad_latency_names_file_and_model(
    tmp_path: Path, entry: str, needle: str
) -> None:
    path = tmp_path / "script.yaml"
    path.write_text("m:\n" + entry, encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_script_file(path)
    assert f"{path} {needle}" in str(info.value)


@asynccontextmanager
async def _serving(
    path: Path, latency: dict[str, Latency] | None = None
) -> AsyncIterator[tuple[openai.AsyncOpenAI, MockLLMServer, list[str]]]:
    """``serve()`` on a free port with the warnings it gives, and a client of it."""
    warnings: list[str] = []
    started: asyncio.Future[MockLLMServer] = asyncio.get_running_loop().create_future()
    task = asyncio.create_task(
        serve("127.0.0.1", 0, path, ready=started.set_result, latency=latency, warn=warnings.append)
    )
    server = await started
    client = openai.AsyncOpenAI(
        base_url=server.url + "/v1",
        api_key="test",
        max_retries=0,
        http_client=openai.DefaultAsyncHttpxClient(verify=False),
    )
    try:
        yield client, server, warnings
    finally:
        await client.close()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task


async def _ask(client: openai.AsyncOpenAI, model: str) -> tuple[str | None, float]:
    start = time.monotonic()
    answer = await client.chat.completions.create(model=model, messages=USER)
    return answer.choices[0].message.content, (time.monotonic() - start) * 1000


async def test_each_model_answers_at_its_own_latency(tmp_path: Path) -> None:
    path = tmp_path / "script.yaml"
    path.write_text(
        "agent:\n  latency: 0/0\n  replies:\n    - say: scripted\n"
        "slow:\n  latency: 5/5\n"
        "cut:\n  - say: once\n",
        encoding="utf-8",
    )
    latency = {"slow": Latency(150, 200), "*": Latency(0, 0)}  # the flag beats the file
    async with _serving(path, latency) as (client, server, warnings):
        assert (await _ask(client, "agent"))[0] == "scripted"
        text, slow_ms = await _ask(client, "slow")
        assert text == AGENT_LINE  # the autopilot, at the model's latency (the flag's)
        assert slow_ms >= 200
        server.script("slow", [say("own timing", ttft_ms=0, total_ms=0)])
        assert (await _ask(client, "slow"))[0] == "own timing"  # a reply's timing wins
        assert warnings == []  # slow never had a script of its own until now
        assert (await _ask(client, "cut"))[0] == "once"
        assert (await _ask(client, "cut"))[0] == AGENT_LINE
        await _ask(client, "cut")
        await _ask(client, "agent")
    assert warnings == [
        "mock server: the script for model 'cut' ran out after 1 reply; the autopilot "
        "answers it from now on, at 0/0 ms",
        "mock server: the script for model 'agent' ran out after 1 reply; the autopilot "
        "answers it from now on, at 0/0 ms",
    ]  # once per model, as it happens
    assert server.scripts_ended() == {"cut": 1, "agent": 1}  # slow: not asked again


async def test_running_out_without_a_latency_says_how_to_set_one(tmp_path: Path) -> None:
    path = tmp_path / "script.json"
    path.write_text('{"agent": [{"say": "a"}, {"say": "b"}]}', encoding="utf-8")
    async with _serving(path) as (client, _, warnings):
        for _ in range(3):
            await _ask(client, "agent")
    assert warnings == [
        "mock server: the script for model 'agent' ran out after 2 replies; the autopilot "
        "answers it from now on, at 0 ms: no latency set for it (--latency agent=TTFT/TOTAL)"
    ]


def test_cli_refuses_a_bad_latency_before_binding() -> None:
    result = CliRunner().invoke(
        app, ["mock-server", "--port", "0", "--latency", "m=9/1"], env={"COLUMNS": "200"}
    )
    assert result.exit_code == 2, result.output
    assert "--latency 'm=9/1': total 1 ms is before the first token at 9 ms" in result.output
