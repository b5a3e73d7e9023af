"""supportsim: evaluate customer-support AI agents against simulated customers.

The package is a pipeline (see the folder tree): scenario -> domains -> environment -> llm ->
conversation -> scoring -> store -> batch -> judges -> report, wired by ``cli``.

The names below are the user contract: what a plug-in Agent, Domain or Scorer is written
against, and ``run`` to drive a batch from Python. They are imported on first use, so
``import supportsim`` stays cheap and reads no environment variable, file or socket.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from supportsim.app import AgentResult, RunResult, run
    from supportsim.batch import RunConfig
    from supportsim.conversation import Agent, AgentContext, AgentStep, Message, Role
    from supportsim.domains import Domain, DomainState, Tool, tool
    from supportsim.environment import ToolSchema
    from supportsim.errors import InputError, ToolError
    from supportsim.llm import ToolCall
    from supportsim.scoring import Check, Scorer

__version__ = "0.1.0"

_WHERE = {
    "Agent": "supportsim.conversation",
    "AgentContext": "supportsim.conversation",
    "AgentStep": "supportsim.conversation",
    "Message": "supportsim.conversation",
    "Role": "supportsim.conversation",
    "ToolSchema": "supportsim.environment",
    "ToolCall": "supportsim.llm",
    "Domain": "supportsim.domains",
    "DomainState": "supportsim.domains",
    "Tool": "supportsim.domains",
    "tool": "supportsim.domains",
    "ToolError": "supportsim.errors",
    "InputError": "supportsim.errors",
    "Check": "supportsim.scoring",
    "Scorer": "supportsim.scoring",
    "RunConfig": "supportsim.batch",
    "run": "supportsim.app",
    "RunResult": "supportsim.app",
    "AgentResult": "supportsim.app",
}


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'supportsim' has no attribute {name!r}")
    value = getattr(importlib.import_module(where), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_WHERE])


__all__ = [
    "Agent",
    "AgentContext",
    "AgentResult",
    "AgentStep",
    "Check",
    "Domain",
    "DomainState",
    "InputError",
    "Message",
    "Role",
    "RunConfig",
    "RunResult",
    "Scorer",
    "Tool",
    "ToolCall",
    "ToolError",
    "ToolSchema",
    "__version__",
    "run",
    "tool",
]
