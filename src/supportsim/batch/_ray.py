"""Workers as Ray actors (``--ray [ADDRESS]``, the ``supportsim[ray]`` extra).

Each actor (``num_cpus=1``) runs the same worker loop as a local process
(``_worker.serve``) on its own event loop and connects to the driver's hub at the
driver node's address. Ray places the actors; the hub supervises them: an actor that
dies ends its ``serve`` call with an error, and the hub re-queues its units and starts
another. The token and the credentials travel as the call's arguments and over the
hub's connection, never in a runtime_env (which Ray keeps in its control store).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any


def _actor_class() -> Any:
    import ray

    @ray.remote(num_cpus=1, max_restarts=0)
    class SupportsimWorker:
        def serve(self, host: str, port: int, token: str, worker_id: str) -> int:
            from supportsim.batch._worker import serve

            return asyncio.run(serve(host, port, token, worker_id))

    return SupportsimWorker


class RayHandle:
    def __init__(self, actor: Any, ref: Any) -> None:
        self.actor = actor
        self.ref = ref

    def describe(self) -> str:
        return f"actor {self.actor}"

    async def wait(self) -> str:
        import ray

        try:
            code = await self.ref
        except ray.exceptions.RayError as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            return f"(Ray actor) died: {first}"
        return f"(Ray actor) exited with code {code}"

    def kill(self) -> None:
        import ray

        with contextlib.suppress(Exception):
            ray.kill(self.actor, no_restart=True)


class RayLauncher:
    """Actors on the cluster at ``address`` (``local``: start one on this machine)."""

    mode = "ray"

    def __init__(self, address: str) -> None:
        import ray

        if not ray.is_initialized():
            ray.init(
                address=None if address == "local" else address,
                logging_level=logging.WARNING,  # ray.init reads a str level as this int
                log_to_driver=False,
            )
        self.host = ray.util.get_node_ip_address()
        self._actor = _actor_class()

    @staticmethod
    def cpus() -> int:
        import ray

        return max(1, int(ray.cluster_resources().get("CPU", 1)))

    async def start(self, worker_id: str, port: int, token: str) -> RayHandle:
        actor = self._actor.remote()
        return RayHandle(actor, actor.serve.remote(self.host, port, token, worker_id))

    def close(self) -> None:
        return None
