"""The agent-owned service of the tests: ``examples/owned_agent_service.py`` itself (its own
prompt, its own ``mcp`` client, its own OpenAI tool loop), its model the loopback mock
server playing the scenarios' reference plans (``plan_responder``).

``OwnedService`` serves both from a thread with its own event loop, for tests that drive
the synchronous CLI (which runs its own loop); ``inbound`` is every request body the
service received, ``llm`` the mock server (its ``requests()`` are what the service's
model was sent).
"""

from __future__ import annotations

import asyncio
import importlib.util
import threading
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

from aiohttp import web

from supportsim.scenario import Scenario
from supportsim.testing import MockLLMServer, plan_responder

REPO = Path(__file__).parents[2]
MODEL = "owned-model"


def example() -> ModuleType:
    """``examples/owned_agent_service.py``, loaded from its file (whatever the cwd)."""
    path = REPO / "examples" / "owned_agent_service.py"
    spec = importlib.util.spec_from_file_location("owned_agent_service", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class OwnedService:
    """The example service and its mock model, served from a thread (see the module doc)."""

    def __init__(self, scenarios: Iterable[Scenario]) -> None:
        self.llm = MockLLMServer()
        self.llm.default(MODEL, plan_responder(scenarios))
        self.url = ""
        self._module = example()
        self._app: web.Application | None = None
        self._runner: web.AppRunner | None = None
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)

    @property
    def inbound(self) -> list[str]:
        assert self._app is not None
        return list(self._app[self._module.INBOUND])

    async def _start(self) -> None:
        await self.llm.start()
        self._app = self._module.app(self.llm.url + "/v1", MODEL)
        self._runner = web.AppRunner(self._app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", 0).start()
        host, port = self._runner.addresses[0][:2]
        self.url = f"http://{host}:{port}/v1"

    async def _stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
        await self.llm.stop()

    def _run(self, coro: Any) -> None:
        asyncio.run_coroutine_threadsafe(coro, self._loop).result(30)

    def __enter__(self) -> OwnedService:
        self._thread.start()
        self._run(self._start())
        return self

    def __exit__(self, *exc: object) -> None:
        self._run(self._stop())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()

    def models_file(self, path: Path, name: str = "ours") -> Path:
        """A models file naming the service ``name``, ``owned: true``."""
        path.write_text(
            f"models:\n  {name}:\n    provider: openai\n    base_url: {self.url}\n"
            "    model: svc\n    api_key_env: null\n    owned: true\n",
            encoding="utf-8",
        )
        return path
