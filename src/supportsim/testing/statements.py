"""The statement judge on the mock server: scripted verdicts, and what the autopilot says.

A statement judge's request is recognised by its structured tool, ``submit_statement_verdict``
(forced tool call or ``response_format`` JSON schema), and a statement reading's (``supportsim
judge-eval``) by ``submit_statement_reading``. Tests script verdicts per check
(``StatementScript``, in ``statement_script.py``: it falls back to the autopilot, which
uses this module):

    script = StatementScript({"step:say_refund": [verdict("yes", (5, "refunded"))]})
    server.default("judge-m", script)

Each question's first request takes the check's next scripted reply (a retry takes the one
after), so concurrent units and checks get their own answers whatever order they arrive in.

The autopilot (no script) answers every statement-judge question ``no`` with no quote and
the reason "autopilot: no scripted verdict": valid, deterministic, and true of the
autopilot's own agent line, which states nothing a check asks about. It answers a
statement reading with an empty reading (nothing stated).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from supportsim.scoring import MESSAGES_TAG, VERDICT_TOOL
from supportsim.testing.replies import Reply, call, reply, say
from supportsim.testing.server import RecordedRequest
from supportsim.validate import READING_TOOL

AUTOPILOT_REASON = "autopilot: no scripted verdict"
_CHECK = re.compile(r"^Check: (\S+)$", re.MULTILINE)
_BLOCK = re.compile(rf"<{MESSAGES_TAG}>\n(.*?)\n</{MESSAGES_TAG}>", re.DOTALL)


def verdict(answer: str, *quotes: tuple[int, str], reason: str = "scripted") -> Reply:
    """A judge's ``submit_statement_verdict`` call: ``answer`` (yes, no, unclear) and
    quotes as (message index, text)."""
    return reply(
        tool_calls=[
            call(
                VERDICT_TOOL,
                reason=reason,
                quotes=[{"message": n, "text": text} for n, text in quotes],
                verdict=answer,
            )
        ]
    )


def _texts(body: Mapping[str, Any]) -> list[str]:
    """Every text of a request (system and messages, OpenAI or Anthropic form)."""
    out: list[str] = []
    system = body.get("system")
    if isinstance(system, str):
        out.append(system)
    elif isinstance(system, list):
        out += [b.get("text", "") for b in system if isinstance(b, dict)]
    for m in body.get("messages") or ():
        content = m.get("content") if isinstance(m, dict) else None
        if isinstance(content, str):
            out.append(content)
        elif isinstance(content, list):
            out += [b.get("text", "") for b in content if isinstance(b, dict)]
    return out


def _structured_name(body: Mapping[str, Any]) -> str | None:
    fmt = body.get("response_format")
    if isinstance(fmt, dict) and isinstance(fmt.get("json_schema"), dict):
        return str(fmt["json_schema"].get("name"))
    for tool in body.get("tools") or ():
        if isinstance(tool, dict):
            inner = tool.get("function")
            function: dict[str, Any] = inner if isinstance(inner, dict) else tool
            if function.get("name") in (VERDICT_TOOL, READING_TOOL):
                return str(function["name"])
    return None


def is_statement_request(request: RecordedRequest) -> bool:
    """Whether ``request`` asks a statement judge's question."""
    return _structured_name(request.body) == VERDICT_TOOL


def is_reading_request(request: RecordedRequest) -> bool:
    """Whether ``request`` asks for a statement reading (``judge-eval``)."""
    return _structured_name(request.body) == READING_TOOL


@dataclass(frozen=True, slots=True)
class AskedQuestion:
    """A statement judge's question (or a statement reading) as the server received it."""

    check_id: str
    """The check asked about ("" for a reading)."""
    messages: tuple[tuple[int, str], ...]
    """The agent messages in the data block, (index, text)."""
    prompt: str
    """The question's user message (the first one)."""
    retry: bool
    """A corrected retry (the request carries the judge's earlier answer)."""


def asked_question(request: RecordedRequest) -> AskedQuestion:
    """The question a statement-judge request asks (check, messages in the data block)."""
    texts = _texts(request.body)
    prompt = next((t for t in texts if _BLOCK.search(t)), "")
    check = _CHECK.search(prompt)
    block = _BLOCK.search(prompt)
    rows = json.loads(block.group(1)) if block else []
    turns = request.body.get("messages") or ()
    retry = sum(1 for m in turns if isinstance(m, dict) and m.get("role") == "assistant") > 0
    return AskedQuestion(
        check.group(1) if check else "",
        tuple((int(r["n"]), str(r["text"])) for r in rows),
        prompt,
        retry,
    )


def _structured_reply(request: RecordedRequest, value: dict[str, Any]) -> Reply:
    name = _structured_name(request.body) or VERDICT_TOOL
    if isinstance(request.body.get("response_format"), dict):
        return say(json.dumps(value))
    return reply(tool_calls=[call(name, **value)])


def autopilot_statement(request: RecordedRequest) -> Reply | None:
    """The autopilot's answer to a statement-judge or reading request (None: neither)."""
    name = _structured_name(request.body)
    if name == VERDICT_TOOL:
        return _structured_reply(
            request, {"reason": AUTOPILOT_REASON, "quotes": [], "verdict": "no"}
        )
    if name == READING_TOOL:
        empty: dict[str, Any] = {
            "concepts": [],
            "facts": [],
            "claims": [],
            "promises": [],
            "discloses": [],
        }
        return _structured_reply(request, empty)
    return None
