"""How the built-in Agents' tool calls reach the Environment, without importing MCP: a run
whose tools are in-process never loads the MCP client or server."""

from __future__ import annotations

from typing import Literal

ToolsMode = Literal["inprocess", "mcp", "mcp-stdio"]
"""How the built-in Agents' tool calls reach the Environment."""
TOOLS_MODES: tuple[ToolsMode, ...] = ("inprocess", "mcp", "mcp-stdio")


class McpToolsError(RuntimeError):
    """The conversation's MCP client session broke (a harness error, not the Agent's)."""
