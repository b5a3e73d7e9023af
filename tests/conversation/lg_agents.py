"""LangGraph Agents for the tests (``langgraph:lg_agents:NAME``): a hand-built graph with
its own ToolNode, and graphs that misbehave. The chat model is LangChain's ChatOpenAI,
pointed at the loopback mock server through OPENAI_BASE_URL (set by the test)."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage
from langchain_openai import ChatOpenAI
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition
from langgraph.types import interrupt

MODEL = "agent-m"


def hand_built(tools: list[Any]) -> Any:
    """model -> (tool calls?) -> ToolNode -> model ... -> END, as in LangGraph's tutorial."""
    model = ChatOpenAI(model=MODEL, max_retries=0).bind_tools(tools)

    async def call_model(state: MessagesState) -> dict[str, Any]:
        return {"messages": [await model.ainvoke(state["messages"])]}

    graph = StateGraph(MessagesState)
    graph.add_node("model", call_model)
    graph.add_node("tools", ToolNode(tools))
    graph.add_edge(START, "model")
    graph.add_conditional_edges("model", tools_condition)
    graph.add_edge("tools", "model")
    return graph.compile(name="hand-built")


def asks_a_human(tools: list[Any]) -> Any:
    """Calls LangGraph's ``interrupt()`` before answering (needs a checkpointer): the
    interrupt ends this graph run, never the conversation."""
    from langgraph.checkpoint.memory import InMemorySaver

    def node(state: MessagesState) -> dict[str, Any]:
        approved = interrupt({"question": "may I answer?"})
        return {"messages": [AIMessage(f"approved: {approved}")]}

    def answer(state: MessagesState) -> dict[str, Any]:
        return {"messages": [AIMessage("How can I help?")]}

    graph = StateGraph(MessagesState)
    graph.add_node("answer", answer)
    graph.add_node("ask", node)
    graph.add_edge(START, "answer")
    graph.add_edge("answer", "ask")
    graph.add_edge("ask", END)
    return graph.compile(checkpointer=InMemorySaver())


def returns_a_string(tools: list[Any]) -> Any:
    return "not a graph"
