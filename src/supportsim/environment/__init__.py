"""The tool runtime an Agent acts on: one stateful Environment per conversation."""

from supportsim.environment._calls import CallRecord, ToolResult
from supportsim.environment._faults import FAILURE_MESSAGES
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
    "FAILURE_MESSAGES",
    "BlockingToolError",
    "CallRecord",
    "Environment",
    "ToolResult",
    "ToolSchema",
    "build_mock_tool",
    "scenario_tools",
]
