"""How the Customer takes its turns and ends: ending before the Agent could act, asking
the Agent's questions back, saying it is done without ending, saying the same again.

A conversation that reaches ``max_turns`` because the Customer would not end (it loops,
or says it is done and goes on) is the Customer's failure: those findings are critical
then, and only then (in a conversation that ended normally they cost the Agent nothing).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from supportsim.conversation import Message, Transcript
from supportsim.scenario import Scenario
from supportsim.scoring.review._findings import Finding
from supportsim.scoring.review._markers import asks_for_identity, asks_go_ahead, folded, says_done

REPEAT_MIN_WORDS = 5
"""Shorter messages ("Yes, please.", "Okay, go ahead.") may fairly be said twice."""
REPEAT_SIMILARITY = 0.85
"""Word-set overlap (Jaccard) at which a message repeats an earlier one."""
_ENDS_WITHOUT_ACTION = frozenset({"satisfied", "gave_up", "script_done", "tau2_stop"})


def pending_writes(
    scenario: Scenario, transcript: Transcript, writes: Collection[str]
) -> list[str]:
    """Required write steps of the workflow no successful call has made yet (by tool)."""
    done = {c.name for c in transcript.calls if c.ok}
    return [
        s.id
        for s in scenario.workflow
        if not s.optional and s.tool is not None and s.tool in writes and s.tool not in done
    ]


def premature_end(
    scenario: Scenario, transcript: Transcript, writes: Collection[str]
) -> list[Finding]:
    """The Customer ended while a required write was still to be made, right after the
    Agent asked its go-ahead ("shall I go ahead?"), or ended ``satisfied`` anyway. Points
    at the Customer's last words after the question, or else at the question. Critical:
    the Agent could not make the write."""
    if transcript.termination != "customer_done":
        return []
    if transcript.end_reason not in _ENDS_WITHOUT_ACTION:
        return []
    pending = pending_writes(scenario, transcript, writes)
    if not pending:
        return []
    messages, lang = transcript.messages, scenario.language
    agent = next((i for i in reversed(range(len(messages))) if _agent_says(messages[i])), None)
    if agent is None:
        return []
    after = [i for i in range(agent + 1, len(messages)) if messages[i].role == "customer"]
    where = after[-1] if after else agent
    steps = ", ".join(pending)
    said = messages[agent].content
    if asks_go_ahead(said, lang) and _CLAIMS.search(folded(said)) is None:
        detail = (
            f"the customer ended ({transcript.end_reason}) right after the agent asked its "
            f"go-ahead, before the write it needs ({steps})"
        )
        return [Finding("premature_end", where, detail, True)]
    if transcript.end_reason == "satisfied":
        # after a claim ("Done, the refund is on its way"), a refusal or a failure the
        # Agent spoke last: ending is fair, the missing write is the Agent's
        detail = f"the customer ended satisfied before the write it needs ({steps})"
        return [Finding("premature_end", where, detail, False)]
    return []


_CLAIMS = re.compile(
    r"\b(done|refunded|processed|completed|is on its way|has been|have been|i'?ve|i have|"
    r"failed|can'?t|cannot|unable|not able|won'?t|sorry|erledigt|erstattet|nicht moglich|"
    r"fait|rembourse|impossible|hecho|reembolsado|no puedo)\b"
)
"""An Agent message that says something is done, failed or refused: a go-ahead question
in it ("All done! Anything else?", "The refund failed. Shall I try again?") is no
request for permission to a write still to come."""


def _agent_says(m: Message) -> bool:
    return m.role == "agent" and bool(m.content)


def _customer(messages: Sequence[Message]) -> list[int]:
    return [i for i, m in enumerate(messages) if m.role == "customer" and m.content]


def role_reversal(scenario: Scenario, transcript: Transcript, *, stuck: bool) -> list[Finding]:
    """The Customer asks the Agent for the Agent's own questions ("please provide me with
    your customer id"). ``stuck``: the conversation hit ``max_turns`` (then critical)."""
    out = []
    for i in _customer(transcript.messages):
        asked = asks_for_identity(transcript.messages[i].content, scenario.language)
        if asked is not None:
            detail = f"the customer asks the agent for the agent's own details: {asked!r}"
            out.append(Finding("role_reversal", i, detail[:300], stuck))
    return out


def said_done_without_ending(
    scenario: Scenario, transcript: Transcript, *, stuck: bool
) -> list[Finding]:
    """The Customer says it is finished ("that's all, goodbye", "please end the chat") and
    the conversation goes on: it writes twice more (one more "bye" is fair), or the turn
    limit ends it. Critical when it reached ``max_turns``."""
    messages = transcript.messages
    said = _customer(messages)
    out = []
    for n, i in enumerate(said):
        if not says_done(messages[i].content, scenario.language):
            continue
        went_on = n + 2 < len(said) or transcript.termination == "max_turns"
        if went_on:
            out.append(
                Finding(
                    "said_done_without_ending",
                    i,
                    "the customer said it was done but did not end the conversation",
                    stuck,
                )
            )
            break  # once is enough: the rest is the same failure
    return out


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+", folded(text)))


def _alike(a: set[str], b: set[str]) -> bool:
    return bool(a | b) and len(a & b) / len(a | b) >= REPEAT_SIMILARITY


def repeating(transcript: Transcript, *, stuck: bool) -> list[Finding]:
    """A Customer message of at least ``REPEAT_MIN_WORDS`` words that repeats an earlier
    one of its own (word sets ``REPEAT_SIMILARITY`` alike). Critical when the conversation
    reached ``max_turns``: the Customer looped instead of ending."""
    messages = transcript.messages
    seen: list[tuple[int, set[str]]] = []
    out = []
    asked: dict[int, set[str]] = {}  # customer message -> words of the Agent's question
    last: set[str] = set()
    for i, m in enumerate(messages):
        if m.role == "agent" and m.content:
            last = _words(m.content)
        elif m.role == "customer" and m.content:
            asked[i] = last
    for i in _customer(messages):
        words = _words(messages[i].content)
        if len(words) >= REPEAT_MIN_WORDS:
            # the same answer to the Agent asking the same again is the Agent's loop
            seen = [(j, e) for j, e in seen if not _alike(asked[i], asked[j])]
            for j, earlier in seen:
                if len(words & earlier) / len(words | earlier) >= REPEAT_SIMILARITY:
                    detail = f"the customer repeats its message {j} instead of moving on"
                    out.append(Finding("repeating", i, detail, stuck))
                    break
            seen.append((i, words))
    return out[:1] if not stuck else out
