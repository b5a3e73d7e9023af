"""``rescore``: a stored run scored again with fixed scenarios, no model call.

The frozen run ``tests/fixtures/runs/rescore`` (see its README) was made with
``scenarios_v1``; ``scenarios_v2`` fixes one check that failed a valid statement ("$10")
and adds one that catches a leak v1 let through. Every test works on a copy of it.
"""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path

import jsonschema
import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

from supportsim.cli import app
from supportsim.conversation import LLMCall, Message, Transcript
from supportsim.domains import Domain, DomainCatalogue, mock
from supportsim.environment import CallRecord
from supportsim.errors import InputError
from supportsim.llm import ToolCall
from supportsim.report import load_run, summarise_run
from supportsim.rescore import Flip, default_scenario_paths, rescore_run, transcript_from_record
from supportsim.rescore._run import flips
from supportsim.scenario import Fault, Scenario, load_personas, load_scenarios
from supportsim.scoring import Score, oracle_run, reference_state, score
from supportsim.store import (
    CONVERSATIONS,
    RESCORED,
    CheckRecord,
    ConversationRecord,
    RescoredRecord,
    RunLock,
    apply_rescored,
    build_record,
    read_rescored,
    write_rescored,
)

ROOT = Path(__file__).parents[2]
FROZEN = ROOT / "tests" / "fixtures" / "runs" / "rescore"
V1, V2 = FROZEN / "scenarios_v1", FROZEN / "scenarios_v2"
PERSONAS = ROOT / "tests" / "fixtures" / "personas"
AT = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
AT_ISO = "2026-01-02T03:04:05+00:00"
REFUND, LIST, EMAIL = "rescore-refund-amount", "rescore-charge-list", "rescore-email-change"


def unit(scenario: str, trial: int) -> str:
    return f"{scenario}|oracle|{trial}"


def domains() -> dict[str, Domain]:
    return {"mock": mock.domain()}


def scenarios(*paths: Path) -> dict[str, Scenario]:
    loaded = load_scenarios(
        list(paths),
        catalogue=DomainCatalogue(domains()),
        personas=load_personas([PERSONAS]),
    )
    return {s.id: s for s in loaded}


def cli(*args: str | Path) -> Result:
    return CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": "220"})


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    """A writable copy of the frozen run (its two files only)."""
    target = tmp_path / "rescore"
    target.mkdir()
    for name in ("run.json", CONVERSATIONS):
        shutil.copy(FROZEN / name, target / name)
    return target


# ---- the frozen run, rescored with the fixed scenarios ---------------------------------


async def test_fixed_scenarios_flip_verdicts_both_ways(run_dir: Path) -> None:
    before = (run_dir / CONVERSATIONS).read_bytes()
    result = await rescore_run(run_dir, scenarios(V2), domains(), now=AT)

    assert result.rescored == 4
    assert result.carried == 1
    assert result.verdicts_changed == 3
    assert result.rescored_at == AT_ISO
    changes = {c.unit_id: c for c in result.changed}
    assert set(changes) == {unit(REFUND, 1), unit(REFUND, 2), unit(LIST, 1)}
    for trial in (1, 2):
        fixed = changes[unit(REFUND, trial)]
        assert (fixed.old_strict, fixed.new_strict) == (False, True)
        assert (fixed.old_partial, fixed.new_partial) == (pytest.approx(0.8), 1.0)
        assert fixed.flipped == (Flip("step:tell", False, True),)
    caught = changes[unit(LIST, 1)]
    assert (caught.old_strict, caught.new_strict) == (True, False)
    assert caught.new_partial < 1.0
    assert Flip("forbidden:leak-note", None, False) in caught.flipped
    assert [(n.unit_id, n.reason) for n in result.not_rescorable] == [
        (unit(EMAIL, 2), "recorded before records kept the call log and final state")
    ]
    assert (run_dir / CONVERSATIONS).read_bytes() == before


async def test_rescored_lines_validate_and_say_what_happened(run_dir: Path) -> None:
    await rescore_run(run_dir, scenarios(V2), domains(), now=AT)
    schema = RescoredRecord.model_json_schema()
    raw = (run_dir / RESCORED).read_bytes().splitlines()
    assert len(raw) == 6
    for line in raw:
        jsonschema.validate(orjson.loads(line), schema)
    lines = {line.unit_id: line for line in read_rescored(run_dir)}
    assert {u: line.disposition for u, line in lines.items()} == {
        unit(LIST, 1): "rescored",
        unit(EMAIL, 1): "rescored",
        unit(REFUND, 1): "rescored",
        unit(LIST, 2): "carried",
        unit(EMAIL, 2): "not_rescorable",
        unit(REFUND, 2): "rescored",
    }
    v2 = scenarios(V2)
    fixed = lines[unit(REFUND, 1)]
    assert fixed.schema_version == 2  # strict and partial null on carried lines
    assert fixed.rescored_at == AT_ISO
    assert fixed.scenario_sha256 == v2[REFUND].sha256
    assert (fixed.strict, fixed.partial) == (True, 1.0)
    assert fixed.previous.strict is False and fixed.previous.failed == ["step:tell"]
    assert [c.id for c in fixed.checks] == [
        "step:verify",
        "step:refund",
        "step:tell",
        "outcome",
        "state",
    ]
    carried = lines[unit(LIST, 2)]
    assert carried.reason.startswith("harness_error")
    assert (carried.strict, carried.partial, carried.checks) == (None, None, [])
    stale = lines[unit(EMAIL, 2)]
    stored = {r["unit_id"]: r for r in map(json.loads, (FROZEN / CONVERSATIONS).open())}
    assert stale.scenario_sha256 == stored[unit(EMAIL, 2)]["scenario_sha256"]
    assert stale.strict is True and "call log" in stale.reason


async def test_scenario_no_longer_in_the_set_is_listed(run_dir: Path) -> None:
    result = await rescore_run(run_dir, scenarios(V2 / "refund_amount.yaml"), domains())
    assert result.rescored == 2
    reasons = {n.unit_id: n.reason for n in result.not_rescorable}
    assert reasons[unit(LIST, 1)] == f"scenario {LIST!r} is not in the scenario set"
    assert reasons[unit(EMAIL, 1)] == f"scenario {EMAIL!r} is not in the scenario set"
    assert unit(LIST, 2) not in reasons  # not completed: carried, not a failure to rescore
    assert len(reasons) == 3


async def test_a_scenario_moved_to_another_domain_or_an_unknown_one_is_listed(
    run_dir: Path,
) -> None:
    path = run_dir / CONVERSATIONS
    lines = path.read_bytes().splitlines()
    lines[0] = lines[0].replace(b'"domain": "mock"', b'"domain": "retail"')
    path.write_bytes(b"\n".join(lines) + b"\n")
    result = await rescore_run(run_dir, scenarios(V2), domains())
    reasons = {n.unit_id: n.reason for n in result.not_rescorable}
    assert reasons[unit(LIST, 1)] == "the scenario now uses domain 'mock'; the run used 'retail'"
    assert result.rescored == 3
    result = await rescore_run(run_dir, scenarios(V2), {})
    assert result.rescored == 0
    assert {n.reason for n in result.not_rescorable} >= {"unknown domain 'mock'"}


async def test_a_damaged_line_is_bad_input_naming_file_and_line(run_dir: Path) -> None:
    """rescore reads lines as report and export do: a damaged line stops it (exit 2 at the
    cli) before anything is written, instead of rescoring 59 of 60 units and exiting 0."""
    with (run_dir / CONVERSATIONS).open("ab") as f:
        f.write(b'{"unit_id": "broken"}\n')
    with pytest.raises(InputError, match=rf"{CONVERSATIONS}:7: damaged line"):
        await rescore_run(run_dir, scenarios(V2), domains())
    assert not (run_dir / RESCORED).exists()


async def test_a_torn_last_line_ends_the_file_as_for_every_reader(run_dir: Path) -> None:
    with (run_dir / CONVERSATIONS).open("ab") as f:
        f.write(b'{"torn')
    result = await rescore_run(run_dir, scenarios(V2), domains())
    assert result.rescored == 4 and result.carried == 1
    assert [n.unit_id for n in result.not_rescorable] == [unit(EMAIL, 2)]


async def test_a_run_being_written_is_refused(run_dir: Path) -> None:
    lock = RunLock(run_dir)
    try:
        with pytest.raises(InputError, match="being written by another supportsim session"):
            await rescore_run(run_dir, scenarios(V2), domains())
    finally:
        lock.release()
    assert not (run_dir / RESCORED).exists()
    await rescore_run(run_dir, scenarios(V2), domains())  # released: accepted
    assert (run_dir / RESCORED).exists()


async def test_not_a_run_directory(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such directory"):
        await rescore_run(tmp_path / "missing", {}, domains())
    with pytest.raises(InputError, match=f"no {CONVERSATIONS}"):
        await rescore_run(tmp_path, {}, domains())


def test_a_failed_write_leaves_the_previous_file(tmp_path: Path) -> None:
    good = RescoredRecord(
        unit_id="u",
        scenario_id="s",
        scenario_sha256="",
        disposition="rescored",
        strict=True,
        partial=1.0,
        checks=[],
        previous={"strict": False, "partial": 0.5},  # type: ignore[arg-type]
        record_started_at="a",
        record_ended_at="b",
        rescored_at=AT_ISO,
    )
    write_rescored(tmp_path, [good])
    before = (tmp_path / RESCORED).read_bytes()

    def crashing():
        yield good
        raise RuntimeError("killed mid-write")

    with pytest.raises(RuntimeError):
        write_rescored(tmp_path, crashing())
    assert (tmp_path / RESCORED).read_bytes() == before


# ---- flips ------------------------------------------------------------------------------


def _checks(**passed: bool) -> list[CheckRecord]:
    return [CheckRecord(id=k, kind="step", passed=v, reason="") for k, v in passed.items()]


def test_flips_count_changed_and_failing_checks_only() -> None:
    old = _checks(a=True, b=False, gone_failing=False, gone_passing=True)
    new = _checks(a=False, b=False, new_failing=False, new_passing=True)
    assert flips(old, new) == (
        Flip("a", True, False),
        Flip("new_failing", None, False),
        Flip("gone_failing", False, None),
    )
    assert flips(old, old) == ()


# ---- the report -------------------------------------------------------------------------


async def test_report_uses_the_rescored_verdicts(run_dir: Path) -> None:
    assert summarise_run(load_run(run_dir)).agents["oracle"].strict_rate == 0.6
    await rescore_run(run_dir, scenarios(V2), domains(), now=AT)
    run = load_run(run_dir)
    summary = summarise_run(run).document()
    # completed units: refund 1 and 2 now pass, charge-list 1 now fails, e-mail 1 and 2 pass
    assert summary["agents"]["oracle"]["strict_rate"] == 0.8
    assert summary["rescored"] == {"at": AT_ISO, "units": 4}
    by_unit = {r.unit_id: r for r in run.records}
    assert by_unit[unit(LIST, 1)].strict is False
    assert "forbidden:leak-note" in [c.id for c in by_unit[unit(LIST, 1)].checks]

    shown = cli("report", run_dir, "--json", "--html")
    assert shown.exit_code == 0, shown.output
    assert f"verdicts rescored at {AT_ISO} (4 units)" in shown.output
    written = json.loads((run_dir / "summary.json").read_text())
    assert written["rescored"] == {"at": AT_ISO, "units": 4}
    assert written["agents"]["oracle"]["strict_rate"] == 0.8
    html = (run_dir / "report.html").read_text(encoding="utf-8")
    assert f"verdicts rescored at {AT_ISO} (4 units)" in html


def test_a_report_without_rescore_says_nothing_of_it(run_dir: Path) -> None:
    shown = cli("report", run_dir)
    assert shown.exit_code == 0, shown.output
    assert "rescored" not in shown.output
    assert summarise_run(load_run(run_dir)).rescored is None


async def test_a_verdict_applies_only_to_the_record_it_was_made_from(run_dir: Path) -> None:
    await rescore_run(run_dir, scenarios(V2), domains(), now=AT)
    records = list(
        {
            r.unit_id: r
            for r in map(
                ConversationRecord.model_validate_json,
                (run_dir / CONVERSATIONS).read_bytes().splitlines(),
            )
        }.values()
    )
    lines = read_rescored(run_dir)
    applied = apply_rescored(records, lines)
    assert applied.units == 4
    assert applied.rescored_at == AT_ISO
    # a later record of the unit (a resumed run) keeps its own verdict
    newer = [
        r.model_copy(update={"ended_at": "2027-01-01T00:00:00+00:00"})
        if r.unit_id == unit(REFUND, 1)
        else r
        for r in records
    ]
    applied = apply_rescored(newer, lines)
    assert applied.units == 3
    assert {r.unit_id: r.strict for r in applied.records}[unit(REFUND, 1)] is False


async def test_a_damaged_rescored_file_is_bad_input(run_dir: Path) -> None:
    await rescore_run(run_dir, scenarios(V2), domains())
    with (run_dir / RESCORED).open("ab") as f:
        f.write(b'{"unit_id": 3}\n')
    shown = cli("report", run_dir)
    assert shown.exit_code == 2
    assert f"{run_dir / RESCORED}:7" in shown.output


# ---- the command ------------------------------------------------------------------------


def test_cli_rescore_prints_the_changes(run_dir: Path) -> None:
    shown = cli("rescore", run_dir, "--scenarios", V2, "--personas", PERSONAS)
    assert shown.exit_code == 0, shown.output
    out = shown.output
    assert "4 rescored, 3 verdicts changed" in out
    assert "1 carried (not completed), 1 not rescorable" in out
    assert f"│ {unit(REFUND, 1)} " in out and "0 -> 1" in out and "0.80 -> 1.00" in out
    assert "step:tell fail->pass" in out
    assert "1 -> 0" in out and "forbidden:leak-note absent->fail" in out
    assert f"not rescorable: {unit(EMAIL, 2)}: recorded before" in out
    assert (run_dir / RESCORED).exists()


def test_cli_rescore_defaults_to_the_files_the_run_used(
    run_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)  # run.json names the files relative to where the run started
    shown = cli("rescore", run_dir)
    assert shown.exit_code == 0, shown.output
    assert "tests/fixtures/runs/rescore/scenarios_v1/charge_list.yaml" in shown.output
    assert "(3 loaded)" in shown.output


def test_default_scenario_paths_fall_back(tmp_path: Path) -> None:
    files = {"a": str(V1 / "charge_list.yaml"), "b": str(tmp_path / "gone.yaml")}
    assert default_scenario_paths({"scenario_files": files}) == [V1 / "charge_list.yaml"]
    gone = {"scenario_files": {"b": str(tmp_path / "gone.yaml")}}
    configured = {**gone, "config": {"scenarios": [str(V2), str(tmp_path / "nope")]}}
    assert default_scenario_paths(configured) == [V2]
    assert default_scenario_paths(gone) == [Path("scenarios")]


def test_cli_rescore_bad_input_exits_2_and_writes_nothing(run_dir: Path, tmp_path: Path) -> None:
    shown = cli("rescore", tmp_path / "missing", "--scenarios", V2, "--personas", PERSONAS)
    assert shown.exit_code == 2
    assert f"{tmp_path / 'missing'}: not a run directory" in shown.output

    broken = tmp_path / "broken.yaml"
    broken.write_text("id: x\nworkflow: [\n", encoding="utf-8")
    shown = cli("rescore", run_dir, "--scenarios", broken, "--personas", PERSONAS)
    assert shown.exit_code == 2
    assert str(broken) in shown.output

    shown = cli("rescore", run_dir, "--scenarios", tmp_path / "none", "--personas", PERSONAS)
    assert shown.exit_code == 2
    assert f"{tmp_path / 'none'}" in shown.output

    shown = cli("rescore", run_dir, "--scenarios", V2, "--personas", tmp_path / "nobody")
    assert shown.exit_code == 2
    assert f"{tmp_path / 'nobody'}: no such persona folder" in shown.output

    (run_dir / "run.json").write_text("{not json", encoding="utf-8")
    shown = cli("rescore", run_dir, "--personas", PERSONAS)
    assert shown.exit_code == 2
    assert f"{run_dir / 'run.json'}: cannot read the run manifest" in shown.output
    assert not (run_dir / RESCORED).exists()


# ---- round trips: a record scores exactly as its conversation did -----------------------


def test_a_fresh_oracle_run_rescored_with_its_scenarios_changes_nothing(tmp_path: Path) -> None:
    ran = cli(
        "run",
        "--scenarios",
        V2,
        "--agent",
        "oracle",
        "--customer",
        "scripted",
        "--trials",
        "2",
        "--personas",
        PERSONAS,
        "--run-id",
        "fresh",
        "--out",
        tmp_path,
    )
    assert ran.exit_code == 0, ran.output
    fresh = tmp_path / "fresh"
    shown = cli("rescore", fresh, "--scenarios", V2, "--personas", PERSONAS)
    assert shown.exit_code == 0, shown.output
    assert "6 rescored, 0 verdicts changed (0 units changed in any check)" in shown.output
    stored = {
        r.unit_id: r
        for r in map(
            ConversationRecord.model_validate_json,
            (fresh / CONVERSATIONS).read_bytes().splitlines(),
        )
    }
    for line in read_rescored(fresh):
        assert line.disposition == "rescored"
        assert line.checks == stored[line.unit_id].checks  # reasons included
        assert line.strict is True


def _stored(scenario: Scenario, transcript: Transcript, score: Score) -> ConversationRecord:
    """The record as a reader gets it back from conversations.jsonl."""
    record = build_record(
        unit_id="u|oracle|1",
        scenario=scenario,
        agent="oracle",
        customer="scripted",
        trial=1,
        transcript=transcript,
        score=score,
        started_at="s",
        ended_at="e",
        duration_s=0.0,
    )
    return ConversationRecord.model_validate_json(record.model_dump_json())


@pytest.mark.parametrize(
    "faults",
    [
        [],
        [Fault(tool="list_charges", fault="partial")],
        [Fault(tool="list_charges", fault="stale")],
        [Fault(tool="verify_identity", fault="server_error")],
    ],
    ids=["plain", "partial", "stale", "server_error"],
)
async def test_a_stored_record_scores_as_its_conversation_did(faults: list[Fault]) -> None:
    scenario = scenarios(V2)[LIST].model_copy(update={"faults": faults})
    transcript, original = await oracle_run(mock.domain(), scenario)
    record = _stored(scenario, transcript, original)
    rebuilt = transcript_from_record(record)
    assert [m.content for m in rebuilt.messages] == [m.content for m in transcript.messages]
    assert [(c.name, c.ok, c.fault, c.kind, c.result, c.error) for c in rebuilt.calls] == [
        (c.name, c.ok, c.fault, c.kind, c.result, c.error) for c in transcript.calls
    ]
    assert [c.tool_ms for c in rebuilt.calls] == pytest.approx(
        [c.tool_ms for c in transcript.calls]
    )
    reference = await reference_state(mock.domain(), scenario)
    assert score(scenario, mock.domain(), rebuilt, reference) == original
    if faults and faults[0].fault == "server_error":
        assert record.calls is not None and record.calls[0].ok is False
        assert record.calls[0].fault == "server_error"


def test_an_old_record_cannot_be_rebuilt() -> None:
    stored = [json.loads(line) for line in (FROZEN / CONVERSATIONS).open()]
    old = ConversationRecord.model_validate(stored[4])
    assert old.calls is None and old.final_state is None
    with pytest.raises(ValueError, match="no call log"):
        transcript_from_record(old)
    new = ConversationRecord.model_validate(stored[0])
    assert new.calls is not None and len(new.calls) == 2
    assert transcript_from_record(new).calls[1].name == "list_charges"


ODD = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(content=ODD, key=ODD, value=ODD)
def test_odd_model_text_survives_the_record(content: str, key: str, value: str) -> None:
    """Control characters, U+2028, emoji, RTL marks, NUL: written and read back intact."""
    raw = orjson.dumps({key: value}).decode()
    transcript = Transcript(
        messages=[
            Message("customer", content, turn=1),
            Message("agent", "", (ToolCall("c1", "get_customer", raw),), turn=1),
            Message("tool", value, tool_call_id="c1", name="get_customer", turn=1),
            Message("agent", content, turn=1, response_ms=1.0),
        ],
        calls=[
            CallRecord(
                0,
                "c1",
                "get_customer",
                raw,
                {key: value},
                True,
                {key: [value, 1.5]},
                None,
                None,
                "read",
                0.0,
                0.001,
            )
        ],
        final_state={"note": value, "nested": {key: value}},
        termination="customer_done",
        llm_calls=[LLMCall("agent", "m", 1.0, None, None, None, None)],
    )
    scenario = scenarios(V2)[LIST]
    record = build_record(
        unit_id="odd|a|1",
        scenario=scenario,
        agent="a",
        customer="scripted",
        trial=1,
        transcript=transcript,
        score=None,
        started_at="s",
        ended_at="e",
        duration_s=0.0,
    )
    line = record.__pydantic_serializer__.to_json(record)
    assert b"\n" not in line
    rebuilt = transcript_from_record(ConversationRecord.model_validate_json(line))
    assert [m.content for m in rebuilt.messages] == [m.content for m in transcript.messages]
    assert rebuilt.messages[1].tool_calls[0].arguments == raw
    (call,) = rebuilt.calls
    assert (call.raw_arguments, call.arguments, call.result) == (
        raw,
        {key: value},
        {key: [value, 1.5]},
    )
    assert rebuilt.final_state == {"note": value, "nested": {key: value}}


def test_a_run_on_the_bundled_library_rescores_from_the_same_empty_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder with no scenarios/ or personas/ of its own runs the bundled library; the
    run.json then names ``personas`` relative, and rescore must find the bundled ones too
    (it said "unknown persona", exit 2)."""
    monkeypatch.chdir(tmp_path)
    ran = cli("run", "--scenarios", "scenarios/telecom", "--agent", "oracle", "--run-id", "b")
    assert ran.exit_code == 0, ran.output
    shown = cli("rescore", Path("runs") / "b")
    assert shown.exit_code == 0, shown.output
    assert "0 verdicts changed" in shown.output
