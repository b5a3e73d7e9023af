"""The export tables' columns: names, types and meanings, one list per level.

These names are a contract (notebooks and SQL read them), so a column is only ever added,
never renamed or removed. Every level starts with the ids that join the levels: ``run_id``
and ``unit_id`` (one conversation: scenario x agent x trial), then ``scenario``, ``agent``
and ``trial`` so a table can be grouped without a join. The export guide
(docs/guide/export.md) lists the same columns (a test keeps them in step).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Level = Literal["unit", "message", "check", "call"]
LEVELS: tuple[Level, ...] = ("unit", "message", "check", "call")
ColumnType = Literal["string", "int", "float", "bool", "timestamp", "json"]
"""``json`` columns hold JSON text (a string in CSV and parquet alike); ``timestamp`` is ISO
8601 text in CSV and a UTC timestamp in parquet."""


@dataclass(frozen=True, slots=True)
class Column:
    name: str
    type: ColumnType
    doc: str


_IDS = (
    Column("run_id", "string", "the run (run.json's run_id, else the directory name)"),
    Column("unit_id", "string", "the conversation: `scenario|agent|trial`, unique in a run"),
    Column("scenario", "string", "scenario id"),
    Column("agent", "string", "agent label, as given to `--agent`"),
    Column("trial", "int", "trial number, from 1"),
)

UNIT = (
    *_IDS,
    Column("domain", "string", "the scenario's domain"),
    Column("category", "string", "the scenario's category"),
    Column("tags", "json", "the scenario's tags, a JSON array"),
    Column("language", "string", "the scenario's language"),
    Column("customer", "string", "the simulated Customer's spec"),
    Column(
        "status",
        "string",
        "completed, infra_error, simulator_fault or harness_error; only completed is scored",
    ),
    Column("termination", "string", "customer_done, agent_transfer, max_turns, timeout, error"),
    Column("end_reason", "string", "why the conversation ended, in words"),
    Column("strict", "bool", "every check passed and it ended normally; empty when not scored"),
    Column(
        "partial",
        "float",
        "share of the workflow done, 0-1 (docs: guide/scoring.md); empty when not scored",
    ),
    Column("checks", "int", "checks evaluated"),
    Column("checks_failed", "int", "checks that failed"),
    Column("messages", "int", "messages (customer, agent and tool)"),
    Column("turns", "int", "customer turns"),
    Column("tool_calls", "int", "tool calls the Agent made"),
    Column("response_ms_mean", "float", "mean end-to-end time of the Agent's replies"),
    Column("response_ms_max", "float", "slowest Agent reply"),
    Column("input_tokens", "int", "the Agent's input tokens; empty when a call lacks counts"),
    Column("output_tokens", "int", "the Agent's output tokens; empty when a call lacks counts"),
    Column("cost_usd", "float", "conversation cost (Agent + Customer); empty when unpriced"),
    Column("agent_cost_usd", "float", "the Agent's share of the cost; empty when unpriced"),
    Column("customer_cost_usd", "float", "the simulated Customer's share; empty when unpriced"),
    Column("simulator_faults", "json", "simulator faults flagged, a JSON array"),
    Column("error", "string", "the error (a harness error's traceback); empty when none"),
    Column("started_at", "timestamp", "when the conversation started (UTC)"),
    Column("ended_at", "timestamp", "when it ended (UTC)"),
    Column("duration_s", "float", "wall time of the conversation"),
    Column("scenario_sha256", "string", "hash of the scenario file it ran"),
)

MESSAGE = (
    *_IDS,
    Column("index", "int", "position in the conversation, from 0"),
    Column("turn", "int", "the customer turn it belongs to"),
    Column("role", "string", "customer, agent or tool"),
    Column("text", "string", "the message text (a tool message: the result the Agent read)"),
    Column("tool_calls", "json", "the Agent's tool calls in it: [{id, name, arguments}]"),
    Column("tool_call_id", "string", "a tool message: the call it answers"),
    Column("tool_name", "string", "a tool message: the tool"),
    Column("is_error", "bool", "a tool message: the tool refused or failed"),
    Column("fault", "string", "a tool message: the injected fault, if any"),
    Column("response_ms", "float", "an Agent reply ending a turn: customer message to reply"),
    Column("llm_ms", "float", "time in the Agent's model calls"),
    Column("tool_ms", "float", "time in tool execution"),
    Column("ttft_ms", "float", "time to the first streamed token"),
    Column("input_tokens", "int", "input tokens of the model call(s)"),
    Column("output_tokens", "int", "output tokens of the model call(s)"),
    Column("cost_usd", "float", "cost of the model call(s); empty when unpriced"),
)

CHECK = (
    *_IDS,
    Column("index", "int", "position in the unit's checks, from 0"),
    Column("name", "string", "check id, e.g. `step:refund`, `forbidden:leak`, `outcome`"),
    Column("kind", "string", "step, observed, forbidden, outcome, state, reward, or a plug-in's"),
    Column("passed", "bool", "the check passed"),
    Column("reason", "string", "one line a person can act on"),
    Column("weight", "float", "its weight in the partial score"),
)

CALL = (
    *_IDS,
    Column("index", "int", "position in the unit's tool call log, from 0"),
    Column("call_id", "string", "the tool call's id (joins `message.tool_calls`)"),
    Column("name", "string", "the tool"),
    Column("arguments", "json", "the arguments as parsed; empty when they were not valid JSON"),
    Column("raw_arguments", "string", "the arguments as the Agent sent them"),
    Column("ok", "bool", "the call succeeded"),
    Column("result", "json", "what the tool returned (the JSON the Agent was sent)"),
    Column("error", "string", "why it failed; empty when ok"),
    Column("fault", "string", "the injected fault, if any"),
    Column("tool_kind", "string", "read or write, when the domain says"),
    Column("tool_ms", "float", "time the call took, including simulated latency"),
    Column(
        "logged",
        "bool",
        "from the environment's call log; false: rebuilt from the messages of a record "
        "written before the log was kept",
    ),
)

COLUMNS: dict[Level, tuple[Column, ...]] = {
    "unit": UNIT,
    "message": MESSAGE,
    "check": CHECK,
    "call": CALL,
}
