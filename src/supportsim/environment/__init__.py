"""The tool runtime an Agent acts on: one stateful Environment per conversation."""

from supportsim.environment._calls import CallRecord, ToolResult
from supportsim.environment._faults import DEFAULT_TIMEOUT_MS, FAILURE_MESSAGES, failure_message
from supportsim.environment._mock_tools import build_mock_tool
from supportsim.environment._runtime import Environment, ToolSchema, scenario_tools

__all__ = [
    "DEFAULT_TIMEOUT_MS",
    "FAILURE_MESSAGES",
    "CallRecord",
    "Environment",
    "ToolResult",
    "ToolSchema",
    "build_mock_tool",
    "failure_message",
    "scenario_tools",
]
