"""Driving whole conversations through the real path: run_unit + UnitContext + ModelPool.

The Agent and the simulated Customer are ``PROVIDER:agent-m`` and ``PROVIDER:customer-m``,
real SDK clients pointed at the mock server through the env mapping given to ModelPool.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson

from supportsim.batch import Unit, UnitContext, run_unit
from supportsim.conversation import CONVERSATION_BUDGET, parse_agent_spec, parse_customer_spec
from supportsim.domains import mock
from supportsim.llm import (
    LLMMessage,
    LLMRequest,
    ModelConfig,
    ModelPool,
    RetryPolicy,
    make_client,
    parse_model_spec,
    resolve_credentials,
)
from supportsim.scenario import Persona, Scenario
from supportsim.store import ConversationRecord
from supportsim.testing import MockLLMServer, RecordedRequest, Reply, call, reply, say

AGENT_MODEL = "agent-m"
CUSTOMER_MODEL = "customer-m"
API_KEY = "sk-test-SECRET-never-written"

# The happy path of mock_duplicate_refund, line by line.
ASK = "Sure, what are your customer id and PIN?"
GIVE_ID = "My id is C-1 and my PIN is 4321."
OFFER = "I see the duplicate charge CH-2 of 30 USD. Shall I refund it?"
AGREE = "Yes please, refund the second one."
DONE = "Done, the refund of 30 USD for CH-2 is on its way."
VERIFY = call("verify_identity", customer_id="C-1", pin="4321")
LIST = call("list_charges", customer_id="C-1")
REFUND = call("refund_charge", customer_id="C-1", charge_id="CH-2", amount=30)


def end(reason: str = "satisfied") -> Reply:
    """The simulated Customer's structured end."""
    return reply(tool_calls=[call("end_conversation", reason=reason)])


def happy_agent() -> list[Reply]:
    """Verify and list in parallel, offer, refund on a yes, confirm."""
    return [
        say(ASK),
        reply(tool_calls=[VERIFY, LIST]),
        say(OFFER),
        reply(tool_calls=[REFUND]),
        say(DONE),
    ]


def happy_customer() -> list[Reply]:
    return [say(GIVE_ID), say(AGREE), end()]


def env_for(server: MockLLMServer) -> dict[str, str]:
    return {
        "OPENAI_API_KEY": API_KEY,
        "ANTHROPIC_API_KEY": API_KEY,
        "OPENAI_BASE_URL": server.url + "/v1",
        "ANTHROPIC_BASE_URL": server.url,
    }


async def warm_up(server: MockLLMServer, provider: str) -> None:
    """Pay the SDK's one-time costs (see ``llm/_warm.py``) before the measured conversation.

    The clients warm themselves before their first call, outside ``llm_ms`` but inside
    that turn's ``response_ms``; the batch does not warm up ahead of the first unit.
    """
    server.script("warm-up", [say("ok")])
    config = parse_model_spec(f"{provider}:warm-up", {})
    client = make_client(resolve_credentials(config, env_for(server)))
    try:
        await client.complete(LLMRequest("s", (LLMMessage("user", "hi"),)))
    finally:
        await client.aclose()


@dataclass
class Harness:
    """One provider's wiring: a ModelPool over the mock server.

    The pool's waits (retry backoff, Retry-After pauses) use a fake clock that only a fake
    sleep advances: no test sleeps for real, and ``slept`` lists every wait.
    """

    server: MockLLMServer
    provider: str
    max_attempts: int = 3
    call_timeout_s: float | None = None
    slept: list[float] = field(default_factory=list)
    now: float = 0.0
    pool: ModelPool = field(init=False)

    def __post_init__(self) -> None:
        async def sleep(seconds: float) -> None:
            self.slept.append(seconds)
            self.now += seconds
            await asyncio.sleep(0)

        policy = RetryPolicy(max_attempts=self.max_attempts, base_delay_s=0.0, jitter=0.0)
        self.pool = ModelPool(
            env=env_for(self.server),
            policy=policy,
            sleep=sleep,
            clock=lambda: self.now,
            budget=CONVERSATION_BUDGET,  # as a run's pool is built (batch.build_context)
        )

    @property
    def agent(self) -> str:
        return f"{self.provider}:{AGENT_MODEL}"

    @property
    def customer(self) -> str:
        return f"{self.provider}:{CUSTOMER_MODEL}"

    def context(
        self,
        scenario: Scenario,
        persona: Persona,
        *,
        agent: str | None = None,
        customer: str | None = None,
        models: Mapping[str, ModelConfig] | None = None,
        max_turns: int | None = None,
        timeout_s: float = 30.0,
    ) -> UnitContext:
        models = models or {}
        spec = agent or self.agent

        def caller_for(config: ModelConfig, role: str) -> Any:
            if self.call_timeout_s is not None:
                config = config.model_copy(update={"timeout_s": self.call_timeout_s})
            return self.pool.caller(config, role)

        return UnitContext(
            domains={"mock": mock.domain()},
            scenarios={scenario.id: scenario},
            personas={persona.id: persona},
            agents={spec: parse_agent_spec(spec, models)},
            customer=parse_customer_spec(customer or self.customer, models),
            caller_for=caller_for,
            max_turns=max_turns,
            timeout_s=timeout_s,
        )

    async def run(self, scenario: Scenario, persona: Persona, **kwargs: Any) -> ConversationRecord:
        """One unit, start to record; the pool's clients are closed afterwards."""
        ctx = self.context(scenario, persona, **kwargs)
        (agent,) = ctx.agents
        try:
            return await run_unit(Unit(scenario.id, agent, 1), ctx)
        finally:
            await self.pool.aclose()

    def agent_requests(self, model: str = AGENT_MODEL) -> list[RecordedRequest]:
        return self.server.requests(model=model)

    def customer_requests(self) -> list[RecordedRequest]:
        return self.server.requests(model=CUSTOMER_MODEL)


# --- reading requests in either wire format ----------------------------------------------


def system_text(request: RecordedRequest) -> str:
    if request.api == "anthropic":
        system = request.body.get("system", "")
        return system if isinstance(system, str) else "".join(b["text"] for b in system)
    first = request.body["messages"][0]
    return first["content"] if first["role"] == "system" else ""


def tool_names(request: RecordedRequest) -> list[str]:
    return [t["function"]["name"] if "function" in t else t["name"] for t in request.body["tools"]]


def tool_parameters(request: RecordedRequest) -> dict[str, Any]:
    if request.api == "openai":
        return {t["function"]["name"]: t["function"]["parameters"] for t in request.body["tools"]}
    return {t["name"]: t["input_schema"] for t in request.body["tools"]}


@dataclass(frozen=True)
class SentCall:
    id: str
    name: str
    arguments: Any


@dataclass(frozen=True)
class SentResult:
    id: str
    content: str
    is_error: bool | None  # None: the wire format has no such field (OpenAI)


def assistant_calls(request: RecordedRequest) -> list[list[SentCall]]:
    """Tool calls of every assistant message in the request, in order."""
    out = []
    for m in request.body["messages"]:
        if m["role"] != "assistant":
            continue
        if request.api == "openai":
            calls = [
                SentCall(c["id"], c["function"]["name"], c["function"]["arguments"])
                for c in m.get("tool_calls") or ()
            ]
        else:
            blocks = m["content"] if isinstance(m["content"], list) else []
            calls = [
                SentCall(b["id"], b["name"], b["input"]) for b in blocks if b["type"] == "tool_use"
            ]
        if calls:
            out.append(calls)
    return out


def tool_results(request: RecordedRequest) -> list[SentResult]:
    """Every tool result in the request, in order."""
    out = []
    for m in request.body["messages"]:
        if request.api == "openai" and m["role"] == "tool":
            out.append(SentResult(m["tool_call_id"], m["content"], None))
        elif request.api == "anthropic" and isinstance(m["content"], list):
            out.extend(
                SentResult(b["tool_use_id"], b["content"], b["is_error"])
                for b in m["content"]
                if b["type"] == "tool_result"
            )
    return out


def last_user_text(request: RecordedRequest) -> str:
    message = request.body["messages"][-1]
    assert message["role"] == "user"
    content = message["content"]
    return content if isinstance(content, str) else "".join(b.get("text", "") for b in content)


def record_json(record: ConversationRecord) -> dict[str, Any]:
    """The record as it is written to conversations.jsonl."""
    return orjson.loads(orjson.dumps(record.model_dump(mode="json")))


def chat(request: RecordedRequest) -> list[tuple[str, str]]:
    """(role, text) of each non-system message, in either wire format."""
    out = []
    for m in request.body["messages"]:
        if m["role"] == "system":
            continue
        content = m["content"]
        text = content if isinstance(content, str) else "".join(b.get("text", "") for b in content)
        out.append((m["role"], text))
    return out
