"""Several Customers in one run, Customer seeds and ``--replay-customer``, end to end
through the CLI and the real SDKs against the loopback mock server (in a thread: the CLI
runs its own event loop)."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import cli_runs
import orjson
import pytest
from cli_runs import PERSONAS
from cli_runs import REFUND as SCENARIO

from supportsim.batch import RunConfig, customer_seed
from supportsim.store import iter_records, read_json
from supportsim.testing import MockLLMServer, RecordedRequest, Reply, autopilot, say
from supportsim.testing.autopilot import AGENT_LINE

CHANGED = "Could you tell me your order number first?"


@pytest.fixture
def server(threaded_server: MockLLMServer) -> MockLLMServer:
    threaded_server.default(None, autopilot)
    return threaded_server


KEY = "sk-test-customers"


def cli(server: MockLLMServer, *args: str) -> Any:
    return cli_runs.cli(server, *args, key=KEY, anthropic=True)


def run(server: MockLLMServer, out: Path, run_id: str, *extra: str) -> tuple[Any, Path]:
    options = ["--workers", "1", "--statement-judge", "none", *extra]
    return cli_runs.run(server, out, *options, run_id=run_id, key=KEY, anthropic=True)


def changed_agent(request: RecordedRequest) -> Reply:
    """The autopilot Agent, but its second reply differs (a prompt change)."""
    users = [m for m in request.body.get("messages", []) if m.get("role") == "user"]
    return say(AGENT_LINE if len(users) < 2 else CHANGED)


def test_one_customer_string_stays_valid_and_is_stored_as_a_string() -> None:
    assert RunConfig.model_validate({"customer": "openai:c"}).customer == ["openai:c"]
    assert RunConfig(customer=["openai:c"]).model_dump()["customer"] == "openai:c"
    both = RunConfig(customer=["scripted", "openai:c"]).model_dump()["customer"]
    assert both == ["scripted", "openai:c"]
    with pytest.raises(ValueError, match="given twice"):
        RunConfig(customer=["openai:c", "openai:c"])
    with pytest.raises(ValueError, match="at least one"):
        RunConfig(customer=[])


def test_two_customers_pair_every_unit_and_report_scores_spread_and_rank_agreement(
    server: MockLLMServer, tmp_path: Path
) -> None:
    args = ("--agent", "oracle", "--agent", "openai:ag", "--trials", "2")
    two = ("--customer", "scripted", "--customer", "openai:cust")
    result, run_dir = run(server, tmp_path / "runs", "two", *args, *two)
    assert result.exit_code == 0, result.output
    records = list(iter_records(run_dir))
    keys = {(r.scenario_id, r.agent, r.trial, r.customer) for r in records}
    assert len(records) == len(keys) == 2 * 2 * 2  # agents x trials x customers
    assert len({r.unit_id for r in records}) == 8  # the Customer keeps unit ids apart
    assert {r.unit_id for r in records if r.customer == "openai:cust"} == {
        f"mock-duplicate-refund|{a}|{t}|openai:cust"
        for a in ("oracle", "openai:ag")
        for t in (1, 2)
    }
    section = read_json(run_dir / "summary.json")["customers"]
    assert section["customers"] == ["scripted", "openai:cust"]  # --customer order
    for agent in ("oracle", "openai:ag"):
        row = section["agents"][agent]
        rates = {}
        for customer in ("scripted", "openai:cust"):
            mine = [r for r in records if r.agent == agent and r.customer == customer]
            rate = row["by_customer"][customer]
            assert rate["n"] == len(mine) == 2
            assert rate["strict_passes"] == sum(bool(r.strict) for r in mine)
            assert rate["partial_mean"] == pytest.approx(sum(r.partial or 0 for r in mine) / 2)
            rates[customer] = rate["partial_mean"]
        assert row["partial_spread"] == pytest.approx(max(rates.values()) - min(rates.values()))
    [pair] = section["agreement"]
    assert (pair["customer_a"], pair["customer_b"], pair["agents"]) == (
        "scripted",
        "openai:cust",
        2,
    )
    assert "Kendall tau-b" in result.output and "Customers:" in result.output
    # resume keeps working: every unit of both Customers is final, nothing runs again
    again, _ = run(server, tmp_path / "runs", "two", *args, *two, "--resume")
    assert again.exit_code == 0, again.output
    assert "0 of 8 units to run" in again.output
    junit = tmp_path / "junit.xml"
    report = cli(
        server, "report", str(run_dir), "--markdown", str(tmp_path / "r.md"), "--junit", str(junit)
    )
    assert report.exit_code == 0, report.output
    assert "### Customers" in (tmp_path / "r.md").read_text()
    names = [c.get("name") for c in ElementTree.parse(junit).iter("testcase")]
    assert len(names) == len(set(names)) == 8  # each Customer's case named apart
    assert "mock-duplicate-refund/oracle/1/openai:cust" in names


def test_compare_says_it_cannot_pair_a_run_of_several_customers_without_one_named(
    server: MockLLMServer, tmp_path: Path
) -> None:
    two = ("--customer", "scripted", "--customer", "openai:cust")
    _, a = run(server, tmp_path / "runs", "a", "--agent", "oracle", *two)
    _, b = run(server, tmp_path / "runs", "b", "--agent", "oracle", "--customer", "scripted")
    refused = cli(server, "compare", str(a), str(b))
    assert refused.exit_code == 2
    assert "played several Customers (scripted, openai:cust)" in refused.output
    under = cli(server, "compare", str(a), str(b), "--customer", "scripted", "--json", "-")
    assert under.exit_code == 0, under.output
    document = orjson.loads(under.stdout[under.stdout.index("{") :])
    assert document["setup"]["comparable"]
    assert document["customer"] == "scripted"  # which Customer the numbers are under
    page = tmp_path / "cmp.html"
    shown = cli(server, "compare", str(a), str(b), str(page), "--customer", "scripted", "--html")
    assert shown.exit_code == 0, shown.output
    [title] = [line for line in shown.output.splitlines() if line.startswith("A = ")]
    assert title.endswith("under Customer scripted")
    header = page.read_text()
    assert "under Customer scripted" in header[: header.index("</header>")]
    other = cli(server, "compare", str(a), str(b), "--customer", "openai:cust")
    assert other.exit_code == 2 and "did not play it" in other.output


def test_runs_with_different_customers_are_compared_only_with_that_said(
    server: MockLLMServer, tmp_path: Path
) -> None:
    _, a = run(server, tmp_path / "runs", "a", "--agent", "oracle", "--customer", "scripted")
    _, b = run(server, tmp_path / "runs", "b", "--agent", "oracle", "--customer", "openai:cust")
    shown = cli(server, "compare", str(a), str(b), "--fail-on-regression", "strict")
    assert shown.exit_code == 2  # a gate refuses a different Customer
    assert "Customer" in shown.output and "openai:cust" in shown.output


def test_the_seed_goes_to_an_openai_customer_the_same_for_every_agent(
    server: MockLLMServer, tmp_path: Path
) -> None:
    result, run_dir = run(
        server,
        tmp_path / "runs",
        "seeded",
        "--agent",
        "a1=openai:ag",
        "--agent",
        "a2=openai:ag",
        "--customer",
        "openai:cust",
        "--trials",
        "2",
        "--customer-seed",
        "7",
    )
    assert result.exit_code == 0, result.output
    records = list(iter_records(run_dir))
    for r in records:
        assert r.customer_seed == customer_seed(7, r.scenario_id, "tester", r.trial)
    by_trial = {t: {r.customer_seed for r in records if r.trial == t} for t in (1, 2)}
    assert all(len(seeds) == 1 for seeds in by_trial.values())  # same for both Agents
    assert by_trial[1] != by_trial[2]
    sent = {r.body.get("seed") for r in server.requests(model="cust")}
    assert sent == by_trial[1] | by_trial[2]
    assert all("seed" not in r.body for r in server.requests(model="ag"))  # Agents: none


def test_an_anthropic_customer_is_sent_no_seed_and_the_record_says_so(
    server: MockLLMServer, tmp_path: Path
) -> None:
    result, run_dir = run(
        server, tmp_path / "runs", "anth", "--agent", "oracle", "--customer", "anthropic:cust"
    )
    assert result.exit_code == 0, result.output
    requests = server.requests(model="cust", api="anthropic")
    assert requests and all("seed" not in r.body for r in requests)
    assert [r.customer_seed for r in iter_records(run_dir)] == [None]


def test_replay_reuses_every_reply_for_an_unchanged_agent_and_calls_the_model_from_a_change(
    server: MockLLMServer, tmp_path: Path
) -> None:
    out = tmp_path / "runs"
    base = ("--customer", "openai:cust")
    result, stored = run(server, out, "stored", "--agent", "ag=openai:ag", *base)
    assert result.exit_code == 0, result.output
    [original] = iter_records(stored)
    customer_messages = [m for m in original.messages if m.role == "customer"]
    assert len(customer_messages) == 2  # the opening and one reply, then the end

    before = len(server.requests(model="cust"))
    replay = ("--replay-customer", str(stored))
    result, same = run(server, out, "same", "--agent", "ag=openai:ag", *base, *replay)
    assert result.exit_code == 0, result.output
    assert "1 of 1 units with a model Customer have a stored conversation" in result.output
    assert len(server.requests(model="cust")) == before  # no Customer model call at all
    [again] = iter_records(same)
    assert again.customer_replay is not None
    assert again.customer_replay.replayed == 3  # opening, reply, end
    assert again.customer_replay.diverged_turn is None
    assert [m.content for m in again.messages if m.role == "customer"] == [
        m.content for m in customer_messages
    ]
    assert again.end_reason == original.end_reason

    server.default("ag2", changed_agent)
    result, changed = run(server, out, "changed", "--agent", "ag=openai:ag2", *base, *replay)
    assert result.exit_code == 0, result.output
    [diverged] = iter_records(changed)
    assert diverged.customer_replay is not None
    # turns 1 and 2 follow the stored conversation; the Agent's second reply differs, so
    # the Customer's turn-3 reply is the first one asked of the model
    assert diverged.customer_replay.replayed == 2
    assert diverged.customer_replay.diverged_turn == 3
    asked = server.requests(model="cust")[before:]
    assert asked and all(CHANGED in r.text for r in asked)


def test_a_stored_run_that_cannot_be_read_is_bad_input(
    server: MockLLMServer, tmp_path: Path
) -> None:
    out = tmp_path / "runs"
    _, stored = run(server, out, "stored", "--agent", "oracle", "--customer", "openai:cust")
    lines = (stored / "conversations.jsonl").read_bytes()
    (stored / "conversations.jsonl").write_bytes(b"{not json\n" + lines)
    result, new = run(
        server, out, "new", "--agent", "oracle", "--customer", "openai:cust",
        "--replay-customer", str(stored),
    )  # fmt: skip
    assert result.exit_code == 2
    assert "conversations.jsonl" in result.output and "line 1" in result.output
    assert not new.exists()  # nothing half-written
    missing, _ = run(
        server, out, "new2", "--agent", "oracle", "--replay-customer", str(tmp_path / "nope")
    )
    assert missing.exit_code == 2 and "nope" in missing.output


def test_a_unit_missing_from_the_stored_run_is_simply_not_replayed(
    server: MockLLMServer, tmp_path: Path
) -> None:
    out = tmp_path / "runs"
    _, stored = run(server, out, "stored", "--agent", "oracle", "--customer", "openai:cust")
    result, new = run(
        server, out, "new", "--agent", "other=openai:ag", "--customer", "openai:cust",
        "--replay-customer", str(stored),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    [record] = iter_records(new)
    assert record.customer_replay is None and record.status == "completed"
    assert "0 of 1 units with a model Customer have a stored conversation" in result.output


def test_a_run_from_before_seeds_resumes_and_a_changed_seed_setting_refuses(
    server: MockLLMServer, tmp_path: Path
) -> None:
    out = tmp_path / "runs"
    _, run_dir = run(server, out, "old", "--agent", "oracle", "--customer", "openai:cust")
    manifest = orjson.loads((run_dir / "run.json").read_bytes())
    for key in ("customer_seed", "replay_customer"):  # as a run.json written before them
        del manifest["config"][key]
    (run_dir / "run.json").write_bytes(orjson.dumps(manifest))
    (run_dir / "conversations.jsonl").write_bytes(b"")  # its unit is run again on resume
    again, _ = run(server, out, "old", "--agent", "oracle", "--customer", "openai:cust", "--resume")
    assert again.exit_code == 0, again.output
    # it ran before seeds: it goes on as it ran, sending none (not the default setting 0)
    [record] = iter_records(run_dir)
    assert record.customer_seed is None
    assert all("seed" not in r.body for r in server.requests(model="cust")[-1:])
    changed, _ = run(
        server, out, "old", "--agent", "oracle", "--customer", "openai:cust", "--resume",
        "--customer-seed", "5",
    )  # fmt: skip
    assert changed.exit_code == 2 and "customer_seed" in changed.output


def copied_inputs(tmp_path: Path) -> tuple[Path, Path]:
    scenario = tmp_path / "scenarios" / "refund.yaml"
    scenario.parent.mkdir()
    scenario.write_bytes(SCENARIO.read_bytes())
    personas = tmp_path / "personas"
    personas.mkdir()
    for p in PERSONAS.iterdir():
        (personas / p.name).write_bytes(p.read_bytes())
    return scenario, personas


def run_on(
    server: MockLLMServer, inputs: tuple[Path, Path], out: Path, run_id: str, *extra: str
) -> tuple[Any, Path]:
    scenario, personas = inputs
    result = cli(
        server, "run", "--scenarios", str(scenario), "--personas", str(personas),
        "--out", str(out), "--run-id", run_id, "--workers", "1",
        "--statement-judge", "none", "--agent", "ag=openai:ag", "--customer", "openai:cust",
        *extra,
    )  # fmt: skip
    return result, out / run_id


@pytest.mark.parametrize("change", ["scenario", "persona"])
def test_a_unit_whose_scenario_or_persona_changed_is_not_replayed_and_run_says_so(
    server: MockLLMServer, tmp_path: Path, change: str
) -> None:
    out = tmp_path / "runs"
    inputs = copied_inputs(tmp_path)
    _, stored = run_on(server, inputs, out, "stored")
    before = len(server.requests(model="cust"))
    if change == "scenario":  # a new opening: a stored reply would answer another talk
        path = inputs[0]
        path.write_text(path.read_text().replace("charged twice for March", "billed twice"))
    else:
        path = inputs[1] / "tester.yaml"
        path.write_text(path.read_text().replace("tone: calm", "tone: impatient"))
    result, new = run_on(server, inputs, out, "new", "--replay-customer", str(stored))
    assert result.exit_code == 0, result.output
    assert "0 of 1 units" in result.output
    assert "1 not replayed: their scenario or persona changed" in result.output
    [record] = iter_records(new)
    assert record.customer_replay is None
    assert len(server.requests(model="cust")) > before  # the model played the Customer


def test_a_relative_replay_path_is_stored_absolute(
    server: MockLLMServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    base = ("--agent", "ag=openai:ag", "--customer", "openai:cust")
    first, _ = run(server, Path("runs"), "stored", *base)
    assert first.exit_code == 0, first.output
    result, new = run(server, Path("runs"), "new", *base, "--replay-customer", "runs/stored")
    assert result.exit_code == 0, result.output
    absolute = str(tmp_path / "runs" / "stored")
    assert orjson.loads((new / "run.json").read_bytes())["config"]["replay_customer"] == absolute
    [record] = iter_records(new)
    assert record.customer_replay is not None and record.customer_replay.source == absolute


def test_a_resume_naming_the_same_customers_in_another_order_is_the_same_run(
    server: MockLLMServer, tmp_path: Path
) -> None:
    out = tmp_path / "runs"
    two = ("--customer", "scripted", "--customer", "openai:cust")
    first, run_dir = run(server, out, "r", "--agent", "oracle", *two)
    assert first.exit_code == 0, first.output
    swapped = ("--customer", "openai:cust", "--customer", "scripted")
    again, _ = run(server, out, "r", "--agent", "oracle", *swapped, "--resume")
    assert again.exit_code == 0, again.output  # the same units: order names none of them
    assert "0 of 2 units to run" in again.output
    # the run keeps its order: the report's Customers (and which is A) do not move
    assert read_json(run_dir / "summary.json")["customers"]["customers"] == [
        "scripted",
        "openai:cust",
    ]
    other, _ = run(server, out, "r", "--agent", "oracle", "--customer", "openai:cust", "--resume")
    assert other.exit_code == 2  # another set of Customers is a change
