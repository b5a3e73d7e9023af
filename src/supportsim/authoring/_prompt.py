"""The drafting prompt: a domain's policy, tools and state, the schema, an example."""

from __future__ import annotations

import orjson

from supportsim.domains import Domain
from supportsim.llm import ToolSpec
from supportsim.scenario import Category, Scenario

SUBMIT = ToolSpec(
    "submit_scenario",
    "Submit one complete scenario as a YAML document.",
    {
        "type": "object",
        "properties": {"yaml": {"type": "string", "description": "The scenario file, YAML."}},
        "required": ["yaml"],
        "additionalProperties": False,
    },
)

EXAMPLE = """\
id: mock-duplicate-refund
title: Refund the duplicate charge, not the original
domain: mock
persona: calm_precise
tags: [billing]
failure_mode: wrong charge refunded
context: {today: "2026-03-14"}
customer:
  reason: You were charged twice for the March plan and want the duplicate refunded.
  known_facts: {customer_id: C-1, pin: "4321"}
  opening: Hi, I was charged twice for March.
  script: ["My id is C-1 and my PIN is 4321.", "Yes please, refund the second one."]
workflow:
  - {id: verify, tool: verify_identity, args: {customer_id: C-1, pin: "4321"}}
  - {id: lookup, tool: list_charges, args: {customer_id: C-1}, optional: true}
  - id: refund
    tool: refund_charge
    args: {customer_id: C-1, charge_id: CH-2, amount: {approx: 30, tol: 0.01}}
  - {id: tell, say: [refund, CH-2], text: "Done: CH-2 (30 USD) is refunded."}
forbidden:
  - {id: refund-original, tool: refund_charge, args: {charge_id: CH-1}}
outcome: resolved
"""

RULES = """\
Rules the scenario must follow (drafts that break them are discarded):
- One YAML mapping; only the fields of the schema; `domain` is the given domain.
- The workflow is replayed literally by an oracle through the real tools, in order, and
  must succeed: verify identity before protected actions, use ids that exist in the state
  (or that your `state:` override adds), respect the policy's limits.
- Each say step's `text` must contain all its `say` phrases.
- Non-exact matchers (any, regex) need `oracle_args` with a concrete value.
- outcome escalated: the workflow ends with transfer_to_human; refused: no write tool runs.
- `customer.script` has enough lines to carry the conversation through every say step.
- At least 3 required (non-optional) steps; name the agent failure in `failure_mode`.
"""


def drafting_prompt(
    domain: Domain, category: Category, personas: list[str], taken_ids: list[str]
) -> str:
    tools = [
        {"name": t.name, "kind": t.kind, "description": t.description, "parameters": t.parameters()}
        for t in domain.tools.values()
    ]
    schema = orjson.dumps(Scenario.model_json_schema()).decode()
    state = orjson.dumps(domain.fixture(), option=orjson.OPT_INDENT_2).decode()
    return (
        "You write test scenarios for supportsim, a harness that evaluates customer-support "
        f"AI agents. Write ONE new scenario for the `{domain.name}` domain whose primary "
        f"category (first tag) is `{category}`. Make it realistic and aimed at one specific "
        "agent failure. Submit it with the submit_scenario tool.\n\n"
        f"{RULES}\n## Domain policy\n{domain.policy}\n\n"
        f"## Tools\n{orjson.dumps(tools, option=orjson.OPT_INDENT_2).decode()}\n\n"
        f"## Base state (your `state:` is deep-merged over it)\n{state}\n\n"
        f"## Personas you may use\n{', '.join(personas)}\n\n"
        f"## Scenario ids already taken\n{', '.join(taken_ids) or '(none)'}\n\n"
        f"## JSON schema of a scenario\n{schema}\n\n"
        f"## Example (another domain)\n```yaml\n{EXAMPLE}```\n"
    )
