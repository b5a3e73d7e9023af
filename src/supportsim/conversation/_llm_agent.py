"""The LLM Agent under test: a model with the scenario's tools and the domain policy.

The model call goes through an injected ``ModelCaller`` (a run's ``llm.ModelPool.caller``)
so rate limits and retries are added without this module knowing about them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from supportsim.conversation._participants import AgentContext, AgentStep
from supportsim.conversation._transcript import LLMCall, Message
from supportsim.llm import LLMMessage, LLMRequest, LLMResponse, ModelCaller, ToolSpec


def to_llm_messages(history: Sequence[Message]) -> tuple[LLMMessage, ...]:
    """The transcript from the Agent's side: customer = user, agent = assistant."""
    out = []
    for m in history:
        if m.role == "customer":
            out.append(LLMMessage("user", m.content))
        elif m.role == "agent":
            out.append(
                LLMMessage(
                    "assistant",
                    m.content,
                    tool_calls=m.tool_calls,
                    reasoning=m.reasoning,
                    reasoning_signature=m.reasoning_signature,
                )
            )
        else:
            out.append(
                LLMMessage("tool", m.content, tool_call_id=m.tool_call_id, is_error=m.is_error)
            )
    return tuple(out)


def llm_call(role: Literal["agent", "customer", "judge"], response: LLMResponse) -> LLMCall:
    return LLMCall(
        role,
        response.model,
        response.llm_ms,
        response.ttft_ms,
        response.input_tokens,
        response.output_tokens,
        response.cost_usd,
        response.cached,
        response.client_ms,
        response.wire,
    )


class LLMAgent:
    """An Agent that is one model: each step is one model call."""

    def __init__(self, name: str, caller: ModelCaller) -> None:
        self.name = name
        self._caller = caller
        self._tools: tuple[ToolSpec, ...] | None = None

    async def step(self, context: AgentContext, history: Sequence[Message]) -> AgentStep:
        if self._tools is None:
            self._tools = tuple(
                ToolSpec(t.name, t.description, t.parameters) for t in context.tools
            )
        request = LLMRequest(context.system_prompt, to_llm_messages(history), self._tools)
        response = await self._caller(request)
        return AgentStep(
            content=response.content,
            tool_calls=response.tool_calls,
            reasoning=response.reasoning,
            reasoning_signature=response.reasoning_signature,
            llm=llm_call("agent", response),
        )
