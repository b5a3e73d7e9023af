"""``supportsim new domain NAME``: a working domain in the data form, to edit.

It writes ``domains/NAME/`` (domain.yaml, policy.md, a knowledge article, fixture.json,
state.schema.json and tools.py with one sync read and one async write tool), one scenario
that ``supportsim validate`` passes, a persona when the workspace has none, and lists the
domain in ``supportsim.yaml`` (created with today's defaults when absent). Nothing is
overwritten: any file that exists already stops it before anything is written (exit 2).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from supportsim.domains import builtin_domains
from supportsim.errors import InputError
from supportsim.workspace._workspace import WORKSPACE_FILE, Workspace, find_workspace

NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")

POLICY = """\
# {title} - customer support policy

You are a support agent of {title}. Use your tools; never invent account data.

## Identity verification
- Before discussing an account or changing it, verify the caller with `verify_identity`:
  customer id and the 4-digit PIN.
- Never disclose another customer's data.
- Never tell the customer something was done unless you did it.

## Freezing a card
- A verified customer may ask to freeze their card; freeze it with `freeze_card` and tell
  them it is frozen.
"""

ARTICLE = """\
---
title: Frozen cards
tags: [card, freeze]
---
A frozen card declines every payment until the customer unfreezes it in the app.
"""

SCHEMA = {
    "type": "object",
    "properties": {
        "today": {"type": "string"},
        "customers": {
            "type": "object",
            "additionalProperties": {"$ref": "#/$defs/customer"},
        },
    },
    "required": ["today", "customers"],
    "$defs": {
        "customer": {
            "type": "object",
            "properties": {
                "id": {"type": "string"},
                "name": {"type": "string"},
                "pin": {"type": "string"},
                "card_frozen": {"type": "boolean", "default": False},
            },
            "required": ["id", "name", "pin"],
        }
    },
}

FIXTURE = {
    "today": "2026-03-14",
    "customers": {
        "C-1": {"id": "C-1", "name": "Ann Lee", "pin": "4321", "card_frozen": False},
        "C-2": {"id": "C-2", "name": "Bo Chen", "pin": "9876", "card_frozen": False},
    },
}

TOOLS = '''\
"""Tools of the {name} domain. A tool's docstring is what the Agent reads.

A tool refuses a call by raising ToolError before it changes anything. Make a tool
``async def`` when it calls a real service (it is awaited, never blocking other
conversations); a plain function must be a quick in-memory one.
"""

from typing import Any

from supportsim import DomainState, ToolError, tool
from supportsim.domains import Args


class VerifyArgs(Args):
    customer_id: str
    """The customer's id, e.g. C-1."""
    pin: str
    """The customer's 4-digit PIN."""


class CustomerArgs(Args):
    customer_id: str
    """The verified customer's id."""


@tool("read")
def verify_identity(state: DomainState, args: VerifyArgs) -> dict[str, Any]:
    """Verify the caller with their customer id and 4-digit PIN."""
    customer = state.customers.get(args.customer_id)
    if customer is None or customer.pin != args.pin:
        raise ToolError("verification failed: the id and PIN do not match")
    state.session.verified_customer_id = customer.id
    return {{"verified": True, "customer_id": customer.id, "name": customer.name}}


@tool("write")
async def freeze_card(state: DomainState, args: CustomerArgs) -> dict[str, Any]:
    """Freeze the verified customer's card: every payment is declined until unfrozen."""
    if state.session.verified_customer_id != args.customer_id:
        raise ToolError(f"identity not verified for {{args.customer_id}}: call verify_identity")
    state.customers[args.customer_id].card_frozen = True
    return {{"customer_id": args.customer_id, "card_frozen": True}}
'''

DOMAIN = """\
# The {name} domain, written as data (supportsim docs: tutorials/your-domain.md).
name: {name}
description: {title}, a skeleton to edit.
policy: policy.md
knowledge: knowledge
fixture: fixture.json
state: state.schema.json
tools: tools.py
gates: {{verify_identity: customer_id}}
facts: {{customer: [verify_identity]}}
owned:
  - {{collection: customers, owner: id, fields: [name, pin]}}
# What each write tool performs: the agent may say "your card is frozen" only after it.
actions: {{freeze_card: [changed]}}
template_cites:
  other_customer_data: Never disclose another customer's data.
  false_claim: Never tell the customer something was done unless you did it.
"""

SCENARIO = """\
id: {name}-freeze-card
title: Freeze a verified customer's card
domain: {name}
persona: {persona}
tags: [identity]
failure_mode: freezes a card without verifying the caller
max_turns: 8
customer:
  reason: You lost your card and want it frozen.
  known_facts: {{customer_id: C-1, pin: "4321"}}
  will_accept: your card is frozen
  opening: Hi, I lost my card, can you freeze it?
  script:
    - My id is C-1 and my PIN is 4321.
workflow:
  - id: verify
    tool: verify_identity
    args: {{customer_id: C-1, pin: "4321"}}
    cites: verify the caller with `verify_identity`
  - id: freeze
    tool: freeze_card
    args: {{customer_id: C-1}}
    cites: freeze it with `freeze_card`
  - id: tell
    say: [frozen]
    text: Your card is frozen now; every payment is declined until you unfreeze it.
    cites: tell them it is frozen
forbidden:
  - id: other-customer
    tool: freeze_card
    args: {{customer_id: C-2}}
    reason: C-2 is another customer
    cites: Never disclose another customer's data.
outcome: resolved
outcome_cites: A verified customer may ask to freeze their card
"""

PERSONA = """\
id: calm_precise
name: Sam
tone: calm
verbosity: terse
patience: 8
volunteers: everything
behaviours: []
style: Answers exactly what is asked, in short sentences.
"""


@dataclass(frozen=True)
class Written:
    files: list[Path]
    workspace_file: Path


def new_domain(name: str, root: Path | None = None) -> Written:
    """Write the skeleton of domain ``name`` into the workspace at ``root`` (default: cwd).

    Raises:
        InputError: a bad or taken name, or a file that exists already (nothing written).
    """
    root = root or Path.cwd()
    if not NAME.fullmatch(name):
        raise InputError(f"domain name {name!r}: lowercase letters, digits and _, from a letter")
    if name in builtin_domains():
        raise InputError(f"domain name {name!r}: a built-in domain has it")
    ws_path = root / WORKSPACE_FILE
    workspace = find_workspace(root) if ws_path.is_file() else Workspace()
    if name in {Path(spec).name for spec in workspace.domains}:
        raise InputError(f"{ws_path}: lists a domain {name!r} already")
    folder = root / "domains" / name
    scenarios = (workspace.scenarios[0] if workspace.scenarios else Path("scenarios")) / name
    personas = workspace.personas
    if not scenarios.is_absolute():
        scenarios = root / scenarios
    if not personas.is_absolute():
        personas = root / personas
    title = name.replace("_", " ").title()
    files: dict[Path, str] = {
        folder / "domain.yaml": DOMAIN.format(name=name, title=title),
        folder / "policy.md": POLICY.format(title=title),
        folder / "knowledge" / "KB-1.md": ARTICLE,
        folder / "fixture.json": json.dumps(FIXTURE, indent=2) + "\n",
        folder / "state.schema.json": json.dumps(SCHEMA, indent=2) + "\n",
        folder / "tools.py": TOOLS.format(name=name),
    }
    persona = "calm_precise"
    if not (personas / f"{persona}.yaml").exists():
        files[personas / f"{persona}.yaml"] = PERSONA
    files[scenarios / f"{name}_freeze_card.yaml"] = SCENARIO.format(name=name, persona=persona)
    taken = [p for p in files if p.exists()]
    if taken:
        raise InputError(f"{taken[0]}: exists already; nothing was written")
    ws_text = _workspace_text(ws_path, f"domains/{name}")
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    ws_path.write_text(ws_text, encoding="utf-8")
    return Written(sorted(files), ws_path)


def _workspace_text(path: Path, domain: str) -> str:
    """The workspace file with ``domain`` listed (a new file keeps today's defaults)."""
    if not path.exists():
        return (
            "# supportsim workspace: where this project's inputs are (docs: guide/domains.md).\n"
            "scenarios: [scenarios]\npersonas: personas\n"
            f"domains:\n  - {domain}\n"
        )
    text = path.read_text(encoding="utf-8")
    if re.search(r"^domains:\s*\[\s*\]\s*$", text, re.M):
        return re.sub(r"^domains:\s*\[\s*\]\s*$", f"domains:\n  - {domain}", text, flags=re.M)
    if re.search(r"^domains:\s*$", text, re.M):
        return re.sub(r"^domains:\s*$", f"domains:\n  - {domain}", text, count=1, flags=re.M)
    if re.search(r"^domains:", text, re.M):
        raise InputError(f"{path} [domains]: add {domain} to it (a flow list is not edited)")
    return text.rstrip("\n") + f"\ndomains:\n  - {domain}\n"
