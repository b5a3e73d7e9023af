"""The tool runtime: what an Agent's calls do to the state and what they return."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import orjson
import pytest
import yaml

from supportsim.conversation import (
    AgentContext,
    AgentStep,
    ScriptedCustomer,
    run_conversation,
)
from supportsim.domains import Args, Domain, DomainState, mock, tool
from supportsim.environment import FAILURE_MESSAGES, Environment, build_mock_tool
from supportsim.errors import ToolError
from supportsim.llm import ToolCall
from supportsim.scenario import MockTool, Scenario

FIXTURE = Path(__file__).parents[1] / "fixtures" / "scenarios" / "mock_duplicate_refund.yaml"
RAW: dict[str, Any] = yaml.safe_load(FIXTURE.read_text())
VERIFY = {"customer_id": "C-1", "pin": "4321"}
C1 = {"customer_id": "C-1"}


def scenario(**changes: Any) -> Scenario:
    return Scenario.model_validate({**RAW, **changes})


class FakeTime:
    """A clock that only moves when the runtime sleeps; records every sleep."""

    def __init__(self) -> None:
        self.now = 100.0
        self.slept: list[float] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def env_for(
    sc: Scenario | None = None, domain: Domain | None = None
) -> tuple[Environment, FakeTime]:
    time = FakeTime()
    env = Environment(domain or mock.domain(), sc or scenario(), clock=time.clock, sleep=time.sleep)
    return env, time


def error_of(content: str) -> str:
    return orjson.loads(content)["error"]


# --- calls the Agent got wrong ---------------------------------------------------------------


async def test_unknown_tool_is_an_error_result_listing_the_tools() -> None:
    env, _ = env_for()
    result = await env.call("refund_everything", '{"customer_id": "C-1"}', "c1")
    assert result.is_error is True
    assert error_of(result.content) == (
        "unknown tool 'refund_everything'; tools: verify_identity, get_customer, list_charges, "
        "refund_charge, update_email, transfer_to_human, search_knowledge_base"
    )
    record = result.record
    assert (record.index, record.call_id, record.name, record.ok) == (
        0,
        "c1",
        "refund_everything",
        False,
    )
    assert record.arguments is None
    assert record.kind is None
    assert record.raw_arguments == '{"customer_id": "C-1"}'
    assert env.calls == [record]


async def test_a_tool_the_scenario_withholds_is_unknown() -> None:
    env, _ = env_for(scenario(tools=["verify_identity", "list_charges"]))
    assert [s.name for s in env.schemas()] == ["verify_identity", "list_charges"]
    result = await env.call(
        "refund_charge", {"customer_id": "C-1", "charge_id": "CH-2", "amount": 30}
    )
    assert error_of(result.content) == (
        "unknown tool 'refund_charge'; tools: verify_identity, list_charges"
    )
    assert env.snapshot() == env_for()[0].snapshot()


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (
            "{not json",
            "arguments are not valid JSON (unexpected character, expected a string key: "
            "line 1 column 2 (char 1)); send a JSON object",
        ),
        ("[1, 2]", "arguments must be a JSON object"),
        ('"C-1"', "arguments must be a JSON object"),
    ],
)
async def test_malformed_arguments_are_an_error_result(raw: str, message: str) -> None:
    env, _ = env_for()
    result = await env.call("verify_identity", raw, "c1")
    assert result.is_error is True
    assert error_of(result.content) == message
    assert result.record.ok is False
    assert result.record.arguments is None
    assert result.record.raw_arguments == raw
    assert result.record.kind == "read"
    assert env.state.session.verified_customer_id is None


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            {"customer_id": "C-1", "pin": 4321},
            "invalid arguments: pin: Input should be a valid string",
        ),
        (
            {"customer_id": "C-1", "pin": "4321", "otp": "1"},
            "invalid arguments: otp: unknown argument",
        ),
        ({"customer_id": "C-1"}, "invalid arguments: pin: Field required"),
        ({}, "invalid arguments: customer_id: Field required; pin: Field required"),
    ],
)
async def test_invalid_arguments_are_an_error_result_naming_the_field(
    args: dict[str, Any], message: str
) -> None:
    env, _ = env_for()
    result = await env.call("verify_identity", args, "c1")
    assert result.is_error is True
    assert error_of(result.content) == message
    assert result.record.ok is False
    assert result.record.error == message
    assert result.record.arguments == args
    assert env.state.session.verified_customer_id is None


async def test_empty_arguments_text_means_no_arguments() -> None:
    env, _ = env_for()
    result = await env.call("verify_identity", "", "c1")
    assert error_of(result.content) == (
        "invalid arguments: customer_id: Field required; pin: Field required"
    )
    assert result.record.arguments == {}


async def test_a_refusal_is_an_error_result_and_changes_nothing() -> None:
    env, _ = env_for()
    before = env.snapshot()
    result = await env.call(
        "refund_charge", {"customer_id": "C-1", "charge_id": "CH-2", "amount": 30}, "c1"
    )
    assert result.is_error is True
    assert error_of(result.content) == "identity not verified: call verify_identity first"
    assert (result.record.ok, result.record.kind, result.record.fault) == (False, "write", None)
    assert result.record.result is None
    assert env.snapshot() == before


async def test_a_write_tool_changes_the_state_and_returns_its_result() -> None:
    env, _ = env_for()
    await env.call("verify_identity", VERIFY, "c1")
    result = await env.call(
        "refund_charge", {"customer_id": "C-1", "charge_id": "CH-2", "amount": 30}, "c2"
    )
    assert result.is_error is False
    assert orjson.loads(result.content) == {"refunded": True, "charge_id": "CH-2", "amount": 30.0}
    charges = env.snapshot()["customers"]["C-1"]["charges"]
    assert (charges["CH-1"]["refunded"], charges["CH-2"]["refunded"]) == (False, True)
    assert env.snapshot()["session"]["verified_customer_id"] == "C-1"
    assert [(c.index, c.call_id, c.name, c.ok, c.kind) for c in env.calls] == [
        (0, "c1", "verify_identity", True, "read"),
        (1, "c2", "refund_charge", True, "write"),
    ]
    assert env.calls[1].raw_arguments == '{"customer_id":"C-1","charge_id":"CH-2","amount":30}'


async def test_a_refusal_after_a_success_keeps_the_earlier_change() -> None:
    env, _ = env_for()
    await env.call("verify_identity", VERIFY)
    await env.call("refund_charge", {"customer_id": "C-1", "charge_id": "CH-2", "amount": 30})
    after_first = env.snapshot()
    again = await env.call(
        "refund_charge", {"customer_id": "C-1", "charge_id": "CH-2", "amount": 30}
    )
    assert error_of(again.content) == "CH-2 is already refunded"
    assert env.snapshot() == after_first


async def test_each_environment_starts_from_the_scenario_state() -> None:
    sc = scenario(state={"customers": {"C-1": {"email": "old@example.com"}}})
    first, _ = env_for(sc)
    await first.call("verify_identity", VERIFY)
    await first.call("update_email", {"customer_id": "C-1", "email": "new@example.com"})
    second, _ = env_for(sc)
    assert first.snapshot()["customers"]["C-1"]["email"] == "new@example.com"
    assert second.snapshot()["customers"]["C-1"]["email"] == "old@example.com"
    assert second.snapshot()["customers"]["C-1"]["name"] == "Ada Park"


# --- a domain with a misbehaving tool --------------------------------------------------------


class CounterState(DomainState):
    count: int = 0


class AddArgs(Args):
    n: int
    """How much to add."""


@tool("write")
def add(state: CounterState, args: AddArgs) -> dict[str, int]:
    """Add n to the counter (refuses above 10, after changing it: a badly written tool)."""
    state.count += args.n
    if state.count > 10:
        raise ToolError("the counter cannot go above 10")
    return {"count": state.count}


@tool("read")
def crash(state: CounterState) -> dict[str, int]:
    """A tool with a bug."""
    raise RuntimeError("bug in the tool")


COUNTER = Domain("counter", CounterState, dict, {"add": add, "crash": crash}, "Count.")


def counter_scenario() -> Scenario:
    return scenario(domain="counter", workflow=[], forbidden=[])


async def test_a_write_tool_refusing_after_mutating_leaves_the_state_unchanged() -> None:
    env, _ = env_for(counter_scenario(), COUNTER)
    await env.call("add", {"n": 7})
    result = await env.call("add", {"n": 5})
    assert error_of(result.content) == "the counter cannot go above 10"
    assert env.snapshot()["count"] == 7


async def test_a_bug_in_a_tool_raises_instead_of_becoming_a_tool_result() -> None:
    env, _ = env_for(counter_scenario(), COUNTER)
    with pytest.raises(RuntimeError, match="bug in the tool"):
        await env.call("crash", "{}")
    assert env.calls == []


class CrashingAgent:
    name = "crashing"

    async def step(self, context: AgentContext, history: Any) -> AgentStep:
        return AgentStep(tool_calls=(ToolCall("c1", "crash", "{}"),))


async def test_a_bug_in_a_tool_makes_the_conversation_a_harness_error() -> None:
    env, _ = env_for(counter_scenario(), COUNTER)
    transcript = await run_conversation(
        env, CrashingAgent(), ScriptedCustomer(["hi"]), AgentContext("", tuple(env.schemas()))
    )
    assert transcript.status == "harness_error"
    assert transcript.termination == "error"
    assert transcript.error is not None
    assert "RuntimeError: bug in the tool" in transcript.error
    assert [m.role for m in transcript.messages] == ["customer", "agent"]


def test_tool_parameter_schemas() -> None:
    tools = mock.domain().tools
    assert tools["verify_identity"].parameters() == {
        "type": "object",
        "properties": {
            "customer_id": {"type": "string", "description": "The customer's id, e.g. C-1."},
            "pin": {"type": "string", "description": "The 4-digit PIN the customer gives."},
        },
        "required": ["customer_id", "pin"],
        "additionalProperties": False,
    }
    assert tools["refund_charge"].parameters()["properties"]["amount"] == {
        "type": "number",
        "exclusiveMinimum": 0,
        "description": "Amount in USD; at most the charge amount.",
    }
    assert tools["transfer_to_human"].parameters()["required"] == ["reason"]
    assert COUNTER.tools["crash"].parameters() == {
        "type": "object",
        "properties": {},
        "additionalProperties": False,
    }


async def test_schemas_show_the_permitted_tools_with_their_prompts() -> None:
    env, _ = env_for(scenario(tools=["list_charges", "verify_identity"]))
    schemas = env.schemas()
    assert [s.name for s in schemas] == ["list_charges", "verify_identity"]
    assert schemas[0].description == (
        "List the customer's charges with their ids, amounts and refund status."
    )
    assert schemas[1].parameters == mock.domain().tools["verify_identity"].parameters()


# --- injected faults ------------------------------------------------------------------------


def email(env: Environment) -> str:
    return env.snapshot()["customers"]["C-1"]["email"]


@pytest.mark.parametrize("kind", ["timeout", "server_error", "rate_limit"])
async def test_a_failure_fault_fails_only_that_call_and_applies_nothing(kind: str) -> None:
    env, _ = env_for(scenario(faults=[{"tool": "update_email", "call": 2, "fault": kind}]))
    await env.call("verify_identity", VERIFY)
    results = []
    for n, address in enumerate(["a@x.org", "b@x.org", "c@x.org"], 1):
        results.append(await env.call("update_email", {"customer_id": "C-1", "email": address}))
        # a read of another tool between calls does not shift the numbering
        await env.call("list_charges", C1)
        assert email(env) == {1: "a@x.org", 2: "a@x.org", 3: "c@x.org"}[n]
    first, second, third = results
    assert (first.is_error, second.is_error, third.is_error) == (False, True, False)
    assert error_of(second.content) == FAILURE_MESSAGES[kind].format(seconds="2")
    assert (second.record.ok, second.record.fault, second.record.kind) == (False, kind, "write")
    assert (first.record.fault, third.record.fault) == (None, None)


def test_failure_messages_say_the_request_was_not_applied() -> None:
    assert FAILURE_MESSAGES == {
        "timeout": "timeout: the service did not answer within {seconds} s; the request was not"
        " applied",
        "server_error": "503 service unavailable: internal error; the request was not applied",
        "rate_limit": "429 too many requests: rate limited, retry in a moment; not applied",
    }


async def test_a_stale_fault_returns_the_result_on_the_initial_state() -> None:
    env, _ = env_for(scenario(faults=[{"tool": "get_customer", "call": 2, "fault": "stale"}]))
    await env.call("verify_identity", VERIFY)
    emails = []
    for _ in range(3):
        result = await env.call("get_customer", C1)
        emails.append((orjson.loads(result.content)["email"], result.record.fault, result.is_error))
        if len(emails) == 1:
            await env.call("update_email", {"customer_id": "C-1", "email": "new@x.org"})
    assert emails == [
        ("ada@example.com", None, False),
        ("ada@example.com", "stale", False),
        ("new@x.org", None, False),
    ]
    assert env.calls[3].ok is True
    assert email(env) == "new@x.org"


async def test_a_partial_fault_drops_the_second_half_of_a_list() -> None:
    env, _ = env_for(scenario(faults=[{"tool": "list_charges", "call": 2, "fault": "partial"}]))
    ids = []
    for _ in range(3):
        result = await env.call("list_charges", C1)
        ids.append([c["id"] for c in orjson.loads(result.content)["charges"]])
    assert ids == [["CH-1", "CH-2"], ["CH-1"], ["CH-1", "CH-2"]]
    assert [c.fault for c in env.calls] == [None, "partial", None]
    assert [c.ok for c in env.calls] == [True, True, True]


async def test_a_partial_fault_drops_the_last_fields_of_a_mapping() -> None:
    env, _ = env_for(scenario(faults=[{"tool": "get_customer", "fault": "partial"}]))
    result = await env.call("get_customer", C1)
    assert orjson.loads(result.content) == {"id": "C-1", "name": "Ada Park"}
    second = await env.call("get_customer", C1)
    assert orjson.loads(second.content) == {
        "id": "C-1",
        "name": "Ada Park",
        "email": "ada@example.com",
    }


async def test_a_fault_with_data_returns_that_data() -> None:
    faults = [{"tool": "list_charges", "call": 2, "fault": "stale", "data": {"charges": []}}]
    env, _ = env_for(scenario(faults=faults))
    contents = [orjson.loads((await env.call("list_charges", C1)).content) for _ in range(3)]
    assert [len(c["charges"]) for c in contents] == [2, 0, 2]
    assert env.calls[1].result == {"charges": []}


async def test_a_degraded_write_still_applies_the_change() -> None:
    faults = [{"tool": "refund_charge", "fault": "partial", "data": {"status": "unknown"}}]
    env, _ = env_for(scenario(faults=faults))
    await env.call("verify_identity", VERIFY)
    result = await env.call(
        "refund_charge", {"customer_id": "C-1", "charge_id": "CH-2", "amount": 30}
    )
    assert orjson.loads(result.content) == {"status": "unknown"}
    assert env.snapshot()["customers"]["C-1"]["charges"]["CH-2"]["refunded"] is True


async def test_a_stale_fault_on_a_tool_that_refuses_on_the_initial_state_does_not_raise() -> None:
    env, _ = env_for(scenario(faults=[{"tool": "refund_charge", "fault": "stale"}]))
    await env.call("verify_identity", VERIFY)
    result = await env.call(
        "refund_charge", {"customer_id": "C-1", "charge_id": "CH-2", "amount": 30}
    )
    assert [c.name for c in env.calls] == ["verify_identity", "refund_charge"]
    assert result.record.fault == "stale"
    assert result.record.ok and not result.is_error


async def test_a_stale_read_keeps_the_session_but_shows_the_initial_data() -> None:
    faults = [{"tool": "list_charges", "call": 1, "fault": "stale"}]
    env, _ = env_for(scenario(faults=faults))
    await env.call("verify_identity", VERIFY)
    await env.call("refund_charge", {"customer_id": "C-1", "charge_id": "CH-2", "amount": 30})
    stale = orjson.loads((await env.call("list_charges", C1)).content)
    fresh = orjson.loads((await env.call("list_charges", C1)).content)
    assert [c["refunded"] for c in stale["charges"]] == [False, False]
    assert [c["refunded"] for c in fresh["charges"]] == [False, True]


async def test_a_stale_replay_that_the_tool_refuses_returns_the_fresh_result() -> None:
    from supportsim.domains.mock._domain import Customer

    env, _ = env_for(scenario(faults=[{"tool": "get_customer", "call": 1, "fault": "stale"}]))
    # A record created during the conversation does not exist in the initial data.
    env.state.customers["C-9"] = Customer(id="C-9", name="New", pin="0000", email="n@x.io")
    result = await env.call("get_customer", {"customer_id": "C-9"})
    assert not result.is_error and result.record.fault == "stale"
    assert orjson.loads(result.content) == {"id": "C-9", "name": "New", "email": "n@x.io"}


async def test_invalid_calls_are_not_counted_for_faults() -> None:
    env, _ = env_for(scenario(faults=[{"tool": "list_charges", "call": 1, "fault": "timeout"}]))
    bad = await env.call("list_charges", {"customer": "C-1"})
    assert error_of(bad.content) == (
        "invalid arguments: customer_id: Field required; customer: unknown argument"
    )
    first = await env.call("list_charges", C1)
    assert first.record.fault == "timeout"


# --- simulated latency -----------------------------------------------------------------------


async def test_latency_is_slept_on_the_injected_sleep_and_timed_on_the_injected_clock() -> None:
    sc = scenario(
        tool_latency_ms={"list_charges": 250},
        faults=[{"tool": "list_charges", "call": 2, "fault": "timeout", "latency_ms": 1000}],
    )
    env, time = env_for(sc)
    await env.call("verify_identity", VERIFY)
    for _ in range(3):
        await env.call("list_charges", C1)
    await env.call("nope", "{}")
    assert time.slept == [0.25, 1.25, 0.25]
    assert [c.tool_ms for c in env.calls] == [0.0, 250.0, 1250.0, 250.0, 0.0]
    assert [c.started_s for c in env.calls] == [100.0, 100.0, 100.25, 101.5, 101.75]
    assert time.now == 101.75


# --- declarative mock tools -----------------------------------------------------------------

MOCK_TOOLS = [
    {
        "name": "lookup_order",
        "description": "Look up an order by its id.",
        "parameters": {
            "order_id": {"type": "string", "description": "The order id, e.g. O-1."},
            "size": {"type": "string", "enum": ["S", "M", "L"], "required": False},
        },
        "responses": [
            {
                "when": {"order_id": "O-1", "size": "L"},
                "result": {"status": "shipped", "size": "L"},
            },
            {"when": {"order_id": "O-1"}, "result": {"status": "shipped"}},
            {"when": {"order_id": {"regex": r"O-9\d*"}}, "error": "order is archived"},
        ],
    },
    {
        "name": "cancel_order",
        "description": "Cancel an order.",
        "kind": "write",
        "parameters": {"order_id": {"type": "string"}, "count": {"type": "integer"}},
        "responses": [
            {
                "when": {"order_id": "O-1"},
                "result": {"cancelled": True},
                "set": {"extra.cancelled": "O-1", "extra.count": 1},
            },
            {"result": {"cancelled": False}},
        ],
    },
]


def mock_tool_env() -> Environment:
    return env_for(scenario(mock_tools=MOCK_TOOLS))[0]


def test_a_mock_tool_schema_is_generated_from_its_parameters() -> None:
    spec = MockTool.model_validate(MOCK_TOOLS[0])
    built = build_mock_tool(spec)
    assert (built.name, built.description, built.kind) == (
        "lookup_order",
        "Look up an order by its id.",
        "read",
    )
    assert built.parameters() == {
        "type": "object",
        "properties": {
            "order_id": {"type": "string", "description": "The order id, e.g. O-1."},
            "size": {
                "anyOf": [{"enum": ["S", "M", "L"], "type": "string"}, {"type": "null"}],
                "default": None,
            },
        },
        "required": ["order_id"],
        "additionalProperties": False,
    }
    cancel = build_mock_tool(MockTool.model_validate(MOCK_TOOLS[1]))
    assert cancel.kind == "write"
    assert cancel.parameters()["properties"] == {
        "order_id": {"type": "string"},
        "count": {"type": "integer"},
    }
    assert cancel.parameters()["required"] == ["order_id", "count"]


async def test_mock_tools_join_the_domain_tools() -> None:
    env = mock_tool_env()
    names = [s.name for s in env.schemas()]
    assert names[-2:] == ["lookup_order", "cancel_order"]
    assert "refund_charge" in names


@pytest.mark.parametrize(
    ("args", "content"),
    [
        ({"order_id": "O-1", "size": "L"}, {"status": "shipped", "size": "L"}),
        ({"order_id": "O-1", "size": "S"}, {"status": "shipped"}),
        ({"order_id": "O-1"}, {"status": "shipped"}),
        ({"order_id": "O-9"}, {"error": "order is archived"}),
        ({"order_id": "O-95"}, {"error": "order is archived"}),
        ({"order_id": "O-2"}, {"error": "no matching record for {'order_id': 'O-2'}"}),
        (
            {"order_id": "O-1", "size": "XL"},
            {"error": "invalid arguments: size: Input should be 'S', 'M' or 'L'"},
        ),
        ({"size": "S"}, {"error": "invalid arguments: order_id: Field required"}),
        (
            {"order_id": "O-1", "colour": "red"},
            {"error": "invalid arguments: colour: unknown argument"},
        ),
    ],
)
async def test_a_mock_tool_answers_with_the_first_matching_response(
    args: dict[str, Any], content: dict[str, Any]
) -> None:
    env = mock_tool_env()
    result = await env.call("lookup_order", args)
    assert orjson.loads(result.content) == content
    assert result.is_error is ("error" in content)
    assert result.record.ok is ("error" not in content)


async def test_a_mock_write_tool_sets_state_fields() -> None:
    env = mock_tool_env()
    assert env.snapshot()["extra"] == {}
    result = await env.call("cancel_order", {"order_id": "O-1", "count": 1})
    assert orjson.loads(result.content) == {"cancelled": True}
    assert env.snapshot()["extra"] == {"cancelled": "O-1", "count": 1}
    other = await env.call("cancel_order", {"order_id": "O-7", "count": 1})
    assert orjson.loads(other.content) == {"cancelled": False}
    assert env.snapshot()["extra"] == {"cancelled": "O-1", "count": 1}


async def test_a_mock_tool_argument_of_the_wrong_type_is_rejected() -> None:
    env = mock_tool_env()
    result = await env.call("cancel_order", {"order_id": "O-1", "count": "two"})
    assert error_of(result.content) == (
        "invalid arguments: count: Input should be a valid integer, "
        "unable to parse string as an integer"
    )
    assert env.snapshot()["extra"] == {}


@pytest.mark.parametrize(
    ("faults", "copies", "seen"),
    [
        ([], 0, [None, None]),
        ([{"tool": "list_charges", "fault": "partial"}], 0, ["partial", None]),
        ([{"tool": "list_charges", "fault": "stale", "data": {"charges": []}}], 0, ["stale", None]),
        ([{"tool": "list_charges", "call": 2, "fault": "stale"}], 1, [None, "stale"]),  # reads it
    ],
)
async def test_the_initial_state_is_copied_only_for_a_stale_fault_that_reads_it(
    faults: list[dict[str, Any]], copies: int, seen: list[str | None]
) -> None:
    base = mock.domain()
    deep_copies: list[int] = []

    class Counted(base.state_model):  # type: ignore[name-defined,misc]
        def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Any:
            deep_copies.append(1)
            return super().__deepcopy__(memo)

    domain = dataclasses.replace(base, state_model=Counted)
    env, _ = env_for(scenario(faults=faults), domain)
    assert len(deep_copies) == copies
    for _ in range(2):
        await env.call("list_charges", C1)
    assert [(c.ok, c.fault) for c in env.calls] == [(True, f) for f in seen]
