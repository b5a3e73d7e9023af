"""Which Agents reach their tools over MCP themselves, as the spec parser decides it:
``owned: true`` on an http service of the models file, a python Agent with
``tools = "mcp"``, a langgraph factory taking ``mcp_url``; and what is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from supportsim.conversation import (
    AgentContext,
    agent_context_for,
    parse_agent_spec,
    parse_customer_spec,
)
from supportsim.environment import ToolSchema
from supportsim.errors import InputError
from supportsim.llm import load_models_file

SERVICE = """\
models:
  ours:
    provider: openai
    base_url: http://127.0.0.1:8810/v1
    model: owned
    api_key_env: null
    owned: true
  plain:
    provider: openai
    base_url: http://127.0.0.1:8810/v1
    model: plain
    api_key_env: null
"""


def models_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "models.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_an_owned_http_service_is_an_owned_agent_that_needs_mcp(tmp_path: Path) -> None:
    models = load_models_file(models_file(tmp_path, SERVICE))
    assert models["ours"].owned and not models["plain"].owned

    owned = parse_agent_spec("ours", models)
    plain = parse_agent_spec("plain", models)

    assert (owned.kind, owned.mcp, owned.label) == ("owned", True, "ours")
    assert (plain.kind, plain.mcp) == ("llm", False)


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        (
            "{provider: anthropic, model: m, owned: true}",
            "[models.bad.owned]: only an openai-compatible http service can be owned",
        ),
        (
            "{provider: openai, model: m, owned: true}",
            "[models.bad.owned]: an owned agent is a service: give its base_url",
        ),
        ("{provider: openai, model: m, owned: maybe}", "[models.bad.owned]: Input should be"),
    ],
)
def test_owned_is_refused_where_it_cannot_be_a_service(
    tmp_path: Path, entry: str, problem: str
) -> None:
    path = models_file(tmp_path, f"models:\n  bad: {entry}\n")
    with pytest.raises(InputError) as info:
        load_models_file(path)
    assert f"{path}:2 {problem}" in str(info.value)


def test_an_owned_service_cannot_play_the_customer(tmp_path: Path) -> None:
    models = load_models_file(models_file(tmp_path, SERVICE))
    assert parse_customer_spec("plain", models).model == models["plain"]
    with pytest.raises(InputError, match=r"--customer ours: an owned agent service"):
        parse_customer_spec("ours", models)


@pytest.mark.parametrize(
    ("spec", "mcp", "label"),
    [
        ("python:mcp_agents:McpRuleAgent", True, "mcp-rule"),
        ("python:mcp_agents:OwnToolsList", False, "own-tools"),  # its own list of tools
        ("python:contract_agents:Named", False, "team-bot"),
        ("langgraph:mcp_agents:react", True, "langgraph:mcp_agents:react"),
        ("langgraph:mcp_agents:both", True, "langgraph:mcp_agents:both"),
        ("langgraph:lg_agents:hand_built", False, "langgraph:lg_agents:hand_built"),
    ],
)
def test_plugins_ask_for_the_mcp_url_by_attribute_or_parameter(
    spec: str, mcp: bool, label: str
) -> None:
    parsed = parse_agent_spec(spec, {})
    assert (parsed.mcp, parsed.label) == (mcp, label)


def test_an_agent_calling_its_tools_over_mcp_is_shown_no_schemas_and_an_owned_one_no_prompt(
    tmp_path: Path,
) -> None:
    models = load_models_file(models_file(tmp_path, SERVICE))
    context = AgentContext("POLICY", (ToolSchema("t", "d", {"type": "object"}),))

    owned = agent_context_for(parse_agent_spec("ours", models), context)
    python = agent_context_for(parse_agent_spec("python:mcp_agents:McpRuleAgent", {}), context)
    graph = agent_context_for(parse_agent_spec("langgraph:mcp_agents:both", {}), context)
    plain = agent_context_for(parse_agent_spec("plain", models), context)

    assert (owned.system_prompt, owned.tools) == ("", ())
    assert (python.system_prompt, python.tools) == ("POLICY", ())
    assert graph == context == plain  # a factory taking tools too still gets ours
