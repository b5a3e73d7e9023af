"""Offline dry runs: the script-file loader, the autopilot responder and :func:`serve`.

``serve()`` runs a :class:`~supportsim.testing.server.MockLLMServer` until cancelled so a
user can point a supportsim configuration at it (OpenAI ``base_url=<url>/v1``, Anthropic
``base_url=<url>``) and check the wiring without a provider account or network.

Script file (YAML or JSON) maps a model name to the replies that model gives, in order::

    agent-model:
      - say: "Hello! How can I help?"
      - tool_calls: [{name: lookup_order, args: {order_id: A1}}]
      - {error: 429, retry_after_s: 1}
      - {say: "Done.", reasoning: "the order shipped", ttft_ms: 300, total_ms: 900}
      - {hang: true}
      - {truncated: "Your order is"}

A model's entry may instead be a mapping with its ``latency`` (``"TTFT/TOTAL"`` in ms) and
optional ``replies`` (see :mod:`supportsim.testing.latency`). When a scripted model's
replies run out, ``serve`` says so through its ``warn`` callback (the CLI prints it to
stderr), naming the model, how many replies it had and the latency the autopilot answers
at from then on, so an exhausted script is never silently timed at 0 ms.

Autopilot: every model without (or after) a script is answered by :func:`autopilot`, which
makes a plausible conversation possible with no script at all:

* a request that offers a tool named ``end_conversation`` is taken to be the simulated
  customer: once the request holds at least two earlier assistant turns it calls
  ``end_conversation`` with ``{"reason": "satisfied"}``, before that it says a short
  customer-like sentence;
* a request whose system prompt asks for tau2-bench's ``###STOP###`` token is taken to be
  tau2's user simulator (``--conversation-mode tau2``): it says the same customer lines, and
  from its third message ends with ``###STOP###``;
* a statement judge's question (``submit_statement_verdict``) is answered ``no``, with no
  quote (``supportsim.testing.statements``: valid, and true of the autopilot's own agent
  line); a statement reading (``judge-eval``) is answered with an empty reading;
* a request that forces a tool call (``tool_choice`` required / any), as a judge's
  verdict does, gets one call of the first tool with arguments that fit its schema;
* any other request is taken to be the agent, which answers
  "Thanks, I have noted that. Is there anything else?".
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from supportsim._yaml import read_yaml
from supportsim.errors import InputError, ScenarioError
from supportsim.testing.latency import ALL_MODELS, Latency, latency_from_script
from supportsim.testing.replies import Reply, call, reply, reply_from_dict, say
from supportsim.testing.server import MockLLMServer, RecordedRequest
from supportsim.testing.statements import autopilot_statement

__all__ = [
    "AGENT_LINE",
    "CUSTOMER_LINES",
    "Script",
    "autopilot",
    "load_script",
    "load_script_file",
    "serve",
]

AGENT_LINE = "Thanks, I have noted that. Is there anything else?"
CUSTOMER_LINES = (
    "Hi, I have a problem with my recent order and need some help.",
    "It still has not arrived. Can you check what is going on?",
    "Okay, thank you, that helps.",
)
_END_TOOL = "end_conversation"
TAU2_STOP = "###STOP###"
TAU2_CLOSING = "Thank you, that is all I needed. ###STOP###"


def _tool_names(body: dict[str, Any]) -> set[str]:
    """Tool names offered by an OpenAI (``tools[].function.name``) or Anthropic request."""
    names: set[str] = set()
    for tool in body.get("tools") or ():
        if isinstance(tool, dict):
            function = tool.get("function")
            name = function.get("name") if isinstance(function, dict) else tool.get("name")
            if isinstance(name, str):
                names.add(name)
    return names


def _tools(body: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(name, JSON schema of the arguments) of every tool a request offers."""
    out = []
    for tool in body.get("tools") or ():
        if isinstance(tool, dict):
            nested = tool.get("function")
            function = nested if isinstance(nested, dict) else tool
            schema = function.get("parameters") or function.get("input_schema") or {}
            out.append((str(function.get("name")), schema if isinstance(schema, dict) else {}))
    return out


def _system_text(body: dict[str, Any]) -> str:
    """The system prompt of an OpenAI (a leading system message) or Anthropic request."""
    system = body.get("system")
    if system is None:
        messages = body.get("messages") or ()
        first = messages[0] if messages and isinstance(messages[0], dict) else {}
        system = first.get("content") if first.get("role") in ("system", "developer") else ""
    if isinstance(system, list):
        return "".join(b.get("text", "") for b in system if isinstance(b, dict))
    return system if isinstance(system, str) else ""


def _forced(body: dict[str, Any]) -> bool:
    choice = body.get("tool_choice")
    return choice == "required" or (isinstance(choice, dict) and choice.get("type") == "any")


def example_value(schema: dict[str, Any]) -> Any:
    """A value that fits a JSON schema: first enum value, true, 1, "ok", filled objects."""
    if "enum" in schema:
        return schema["enum"][0]
    if "const" in schema:
        return schema["const"]
    for key in ("anyOf", "oneOf"):
        if key in schema:
            options = [o for o in schema[key] if o.get("type") != "null"] or schema[key]
            return example_value(options[0])
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object" or "properties" in schema:
        props = schema.get("properties") or {}
        return {name: example_value(sub) for name, sub in props.items()}
    if kind == "array":
        return [example_value(schema.get("items") or {})] * max(1, schema.get("minItems", 0))
    return {"boolean": True, "integer": 1, "number": 1, "null": None}.get(
        str(kind), "autopilot answer"
    )


def autopilot(request: RecordedRequest) -> Reply:
    """Answer any request plausibly with no script (see the module docstring for the rule)."""
    if (answer := autopilot_statement(request)) is not None:
        return answer
    if _forced(request.body) and (tools := _tools(request.body)):
        # Structured output (a judge's verdict, a drafted scenario): one call that fits.
        name, schema = tools[0]
        return reply(tool_calls=[call(name, **example_value(schema))])
    fmt = request.body.get("response_format")
    if isinstance(fmt, dict) and isinstance(fmt.get("json_schema"), dict):
        # Structured output by response_format (an open-model server's grammar): JSON text.
        schema = fmt["json_schema"].get("schema") or {}
        return say(json.dumps(example_value(schema)))
    messages = request.body.get("messages") or ()
    turns = sum(1 for m in messages if isinstance(m, dict) and m.get("role") == "assistant")
    if TAU2_STOP in _system_text(request.body):
        return say(CUSTOMER_LINES[turns] if turns < 2 else TAU2_CLOSING)
    if _END_TOOL not in _tool_names(request.body):
        return say(AGENT_LINE)
    if turns >= 2:
        return reply(tool_calls=[call(_END_TOOL, reason="satisfied")])
    return say(CUSTOMER_LINES[min(turns, len(CUSTOMER_LINES) - 1)])


@dataclass(frozen=True, slots=True)
class Script:
    """A script file: replies per model, and the latency of the models that set one."""

    replies: dict[str, list[Reply]] = field(default_factory=dict)
    latency: dict[str, Latency] = field(default_factory=dict)


def load_script(path: Path) -> dict[str, list[Reply]]:
    """Read a script file into per-model reply lists (its latencies: ``load_script_file``).

    Raises:
        InputError: As ``load_script_file``.
    """
    return load_script_file(path).replies


def load_script_file(path: Path) -> Script:
    """Read a script file: per model, a list of replies, or ``{latency, replies}``.

    Raises:
        InputError: The file is missing, unparseable (the shared reader's limits apply),
            or an entry is invalid; the message names the file, the model and the entry
            index (or its ``latency``).
    """
    doc, problems = read_yaml(path)
    if doc is None or problems:
        raise ScenarioError(problems)
    data = doc.data
    if data is None:
        return Script()
    if not isinstance(data, dict):
        raise InputError(f"{path}: expected a mapping of model name -> list of replies")
    script = Script()
    for model, entry in data.items():
        where = f"{path} [{model}]"
        entries = entry
        if isinstance(entry, dict):
            unknown = sorted(set(entry) - {"latency", "replies"})
            if unknown:
                raise InputError(
                    f"{where}: expected a list of replies, or a mapping of latency and "
                    f"replies; unknown key(s) {unknown}"
                )
            if "latency" in entry:
                where_latency = f"{where}[latency]"
                script.latency[str(model)] = latency_from_script(
                    entry["latency"], where=where_latency
                )
            entries = entry.get("replies") or []
        if not isinstance(entries, list):
            raise InputError(f"{where}: expected a list of replies")
        if entries:
            script.replies[str(model)] = [
                reply_from_dict(item, where=f"{where}[{index}]")
                for index, item in enumerate(entries)
            ]
    return script


def _ran_out(model: str, served: int, latency: Latency | None) -> str:
    timing = (
        f"at {latency}"
        if latency is not None
        else f"at 0 ms: no latency set for it (--latency {model}=TTFT/TOTAL)"
    )
    return (
        f"mock server: the script for model {model!r} ran out after {served} "
        f"repl{'y' if served == 1 else 'ies'}; the autopilot answers it from now on, {timing}"
    )


async def serve(
    host: str = "127.0.0.1",
    port: int = 0,
    script_file: Path | None = None,
    *,
    ready: Callable[[MockLLMServer], None] | None = None,
    latency: Mapping[str, Latency] | None = None,
    warn: Callable[[str], None] | None = None,
) -> None:
    """Serve scripted replies, then autopilot, until cancelled.

    Args:
        host: Interface to bind; keep the loopback default unless you mean to expose it.
        port: TCP port; 0 picks a free one (read it from ``server.url`` in ``ready``).
        script_file: Optional YAML/JSON script (format in the module docstring).
        ready: Called with the started server, e.g. to print its URL.
        latency: Per-model timing (``*``: every other model), over the script file's
            ``latency`` entries for the same model.
        warn: Called with one line when a scripted model's replies run out (default:
            nothing is said; the CLI passes its stderr printer).

    Raises:
        InputError: The script file is invalid (raised before binding the port), or the
            port cannot be bound (in use, not permitted).
    """
    script = load_script_file(script_file) if script_file is not None else Script()
    timings = {**script.latency, **(latency or {})}
    server = MockLLMServer(host=host, port=port)
    try:
        await server.start()
    except OSError as exc:  # port in use, no permission, unknown host: the user's to fix
        raise InputError(
            f"--port {port}: cannot listen on {host}:{port} ({exc.strerror or exc}); "
            "pick another port, or 0 for any free one"
        ) from None
    try:
        for model, replies in script.replies.items():
            server.script(model, replies)
        for model, timing in timings.items():
            if model == ALL_MODELS:
                server.latency(ttft_ms=timing.ttft_ms, total_ms=timing.total_ms)
            else:
                server.model_latency(model, ttft_ms=timing.ttft_ms, total_ms=timing.total_ms)
        if warn is not None:
            say_ran_out = warn

            def ran_out(model: str, served: int) -> None:
                say_ran_out(_ran_out(model, served, timings.get(model, timings.get(ALL_MODELS))))

            server.on_script_end = ran_out
        server.default(None, autopilot)
        if ready is not None:
            ready(server)
        await asyncio.Event().wait()
    finally:
        await server.stop()
