"""The tool runtime an Agent acts on: one stateful Environment per conversation.

The MCP host and the stdio bridge are imported on first use: a run whose tools are
in-process never loads the MCP SDK (half a second of every process's start-up).
"""

from typing import TYPE_CHECKING, Any

from supportsim.environment._calls import CallRecord, ToolResult
from supportsim.environment._faults import DEFAULT_TIMEOUT_MS, FAILURE_MESSAGES, failure_message
from supportsim.environment._mock_tools import build_mock_tool
from supportsim.environment._runtime import (
    BLOCKING_LIMIT_S,
    BlockingToolError,
    Environment,
    ToolSchema,
    scenario_tools,
)

if TYPE_CHECKING:
    from supportsim.environment._mcp import McpHost
    from supportsim.environment._mcp_stdio import MCP_URL_ENV, BridgeError, serve_stdio_bridge

_LAZY = {
    "McpHost": "supportsim.environment._mcp",
    "MCP_URL_ENV": "supportsim.environment._mcp_stdio",
    "BridgeError": "supportsim.environment._mcp_stdio",
    "serve_stdio_bridge": "supportsim.environment._mcp_stdio",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "BLOCKING_LIMIT_S",
    "DEFAULT_TIMEOUT_MS",
    "FAILURE_MESSAGES",
    "MCP_URL_ENV",
    "BlockingToolError",
    "BridgeError",
    "CallRecord",
    "Environment",
    "McpHost",
    "ToolResult",
    "ToolSchema",
    "build_mock_tool",
    "failure_message",
    "scenario_tools",
    "serve_stdio_bridge",
]
