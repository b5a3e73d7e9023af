"""Long-running helper processes: ``supportsim mock-server`` (the loopback model
server), ``mcp-stdio`` (one conversation's tools over stdio) and the hidden
``worker`` of ``run --workers``."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated

import typer

from supportsim.cli._app import app, err, fail_input, out
from supportsim.errors import InputError


@app.command("mock-server")
def mock_server(
    port: Annotated[int, typer.Option(help="TCP port on 127.0.0.1 (0: any free port).")] = 8765,
    script: Annotated[
        Path | None,
        typer.Option(help="YAML/JSON file of scripted replies (and latency) per model."),
    ] = None,
    latency: Annotated[
        list[str] | None,
        typer.Option(
            "--latency",
            help="MODEL=TTFT/TOTAL in ms (repeatable; * for every other model): that "
            "model's replies stream their first token at TTFT and end at TOTAL.",
        ),
    ] = None,
) -> None:
    """Serve the OpenAI and Anthropic wire protocols on loopback, for offline dry runs.

    Point a run at it with OPENAI_BASE_URL=http://127.0.0.1:PORT/v1 (or
    ANTHROPIC_BASE_URL=http://127.0.0.1:PORT) and any API key; unscripted models are
    answered by the autopilot. A scripted model whose replies run out is said on stderr.
    Stop it with Ctrl-C.
    """
    from supportsim.testing import parse_latency, serve

    def ready(server: object) -> None:
        url = server.url  # type: ignore[attr-defined]
        out.print(f"mock LLM server on {url}  (OpenAI base_url {url}/v1, Anthropic {url})")

    def warn(line: str) -> None:
        err.print(line, markup=False, highlight=False)

    try:
        timings = dict(parse_latency(spec) for spec in latency or ())
        asyncio.run(serve("127.0.0.1", port, script, ready=ready, latency=timings, warn=warn))
    except InputError as exc:
        raise fail_input(exc) from None
    except KeyboardInterrupt:
        out.print("stopped")


@app.command("mcp-stdio")
def mcp_stdio(
    url: Annotated[
        str | None,
        typer.Argument(
            help="The conversation's MCP session URL (AgentContext.mcp_url). Better in the "
            "SUPPORTSIM_MCP_URL variable: a command line is visible to every local user.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Serve one conversation's tools over stdio, for an agent that spawns its tool server.

    A proxy to the session URL, read from SUPPORTSIM_MCP_URL (or the argument): every
    call lands in that conversation's call log.
    """
    import os

    from supportsim.environment import MCP_URL_ENV, BridgeError, serve_stdio_bridge

    url = url or os.environ.pop(MCP_URL_ENV, "")
    if not url:
        err.print(f"error: mcp-stdio: no session URL: set {MCP_URL_ENV}", markup=False)
        raise typer.Exit(2)
    if not url.startswith(("http://", "https://")):
        err.print("error: mcp-stdio: URL must be an http:// session URL", markup=False)
        raise typer.Exit(2)
    try:
        asyncio.run(serve_stdio_bridge(url))
    except BridgeError as exc:
        err.print(f"error: mcp-stdio: {exc}", markup=False, highlight=False)
        raise typer.Exit(2) from None
    except KeyboardInterrupt:
        pass


@app.command("worker", hidden=True)
def worker() -> None:
    """A worker process of ``supportsim run --workers`` (started by the run, not by hand:
    it reads the hub's address and token from its stdin)."""
    from supportsim.batch import worker_main

    raise typer.Exit(worker_main())
