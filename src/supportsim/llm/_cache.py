"""The response cache (``--cache``): a model's reply stored on disk, keyed by the request.

Re-running a judge over a run, or a scenario being debugged, then pays for each distinct
call once. The key is the SHA-256 of the full request as the model sees it: provider,
model, endpoint (without URL credentials), sampling parameters, the structured-output
settings, system prompt, every message, tools, tool choice, plus a ``scope`` the caller
sets (``cache_scope``: the trial of a unit, the sample of a judgment) so that repeated
trials and samples stay independent draws instead of one reply replayed. The API key is
never part of the key or of the file.

A cached reply comes back with ``cached=True``, ``ttft_ms=None``, ``llm_ms`` the time the
disk read took, and ``cost_usd`` 0.0 when the stored reply was priced (nothing was paid
this time; None stays None). Token counts are the stored ones. Callers keep cached replies
out of latency statistics (see ``conversation``: a turn with a cached reply has no
timings).

Files are JSON under ``<root>/<key[:2]>/<key>.json``, written to a temporary file in the
same folder and renamed over the target, so a reader never sees half a file and two
writers of one key both leave a whole one. A file that cannot be read is a miss, and is
overwritten by the next reply.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import os
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson

from supportsim.errors import InputError

from ._config import ModelConfig
from ._secrets import scrub_url_credentials
from ._types import LLMMessage, LLMRequest, LLMResponse, ToolCall, ToolSpec

CACHE_VERSION = 1
"""Part of every key: bump it when the key or the file format changes."""

_scope: contextvars.ContextVar[str] = contextvars.ContextVar("supportsim_cache_scope", default="")

Call = Callable[[LLMRequest], Awaitable[LLMResponse]]


@contextlib.contextmanager
def cache_scope(label: str) -> Iterator[None]:
    """Calls made inside (and in tasks started inside) get ``label`` in their cache key:
    the unit's trial, the judgment's sample, so each stays its own draw."""
    token = _scope.set(label)
    try:
        yield
    finally:
        _scope.reset(token)


def _spec(tool: ToolSpec) -> dict[str, Any]:
    return {"name": tool.name, "description": tool.description, "parameters": tool.parameters}


def _message(message: LLMMessage) -> dict[str, Any]:
    return {
        "role": message.role,
        "content": message.content,
        "tool_calls": [[c.id, c.name, c.arguments] for c in message.tool_calls],
        "tool_call_id": message.tool_call_id,
        "is_error": message.is_error,
        "reasoning": message.reasoning,
        "reasoning_signature": message.reasoning_signature,
    }


def request_key(config: ModelConfig, request: LLMRequest, scope: str = "") -> str:
    """The cache key of ``request`` to ``config``'s model (hex SHA-256; see the module)."""
    what = {
        "v": CACHE_VERSION,
        "provider": config.provider,
        "model": config.model,
        "base_url": scrub_url_credentials(config.base_url) if config.base_url else None,
        "params": config.params.model_dump(mode="json"),
        "structured_output": config.structured_output,
        "system": request.system,
        "messages": [_message(m) for m in request.messages],
        "tools": [_spec(t) for t in request.tools],
        "tool_choice": request.tool_choice,
        "structured": _spec(request.structured) if request.structured else None,
        "scope": scope,
    }
    if request.seed is not None:  # only when set: seedless requests keep their keys
        what["seed"] = request.seed
    return hashlib.sha256(orjson.dumps(what, option=orjson.OPT_SORT_KEYS)).hexdigest()


@dataclass(slots=True)
class ResponseCache:
    """Replies on disk under ``root`` (created on first write).

    Attributes:
        root: The cache folder.
        hits: Replies served from disk in this process.
        misses: Requests that had to go to the model.
        clock: Monotonic clock timing a hit's disk read.
    """

    root: Path
    hits: int = 0
    misses: int = 0
    clock: Callable[[], float] = field(default=time.perf_counter, repr=False)

    def path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, config: ModelConfig, request: LLMRequest) -> LLMResponse | None:
        """The stored reply to ``request`` (marked cached), or None."""
        start = self.clock()
        key = request_key(config, request, _scope.get())
        try:
            data = orjson.loads(self.path(key).read_bytes())
            stored = _response(data["response"])
        except (OSError, orjson.JSONDecodeError, KeyError, TypeError, ValueError):
            return None
        read_ms = (self.clock() - start) * 1000.0
        return replace(
            stored,
            cached=True,
            ttft_ms=None,
            llm_ms=read_ms,
            cost_usd=None if stored.cost_usd is None else 0.0,
        )

    def put(self, config: ModelConfig, request: LLMRequest, response: LLMResponse) -> None:
        """Store ``response`` atomically (temporary file, then rename)."""
        key = request_key(config, request, _scope.get())
        target = self.path(key)
        target.parent.mkdir(parents=True, exist_ok=True)
        body = orjson.dumps(
            {
                "cache_version": CACHE_VERSION,
                "key": key,
                "model": config.name,
                "stored_at": datetime.now(UTC).isoformat(timespec="seconds"),
                # A reply's timings are the provider's that day, not the cache's: not kept.
                "response": asdict(response) | {"cached": False, "client_ms": None, "wire": None},
            },
            option=orjson.OPT_INDENT_2,
        )
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".json", dir=target.parent)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(body)
            os.replace(tmp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise

    def wrap(self, config: ModelConfig, call: Call) -> Call:
        """``call`` behind the cache: a hit is answered from disk, a miss is sent and its
        reply stored. Provider errors are never stored."""

        async def cached_call(request: LLMRequest) -> LLMResponse:
            hit = self.get(config, request)
            if hit is not None:
                self.hits += 1
                return hit
            self.misses += 1
            response = await call(request)
            self.put(config, request, response)
            return response

        return cached_call


def open_cache(folder: Path | None, env: Mapping[str, str]) -> ResponseCache:
    """The cache in ``folder``, by default ``$XDG_CACHE_HOME/supportsim/responses`` (else
    ``~/.cache/...``): one per user, shared by every run and workspace, since a key is the
    whole request. ``env`` is passed in (the CLI gives ``os.environ``).

    Raises:
        InputError: ``folder`` exists and is not a directory.
    """
    if folder is None:
        base = env.get("XDG_CACHE_HOME") or str(Path(env.get("HOME") or Path.home()) / ".cache")
        folder = Path(base) / "supportsim" / "responses"
    if folder.exists() and not folder.is_dir():
        raise InputError(f"--cache-dir {folder}: exists and is not a directory")
    return ResponseCache(folder)


def _response(data: dict[str, Any]) -> LLMResponse:
    calls = tuple(ToolCall(**c) for c in data.pop("tool_calls"))
    data.pop("wire", None)  # never stored (see ``put``), and not a dataclass once read
    return LLMResponse(tool_calls=calls, **data)
