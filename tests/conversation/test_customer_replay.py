"""The replayed Customer: stored replies while the conversation follows the stored one,
the wrapped Customer from the first divergence on."""

from __future__ import annotations

from supportsim.conversation import (
    SUPPORTSIM_RULES,
    CustomerStep,
    CustomerTurn,
    Message,
    ReplayCustomer,
    Visible,
    customer_view,
    stored_replies,
)
from supportsim.llm import ToolCall

STORED = (
    Message("customer", "Hi, I was charged twice.", turn=1),
    Message("agent", "", tool_calls=()),  # empty text: never shown
    Message("agent", "Which order?"),
    Message("customer", "Order 7.", turn=2),
    Message("agent", "Refunded."),
    Message("customer", "Thanks, bye.", turn=2),  # last words of the end: same turn
)


class Counting:
    name = "model"

    def __init__(self) -> None:
        self.asked: list[CustomerTurn] = []
        self.faults: list[str] = ["empty"]

    async def step(self, turn: CustomerTurn) -> CustomerStep:
        self.asked.append(turn)
        return CustomerStep(content=f"model reply {len(self.asked)}")


def replies() -> tuple:
    return stored_replies(
        STORED,
        termination="customer_done",
        end_reason="satisfied",
        shows=SUPPORTSIM_RULES.shows_customer,
    )


def test_stored_replies_are_each_customer_step_with_what_it_saw() -> None:
    steps = replies()
    assert [s.step for s in steps] == [
        CustomerStep("Hi, I was charged twice."),
        CustomerStep("Order 7."),
        CustomerStep("Thanks, bye.", end="satisfied"),
    ]
    assert steps[1].view == (
        Visible("customer", "Hi, I was charged twice."),
        Visible("agent", "Which order?"),
    )


def test_an_end_without_words_is_a_last_step_after_the_last_message() -> None:
    steps = stored_replies(
        STORED[:5],
        termination="customer_done",
        end_reason="gave_up",
        shows=SUPPORTSIM_RULES.shows_customer,
    )
    assert steps[-1].step == CustomerStep(end="gave_up")
    assert steps[-1].view == customer_view(STORED[:5], SUPPORTSIM_RULES.shows_customer)
    other = stored_replies(
        STORED[:5], termination="max_turns", end_reason="", shows=SUPPORTSIM_RULES.shows_customer
    )
    assert [s.step.end for s in other] == [None, None]


async def test_replies_are_replayed_while_followed_and_the_model_answers_after() -> None:
    inner = Counting()
    customer = ReplayCustomer(inner, replies())
    first = await customer.step(CustomerTurn((), 0))
    assert first.content == "Hi, I was charged twice." and not inner.asked
    seen = customer_view(STORED[:3], SUPPORTSIM_RULES.shows_customer)
    assert (await customer.step(CustomerTurn(seen, 1))).content == "Order 7."
    changed = (*customer_view(STORED[:4], SUPPORTSIM_RULES.shows_customer), Visible("agent", "No."))
    assert (await customer.step(CustomerTurn(changed, 2))).content == "model reply 1"
    assert customer.replayed == 2 and customer.diverged_turn == 3
    # once diverged, always the model: even a view that matches a stored one again
    assert (await customer.step(CustomerTurn(seen, 1))).content == "model reply 2"
    assert customer.faults == ["empty"]


async def test_a_conversation_that_follows_to_the_end_never_diverges() -> None:
    inner = Counting()
    customer = ReplayCustomer(inner, replies())
    views = [s.view for s in replies()]
    for turn, view in enumerate(views):
        await customer.step(CustomerTurn(view, turn))
    assert customer.replayed == 3 and customer.diverged_turn is None and not inner.asked


async def test_a_tau2_stop_is_reproduced_as_the_stored_end_without_a_model_call() -> None:
    stored = (
        Message("customer", "Hi, I want a refund.", turn=1),
        Message("agent", "Done."),
        Message("customer", "Thanks. ###STOP###", turn=1),  # the stop: same turn
    )
    steps = stored_replies(
        stored,
        termination="customer_done",
        end_reason="tau2_stop",
        shows=SUPPORTSIM_RULES.shows_customer,
    )
    assert steps[-1].step == CustomerStep("Thanks. ###STOP###", end="tau2_stop")
    inner = Counting()
    customer = ReplayCustomer(inner, steps)
    for turn, step in enumerate(steps):
        got = await customer.step(CustomerTurn(step.view, turn))
        assert got == step.step
    assert not inner.asked and customer.diverged_turn is None


WROTE = (
    Message("customer", "Refund order 7.", turn=1),
    Message("agent", "", tool_calls=(ToolCall("c1", "refund", "{}"),)),
    Message("tool", "ok", tool_call_id="c1"),
    Message("agent", "Refunded."),
    Message("customer", "Thanks, bye.", turn=1),
)


def wrote_steps(writes: frozenset[str] | None) -> tuple:
    return stored_replies(
        WROTE,
        termination="customer_done",
        end_reason="satisfied",
        shows=SUPPORTSIM_RULES.shows_customer,
        writes=writes,
    )


async def test_a_step_whose_agent_acted_differs_is_asked_of_the_model() -> None:
    steps = wrote_steps(frozenset({"c1"}))
    assert [s.agent_acted for s in steps] == [False, True]
    inner = Counting()
    customer = ReplayCustomer(inner, steps)
    await customer.step(CustomerTurn((), 0))
    # the same words from the Agent, but no write succeeded this time: the guard must run
    reply = await customer.step(CustomerTurn(steps[1].view, 1, agent_acted=False))
    assert reply.content == "model reply 1" and customer.diverged_turn == 2
    again = ReplayCustomer(Counting(), steps)
    await again.step(CustomerTurn((), 0))
    assert (await again.step(CustomerTurn(steps[1].view, 1, agent_acted=True))).end == "satisfied"


async def test_an_unknown_agent_acted_replays_replies_but_never_a_stored_end() -> None:
    steps = wrote_steps(None)
    assert [s.agent_acted for s in steps] == [None, None]
    inner = Counting()
    customer = ReplayCustomer(inner, steps)
    assert (await customer.step(CustomerTurn((), 0))).content == "Refund order 7."
    assert (await customer.step(CustomerTurn(steps[1].view, 1, True))).content == "model reply 1"
