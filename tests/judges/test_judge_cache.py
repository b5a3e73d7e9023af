"""``judge --cache``: judging the same run again pays for no verdict twice, samples apart."""

from __future__ import annotations

import json
from pathlib import Path

from judge_helpers import PerUnitJudge, make_run, table_of

from supportsim.judges import JUDGMENTS, judge_run
from supportsim.llm import ResponseCache
from supportsim.testing import MockLLMServer

STRICT = "1111 1010 0001"


def judgments(run: Path) -> list[dict]:
    return [json.loads(line) for line in (run / JUDGMENTS).read_text().splitlines()]


async def test_rejudging_a_run_reads_every_verdict_from_the_cache(
    tmp_path: Path, server: MockLLMServer, env: dict
) -> None:
    server.default("j1", PerUnitJudge(table_of(STRICT)))
    cache = ResponseCache(tmp_path / "cache")
    first = make_run(tmp_path / "a", pattern=STRICT)
    second = make_run(tmp_path / "b", pattern=STRICT)
    one = await judge_run(first, judge_specs=["openai:j1"], samples=2, env=env, cache=cache)
    asked = len(server.requests(model="j1"))
    assert asked == 24  # 12 units x 2 samples: each sample its own draw, not a replay
    two = await judge_run(second, judge_specs=["openai:j1"], samples=2, env=env, cache=cache)
    assert len(server.requests(model="j1")) == asked  # nothing asked again
    assert one.summary["judges"] == two.summary["judges"]
    fresh, replayed = judgments(first), judgments(second)
    assert not any(j["cached"] for j in fresh)
    assert all(j["cached"] and j["status"] == "ok" for j in replayed)
    by_unit = {(j["unit_id"], j["sample"]): j["verdicts"] for j in fresh}
    assert {(j["unit_id"], j["sample"]): j["verdicts"] for j in replayed} == by_unit
    assert "sk-test-judge" not in "".join(p.read_text() for p in cache.root.rglob("*.json"))


async def test_without_cache_a_rejudge_asks_again(
    tmp_path: Path, server: MockLLMServer, env: dict
) -> None:
    server.default("j1", PerUnitJudge(table_of(STRICT)))
    await judge_run(make_run(tmp_path / "a", pattern=STRICT), judge_specs=["openai:j1"], env=env)
    await judge_run(make_run(tmp_path / "b", pattern=STRICT), judge_specs=["openai:j1"], env=env)
    assert len(server.requests(model="j1")) == 24
