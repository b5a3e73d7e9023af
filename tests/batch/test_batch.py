"""Whole batches over the mock server: agents x scenarios x trials, failures, budget, resume."""

from __future__ import annotations

import os
import shutil
import signal
from collections import Counter
from pathlib import Path

import pytest
from batch_helpers import LOOKUP, REFUND, SCENARIOS, records, request, run

from supportsim.batch import read_manifest
from supportsim.errors import InputError
from supportsim.store import latest_records
from supportsim.testing import MockLLMServer, http_error, say


def unit_ids(scenarios: list[str], agents: list[str], trials: int) -> set[str]:
    return {f"{s}|{a}|{t}" for s in scenarios for a in agents for t in range(1, trials + 1)}


async def test_agents_x_scenarios_x_trials_over_the_mock_server(server: MockLLMServer, out: Path):
    agents = ["oracle", "openai:agent-o", "anthropic:agent-a"]
    session, pool = await run(
        server,
        request(out, agents=agents, customer="openai:customer-m", trials=2, concurrency=4),
    )
    got = records(session)
    assert session.status == "completed"
    assert len(got) == 12
    assert {r.unit_id for r in got} == unit_ids([LOOKUP, REFUND], agents, 2)
    assert Counter(r.status for r in got) == {"completed": 12}
    assert Counter(r.agent for r in got) == {a: 4 for a in agents}
    # The LLM agents and the LLM customer really went through both SDKs to the server.
    assert len(server.requests(model="agent-o", api="openai")) == pool.stats.calls - len(
        server.requests(model="customer-m")
    ) - len(server.requests(model="agent-a"))
    assert server.requests(model="agent-a", api="anthropic")
    assert all(r.customer == "openai:customer-m" for r in got)
    assert pool.stats.retries == 0 and pool.stats.errors == 0
    manifest = read_manifest(session.run_dir)
    assert manifest["status"] == "completed"
    assert set(manifest["scenarios"]) == {LOOKUP, REFUND}
    assert manifest["versions"]["openai"] and manifest["versions"]["anthropic"]
    assert manifest["sessions"][0]["units_recorded"] == 12
    assert manifest["loop_lag"]["samples"] >= 0
    assert "sk-test" not in (session.run_dir / "run.json").read_text()


async def test_oracle_with_scripted_customer_passes_every_unit(server: MockLLMServer, out: Path):
    session, _ = await run(server, request(out, trials=3, concurrency=8))
    got = records(session)
    assert len(got) == 6
    assert all(r.status == "completed" and r.strict and r.partial == 1.0 for r in got)


async def test_429_storm_and_failing_provider_give_exact_infra_error_counts(
    server: MockLLMServer, out: Path
):
    # storm: the first two attempts are 429s, then it answers. down: always HTTP 500.
    server.script("storm", [http_error(429), http_error(429, retry_after_s=0.001)])
    server.default("down", lambda _r: http_error(500))
    agents = ["openai:storm", "anthropic:down"]
    session, pool = await run(server, request(out, agents=agents, concurrency=1))
    got = records(session)
    assert session.status == "infra_errors"
    assert Counter((r.agent, r.status) for r in got) == {
        ("openai:storm", "completed"): 2,
        ("anthropic:down", "infra_error"): 2,
    }
    down = [r for r in got if r.status == "infra_error"]
    assert all("HTTP 500" in (r.error or "") for r in down)
    # 3 attempts per failed down call (2 retries each), 2 retries for the storm.
    assert pool.stats.rate_limited == 2
    assert pool.stats.retries == 2 + 2 * 2
    assert pool.stats.errors == 2
    assert len(server.requests(model="down")) == 6
    endpoint = read_manifest(session.run_dir)["sessions"][0]["limits"]["endpoints"]
    assert [e["concurrency_limit"] for e in endpoint.values()] == [1, 1]  # cannot go lower
    assert sum(e["pauses"] for e in endpoint.values()) == 1  # the Retry-After one

    # The provider recovers: resume runs exactly the two infra_error units.
    server.default("down", lambda _r: say("All sorted."))
    again, _ = await run(server, request(out, agents=agents, concurrency=1, resume=True))
    assert again.status == "completed"
    assert len(again.todo) == 2 and all(u.agent == "anthropic:down" for u in again.todo)
    every = records(again)
    assert len(every) == 6
    final = Counter(r.unit_id for r in every if r.status != "infra_error")
    assert set(final) == unit_ids([LOOKUP, REFUND], agents, 1) and set(final.values()) == {1}
    assert {r.status for r in latest_records(again.run_dir).values()} == {"completed"}


async def test_aimd_halves_an_endpoint_once_per_burst_of_429s(server: MockLLMServer, out: Path):
    server.script("burst", [http_error(429)] * 6)
    session, pool = await run(
        server,
        request(
            out,
            agents=["openai:burst"],
            trials=4,
            concurrency=8,
            rate_limits={"openai": {"max_concurrency": 8}},
            retries={"max_attempts": 8, "base_delay_s": 0.001, "max_delay_s": 0.001},
        ),
    )
    assert session.status == "completed"
    assert pool.stats.rate_limited == 6
    (endpoint,) = read_manifest(session.run_dir)["sessions"][0]["limits"]["endpoints"].values()
    assert endpoint["configured"] == {"max_concurrency": 8}
    assert endpoint["concurrency_cuts"] == 1
    assert endpoint["concurrency_limit"] < 8


async def test_a_bug_in_one_conversation_is_a_harness_error_and_the_batch_goes_on(
    server: MockLLMServer, out: Path
):
    agents = ["python:batch_agents:Broken", "oracle"]
    session, _ = await run(server, request(out, agents=agents, trials=2, concurrency=3))
    got = records(session)
    assert Counter((r.agent, r.status) for r in got) == {
        ("broken", "harness_error"): 4,  # labelled by its name attribute
        ("oracle", "completed"): 4,
    }
    broken = next(r for r in got if r.status == "harness_error")
    assert "Traceback" in (broken.error or "")
    assert "bug in the agent under test" in (broken.error or "")
    assert session.status == "completed"  # every unit has its final record


def priced_models(tmp_path: Path, server: MockLLMServer) -> Path:
    path = tmp_path / "models.yaml"
    path.write_text(
        "models:\n"
        "  priced:\n"
        "    provider: openai\n"
        "    model: priced\n"
        f"    base_url: {server.url}/v1\n"
        "    api_key_env: null\n"
        "    price: {input_per_mtok: 1.0, output_per_mtok: 0.0}\n",
        encoding="utf-8",
    )
    return path


async def test_budget_stops_the_run_and_resume_finishes_it(
    server: MockLLMServer, out: Path, tmp_path: Path
):
    # $0.001 per agent call: lookup units cost $0.002 (2 calls), refund units $0.003.
    server.default("priced", lambda _r: say("Noted.", input_tokens=1000, output_tokens=5))
    models = str(priced_models(tmp_path, server))
    common = {"agents": ["priced"], "models_file": models, "trials": 3, "concurrency": 1}
    session, _ = await run(server, request(out, budget_usd=0.006, **common))
    got = records(session)
    assert session.status == "budget"
    assert [r.cost_usd for r in got] == pytest.approx([0.002, 0.003])
    assert read_manifest(session.run_dir)["status"] == "budget"

    # Same budget: the next unit would pass it, so nothing starts.
    same, _ = await run(server, request(out, budget_usd=0.006, resume=True, **common))
    assert same.status == "budget" and same.state is not None and same.state.started == 0

    # Raised budget: exactly the four missing units run.
    done, _ = await run(server, request(out, budget_usd=1.0, resume=True, **common))
    assert done.status == "completed"
    every = records(done)
    assert len(every) == 6
    assert Counter(r.unit_id for r in every) == Counter(unit_ids([LOOKUP, REFUND], ["priced"], 3))
    assert sum(r.cost_usd or 0 for r in every) == pytest.approx(0.015)


async def test_deadline_stops_starting_units(server: MockLLMServer, out: Path):
    session, _ = await run(server, request(out, trials=2, concurrency=1, deadline_s=1e-9))
    assert session.status == "deadline"
    assert session.state is not None and session.state.started == 0


async def test_a_changed_scenario_makes_resume_refuse_unless_forced(
    server: MockLLMServer, out: Path, tmp_path: Path
):
    folder = tmp_path / "scenarios"
    shutil.copytree(SCENARIOS, folder)
    first, _ = await run(server, request(out, scenarios=[str(folder)], ids=[LOOKUP]))
    assert first.status == "completed"
    lookup = folder / "lookup.yaml"
    lookup.write_text(lookup.read_text() + "# edited\n")
    before = (first.run_dir / "run.json").read_bytes()
    with pytest.raises(InputError) as refused:
        await run(server, request(out, scenarios=[str(folder)], ids=[LOOKUP], resume=True))
    assert "refusing to resume" in str(refused.value)
    assert f"scenario {LOOKUP}: file changed" in str(refused.value)
    assert (first.run_dir / "run.json").read_bytes() == before  # nothing written

    with pytest.raises(InputError, match=r"config trials: 1 -> 2"):
        await run(server, request(out, ids=[LOOKUP], trials=2, resume=True))

    forced, _ = await run(
        server, request(out, scenarios=[str(folder)], ids=[LOOKUP], resume=True, force=True)
    )
    assert forced.forced == [f"scenario {LOOKUP}: file changed"]
    assert forced.todo == []  # the unit already has its final record
    assert read_manifest(forced.run_dir)["sessions"][-1]["forced_changes"] == forced.forced


async def test_starting_over_an_existing_run_or_resuming_a_missing_one_is_refused(
    server: MockLLMServer, out: Path
):
    await run(server, request(out, ids=[LOOKUP]))
    with pytest.raises(InputError, match="already exists"):
        await run(server, request(out, ids=[LOOKUP]))
    with pytest.raises(InputError, match="no run to resume"):
        await run(server, request(out, run_id="nope", resume=True))


async def test_first_ctrl_c_lets_running_units_finish_and_resume_completes(
    server: MockLLMServer, out: Path
):
    def press_once(record, state) -> None:
        if state.done == 1:
            os.kill(os.getpid(), signal.SIGINT)

    session, _ = await run(server, request(out, trials=5, concurrency=2), on_record=press_once)
    got = records(session)
    assert session.status == "interrupted"
    assert session.state is not None and len(got) == session.state.started < 10
    resumed, _ = await run(server, request(out, trials=5, concurrency=2, resume=True))
    assert resumed.status == "completed"
    assert Counter(r.unit_id for r in records(resumed)) == Counter(
        unit_ids([LOOKUP, REFUND], ["oracle"], 5)
    )


async def test_second_ctrl_c_cancels_running_units_and_keeps_finished_ones(
    server: MockLLMServer, out: Path
):
    server.default("slowpoke", lambda r: say("ok") if len(server.requests()) < 3 else hang_())
    pressed = []

    def press_twice(record, state) -> None:
        if not pressed:
            pressed.append(True)
            os.kill(os.getpid(), signal.SIGINT)
            os.kill(os.getpid(), signal.SIGINT)

    session, _ = await run(
        server,
        request(out, agents=["oracle", "openai:slowpoke"], trials=3, concurrency=4),
        on_record=press_twice,
    )
    got = records(session)
    assert session.status == "cancelled"
    assert 1 <= len(got) < 12
    assert read_manifest(session.run_dir)["status"] == "cancelled"


def hang_():
    from supportsim.testing import hang

    return hang()
