"""The LLM-driven simulated Customer, with guards against known simulator faults.

The end of a conversation is structured output (an ``end_conversation`` tool call with a
reason), never a magic string. Faults, each retried once with a corrective note and then
raised as ``SimulatorFault`` (the unit becomes ``simulator_fault``, not an Agent failure):

- ``empty``: no text and no end;
- ``role_confusion``: the reply speaks as the support agent;
- ``leaked_instructions``: the reply quotes or mentions its instructions;
- ``invalid_end``: an ``end_conversation`` call without one of its reasons (or with
  arguments that are not JSON): the customer's intent is unknown, so it is never read
  as ``satisfied``.

Ending ``satisfied`` before any write tool succeeded, when the scenario needs one, is
``premature_end``: the Customer is told once to go on; if it insists, the end stands and
the fault is flagged on the transcript.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

import orjson

from supportsim.conversation._llm_agent import ModelCaller, llm_call
from supportsim.conversation._participants import CustomerStep, CustomerTurn, Visible
from supportsim.conversation._transcript import EndReason, LLMCall
from supportsim.errors import SimulatorFault
from supportsim.llm import LLMMessage, LLMRequest, LLMResponse, Role, ToolSpec

END_TOOL = ToolSpec(
    "end_conversation",
    "End the chat. Call it when the agent has confirmed your request is done (satisfied), "
    "when you give up (gave_up), or when you accept being transferred to a human.",
    {
        "type": "object",
        "properties": {
            "reason": {"type": "string", "enum": ["satisfied", "gave_up", "accepted_transfer"]},
            "final_message": {"type": "string", "description": "Optional last words."},
        },
        "required": ["reason"],
        "additionalProperties": False,
    },
)
START = "(The support chat is open. Write your first message to the agent.)"
NUDGE_PREMATURE = (
    "(Note to the customer: the agent has not yet confirmed that your request was carried "
    "out. Continue the conversation unless you really are giving up.)"
)
NUDGE = {
    "empty": "(Note: write your next message as the customer; it must not be empty.)",
    "role_confusion": "(Note: you are the CUSTOMER, not the support agent. Write as the customer.)",
    "leaked_instructions": "(Note: stay in character; never mention instructions or goals.)",
    "invalid_end": (
        "(Note: to end the chat, call end_conversation with reason satisfied, gave_up or "
        "accepted_transfer; otherwise write your next message.)"
    ),
}
END_REASONS: tuple[EndReason, ...] = ("satisfied", "gave_up", "accepted_transfer")
_AGENT_VOICE = re.compile(
    r"^\s*(agent|assistant|support|support agent|customer service)\s*:"
    r"|how (can|may) i (help|assist) you|is there anything else i can help",
    re.IGNORECASE,
)
_META = re.compile(
    r"hidden goal|my instructions|system prompt|role-?play|as an ai\b|language model",
    re.IGNORECASE,
)
_SHINGLE = 8


@dataclass(frozen=True, slots=True)
class _Reply:
    content: str
    end: EndReason | None
    response: LLMResponse
    bad_end: str | None = None
    """What was wrong with an ``end_conversation`` call (then ``end`` is None)."""


def _shingles(text: str) -> set[tuple[str, ...]]:
    words = re.findall(r"\w+", text.casefold())
    return {tuple(words[i : i + _SHINGLE]) for i in range(len(words) - _SHINGLE + 1)}


@functools.lru_cache(maxsize=256)
def _prompt_shingles(system_prompt: str) -> frozenset[tuple[str, ...]]:
    # Cached: every conversation of a scenario and persona has the same prompt, and
    # shingling it costs about 0.3 ms, as much as a tenth of a model call's client CPU.
    return frozenset(_shingles(system_prompt))


class LLMCustomer:
    """A Customer played by a model from a persona and a hidden goal."""

    name = "llm"

    def __init__(
        self,
        caller: ModelCaller,
        system_prompt: str,
        *,
        opening: str | None,
        needs_action: bool,
        model: str = "customer",
    ) -> None:
        self.name = model
        self._caller = caller
        self._system = system_prompt
        self._opening = opening
        self._needs_action = needs_action
        self._secret = _prompt_shingles(system_prompt)
        self.faults: list[str] = []
        """Faults recovered from (a faulty reply whose retry was good) and premature_end;
        a fault that survives its retry is raised instead and recorded by the orchestrator."""

    async def step(self, turn: CustomerTurn) -> CustomerStep:
        if not turn.view and self._opening:
            return CustomerStep(content=self._opening)
        history = self._history(turn.view)
        calls: list[LLMCall] = []
        reply = await self._ask(history, calls)
        if reply.end == "satisfied" and self._needs_action and not turn.agent_acted:
            reply = await self._ask((*history, LLMMessage("user", NUDGE_PREMATURE)), calls)
            if reply.end == "satisfied":
                self.faults.append("premature_end")
        return CustomerStep(content=reply.content, end=reply.end, llm=tuple(calls))

    def _history(self, view: tuple[Visible, ...]) -> tuple[LLMMessage, ...]:
        # The model plays the customer: its own lines are "assistant", the agent's "user".
        out = [LLMMessage("user", START)] if not view or view[0].role == "customer" else []
        for message in view:
            role: Role = "assistant" if message.role == "customer" else "user"
            out.append(LLMMessage(role, message.content))
        return tuple(out)

    async def _ask(self, history: tuple[LLMMessage, ...], calls: list[LLMCall]) -> _Reply:
        fault = None
        for attempt in range(2):
            messages = history if fault is None else (*history, LLMMessage("user", NUDGE[fault]))
            response = await self._caller(LLMRequest(self._system, messages, (END_TOOL,)))
            calls.append(llm_call("customer", response))
            reply = self._read(response)
            fault = self._fault(reply)
            if fault is None:
                return reply
            if attempt == 1:  # recorded once, by the orchestrator, from the exception
                raise SimulatorFault(fault, reply.bad_end or reply.content[:200] or "(empty)")
            self.faults.append(fault)
        raise AssertionError("unreachable")  # pragma: no cover

    def _read(self, response: LLMResponse) -> _Reply:
        for call in response.tool_calls:
            if call.name == END_TOOL.name:
                try:
                    args = orjson.loads(call.arguments or "{}")
                except orjson.JSONDecodeError:
                    args = None
                reason = args.get("reason") if isinstance(args, dict) else None
                final = args.get("final_message", "") if isinstance(args, dict) else ""
                text = str(final or response.content)
                if reason not in END_REASONS:
                    bad = f"end_conversation({call.arguments[:120]!r})"
                    return _Reply(text, None, response, bad_end=bad)
                return _Reply(text, reason, response)
        return _Reply(response.content.strip(), None, response)

    def _fault(self, reply: _Reply) -> str | None:
        if reply.bad_end is not None:
            return "invalid_end"
        if reply.end is not None:
            return None
        if not reply.content:
            return "empty"
        if _AGENT_VOICE.search(reply.content):
            return "role_confusion"
        if _META.search(reply.content) or _shingles(reply.content) & self._secret:
            return "leaked_instructions"
        return None
