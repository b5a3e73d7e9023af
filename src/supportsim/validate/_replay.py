"""Replay a written conversation through the real runtime and scorer.

A ``ReplayAgent`` makes the conversation's tool calls and says its texts turn by turn; a
``ReplayCustomer`` says its customer lines and ends after the last. They meet in the real
conversation graph, against a real Environment with the scenario's faults and latencies,
and the transcript is scored by the real scorer against the reference final state: what a
run of an LLM Agent that wrote those words and made those calls would be scored.

Tool results come from the tools, not from the file, so a conversation whose calls fail
where its author expected success shows up: ``Replayed.rejected`` lists every call the
tools did not accept (an unknown tool, arguments the tool's model refuses), and
``Replayed.refused`` every call a tool refused by policy or an injected fault failed.

Simulated tool latency passes on a virtual clock (nothing sleeps), so a replay takes
milliseconds and its timings are the scenario's, not the machine's.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

import orjson
from pydantic import ValidationError

from supportsim._yaml import format_loc
from supportsim.conversation import (
    AgentContext,
    AgentFault,
    AgentStep,
    CustomerStep,
    CustomerTurn,
    Limits,
    Message,
    Transcript,
    agent_system_prompt,
    run_conversation,
)
from supportsim.domains import Domain
from supportsim.environment import Environment
from supportsim.errors import InputError
from supportsim.llm import ToolCall
from supportsim.scenario import Scenario
from supportsim.scoring import Score, reference_state, score
from supportsim.validate._conversations import Action, Conversation, violated_checks


class ReplayAgent:
    """Plays a conversation's Agent turns, one per Customer message.

    Within a turn each ``call`` is one step (text said before it travels with it, as an
    LLM's text beside its tool calls does); the turn's closing ``say`` is its reply.
    Raises ``AgentFault`` if asked for more than the conversation holds (a transfer that
    failed, so the conversation went on).
    """

    name = "replay"

    def __init__(self, turns: Sequence[Sequence[Action]]) -> None:
        self._turns = [list(t) for t in turns]
        self._turn = -1
        self._at = 0
        self._ids = itertools.count(1)

    async def step(self, context: AgentContext, history: Sequence[Message]) -> AgentStep:
        if history and history[-1].role == "customer":  # a new turn starts
            self._turn, self._at = self._turn + 1, 0
        if self._turn >= len(self._turns) or self._at >= len(self._turns[self._turn]):
            raise AgentFault("the replayed conversation has no Agent action left for this step")
        actions, said = self._turns[self._turn], []
        while self._at < len(actions):
            action = actions[self._at]
            self._at += 1
            if action.say is not None:
                said.append(action.say)
                continue
            assert action.call is not None
            args = orjson.dumps(action.arguments).decode()
            call = ToolCall(f"replay-{next(self._ids)}", action.call, args)
            return AgentStep(content="\n\n".join(said), tool_calls=(call,))
        return AgentStep(content="\n\n".join(said))


class ReplayCustomer:
    """Says the conversation's customer lines in order; the last one ends the conversation
    when no Agent turn follows it (its last words), else the end comes after the Agent's
    last turn."""

    name = "replay"

    def __init__(self, lines: Sequence[str], *, last_word: bool) -> None:
        self._lines = list(lines)
        self._last_word = last_word
        self._said = 0

    async def step(self, turn: CustomerTurn) -> CustomerStep:
        if self._said >= len(self._lines):
            return CustomerStep(end="script_done")
        line = self._lines[self._said]
        self._said += 1
        if self._said == len(self._lines) and self._last_word:
            return CustomerStep(content=line, end="script_done")
        return CustomerStep(content=line)


@dataclass(slots=True)
class _VirtualTime:
    now: float = 0.0

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds


@dataclass(frozen=True, slots=True)
class Replayed:
    """A conversation's replay: what happened and how it scored.

    ``rejected``: calls the tools did not accept (unknown tool, arguments the tool's
    model refuses), as ``"<turn>: <tool>: <why>"``; a conversation with any is wrongly
    written. ``refused``: calls that failed at run time (a policy refusal, an injected
    fault), the same way; expected where the author meant them.
    """

    conversation: Conversation
    transcript: Transcript
    score: Score
    rejected: tuple[str, ...] = ()
    refused: tuple[str, ...] = ()

    @property
    def failed(self) -> list[str]:
        """Ids of the checks that failed, plus ``termination:<how>`` when the conversation
        did not end normally (strict fails then too)."""
        out = [c.id for c in self.score.checks if not c.passed]
        if self.transcript.termination not in ("customer_done", "agent_transfer"):
            out.append(f"termination:{self.transcript.termination}")
        if self.transcript.status != "completed":
            out.append(f"status:{self.transcript.status}")
        return out

    @property
    def holds(self) -> bool:
        """The conversation scores as its kind says: valid strict 1; sloppy strict 0 with
        at least one of its ``violates`` checks failing."""
        if self.conversation.kind == "valid":
            return self.score.strict and not self.failed
        return not self.score.strict and bool(self.violated)

    @property
    def violated(self) -> list[str]:
        """The failed check ids that the conversation's ``violates`` names."""
        failed = set(self.failed)
        ids = [c.id for c in self.score.checks]
        return [
            c for v in self.conversation.violates for c in violated_checks(v, ids) if c in failed
        ]

    def why(self) -> str:
        """One line: what failed (valid) or why the sloppy conversation is not caught."""
        if self.conversation.kind == "valid":
            return "fails " + ", ".join(self.failed) if self.failed else "passes"
        if self.score.strict:
            return "scores strict 1"
        if self.violated:
            return "fails " + ", ".join(self.violated)
        return "strict 0, but only by " + ", ".join(self.failed)


def _call_problems(env: Environment, transcript: Transcript) -> tuple[list[str], list[str]]:
    rejected, refused = [], []
    turn_of = {
        call.id: m.turn for m in transcript.messages for call in m.tool_calls if m.role == "agent"
    }
    for record in env.calls:
        where = f"turn {turn_of.get(record.call_id, '?')}: {record.name}"
        tool = env.tools.get(record.name)
        if tool is None:
            rejected.append(f"{where}: not a tool of the scenario")
            continue
        try:
            tool.args_model.model_validate(record.arguments or {})
        except ValidationError as exc:
            rejected.append(f"{where}: {exc.error_count()} argument error(s): {record.error}")
            continue
        if not record.ok:
            refused.append(f"{where}: {record.fault or 'refused'}: {record.error}")
    return rejected, refused


async def replay(domain: Domain, scenario: Scenario, conversation: Conversation) -> Replayed:
    """Hold ``conversation`` in the real conversation graph against ``scenario``'s
    Environment (faults and latencies on a virtual clock) and score it.

    The scenario's ``max_turns`` binds as in a run: a conversation longer than that is
    stopped (termination ``max_turns``, strict 0).

    Raises:
        InputError: the conversation breaks the turn rules (``shape_problems``).
    """
    if problems := conversation.shape_problems():
        raise InputError("; ".join(f"{format_loc(loc)}: {message}" for loc, message in problems))
    time = _VirtualTime()
    env = Environment(domain, scenario, clock=time.clock, sleep=time.sleep)
    agent = ReplayAgent(conversation.agent_turns)
    last_word = conversation.turns[-1].customer is not None
    customer = ReplayCustomer(conversation.customer_lines, last_word=last_word)
    context = AgentContext(agent_system_prompt(domain, scenario), tuple(env.schemas()))
    transcript = await run_conversation(
        env, agent, customer, context, Limits(max_turns=scenario.max_turns), clock=time.clock
    )
    reference = await reference_state(domain, scenario)
    result = score(scenario, domain, transcript, reference)
    rejected, refused = _call_problems(env, transcript)
    return Replayed(conversation, transcript, result, tuple(rejected), tuple(refused))


@dataclass(slots=True)
class ReplayTally:
    """Counts over replays: false failures (valid ones that do not pass strictly) and false
    passes (sloppy ones none of whose ``violates`` checks fails)."""

    valid: int = 0
    sloppy: int = 0
    false_failures: list[Replayed] = field(default_factory=list)
    false_passes: list[Replayed] = field(default_factory=list)

    def add(self, replayed: Replayed) -> None:
        if replayed.conversation.kind == "valid":
            self.valid += 1
            if not replayed.holds:
                self.false_failures.append(replayed)
        else:
            self.sloppy += 1
            if not replayed.holds:
                self.false_passes.append(replayed)

    def line(self) -> str:
        return (
            f"library conversations: {len(self.false_failures)} of {self.valid} valid fail "
            f"(false failures), {len(self.false_passes)} of {self.sloppy} sloppy are not "
            "caught (false passes)"
        )
