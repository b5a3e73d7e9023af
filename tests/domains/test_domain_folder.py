"""Domains written as data: the folder form loads, is checked field by field, and works."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from supportsim.domains import DomainState
from supportsim.domains._folder import load_domain_folder
from supportsim.domains._schema_state import SchemaStateError, state_model_from_schema
from supportsim.domains.telecom import domain as telecom
from supportsim.environment import Environment
from supportsim.errors import ScenarioError
from supportsim.scenario import Scenario

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
                "balance": {"type": "number"},
                "status": {"enum": ["active", "closed"], "default": "active"},
                "tags": {"type": "array", "items": {"type": "string"}, "default": []},
                "note": {"type": ["string", "null"]},
            },
            "required": ["id", "name", "balance"],
        }
    },
}

TOOLS = '''
from supportsim import DomainState, ToolError, tool
from supportsim.domains import Args


class CustomerArgs(Args):
    customer_id: str


@tool("read")
async def get_balance(state: DomainState, args: CustomerArgs) -> dict:
    """Look up a customer's balance."""
    if args.customer_id not in state.customers:
        raise ToolError(f"no customer {args.customer_id}")
    c = state.customers[args.customer_id]
    return {"customer_id": c.id, "balance": c.balance}


@tool("write")
def close_account(state: DomainState, args: CustomerArgs) -> dict:
    """Close a customer's account."""
    state.customers[args.customer_id].status = "closed"
    return {"closed": args.customer_id}
'''

DOMAIN = """\
name: bank
policy: policy.md
knowledge: kb
fixture: fixture.yaml
state: state.schema.json
tools: tools.py
gates: {get_balance: customer_id}
facts: {balance: [get_balance]}
owned: [{collection: customers, owner: id, fields: [name]}]
"""


def make(folder: Path, **files: str) -> Path:
    defaults = {
        "domain.yaml": DOMAIN,
        "policy.md": "# Bank policy\nNever disclose another customer's data.\n",
        "kb/KB-1.md": "---\ntitle: Fees\ntags: [fees]\n---\nNo fees on Sundays.\n",
        "fixture.yaml": (
            "today: '2026-01-01'\ncustomers:\n  C-1: {id: C-1, name: Ann, balance: 10}\n"
        ),
        "state.schema.json": json.dumps(SCHEMA),
        "tools.py": TOOLS,
    }
    for name, text in {**defaults, **files}.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return folder


def test_a_data_domain_loads_with_its_parts(tmp_path: Path) -> None:
    d = load_domain_folder(make(tmp_path / "bank"))
    assert d.name == "bank" and d.policy.startswith("# Bank policy")
    assert [a.id for a in d.knowledge] == ["KB-1"] and d.knowledge[0].text == "No fees on Sundays."
    assert list(d.tools) == [
        "get_balance",
        "close_account",
        "transfer_to_human",
        "search_knowledge_base",
    ]
    assert d.tools["get_balance"].is_async and not d.tools["close_account"].is_async
    state = d.initial_state({"customers": {"C-1": {"balance": 12.5}}})
    assert state.customers["C-1"].balance == 12.5 and state.customers["C-1"].status == "active"
    assert d.private_values is not None
    assert d.private_values(state.model_dump(mode="json")) == {"C-1": {"Ann"}}


async def test_a_data_domain_runs_in_the_environment(tmp_path: Path) -> None:
    d = load_domain_folder(make(tmp_path / "bank"))
    scenario = Scenario.model_validate(
        {
            "id": "s1",
            "title": "t",
            "domain": "bank",
            "persona": "p",
            "tags": ["billing"],
            "customer": {"reason": "r", "will_accept": "w", "opening": "hi"},
        }
    )
    env = Environment(d, scenario)
    ok = await env.call("get_balance", {"customer_id": "C-1"}, "1")
    refused = await env.call("get_balance", {"customer_id": "C-9"}, "2")
    await env.call("close_account", {"customer_id": "C-1"}, "3")
    assert json.loads(ok.content) == {"customer_id": "C-1", "balance": 10.0}
    assert refused.is_error and "no customer C-9" in refused.content
    assert env.snapshot()["customers"]["C-1"]["status"] == "closed"


@pytest.mark.parametrize(
    ("files", "file", "field", "message"),
    [
        ({"domain.yaml": DOMAIN + "colour: red\n"}, "domain.yaml", "colour", "unknown field"),
        ({"domain.yaml": DOMAIN.replace("name: bank", "name: Bank!")}, "domain.yaml", "name", ""),
        ({"fixture.yaml": "today: 1\ncustomers: {}\n"}, "fixture.yaml", "today", "string"),
        ({"tools.py": "x = 1\n"}, "domain.yaml", "tools", "defines no @tool"),
        ({"tools.py": "raise RuntimeError('boom')\n"}, "domain.yaml", "tools", "boom"),
        (
            {"domain.yaml": DOMAIN.replace("{get_balance: customer_id}", "{verify: id}")},
            "domain.yaml",
            "gates.verify",
            "no tool 'verify'",
        ),
        ({"kb/KB-2.md": "no front matter\n"}, "KB-2.md", "knowledge", "front matter"),
        ({"state.schema.json": "[1, 2]"}, "state.schema.json", "(root)", "not a valid JSON"),
        (
            {"state.schema.json": json.dumps({"type": "object", "properties": []})},
            "state.schema.json",
            "properties",
            "not a valid JSON Schema",
        ),
        (
            {"state.schema.json": json.dumps({**SCHEMA, "required": "today"})},
            "state.schema.json",
            "required",
            "not a valid JSON Schema",
        ),
        (
            {"domain.yaml": DOMAIN.replace("collection: customers", "collection: cusotmers")},
            "domain.yaml",
            "owned.0.collection",
            "no state field 'cusotmers'",
        ),
        (
            {"domain.yaml": DOMAIN + "actions: {close_acount: [changed]}\n"},
            "domain.yaml",
            "actions.close_acount",
            "no tool 'close_acount'",
        ),
        (
            {"domain.yaml": DOMAIN + "actions: {get_balance: [changed]}\n"},
            "domain.yaml",
            "actions.get_balance",
            "a read tool changes nothing",
        ),
        (
            {"domain.yaml": DOMAIN + "actions: {close_account: [closed]}\n"},
            "domain.yaml",
            "actions.close_account[0]",
            "'changed', 'escalated', 'flagged' or 'sent'",
        ),
        (
            {"state.schema.json": json.dumps({"type": "object", "properties": {"x": {"not": {}}}})},
            "state.schema.json",
            "properties.x",
            "unsupported keyword(s): not",
        ),
    ],
)
def test_every_problem_names_the_file_and_the_field(
    tmp_path: Path, files: dict[str, str], file: str, field: str, message: str
) -> None:
    folder = make(tmp_path / "bank", **files)
    with pytest.raises(ScenarioError) as caught:
        load_domain_folder(folder)
    problems = caught.value.problems
    assert any(
        p.file.endswith(file) and p.field == field and message in p.message for p in problems
    ), [str(p) for p in problems]


def test_the_action_map_is_read_from_domain_yaml(tmp_path: Path) -> None:
    folder = make(
        tmp_path / "bank",
        **{"domain.yaml": DOMAIN + "actions: {close_account: [changed, cancelled]}\n"},
    )
    assert load_domain_folder(folder).actions == {"close_account": ("changed", "cancelled")}
    assert load_domain_folder(make(tmp_path / "plain")).actions == {}
    assert telecom().actions["refund_charge"] == ("refunded", "credited")


def test_schema_state_refuses_what_it_cannot_model() -> None:
    with pytest.raises(SchemaStateError, match="reserved"):
        state_model_from_schema({"type": "object", "properties": {"session": {}}}, "x")
    with pytest.raises(SchemaStateError, match="names no definition"):
        state_model_from_schema(
            {"type": "object", "properties": {"a": {"$ref": "#/$defs/missing"}}}, "x"
        )
    model = state_model_from_schema(SCHEMA, "bank")
    assert issubclass(model, DomainState)
    with pytest.raises(ValueError, match="Extra inputs"):
        model.model_validate({"today": "d", "customers": {}, "colour": 1})
    with pytest.raises(ValueError, match="'active' or 'closed'"):
        model.model_validate(
            {
                "today": "d",
                "customers": {"C": {"id": "C", "name": "n", "balance": 1, "status": "x"}},
            }
        )


def test_telecom_is_written_in_the_data_form() -> None:
    folder = Path(telecom.__wrapped__.__code__.co_filename).parent
    assert (folder / "domain.yaml").is_file() and (folder / "fixture.json").is_file()
    d = telecom()
    assert d.fixture() is not d.fixture()  # a fresh base state each time
    assert len(d.knowledge) == 11 and "Northwind Mobile" in d.policy


def test_the_folder_can_be_copied_and_loaded_elsewhere(tmp_path: Path) -> None:
    folder = make(tmp_path / "bank")
    copy = shutil.copytree(folder, tmp_path / "elsewhere")
    assert list(load_domain_folder(copy).tools) == list(load_domain_folder(folder).tools)
