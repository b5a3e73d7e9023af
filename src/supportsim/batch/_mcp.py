"""The run's MCP host: open for as long as the batch runs, when the run needs one.

One ``McpHost`` (one loopback HTTP server) serves every conversation of the run; each
conversation opens its own session URL on it and closes it when it ends.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TypeVar

from supportsim.batch._unit import UnitContext

_T = TypeVar("_T")


def needs_mcp(ctx: UnitContext) -> bool:
    """Whether the run's conversations are served over MCP (``--tools``, or an Agent that
    calls its tools over MCP itself)."""
    return ctx.tools != "inprocess" or any(spec.mcp for spec in ctx.agents.values())


async def with_mcp_host(ctx: UnitContext, work: Awaitable[_T]) -> _T:
    """``await work`` with ``ctx.mcp`` set to a running host if the run needs one."""
    if not needs_mcp(ctx) or ctx.mcp is not None:
        return await work
    from supportsim.environment import McpHost  # MCP loads only when a run uses it

    async with McpHost() as host:
        ctx.mcp = host
        try:
            return await work
        finally:
            ctx.mcp = None
