"""A tau2 task's gold actions replayed through the MCP path (the real ``mcp`` client over
streamable HTTP) and in-process end in the same database, with tau2's own hash."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from tau2_helpers import EXPECTED, PERSONAS

from supportsim.domains import DomainCatalogue, builtin_domains
from supportsim.environment import Environment, McpHost
from supportsim.scenario import load_personas, load_scenarios
from supportsim.scoring import CONCEPTS
from supportsim.tau2.retail import db_hash

# Tasks with one write, with two, and one whose gold path has an action that
# raises on tau2's tools (its error text must travel unchanged too).
TASKS = ("0", "109", "105")


def scenarios(imported: Path):
    domains = builtin_domains([imported])
    loaded = load_scenarios(
        [imported],
        catalogue=DomainCatalogue(domains, CONCEPTS),
        personas=load_personas([PERSONAS]),
    )
    return domains["tau2_retail"], {s.id.removeprefix("tau2_retail_"): s for s in loaded}


@pytest.mark.parametrize("task_id", TASKS)
async def test_gold_actions_over_mcp_and_in_process_give_tau2s_hash(
    imported: Path, task_id: str
) -> None:
    domain, by_id = scenarios(imported)
    scenario = by_id[task_id]
    actions = [*scenario.tau2.actions]
    assert actions, task_id

    local = Environment(domain, scenario)
    local_texts = []
    for i, action in enumerate(actions):
        result = await local.call(action.name, json.dumps(action.arguments), f"gold-{i}")
        local_texts.append((result.is_error, result.content))

    remote = Environment(domain, scenario)
    remote_texts = []
    async with McpHost() as host:
        url = host.open(remote)
        async with (
            streamable_http_client(url) as (read, write, _),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            listed = {t.name for t in (await session.list_tools()).tools}
            assert listed == set(remote.tools)
            for action in actions:
                answer = await session.call_tool(action.name, action.arguments)
                text = "".join(c.text for c in answer.content)
                remote_texts.append((bool(answer.isError), text))
        host.close(url)

    assert remote_texts == local_texts  # same results and error texts, call by call
    expected = EXPECTED["tasks"][task_id]["final_db_sha256"]
    assert db_hash(local.state) == db_hash(remote.state) == expected
    assert [(c.name, c.ok) for c in remote.calls] == [(c.name, c.ok) for c in local.calls]
    ignored = {a.action_id for a in scenario.tau2.ignored_actions}
    assert sum(is_error for is_error, _ in remote_texts) == len(ignored)  # 105: one, as tau2
