"""Scripted statement-judge verdicts on the mock server (``StatementScript``); how a
statement judge's request is recognised and answered is ``statements.py``."""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from supportsim.testing.autopilot import autopilot
from supportsim.testing.replies import Reply
from supportsim.testing.server import RecordedRequest, Responder
from supportsim.testing.statements import AskedQuestion, asked_question, is_statement_request


@dataclass
class StatementScript:
    """A responder answering statement-judge questions by check id, in order per check
    (see the module docstring); any other request, and a check with no reply left, goes to
    ``fallback`` (default: the autopilot). ``asked`` lists every question received."""

    replies: Mapping[str, Sequence[Reply]]
    fallback: Responder | None = None
    asked: list[AskedQuestion] = field(default_factory=list)
    _queues: dict[str, deque[Reply]] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        self._queues = {k: deque(v) for k, v in self.replies.items()}

    def __call__(self, request: RecordedRequest) -> Reply:
        if is_statement_request(request):
            question = asked_question(request)
            self.asked.append(question)
            queue = self._queues.get(question.check_id)
            if queue:
                return queue.popleft()
        if self.fallback is not None:
            return self.fallback(request)
        return autopilot(request)
