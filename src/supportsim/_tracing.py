"""Optional OpenTelemetry spans of a run, following the GenAI semantic conventions.

Off by default, and then free: ``opentelemetry`` is never imported, ``traced_model_call``
hands back the call it was given, and every other hook is one ``is None`` test. On
(``supportsim run --otel``, or an ``OTEL_EXPORTER_OTLP_ENDPOINT`` in the environment,
unless ``OTEL_SDK_DISABLED=true``), spans go over OTLP/HTTP to the collector that the
standard ``OTEL_EXPORTER_OTLP_*`` variables name (Langfuse, LangSmith, Phoenix, Jaeger).

The tree of one run::

    supportsim run RUN_ID                      (the batch)
    └── conversation SCENARIO                  (one unit: scenario x agent x trial)
        └── turn N                             (a customer message and the reply to it)
            ├── chat MODEL                     (gen_ai.operation.name=chat; retries inside)
            └── execute_tool TOOL              (gen_ai.operation.name=execute_tool)

Attributes carry ids, models, token usage, cost, statuses and scores, never a credential:
API keys and auth headers stay in the SDK clients and the exporter, a server is named by
its host alone, and an error by its type and HTTP status, not its message. What was said
(prompts, replies, tool arguments and results, and so the simulated customer's hidden goal)
is recorded only with ``--otel-content`` or
``OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true``.

Hooks are one line where the work happens: ``traced_run`` (batch ``execute``),
``traced_conversation`` (``run_unit``), ``turn_started``/``turn_ended`` (the conversation
graph), ``traced_model_call`` (the model pool's caller), ``traced_tool_call``
(``Environment.call``).
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar
from urllib.parse import urlsplit

import orjson

P = ParamSpec("P")
T = TypeVar("T")

INSTRUMENTATION = "supportsim"
CONTENT_ENV = "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"
ENDPOINT_ENVS = ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
EXTRA_HINT = "pip install 'supportsim[otel]'"


class TracingUnavailable(Exception):
    """``--otel`` was asked for but the OpenTelemetry SDK or exporter is not installed."""


@dataclass(slots=True)
class _Tracing:
    tracer: Any
    content: bool
    api: Any  # the opentelemetry.trace module, imported only when on


_state: _Tracing | None = None


@dataclass(slots=True)
class _Conversation:
    """The open conversation's spans, shared (by reference) with the graph's node tasks."""

    span: Any
    conversation_id: str
    turn: Any | None = None


_current: ContextVar[_Conversation | None] = ContextVar("supportsim_conversation", default=None)


def tracing_on() -> bool:
    return _state is not None


def wanted(flag: bool, env: Mapping[str, str]) -> bool:
    """Whether spans are asked for: ``--otel`` or an OTLP endpoint in the environment,
    unless ``OTEL_SDK_DISABLED`` is true (the standard switch wins over both)."""
    if env.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return False
    return flag or any(env.get(name, "").strip() for name in ENDPOINT_ENVS)


def content_wanted(flag: bool, env: Mapping[str, str]) -> bool:
    return flag or env.get(CONTENT_ENV, "").strip().lower() == "true"


def use_tracer_provider(provider: Any, *, content: bool = False) -> None:
    """Trace into ``provider`` (an SDK ``TracerProvider``): tests, or a host application
    that configured OpenTelemetry itself."""
    global _state
    from opentelemetry import trace

    _state = _Tracing(provider.get_tracer(INSTRUMENTATION), content, trace)


def stop_tracing() -> None:
    """Back to the no-op path (the provider is left to whoever owns it)."""
    global _state
    _state = None


def start_tracing(*, flag: bool, content: bool, env: Mapping[str, str]) -> Callable[[], None]:
    """Set up OTLP/HTTP export when asked for; returns what flushes and stops it.

    The exporter reads ``OTEL_EXPORTER_OTLP_*`` (endpoint, headers) itself; the service
    is named ``supportsim`` unless ``OTEL_SERVICE_NAME`` says otherwise.

    Raises:
        TracingUnavailable: Asked for, but the ``otel`` extra is not installed.
    """
    if not wanted(flag, env):
        return lambda: None
    try:
        from opentelemetry import trace
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor
    except ImportError as exc:
        raise TracingUnavailable(
            f"tracing needs the OpenTelemetry SDK and OTLP exporter: {EXTRA_HINT} ({exc.name})"
        ) from None
    named = {} if env.get("OTEL_SERVICE_NAME") else {"service.name": INSTRUMENTATION}
    provider = TracerProvider(resource=Resource.create(named))
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    trace.set_tracer_provider(provider)  # so an Agent's own instrumentation nests under ours
    use_tracer_provider(provider, content=content_wanted(content, env))

    def stop() -> None:
        stop_tracing()
        provider.shutdown()  # flushes the spans still queued

    return stop


# --- hooks -------------------------------------------------------------------------------


def traced_run(execute: Callable[P, Awaitable[T]]) -> Callable[P, Coroutine[Any, Any, T]]:
    """Decorates batch ``execute(session, ...)``: the run's root span."""

    @functools.wraps(execute)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        if _state is None:
            return await execute(*args, **kwargs)
        session = args[0]
        attrs = {
            "supportsim.run.id": str(getattr(session, "run_id", "")),
            "supportsim.run.units": len(getattr(session, "todo", ()) or ()),
        }
        with _span(_state, f"supportsim run {attrs['supportsim.run.id']}".strip(), attrs) as span:
            result = await execute(*args, **kwargs)
            span.set_attribute("supportsim.run.status", str(getattr(result, "status", "")))
            return result

    return wrapper


def traced_conversation(
    run_unit: Callable[P, Awaitable[T]],
) -> Callable[P, Coroutine[Any, Any, T]]:
    """Decorates ``run_unit(unit, ctx)``: one conversation, with its status and scores."""

    @functools.wraps(run_unit)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        if _state is None:
            return await run_unit(*args, **kwargs)
        state, unit = _state, args[0]
        scenario = str(getattr(unit, "scenario_id", ""))
        conversation_id = str(getattr(unit, "unit_id", ""))
        attrs = {
            "gen_ai.conversation.id": conversation_id,
            "gen_ai.agent.name": str(getattr(unit, "agent", "")),
            "supportsim.scenario.id": scenario,
            "supportsim.trial": int(getattr(unit, "trial", 0)),
        }
        with _span(state, f"conversation {scenario}", attrs) as span:
            token = _current.set(_Conversation(span, conversation_id))
            try:
                record = await run_unit(*args, **kwargs)
            finally:
                turn_ended()
                _current.reset(token)
            _record_outcome(state, span, record)
            return record

    return wrapper


def _record_outcome(state: _Tracing, span: Any, record: Any) -> None:
    status = str(getattr(record, "status", ""))
    span.set_attributes(
        _clean(
            {
                "supportsim.status": status,
                "supportsim.termination": getattr(record, "termination", None),
                "supportsim.strict": getattr(record, "strict", None),
                "supportsim.partial": getattr(record, "partial", None),
                "supportsim.cost_usd": getattr(record, "cost_usd", None),
                "supportsim.customer": getattr(record, "customer", None),
            }
        )
    )
    if status and status != "completed":
        span.set_status(state.api.Status(state.api.StatusCode.ERROR, status))


def turn_started(turn: int) -> None:
    """The graph begins customer turn ``turn`` (the previous one, if open, ends)."""
    if _state is None or (conv := _current.get()) is None:
        return
    turn_ended()
    context = _state.api.set_span_in_context(conv.span)
    conv.turn = _state.tracer.start_span(
        f"turn {turn}",
        context=context,
        attributes={"supportsim.turn": turn, "gen_ai.conversation.id": conv.conversation_id},
    )


def turn_ended() -> None:
    """The Agent replied (or the conversation ended): close the open turn, if any."""
    if _state is None or (conv := _current.get()) is None or conv.turn is None:
        return
    conv.turn.end()
    conv.turn = None


def _parent() -> Any | None:
    """The context a model or tool span hangs from: the open turn, else the current span."""
    conv = _current.get()
    if _state is None or conv is None:
        return None
    return _state.api.set_span_in_context(conv.turn or conv.span)


def traced_model_call(
    call: Callable[[Any], Awaitable[T]], config: Any, role: str
) -> Callable[[Any], Awaitable[T]]:
    """Wraps one model caller (``call(request) -> response``, retries inside) of
    ``config`` (a ``ModelConfig``) used as ``role`` (agent, customer, judge...)."""
    if _state is None:
        return call
    provider, model = str(config.provider), str(config.model)
    attrs = _clean(
        {
            "gen_ai.operation.name": "chat",
            "gen_ai.provider.name": provider,
            "gen_ai.system": provider,  # the older name, still what many backends read
            "gen_ai.request.model": model,
            "server.address": _host(getattr(config, "base_url", None)),
            "supportsim.role": role,
            "supportsim.model": str(getattr(config, "name", "")),
        }
    )

    async def traced(request: Any) -> T:
        state = _state
        if state is None:
            return await call(request)
        with _span(state, f"chat {model}", attrs, kind="CLIENT") as span:
            if state.content:
                span.set_attributes(_request_content(request))
            response = await call(request)
            span.set_attributes(_response_attributes(response, state.content))
            return response

    return traced


def traced_tool_call(call: Callable[P, Awaitable[T]]) -> Callable[P, Coroutine[Any, Any, T]]:
    """Decorates ``Environment.call(self, name, arguments, call_id)``: spans only inside a
    turn, so the scorer's replay of the reference workflow is not traced."""

    @functools.wraps(call)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        conv = _current.get()
        state = _state
        if state is None or conv is None or conv.turn is None:
            return await call(*args, **kwargs)
        name = str(args[1] if len(args) > 1 else kwargs.get("name", ""))
        call_id = args[3] if len(args) > 3 else kwargs.get("call_id", "")
        attrs = _clean(
            {
                "gen_ai.operation.name": "execute_tool",
                "gen_ai.tool.name": name,
                "gen_ai.tool.type": "function",
                "gen_ai.tool.call.id": str(call_id or "") or None,
            }
        )
        with _span(state, f"execute_tool {name}", attrs) as span:
            if state.content:
                arguments = args[2] if len(args) > 2 else kwargs.get("arguments", "")
                span.set_attribute("gen_ai.tool.call.arguments", _text(arguments))
            result = await call(*args, **kwargs)
            _tool_outcome(state, span, result)
            return result

    return wrapper


def _tool_outcome(state: _Tracing, span: Any, result: Any) -> None:
    record = getattr(result, "record", None)
    span.set_attributes(
        _clean(
            {
                "supportsim.tool.kind": getattr(record, "kind", None),
                "supportsim.tool.fault": getattr(record, "fault", None),
                "supportsim.tool.ok": getattr(record, "ok", None),
            }
        )
    )
    if getattr(result, "is_error", False):
        span.set_attribute("error.type", "tool_error")
        span.set_status(state.api.Status(state.api.StatusCode.ERROR, "tool_error"))
    if state.content:
        span.set_attribute("gen_ai.tool.call.result", str(getattr(result, "content", "")))


@contextmanager
def _span(
    state: _Tracing, name: str, attrs: Mapping[str, Any], kind: str = "INTERNAL"
) -> Iterator[Any]:
    """A child of the open turn (else of the current span); an exception marks it with
    its type (never its text, which may quote a provider's reply) and propagates."""
    with state.tracer.start_as_current_span(
        name,
        context=_parent(),
        kind=getattr(state.api.SpanKind, kind),
        attributes=dict(attrs),
        record_exception=False,
        set_status_on_exception=False,
    ) as span:
        try:
            yield span
        except BaseException as exc:
            span.set_attributes(
                _clean(
                    {
                        "error.type": type(exc).__name__,
                        "http.response.status_code": getattr(exc, "status", None),
                    }
                )
            )
            span.set_status(state.api.Status(state.api.StatusCode.ERROR, type(exc).__name__))
            raise


def _response_attributes(response: Any, content: bool) -> dict[str, Any]:
    stop = getattr(response, "stop_reason", None)
    attrs = _clean(
        {
            "gen_ai.response.model": getattr(response, "model", None),
            "gen_ai.usage.input_tokens": getattr(response, "input_tokens", None),
            "gen_ai.usage.output_tokens": getattr(response, "output_tokens", None),
            "gen_ai.response.finish_reasons": [str(stop)] if stop else None,
            "supportsim.cost_usd": getattr(response, "cost_usd", None),
            "supportsim.llm_ms": getattr(response, "llm_ms", None),
            "supportsim.ttft_ms": getattr(response, "ttft_ms", None),
        }
    )
    if content:
        parts = _parts(getattr(response, "content", ""), getattr(response, "tool_calls", ()))
        message = {"role": "assistant", "parts": parts, "finish_reason": str(stop or "")}
        attrs["gen_ai.output.messages"] = _json([message])
    return attrs


def _request_content(request: Any) -> dict[str, Any]:
    """The prompt as the semantic conventions shape it (JSON text attributes)."""
    messages = []
    for m in getattr(request, "messages", ()):
        if m.role == "tool":
            parts = [{"type": "tool_call_response", "id": m.tool_call_id, "response": m.content}]
        else:
            parts = _parts(m.content, m.tool_calls)
        messages.append({"role": m.role, "parts": parts})
    system = getattr(request, "system", "")
    return {
        "gen_ai.system_instructions": _json([{"type": "text", "content": system}]),
        "gen_ai.input.messages": _json(messages),
    }


def _parts(text: str, tool_calls: Any) -> list[dict[str, Any]]:
    parts: list[dict[str, Any]] = [{"type": "text", "content": text}] if text else []
    parts += [
        {"type": "tool_call", "id": c.id, "name": c.name, "arguments": c.arguments}
        for c in tool_calls or ()
    ]
    return parts


def _host(base_url: str | None) -> str | None:
    """The endpoint's host only: a URL may carry credentials (``user:key@host``)."""
    if not base_url:
        return None
    try:
        return urlsplit(base_url).hostname
    except ValueError:
        return None


def _text(value: Any) -> str:
    return value if isinstance(value, str) else _json(value)


def _json(value: Any) -> str:
    return orjson.dumps(value, default=str).decode()


def _clean(attrs: Mapping[str, Any]) -> dict[str, Any]:
    """OpenTelemetry takes str, bool, int, float and lists of them; None means unset."""
    return {k: v for k, v in attrs.items() if v is not None}
