"""Scripted participants (and the assertion judge) for whole tau2 runs on the mock server.

The simulated user opens with its task's reason for call (read from its own system prompt,
tau2's ``<scenario>``) and stops with ``###STOP###`` once the agent has answered. The agent
recognises the task by that opening and replays the task's gold actions, one tool call per
request, then reports; a task listed in ``flaky`` is solved only on its first conversation
(so pass^1 and pass^2 differ), one listed in ``idle`` never.
"""

from __future__ import annotations

import ast
import json
import re
import threading
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from supportsim.testing import (
    RecordedRequest,
    Reply,
    call,
    is_statement_request,
    reply,
    say,
    verdict,
)

FIXTURE = Path(__file__).parents[1] / "fixtures" / "tau2"
TASKS: dict[str, dict[str, Any]] = {
    t["id"]: t
    for t in json.loads((FIXTURE / "domains" / "retail" / "tasks.json").read_text("utf-8"))
}
OPENING = "Hello. {reason}"
DONE = "All done: I have taken care of everything you asked for."
STOP = "Thank you, that is everything. ###STOP###"
_REASON = re.compile(r"Reason for call:\n\t\t(.*?)\n\t[A-Z]", re.DOTALL)


def _messages(request: RecordedRequest) -> list[dict[str, Any]]:
    return [m for m in request.body["messages"] if m.get("role") != "system"]


def _text(message: dict[str, Any]) -> str:
    content = message.get("content") or ""
    if isinstance(content, str):
        return content
    return "".join(b.get("text", "") for b in content if isinstance(b, dict))


def _system(request: RecordedRequest) -> str:
    if request.api == "anthropic":
        system = request.body.get("system", "")
        return system if isinstance(system, str) else "".join(b["text"] for b in system)
    first = request.body["messages"][0]
    return first["content"] if first["role"] == "system" else ""


def user(request: RecordedRequest) -> Reply:
    """tau2's user simulator: the reason for call, then the stop token. As the run's
    default statement judge (the Customer's model) it answers the customer review's judged
    question ``no``: a question it failed was retried with the run's real backoff, about 15 s
    a unit, before being counted unclear."""
    if is_statement_request(request):
        return verdict("no", reason="in persona")
    match = _REASON.search(_system(request))
    assert match is not None, "the user simulator was not given tau2's user scenario"
    own = sum(m["role"] == "assistant" for m in _messages(request))
    return say(OPENING.format(reason=match.group(1).replace("\n\t\t", " ")) if own == 0 else STOP)


class Agent:
    """A responder playing the agent: replays the gold actions of the task it recognises."""

    def __init__(self, *, flaky: Iterable[str] = (), idle: Iterable[str] = ()) -> None:
        self.flaky, self.idle = set(flaky), set(idle)
        self.conversations: Counter[str] = Counter()
        self._lock = threading.Lock()

    def __call__(self, request: RecordedRequest) -> Reply:
        messages = _messages(request)
        task = self._task(_text(next(m for m in messages if m["role"] == "user")))
        done = self._calls_made(request)
        with self._lock:
            if done == 0 and len(messages) == 2:  # greeting + opening: a new conversation
                self.conversations[task] += 1
            n = self.conversations[task]
        actions = TASKS[task]["evaluation_criteria"]["actions"]
        acting = task not in self.idle and (task not in self.flaky or n == 1)
        if acting and done < len(actions):
            action = actions[done]
            return reply(tool_calls=[call(action["name"], **action["arguments"])])
        return say(DONE)

    @staticmethod
    def _task(opening: str) -> str:
        for task_id, task in TASKS.items():
            reason = task["user_scenario"]["instructions"]["reason_for_call"]
            if opening == OPENING.format(reason=reason.replace("\n", " ")):
                return task_id
        raise AssertionError(f"no task opens with {opening[:80]!r}")

    @staticmethod
    def _calls_made(request: RecordedRequest) -> int:
        if request.api == "openai":
            return sum(len(m.get("tool_calls") or ()) for m in _messages(request))
        return sum(
            1
            for m in _messages(request)
            if isinstance(m.get("content"), list)
            for b in m["content"]
            if b.get("type") == "tool_use"
        )


_OUTCOMES = re.compile(r"expectedOutcomes:\s*(\[.*\])", re.DOTALL)


def judge(request: RecordedRequest) -> Reply:
    """tau2's NL assertion judge: every expected outcome met, in tau2's reply format."""
    match = _OUTCOMES.search(_text(_messages(request)[-1]))
    assert match is not None, "the judge was not given tau2's expected outcomes"
    results = [
        {"expectedOutcome": o, "reasoning": "the agent said so", "metExpectation": True}
        for o in ast.literal_eval(match.group(1))
    ]
    return say(json.dumps({"results": results}))
