"""What ``supportsim view`` does, so the cli stays thin: start the viewer, print its
address, serve until interrupted. Returns the exit code: 2 for bad input (a host that
is not loopback, a folder that does not exist, a port that cannot be bound)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from rich.console import Console

from supportsim.errors import InputError
from supportsim.view._server import start_viewer, url_of


def view_command(runs_dir: Path, *, host: str, port: int, out: Console, err: Console) -> int:
    """Serve ``runs_dir`` until Ctrl-C (0), or say why it cannot (2)."""

    async def serve() -> None:
        runner = await start_viewer(runs_dir, host, port)
        try:
            out.print(
                f"supportsim view: {url_of(runner)}  (runs in {runs_dir}; Ctrl-C to stop)",
                markup=False,
                highlight=False,
            )
            await asyncio.Event().wait()
        finally:
            await runner.cleanup()

    try:
        asyncio.run(serve())
    except InputError as exc:
        err.print(f"error: {exc}", markup=False, highlight=False)
        return 2
    except KeyboardInterrupt:
        out.print("stopped")
    return 0
