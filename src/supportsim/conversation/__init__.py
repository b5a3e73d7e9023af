"""Conversations: the Customer and the Agent take turns; the Agent acts through tools.

The orchestrator is a LangGraph StateGraph (``_graph.py``); participants are protocols
(``_participants.py``) with built-ins: the oracle, the scripted Customer, LLM-driven
Agent and Customer, and adapters for Python objects, LangGraph graphs and HTTP services
(agent-owned ones reach their tools over MCP themselves, ``_owned.py``). Whose conventions
hold a conversation is a ``ConversationRules`` (``_rules.py``): ours, or a plug-in
benchmark's (``supportsim.tau2``).
"""

from supportsim.conversation._adapters import LangGraphAgent, load_object
from supportsim.conversation._careless import CARELESS, CarelessAgent
from supportsim.conversation._checked import AgentFault, CheckedAgent, checked_step
from supportsim.conversation._deadline import (
    CONVERSATION_BUDGET,
    bounded_by,
    charge,
    deadline_paused,
    time_left,
)
from supportsim.conversation._graph import Limits, build_graph, run_conversation
from supportsim.conversation._llm_agent import LLMAgent, ModelCaller, llm_call, to_llm_messages
from supportsim.conversation._llm_customer import END_TOOL, LLMCustomer
from supportsim.conversation._oracle import CLOSING, CLOSINGS, OracleAgent
from supportsim.conversation._participants import (
    Agent,
    AgentContext,
    AgentStep,
    Customer,
    CustomerStep,
    CustomerTurn,
    Visible,
)
from supportsim.conversation._prompts import agent_system_prompt, customer_system_prompt
from supportsim.conversation._replay import (
    ReplayCustomer,
    StoredReply,
    customer_view,
    stored_replies,
)
from supportsim.conversation._rules import (
    SUPPORTSIM_RULES,
    ConversationMode,
    ConversationRules,
    RulesPlugin,
    SupportsimRules,
    register_rules,
    rules_for,
    rules_name,
)
from supportsim.conversation._scripted import ScriptedCustomer
from supportsim.conversation._specs import (
    AgentSpec,
    CallerFor,
    CustomerSpec,
    agent_context_for,
    build_agent,
    build_customer,
    parse_agent_spec,
    parse_customer_spec,
)
from supportsim.conversation._tools_mode import TOOLS_MODES, McpToolsError, ToolsMode
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
    "CARELESS",
    "CLOSING",
    "CLOSINGS",
    "CONVERSATION_BUDGET",
    "END_TOOL",
    "SUPPORTSIM_RULES",
    "TOOLS_MODES",
    "Agent",
    "AgentContext",
    "AgentFault",
    "AgentSpec",
    "AgentStep",
    "CallerFor",
    "CarelessAgent",
    "CheckedAgent",
    "ConversationMode",
    "ConversationRules",
    "Customer",
    "CustomerSpec",
    "CustomerStep",
    "CustomerTurn",
    "EndReason",
    "LLMAgent",
    "LLMCall",
    "LLMCustomer",
    "LangGraphAgent",
    "Limits",
    "McpToolsError",
    "Message",
    "ModelCaller",
    "OracleAgent",
    "ReplayCustomer",
    "Role",
    "RulesPlugin",
    "ScriptedCustomer",
    "Status",
    "StoredReply",
    "SupportsimRules",
    "Termination",
    "ToolsMode",
    "Transcript",
    "Visible",
    "agent_context_for",
    "agent_system_prompt",
    "bounded_by",
    "build_agent",
    "build_customer",
    "build_graph",
    "charge",
    "checked_step",
    "customer_system_prompt",
    "customer_view",
    "deadline_paused",
    "llm_call",
    "load_object",
    "parse_agent_spec",
    "parse_customer_spec",
    "register_rules",
    "rules_for",
    "rules_name",
    "run_conversation",
    "stored_replies",
    "time_left",
    "to_llm_messages",
]
