"""The tool runtime an Agent acts on: one stateful Environment per conversation."""

from supportsim.environment._calls import CallRecord, ToolResult
from supportsim.environment._faults import DEFAULT_TIMEOUT_MS, FAILURE_MESSAGES, failure_message
from supportsim.environment._mcp import McpHost
from supportsim.environment._mcp_stdio import MCP_URL_ENV, BridgeError, serve_stdio_bridge
from supportsim.environment._mock_tools import build_mock_tool
from supportsim.environment._runtime import (
    BLOCKING_LIMIT_S,
    BlockingToolError,
    Environment,
    ToolSchema,
    scenario_tools,
)

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
