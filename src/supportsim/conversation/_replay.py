"""Replaying a stored conversation's Customer (``--replay-customer``).

A prompt change is best judged against the same Customer behaviour. ``ReplayCustomer``
wraps the unit's Customer: while the new conversation follows the stored one, each
Customer reply is the stored reply, and no model is called; from the first step at which
the Customer would see something the stored Customer did not (an Agent message that
differs, as the Customer sees it: ``customer_view``), or the stored conversation has no
further reply, the wrapped Customer answers, and goes on answering to the end.

"Follows" is exact: the whole view the Customer is given (every Customer and Agent message
it sees, in order, Agent text merged as the rules show it) equals the stored Customer's
view at the same step, and so does every other input of the step: ``agent_acted`` (whether
a write tool had succeeded), which the premature-end guard reads. A stored step whose
``agent_acted`` is unknown (a record without a call log) follows only if it does not end
the conversation (an end is exactly what the guard may refuse). The Customer's replies
before the divergence are the stored ones, so after it the wrapped Customer is given that
replayed history, as a Customer that had said those things.

Every end a Customer makes is reproduced, tau2's stop tokens (``tau2_stop``,
``tau2_transfer``, ``tau2_out_of_scope``) included: the stored last message and reason.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import get_args

from supportsim.conversation._participants import Customer, CustomerStep, CustomerTurn, Visible
from supportsim.conversation._transcript import EndReason, Message


def customer_view(
    messages: Sequence[Message], shows: Callable[[Message], bool]
) -> tuple[Visible, ...]:
    """What the Customer sees of ``messages``: its own messages and the Agent's that
    ``shows`` (the rules' ``shows_customer``), consecutive Agent texts joined by a blank
    line. The one definition the conversation and the replay both use."""
    out: list[Visible] = []
    for m in messages:
        if m.role == "customer":
            out.append(Visible("customer", m.content))
        elif m.role == "agent" and shows(m):
            if out and out[-1].role == "agent":
                out[-1] = Visible("agent", out[-1].content + "\n\n" + m.content)
            else:
                out.append(Visible("agent", m.content))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class StoredReply:
    """One Customer step of a stored conversation: what the Customer saw, what it said.

    ``agent_acted``: whether a write tool had succeeded before the step, None when the
    stored record does not say (no call log)."""

    view: tuple[Visible, ...]
    step: CustomerStep
    agent_acted: bool | None = None

    def follows(self, turn: CustomerTurn) -> bool:
        """True when ``turn`` gives the Customer exactly what the stored step had."""
        if self.view != turn.view:
            return False
        if self.agent_acted is None:
            return self.step.end is None
        return self.agent_acted == turn.agent_acted


_END_REASONS: frozenset[str] = frozenset(get_args(EndReason))
"""Every reason a Customer ends a conversation with (tau2's stop tokens included): a
stored ``customer_done`` with one of them is reproduced, words and reason."""


def stored_replies(
    messages: Sequence[Message],
    *,
    termination: str,
    end_reason: str,
    shows: Callable[[Message], bool],
    writes: Collection[str] | None = frozenset(),
) -> tuple[StoredReply, ...]:
    """The Customer steps of a stored conversation, in order.

    ``writes``: the ids of the stored tool calls that were successful writes (a tool
    message answering one of them marks every later step ``agent_acted``); None when the
    record has no call log (``agent_acted`` unknown).

    Each Customer message is one step (seen: the view of the messages before it). A
    Customer that ended the conversation (``termination`` ``customer_done``) made one more
    step: its end, with its last words when it had some (a Customer message of the same
    turn as the one before it: an end's words do not open a turn) or without text after
    the last message.
    """
    out: list[StoredReply] = []
    ended = termination == "customer_done" and end_reason in _END_REASONS
    end: EndReason | None = end_reason if ended else None  # type: ignore[assignment]
    last_turn = 0
    customer_at = [i for i, m in enumerate(messages) if m.role == "customer"]

    def acted(upto: int) -> bool | None:
        if writes is None:
            return None
        return any(m.role == "tool" and m.tool_call_id in writes for m in messages[:upto])

    for position, i in enumerate(customer_at):
        message = messages[i]
        final_words = ended and position == len(customer_at) - 1 and message.turn == last_turn
        step = CustomerStep(content=message.content, end=end if final_words else None)
        out.append(StoredReply(customer_view(messages[:i], shows), step, acted(i)))
        if final_words:
            return tuple(out)
        last_turn = message.turn
    if ended:
        view = customer_view(messages, shows)
        out.append(StoredReply(view, CustomerStep(end=end), acted(len(messages))))
    return tuple(out)


class ReplayCustomer:
    """The unit's Customer, answering from a stored conversation while it is followed.

    Attributes:
        replayed: Replies taken from the stored conversation so far.
        diverged_turn: The Customer turn (1-based) of the first reply asked of the wrapped
            Customer, None while the conversation follows the stored one.
    """

    def __init__(self, inner: Customer, stored: Sequence[StoredReply]) -> None:
        self.name = inner.name
        self._inner = inner
        self._stored = tuple(stored)
        self._next = 0
        self.replayed = 0
        self.diverged_turn: int | None = None

    @property
    def faults(self) -> list[str]:
        """The wrapped Customer's recovered faults (it made every call there was)."""
        return list(getattr(self._inner, "faults", []))

    async def step(self, turn: CustomerTurn) -> CustomerStep:
        if self.diverged_turn is None and self._next < len(self._stored):
            stored = self._stored[self._next]
            if stored.follows(turn):
                self._next += 1
                self.replayed += 1
                return stored.step
        if self.diverged_turn is None:
            self.diverged_turn = turn.turn + 1
        return await self._inner.step(turn)
