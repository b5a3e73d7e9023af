"""Participants are built once per run start (``batch/_context.py``): a ``python:`` or
``langgraph:`` factory is called once for the start-up check and once per conversation,
and each model's credentials are read from the environment once."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
from batch_helpers import env_for, once_each, request, run
from counted_agents import COUNT_FILE_ENV

from supportsim.batch import prepare_run, read_manifest
from supportsim.testing import MockLLMServer

AGENTS = ["python:counted_agents:counted_agent", "langgraph:counted_agents:counted_graph"]


def calls(path: Path) -> list[tuple[str, int]]:
    """The factories' calls: (kind, pid) in order."""
    if not path.exists():
        return []
    return [
        (kind, int(pid))
        for kind, pid in (line.split() for line in path.read_text().split("\n") if line)
    ]


@pytest.fixture
def count_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "factory-calls.txt"
    monkeypatch.setenv(COUNT_FILE_ENV, str(path))
    return path


async def test_each_factory_is_called_once_at_start_up_and_once_per_conversation(
    server: MockLLMServer, out: Path, count_file: Path
) -> None:
    session, _ = await run(server, request(out, agents=AGENTS, trials=2))
    units_per_agent = len(once_each(session)) // len(AGENTS)
    assert units_per_agent == 4  # 2 scenarios x 2 trials
    assert Counter(kind for kind, _ in calls(count_file)) == {
        "python": units_per_agent + 1,
        "langgraph": units_per_agent + 1,
    }


def test_preparing_a_run_calls_each_factory_once(out: Path, count_file: Path) -> None:
    prepared = prepare_run(request(out, agents=AGENTS), {})
    assert set(prepared.ctx.agents) == {"counted-python", "answer-graph"}
    assert Counter(kind for kind, _ in calls(count_file)) == {"python": 1, "langgraph": 1}


async def test_each_worker_checks_the_factories_once_and_builds_one_agent_per_conversation(
    server: MockLLMServer, out: Path, count_file: Path
) -> None:
    session, _ = await run(server, request(out, agents=AGENTS, trials=2, workers=2))
    workers = read_manifest(session.run_dir)["sessions"][-1]["workers"]
    assert (workers["count"], workers["restarts"], workers["lost"]) == (2, 0, 0)
    units_per_agent = len(once_each(session)) // len(AGENTS)
    made = calls(count_file)
    by_pid = Counter(pid for _, pid in made)
    assert len(by_pid) == 3  # the driver and two workers
    assert by_pid[os.getpid()] == 2  # the driver's start-up check: one call per factory
    # each worker: its own start-up check (one call per factory), then one per conversation
    assert Counter(kind for kind, _ in made) == {
        "python": units_per_agent + 1 + 2,
        "langgraph": units_per_agent + 1 + 2,
    }


class CountingEnv(Mapping[str, str]):
    """An environment that counts the reads of each variable."""

    def __init__(self, data: Mapping[str, str]) -> None:
        self.data = dict(data)
        self.reads: Counter[str] = Counter()

    def __getitem__(self, key: str) -> str:
        self.reads[key] += 1
        return self.data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)


def test_each_models_credentials_are_resolved_once(server: MockLLMServer, out: Path) -> None:
    env = CountingEnv(env_for(server))
    prepared = prepare_run(
        request(out, agents=["openai:agent-o", "anthropic:agent-a"], customer="openai:customer-m"),
        env,
    )
    # the statement judge is the Customer's model (auto): one model, resolved once
    assert set(prepared.models) == {"openai:agent-o", "anthropic:agent-a", "openai:customer-m"}
    assert env.reads == {
        "OPENAI_API_KEY": 2,
        "OPENAI_BASE_URL": 2,
        "ANTHROPIC_API_KEY": 1,
        "ANTHROPIC_BASE_URL": 1,
    }
