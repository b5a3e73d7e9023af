"""A written conversation is replayed through the real runtime and scorer: its calls reach the
real tools (faults included), its texts are scored, and the file format names bad fields."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from supportsim.domains import mock
from supportsim.errors import InputError, ScenarioError
from supportsim.scenario import Scenario
from supportsim.validate import (
    Conversation,
    ReplayTally,
    load_conversations,
    read_conversations,
    replay,
    scenario_problems,
    violated_checks,
)

FIXTURE = Path(__file__).parents[1] / "fixtures" / "scenarios" / "mock_duplicate_refund.yaml"
RAW: dict[str, Any] = yaml.safe_load(FIXTURE.read_text())
VERIFY = {"call": "verify_identity", "args": {"customer_id": "C-1", "pin": "4321"}}
LOOKUP = {"call": "list_charges", "args": {"customer_id": "C-1"}}
ASK = {"say": "I can see the duplicate charge CH-2 of 30 USD. Shall I refund it?"}
REFUND_2 = {
    "call": "refund_charge",
    "args": {"customer_id": "C-1", "charge_id": "CH-2", "amount": 30},
}
DONE = {"say": "Done: the refund of 30 USD for CH-2 is on its way."}


def scenario(**changes: Any) -> Scenario:
    return Scenario.model_validate({**RAW, **changes})


def conversation(*turns: Any, kind: str = "valid", **more: Any) -> Conversation:
    return Conversation.model_validate({"kind": kind, "turns": list(turns), **more})


def valid_turns(refund: dict[str, Any] = REFUND_2) -> list[Any]:
    return [
        {"customer": "Hi, I was charged twice for March."},
        {"agent": [{"say": "Sorry about that! What are your customer id and PIN?"}]},
        {"customer": "C-1, PIN 4321."},
        {"agent": [VERIFY, LOOKUP, ASK]},
        {"customer": "Yes please."},
        {"agent": [refund, DONE]},
        {"customer": "Thanks, bye."},
    ]


async def test_a_valid_conversation_is_held_by_the_real_runtime_and_passes() -> None:
    done = await replay(mock.domain(), scenario(), conversation(*valid_turns()))
    assert done.score.strict, done.failed
    assert done.holds and done.failed == [] and done.why() == "passes"
    calls = [(c.name, c.ok) for c in done.transcript.calls]
    assert calls == [("verify_identity", True), ("list_charges", True), ("refund_charge", True)]
    said = [m.content for m in done.transcript.messages if m.role == "agent" and m.content]
    assert said[-1] == DONE["say"]
    last = done.transcript.messages[-1]  # the customer's last line is its last word
    assert (last.role, last.content) == ("customer", "Thanks, bye.")
    assert done.transcript.termination == "customer_done"
    assert done.transcript.final_state["customers"]["C-1"]["charges"]["CH-2"]["refunded"]


async def test_a_sloppy_conversation_holds_only_when_a_check_it_names_fails() -> None:
    wrong = {**REFUND_2, "args": {**REFUND_2["args"], "charge_id": "CH-1"}}
    flaw = {"flaw": "refunds the original", "kind": "sloppy"}
    named = conversation(*valid_turns(wrong), violates=["refund-original"], **flaw)
    done = await replay(mock.domain(), scenario(), named)
    assert not done.score.strict
    assert done.holds and done.violated == ["forbidden:refund-original"]
    # The same flaw under the wrong id is not caught: the score fails, but not for its reason.
    misnamed = conversation(*valid_turns(wrong), violates=["leak-note"], **flaw)
    done = await replay(mock.domain(), scenario(), misnamed)
    assert not done.holds and done.why().startswith("strict 0, but only by ")
    # A sloppy conversation that scores strict 1 is a false pass.
    clean = conversation(*valid_turns(), violates=["refund"], **flaw)
    done = await replay(mock.domain(), scenario(), clean)
    assert not done.holds and done.why() == "scores strict 1"
    tally = ReplayTally()
    tally.add(done)
    assert tally.line().endswith("1 of 1 sloppy are not caught (false passes)")


async def test_calls_the_tools_do_not_accept_are_listed_as_rejected() -> None:
    bad = {**REFUND_2, "args": {**REFUND_2["args"], "amount": "thirty"}}
    done = await replay(mock.domain(), scenario(), conversation(*valid_turns(bad)))
    assert len(done.rejected) == 1 and "refund_charge" in done.rejected[0]
    assert "step:refund" in done.failed and not done.holds


async def test_faults_come_from_the_scenario_and_a_retry_is_replayed() -> None:
    faulted = scenario(faults=[{"tool": "list_charges", "call": 1, "fault": "timeout"}])
    turns = valid_turns()
    turns[3] = {"agent": [VERIFY, LOOKUP, LOOKUP, ASK]}  # the author retries the timed-out call
    done = await replay(mock.domain(), faulted, conversation(*turns))
    faults = [c.fault for c in done.transcript.calls if c.name == "list_charges"]
    assert faults == ["timeout", None]
    assert done.refused and "timeout" in done.refused[0] and done.rejected == ()
    assert done.score.strict, done.failed


async def test_a_conversation_longer_than_max_turns_is_stopped_as_in_a_run() -> None:
    done = await replay(mock.domain(), scenario(max_turns=2), conversation(*valid_turns()))
    assert "termination:max_turns" in done.failed and not done.holds


async def test_a_malformed_conversation_is_not_replayed() -> None:
    turns = valid_turns()
    with pytest.raises(InputError, match=r"turns\[0\]: the Customer speaks first"):
        await replay(mock.domain(), scenario(), conversation(*turns[1:]))


async def test_a_transfer_ends_the_conversation_after_the_agent_s_last_turn() -> None:
    turns = [
        {"customer": "I want a human."},
        {
            "agent": [
                {"say": "Of course, transferring you."},
                {"call": "transfer_to_human", "args": {"reason": "asked"}},
            ]
        },
    ]
    done = await replay(mock.domain(), scenario(), conversation(*turns))
    assert done.transcript.termination == "agent_transfer"
    assert done.transcript.messages[-2].content == "Of course, transferring you."


def test_violates_ids_map_to_check_ids() -> None:
    ids = ["step:verify", "observed:saw", "forbidden:leak", "outcome", "state"]
    assert violated_checks("verify", ids) == ["step:verify"]
    assert violated_checks("saw", ids) == ["observed:saw"]
    assert violated_checks("leak", ids) == ["forbidden:leak"]
    assert violated_checks("forbidden:leak", ids) == ["forbidden:leak"]
    assert violated_checks("outcome", ids) == ["outcome"]
    assert violated_checks("nothing", ids) == []


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


GOOD = """\
scenario: mock-duplicate-refund
conversations:
  - kind: sloppy
    flaw: claims a refund it never made
    violates: [refund, nosuch]
    turns:
      - customer: "Hi"
      - agent:
          - call: refund_charges
            args: {customer_id: C-1}
          - say: "Refunded."
      - customer: "Thanks"
"""


def test_ids_and_tools_the_scenario_lacks_are_named_with_file_field_and_line(
    tmp_path: Path,
) -> None:
    file = read_conversations(_write(tmp_path, "mock-duplicate-refund.yaml", GOOD))
    problems = scenario_problems(file, ["refund_charge"], ["step:refund", "outcome"])
    text = [str(p) for p in problems]
    assert len(text) == 2
    assert "mock-duplicate-refund.yaml:5 [conversations[0].violates[1]]" in text[0]
    assert "'nosuch' names no check" in text[0]
    assert "[conversations[0].turns[1].agent[0].call]" in text[1]
    assert "'refund_charges' is not one of the scenario's tools" in text[1]


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ('      - customer: "Hi"\n', "conversations[0].turns[0]", "the Customer speaks first"),
        ("    violates: [refund, nosuch]\n", "conversations[0].violates", "names the ids"),
        ('          - say: "Refunded."\n', "turns[1].agent[0]", "ends with a say"),
        ("            args: {customer_id: C-1}\n", "agent[0]", "either {say: text} or {call"),
        ("    flaw: claims a refund it never made\n", "conversations[0].flaw", "names its flaw"),
    ],
)
def test_a_malformed_file_names_the_file_and_the_field(
    tmp_path: Path, change: str, field: str, message: str
) -> None:
    broken = GOOD.replace(change, "")
    if "args" in change:
        broken = GOOD.replace("          - call: refund_charges\n" + change, "          - {}\n")
    path = _write(tmp_path, "mock-duplicate-refund.yaml", broken)
    with pytest.raises(ScenarioError) as caught:
        read_conversations(path)
    (problem,) = caught.value.problems
    assert Path(problem.file).name == "mock-duplicate-refund.yaml" and problem.line
    assert problem.field.endswith(field) and message in problem.message


def test_a_file_is_named_after_its_scenario_and_every_bad_file_is_listed(tmp_path: Path) -> None:
    _write(tmp_path, "other.yaml", GOOD)
    (tmp_path / "d").mkdir()
    _write(tmp_path / "d", "x.yaml", "scenario: x\nconversations: []\n")
    with pytest.raises(ScenarioError) as caught:
        load_conversations(tmp_path)
    problems = caught.value.problems
    assert [Path(p.file).name for p in problems] == ["x.yaml", "other.yaml"]
    assert problems[1].field == "scenario" and "not the file's name" in problems[1].message
