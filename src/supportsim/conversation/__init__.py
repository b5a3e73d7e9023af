"""Conversations: the Customer and the Agent take turns; the Agent acts through tools.

The orchestrator is a LangGraph StateGraph (``_graph.py``); participants are protocols
(``_participants.py``) with built-ins: the oracle, the scripted Customer, LLM-driven
Agent and Customer, and adapters for Python objects, LangGraph graphs and HTTP services.
"""

from supportsim.conversation._graph import Limits, run_conversation
from supportsim.conversation._oracle import OracleAgent
from supportsim.conversation._participants import (
    Agent,
    AgentContext,
    AgentStep,
    Customer,
    CustomerStep,
    CustomerTurn,
    Visible,
)
from supportsim.conversation._scripted import ScriptedCustomer
from supportsim.conversation._transcript import (
    ABNORMAL,
    EndReason,
    LLMCall,
    Message,
    Role,
    Status,
    Termination,
    Transcript,
)

__all__ = [
    "ABNORMAL",
    "Agent",
    "AgentContext",
    "AgentStep",
    "Customer",
    "CustomerStep",
    "CustomerTurn",
    "EndReason",
    "LLMCall",
    "Limits",
    "Message",
    "OracleAgent",
    "Role",
    "ScriptedCustomer",
    "Status",
    "Termination",
    "Transcript",
    "Visible",
]
