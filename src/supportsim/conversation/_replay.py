"""Replaying a stored conversation's Customer (``--replay-customer``).

A prompt change is best judged against the same Customer behaviour. ``ReplayCustomer``
wraps the unit's Customer: while the new conversation follows the stored one, each
Customer reply is the stored reply, and no model is called; from the first step at which
the Customer would see something the stored Customer did not (an Agent message that
differs, as the Customer sees it: ``customer_view``), or the stored conversation has no
further reply, the wrapped Customer answers, and goes on answering to the end.

"Follows" is exact: the whole view the Customer is given (every Customer and Agent message
it sees, in order, Agent text merged as the rules show it) equals the stored Customer's
view at the same step. The Customer's replies before the divergence are the stored ones,
so after it the wrapped Customer is given that replayed history, as a Customer that had
said those things.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

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
    """One Customer step of a stored conversation: what the Customer saw, what it said."""

    view: tuple[Visible, ...]
    step: CustomerStep


_END_REASONS: frozenset[str] = frozenset({"satisfied", "gave_up", "accepted_transfer"})


def stored_replies(
    messages: Sequence[Message],
    *,
    termination: str,
    end_reason: str,
    shows: Callable[[Message], bool],
) -> tuple[StoredReply, ...]:
    """The Customer steps of a stored conversation, in order.

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
    for position, i in enumerate(customer_at):
        message = messages[i]
        final_words = ended and position == len(customer_at) - 1 and message.turn == last_turn
        step = CustomerStep(content=message.content, end=end if final_words else None)
        out.append(StoredReply(customer_view(messages[:i], shows), step))
        if final_words:
            return tuple(out)
        last_turn = message.turn
    if ended:
        out.append(StoredReply(customer_view(messages, shows), CustomerStep(end=end)))
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
            if stored.view == turn.view:
                self._next += 1
                self.replayed += 1
                return stored.step
        if self.diverged_turn is None:
            self.diverged_turn = turn.turn + 1
        return await self._inner.step(turn)
