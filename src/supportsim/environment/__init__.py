"""The tool runtime an Agent acts on: one stateful Environment per conversation."""

from supportsim.environment._calls import CallRecord, ToolResult
from supportsim.environment._faults import FAILURE_MESSAGES
from supportsim.environment._mcp import McpHost
from supportsim.environment._mcp_stdio import BridgeError, serve_stdio_bridge
from supportsim.environment._mock_tools import build_mock_tool
from supportsim.environment._runtime import Environment, ToolSchema, scenario_tools

__all__ = [
    "FAILURE_MESSAGES",
    "BridgeError",
    "CallRecord",
    "Environment",
    "McpHost",
    "ToolResult",
    "ToolSchema",
    "build_mock_tool",
    "scenario_tools",
    "serve_stdio_bridge",
]
