"""The tau2_retail domain behaves as tau2-bench's retail tools at a2c0247.

The proof is tau2's own: replaying every train task's gold actions through our Environment
gives the final database hash tau2 computed with its own tools (tests/fixtures/tau2, MIT).
The tables below pin each behaviour that had to be matched by reading tau2's code: error
texts, rounding, ordering, the first-line description quirk and the item-modification bug.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from supportsim.domains import builtin_domains
from supportsim.domains.mock import domain as mock_domain
from supportsim.environment import CallRecord, Environment
from supportsim.errors import ScenarioError, ToolError
from supportsim.scenario import Scenario
from supportsim.tau2.retail import (
    GATES,
    TOOLS,
    Tau2Domain,
    Tau2RetailState,
    db_hash,
    domain,
    retail_dir,
    tau2_db,
)
from supportsim.tau2.retail._data import base_db
from supportsim.tau2.retail._reads import evaluate

DATA = Path(__file__).parents[1] / "fixtures" / "tau2"
RETAIL = DATA / "domains" / "retail"
EXPECTED: dict[str, Any] = json.loads((RETAIL / "expected_train.json").read_text())
TASKS: list[dict[str, Any]] = json.loads((RETAIL / "tasks.json").read_text())
INITIAL = EXPECTED["initial_db_sha256"]


def scenario(state: dict[str, Any] | None = None) -> Scenario:
    return Scenario.model_validate(
        {
            "id": "tau2-test",
            "title": "tau2 retail test",
            "domain": "tau2_retail",
            "persona": "neutral",
            "tags": ["billing"],
            "customer": {"reason": "test"},
            "state": state or {},
        }
    )


@pytest.fixture(scope="module")
def dom() -> Tau2Domain:
    return domain(DATA)


@pytest.fixture
def env(dom: Tau2Domain) -> Environment:
    return Environment(dom, scenario())


async def call(env: Environment, name: str, **args: Any) -> CallRecord:
    await env.call(name, args)
    return env.calls[-1]


async def ok(env: Environment, name: str, **args: Any) -> Any:
    record = await call(env, name, **args)
    assert record.ok, record.error
    return record.result


# --- the fixture and the hash ----------------------------------------------------------------


def test_fixture_is_a_tau2_data_directory_with_its_licence() -> None:
    assert "MIT License" in (DATA / "LICENSE").read_text()
    assert "Sierra Research" in (DATA / "LICENSE").read_text()
    split = json.loads((RETAIL / "split_tasks.json").read_text())
    assert list(split) == ["train"]
    assert sorted(split["train"]) == sorted(t["id"] for t in TASKS)
    assert len(TASKS) == 74 == len(EXPECTED["tasks"])
    assert retail_dir(DATA) == RETAIL
    assert retail_dir(RETAIL) == RETAIL


def test_untouched_database_hashes_to_tau2s_initial_hash(env: Environment) -> None:
    assert db_hash(env.state) == INITIAL


def test_hash_is_of_tau2s_dump_not_of_the_file() -> None:
    """db.json omits unset optional fields; tau2's dump has them as null, and so must ours."""
    raw = json.loads((RETAIL / "db.json").read_text())
    assert db_hash(raw) != INITIAL
    order = next(iter(base_db(RETAIL / "db.json").orders.values())).model_dump()
    assert order["cancel_reason"] is None and order["exchange_price_difference"] is None


def test_hash_of_a_snapshot_equals_hash_of_the_state(env: Environment) -> None:
    assert db_hash(json.loads(json.dumps(env.snapshot()))) == INITIAL
    with pytest.raises(TypeError):
        db_hash(mock_domain().initial_state({}))


def test_session_is_not_part_of_the_hash(env: Environment) -> None:
    env.state.session.verified_customer_id = "someone"
    assert db_hash(env.state) == INITIAL


# --- the gold replays: tau2's own verdicts ---------------------------------------------------


@pytest.mark.parametrize("task", TASKS, ids=[t["id"] for t in TASKS])
async def test_gold_replay_gives_tau2s_final_hash(dom: Tau2Domain, task: dict[str, Any]) -> None:
    expected = EXPECTED["tasks"][task["id"]]
    errors_at = {e["index"]: e for e in expected["gold_action_errors"]}
    env = Environment(dom, scenario())
    for index, action in enumerate(task["evaluation_criteria"]["actions"]):
        before = db_hash(env.state) if index in errors_at else None
        record = await call(env, action["name"], **action["arguments"])
        if index in errors_at:
            assert not record.ok and record.error == errors_at[index]["error"]
            assert db_hash(env.state) == before, "a failed gold action changed the database"
        else:
            assert record.ok, f"action {index} {action['name']}: {record.error}"
    db = tau2_db(env.state)  # diff the changed records first: a clearer failure than a hash
    for table, records in expected["changed"].items():
        for key, record in records.items():
            assert db[table][key] == record, f"{table}[{key}]"
    assert db_hash(env.state) == expected["final_db_sha256"]


def test_the_replays_cover_every_tool_that_writes() -> None:
    used = {a["name"] for t in TASKS for a in t["evaluation_criteria"]["actions"]}
    writes = {t.name for t in TOOLS if t.kind == "write"}
    assert writes - used == {"modify_pending_order_payment"}  # pinned by the table below


# --- the toolkit the Agent sees --------------------------------------------------------------


def test_tools_are_tau2s_in_its_order(dom: Tau2Domain) -> None:
    assert list(dom.tools) == [
        "calculate",
        "cancel_pending_order",
        "exchange_delivered_order_items",
        "find_user_id_by_name_zip",
        "find_user_id_by_email",
        "get_order_details",
        "get_product_details",
        "get_item_details",
        "get_user_details",
        "list_all_product_types",
        "modify_pending_order_address",
        "modify_pending_order_items",
        "modify_pending_order_payment",
        "modify_user_address",
        "return_delivered_order_items",
        "transfer_to_human_agents",
    ]
    writes = [n for n, t in dom.tools.items() if t.kind == "write"]
    assert writes == [n for n in dom.tools if n.startswith(("cancel", "exchange", "modify", "ret"))]


def test_description_is_tau2s_first_line_blank_line_rest(dom: Tau2Domain) -> None:
    """docstring_parser takes the first LINE as the short description; tau2 joins it to the
    rest with a blank line, so the Agent reads a paragraph broken after "delivered,"."""
    text = dom.tools["cancel_pending_order"].description
    assert text.startswith(
        "Cancel a pending order. If the order is already processed or delivered,\n\n"
        "it cannot be cancelled. The agent needs to explain the cancellation detail\n"
    )
    assert text.endswith("The function returns the order details after the cancellation.")
    assert "Args:" not in text and "Returns" not in text
    assert dom.tools["calculate"].description == (
        "Calculate the result of a mathematical expression."
    )
    assert dom.tools["get_order_details"].description == "Get the status and details of an order."


def test_argument_schema_is_tau2s(dom: Tau2Domain) -> None:
    schema = dom.tools["exchange_delivered_order_items"].parameters()
    assert list(schema["properties"]) == [
        "order_id",
        "item_ids",
        "new_item_ids",
        "payment_method_id",
    ]
    assert schema["required"] == list(schema["properties"])
    assert schema["properties"]["item_ids"]["items"] == {"type": "string"}
    assert schema["properties"]["new_item_ids"]["description"] == (
        "The item ids to be exchanged for, each such as '1008292230'.\n"
        "There could be duplicate items in the list. Each new item id should match the item id\n"
        "in the same position and be of the same product."
    )
    address = dom.tools["modify_pending_order_address"].parameters()["properties"]
    assert list(address) == ["order_id", "address1", "address2", "city", "state", "country", "zip"]
    assert dom.tools["list_all_product_types"].parameters()["properties"] == {}


async def test_unknown_arguments_are_refused_and_change_nothing(env: Environment) -> None:
    record = await call(env, "get_user_details", user_id="mei_ahmed_5058", verbose=True)
    assert not record.ok and "unknown argument" in (record.error or "")
    record = await call(env, "cancel_pending_order", order_id="#W5918442")
    assert not record.ok and "reason" in (record.error or "")
    assert db_hash(env.state) == INITIAL


def test_identity_tools_are_gates_and_policy_is_tau2s(dom: Tau2Domain) -> None:
    assert dom.gates == GATES
    assert set(GATES) == {"find_user_id_by_email", "find_user_id_by_name_zip"}
    assert dom.policy == (RETAIL / "policy.md").read_text()
    assert "tau2_retail" not in builtin_domains()


async def test_no_tool_refuses_an_unverified_caller(env: Environment) -> None:
    """tau2's tools check no identity (its policy asks the Agent to): a write works cold."""
    result = await ok(
        env, "cancel_pending_order", order_id="#W5918442", reason="ordered by mistake"
    )
    assert result["status"] == "cancelled"
    assert env.state.session.verified_customer_id is None


# --- error texts (tau2's exception messages), each refusal changing nothing ------------------

ERRORS = [
    ("calculate", {"expression": "2 + x"}, "Invalid characters in expression"),
    ("calculate", {"expression": "1 / 0"}, "division by zero"),
    ("calculate", {"expression": "2 +"}, "invalid syntax (<string>, line 1)"),
    ("find_user_id_by_email", {"email": "nobody@example.com"}, "User not found"),
    (
        "find_user_id_by_name_zip",
        {"first_name": "Ethan", "last_name": "Lopez", "zip": "43276"},
        "User not found",
    ),
    ("get_order_details", {"order_id": "W6779827"}, "Order not found"),
    ("get_product_details", {"product_id": "7896397433"}, "Product not found"),
    ("get_item_details", {"item_id": "7233192239"}, "Item not found"),
    ("get_user_details", {"user_id": "Ethan Lopez"}, "User not found"),
    (
        "cancel_pending_order",
        {"order_id": "#W2611340", "reason": "no longer needed"},
        "Non-pending order cannot be cancelled",
    ),
    (
        "cancel_pending_order",
        {"order_id": "#W5918442", "reason": "changed my mind"},
        "Invalid reason",
    ),
    (
        "exchange_delivered_order_items",
        {
            "order_id": "#W2611340",
            "item_ids": [],
            "new_item_ids": [],
            "payment_method_id": "gift_card_1725971",
        },
        "Non-delivered order cannot be exchanged",
    ),
    (
        "exchange_delivered_order_items",
        {
            "order_id": "#W4817420",
            "item_ids": ["6777246137", "6777246137"],
            "new_item_ids": ["1434748144", "1434748144"],
            "payment_method_id": "gift_card_8168843",
        },
        "Number of 6777246137 not found.",
    ),
    (
        "exchange_delivered_order_items",
        {
            "order_id": "#W4817420",
            "item_ids": ["6777246137"],
            "new_item_ids": [],
            "payment_method_id": "gift_card_8168843",
        },
        "The number of items to be exchanged should match.",
    ),
    (
        "exchange_delivered_order_items",
        {
            "order_id": "#W4817420",
            "item_ids": ["6777246137"],
            "new_item_ids": ["1434748144"],
            "payment_method_id": "gift_card_8168843",
        },
        "New item 1434748144 not found or available",
    ),
    (
        "exchange_delivered_order_items",
        {
            "order_id": "#W4817420",
            "item_ids": ["6777246137"],
            "new_item_ids": ["7896397433"],
            "payment_method_id": "gift_card_8168843",
        },
        "Variant not found",
    ),
    (
        "exchange_delivered_order_items",
        {
            "order_id": "#W4816420",
            "item_ids": [],
            "new_item_ids": [],
            "payment_method_id": "x",
        },
        "Order not found",
    ),
    (
        "exchange_delivered_order_items",
        {
            "order_id": "#W4316152",
            "item_ids": ["7292993796", "7292993796"],
            "new_item_ids": ["3761330360", "9647374798"],
            "payment_method_id": "gift_card_7245904",
        },
        "Insufficient gift card balance to pay for the price difference",
    ),
    (
        "modify_pending_order_address",
        {
            "order_id": "#W2611340",
            "address1": "1 Main St",
            "address2": "",
            "city": "Austin",
            "state": "TX",
            "country": "USA",
            "zip": "78701",
        },
        "Non-pending order cannot be modified",
    ),
    (
        "modify_pending_order_items",
        {
            "order_id": "#W4817420",
            "item_ids": [],
            "new_item_ids": [],
            "payment_method_id": "gift_card_8168843",
        },
        "Non-pending order cannot be modified",
    ),
    (
        "modify_pending_order_items",
        {
            "order_id": "#W6779827",
            "item_ids": ["6777246137"],
            "new_item_ids": ["1434748144"],
            "payment_method_id": "gift_card_7219486",
        },
        "6777246137 not found",
    ),
    (
        "modify_pending_order_items",
        {
            "order_id": "#W6779827",
            "item_ids": ["7896397433"],
            "new_item_ids": [],
            "payment_method_id": "gift_card_7219486",
        },
        "The number of items to be exchanged should match",
    ),
    (
        "modify_pending_order_items",
        {
            "order_id": "#W6779827",
            "item_ids": ["7896397433"],
            "new_item_ids": ["7896397433"],
            "payment_method_id": "gift_card_7219486",
        },
        "The new item id should be different from the old item id",
    ),
    (
        "modify_pending_order_items",
        {
            "order_id": "#W5918442",
            "item_ids": ["1725100896"],
            "new_item_ids": ["1002370030"],
            "payment_method_id": "credit_card_5051208",
        },
        "New item 1002370030 not found or available",
    ),
    (
        "modify_pending_order_items",
        {
            "order_id": "#W6779827",
            "item_ids": ["7896397433"],
            "new_item_ids": ["2444431651"],
            "payment_method_id": "gift_card_7219486",
        },
        "Insufficient gift card balance to pay for the new item",
    ),
    (
        "modify_pending_order_items",
        {
            "order_id": "#W6779827",
            "item_ids": ["7896397433"],
            "new_item_ids": ["2444431651"],
            "payment_method_id": "credit_card_5051208",
        },
        "Payment method not found",
    ),
    (
        "modify_pending_order_payment",
        {"order_id": "#W2611340", "payment_method_id": "gift_card_1725971"},
        "Non-pending order cannot be modified",
    ),
    (
        "modify_pending_order_payment",
        {"order_id": "#W6779827", "payment_method_id": "paypal_1"},
        "Payment method not found",
    ),
    (
        "modify_pending_order_payment",
        {"order_id": "#W6779827", "payment_method_id": "gift_card_7219486"},
        "The new payment method should be different from the current one",
    ),
    (
        "modify_pending_order_payment",
        {"order_id": "#W8367380", "payment_method_id": "gift_card_1994993"},
        "Insufficient gift card balance to pay for the order",
    ),
    (
        "modify_user_address",
        {
            "user_id": "ethan_lopez_629",
            "address1": "1 Main St",
            "address2": "",
            "city": "Austin",
            "state": "TX",
            "country": "USA",
            "zip": "78701",
        },
        "User not found",
    ),
    (
        "return_delivered_order_items",
        {"order_id": "#W2611340", "item_ids": [], "payment_method_id": "gift_card_1725971"},
        "Non-delivered order cannot be returned",
    ),
    (
        "return_delivered_order_items",
        {"order_id": "#W4250821", "item_ids": [], "payment_method_id": "paypal_7425862"},
        "Payment method should be the original payment method",
    ),
    (
        "return_delivered_order_items",
        {"order_id": "#W4817420", "item_ids": ["1"], "payment_method_id": "gift_card_8168843"},
        "Some item not found",
    ),
]


@pytest.mark.parametrize(("name", "args", "error"), ERRORS, ids=[e[2][:40] for e in ERRORS])
async def test_refusals_carry_tau2s_text_and_change_nothing(
    env: Environment, name: str, args: dict[str, Any], error: str
) -> None:
    record = await call(env, name, **args)
    assert (record.ok, record.error) == (False, error)
    assert db_hash(env.state) == INITIAL


async def test_refusals_that_need_an_earlier_write(env: Environment) -> None:
    modify = {
        "order_id": "#W6779827",
        "item_ids": ["3379843752"],
        "new_item_ids": ["3709608322"],
        "payment_method_id": "gift_card_7219486",
    }
    await ok(env, "modify_pending_order_items", **modify)
    after = db_hash(env.state)
    for name, args, error in [
        ("modify_pending_order_items", modify, "Non-pending order cannot be modified"),
        (
            "cancel_pending_order",
            {"order_id": "#W6779827", "reason": "no longer needed"},
            "Non-pending order cannot be cancelled",
        ),
        (
            "modify_pending_order_payment",
            {"order_id": "#W6779827", "payment_method_id": "credit_card_9789590"},
            "There should be exactly one payment for a pending order",
        ),
    ]:
        record = await call(env, name, **args)
        assert (record.ok, record.error) == (False, error)
    assert db_hash(env.state) == after
    # "pending (item modified)" still counts as pending for the address
    address = {"address1": "1 Main St", "address2": "", "city": "Austin", "state": "TX"}
    where = {"order_id": "#W6779827", "country": "USA", "zip": "78701"}
    result = await ok(env, "modify_pending_order_address", **where, **address)
    assert result["address"] == {**address, "country": "USA", "zip": "78701"}


# --- effects: rounding, ordering, the a2c0247 item-modification bug ---------------------------


async def test_cancel_refunds_every_payment_and_credits_gift_cards_at_once(
    env: Environment,
) -> None:
    result = await ok(env, "cancel_pending_order", order_id="#W6779827", reason="no longer needed")
    assert result["status"] == "cancelled" and result["cancel_reason"] == "no longer needed"
    assert result["payment_history"][-1] == {
        "transaction_type": "refund",
        "amount": 4079.45,
        "payment_method_id": "gift_card_7219486",
    }
    card = env.state.users["ethan_lopez_6291"].payment_methods["gift_card_7219486"]
    assert card.balance == round(49.0 + 4079.45, 2) == 4128.45  # type: ignore[union-attr]
    # a credit card is refunded in the history only
    result = await ok(env, "cancel_pending_order", order_id="#W5918442", reason="no longer needed")
    assert [p["transaction_type"] for p in result["payment_history"]] == ["payment", "refund"]


async def test_exchange_difference_is_rounded_and_ids_sorted(env: Environment) -> None:
    task = next(t for t in TASKS if t["id"] == "0")
    args = task["evaluation_criteria"]["actions"][-1]["arguments"]
    result = await ok(env, "exchange_delivered_order_items", **args)
    assert result["exchange_price_difference"] == -16.63  # unrounded: -16.630000000000024
    assert result["exchange_items"] == sorted(args["item_ids"])
    assert result["exchange_new_items"] == sorted(args["new_item_ids"])
    assert result["status"] == "exchange requested"


async def test_item_modification_keeps_the_unrounded_difference(env: Environment) -> None:
    """tau2 rounds the gift card balance but records the payment's float as computed."""
    before = env.state.orders["#W6779827"].items
    old = {i.item_id: i.price for i in before}
    result = await ok(
        env,
        "modify_pending_order_items",
        order_id="#W6779827",
        item_ids=["3379843752", "1323134954"],
        new_item_ids=["3709608322", "3020722515"],
        payment_method_id="gift_card_7219486",
    )
    diff: float = 0
    diff += 2744.7 - old["3379843752"]
    diff += 238.64 - old["1323134954"]
    assert result["payment_history"][-1] == {
        "transaction_type": "refund",
        "amount": abs(diff),
        "payment_method_id": "gift_card_7219486",
    }
    assert abs(diff) != round(abs(diff), 2)
    card = env.state.users["ethan_lopez_6291"].payment_methods["gift_card_7219486"]
    assert card.balance == round(49.0 - diff, 2)  # type: ignore[union-attr]
    assert result["status"] == "pending (item modified)"


async def test_item_modification_gives_every_line_the_last_new_items_price(
    env: Environment,
) -> None:
    """tau2 at a2c0247 reuses the last checked variant for every modified line (fixed later
    upstream); its gold hashes (tasks 20, 21, 37) depend on it."""
    result = await ok(
        env,
        "modify_pending_order_items",
        order_id="#W6779827",
        item_ids=["3379843752", "1323134954"],
        new_item_ids=["3709608322", "3020722515"],
        payment_method_id="gift_card_7219486",
    )
    last = env.state.products["7996920482"].variants["3020722515"]
    modified = [i for i in result["items"] if i["item_id"] in ("3709608322", "3020722515")]
    assert [i["item_id"] for i in modified] == ["3709608322", "3020722515"]
    assert all(i["price"] == last.price and i["options"] == last.options for i in modified)
    untouched = [i for i in result["items"] if i["item_id"] == "7896397433"]
    assert untouched[0]["price"] == 457.81


async def test_payment_change_moves_gift_card_money_both_ways(env: Environment) -> None:
    result = await ok(
        env,
        "modify_pending_order_payment",
        order_id="#W6779827",
        payment_method_id="credit_card_9789590",
    )
    history = result["payment_history"]
    entries = [(p["transaction_type"], p["amount"], p["payment_method_id"]) for p in history]
    assert entries == [
        ("payment", 4079.45, "gift_card_7219486"),
        ("payment", 4079.45, "credit_card_9789590"),
        ("refund", 4079.45, "gift_card_7219486"),
    ]
    card = env.state.users["ethan_lopez_6291"].payment_methods["gift_card_7219486"]
    assert card.balance == 4128.45  # type: ignore[union-attr]


async def test_return_accepts_the_original_method_or_any_own_gift_card(env: Environment) -> None:
    items = ["9970989750", "5222576926"]
    result = await ok(
        env,
        "return_delivered_order_items",
        order_id="#W4250821",
        item_ids=items,
        payment_method_id="gift_card_6052478",
    )
    assert result["status"] == "return requested" and result["return_items"] == sorted(items)
    assert result["return_payment_method_id"] == "gift_card_6052478"


async def test_user_address_is_replaced_whole(env: Environment) -> None:
    new = {"address1": "1 Main St", "address2": "", "city": "Austin", "state": "TX"}
    new |= {"country": "USA", "zip": "78701"}
    result = await ok(env, "modify_user_address", user_id="ethan_lopez_6291", **new)
    assert result["address"] == new and result["user_id"] == "ethan_lopez_6291"
    assert db_hash(env.state) != INITIAL


# --- reads ----------------------------------------------------------------------------------


async def test_user_lookups_fold_case_but_not_the_zip(env: Environment) -> None:
    assert await ok(env, "find_user_id_by_email", email="ETHAN.Lopez8943@example.com") == (
        "ethan_lopez_6291"
    )
    found = await ok(
        env, "find_user_id_by_name_zip", first_name="ETHAN", last_name="lopez", zip="43275"
    )
    assert found == "ethan_lopez_6291"
    record = await call(
        env, "find_user_id_by_name_zip", first_name="Ethan", last_name="Lopez", zip=" 43275"
    )
    assert record.error == "User not found"


async def test_user_lookups_return_the_first_match_in_database_order(dom: Tau2Domain) -> None:
    twin = base_db(RETAIL / "db.json").users["ethan_lopez_6291"].model_dump()
    twin["user_id"] = "ethan_lopez_0000"
    env = Environment(dom, scenario({"users": {"ethan_lopez_0000": twin}}))
    assert list(env.state.users)[-1] == "ethan_lopez_0000"
    found = await ok(
        env, "find_user_id_by_name_zip", first_name="Ethan", last_name="Lopez", zip="43275"
    )
    assert found == "ethan_lopez_6291"
    assert await ok(env, "find_user_id_by_email", email=twin["email"]) == "ethan_lopez_6291"


async def test_records_come_back_in_tau2s_field_order(env: Environment) -> None:
    order = await ok(env, "get_order_details", order_id="#W6779827")
    assert list(order) == [
        "order_id",
        "user_id",
        "address",
        "items",
        "status",
        "fulfillments",
        "payment_history",
        "cancel_reason",
        "exchange_items",
        "exchange_new_items",
        "exchange_payment_method_id",
        "exchange_price_difference",
        "return_items",
        "return_payment_method_id",
    ]
    user = await ok(env, "get_user_details", user_id="ethan_lopez_6291")
    assert list(user) == ["user_id", "name", "address", "email", "payment_methods", "orders"]
    assert list(user["payment_methods"]["gift_card_7219486"]) == ["source", "id", "balance"]
    item = await ok(env, "get_item_details", item_id="2444431651")  # found across products
    assert list(item) == ["item_id", "options", "available", "price"]
    assert item["price"] == 534.84


async def test_product_list_is_json_text_sorted_by_name(env: Environment) -> None:
    text = await ok(env, "list_all_product_types")
    assert isinstance(text, str) and text.startswith('{"Action Camera": "3377618313", ')
    listed = json.loads(text)
    assert list(listed) == sorted(listed) and len(listed) == 50


async def test_transfer_is_text_and_changes_nothing(env: Environment) -> None:
    assert await ok(env, "transfer_to_human_agents", summary="wants a human") == (
        "Transfer successful"
    )
    assert db_hash(env.state) == INITIAL


@pytest.mark.parametrize(
    ("expression", "result"),
    [
        ("2 + 2", "4.0"),
        ("652.61 + 473.43", "1126.04"),
        ("1 / 3", "0.33"),
        ("  (1 + 2) * -3", "-9.0"),
        ("7 // 2 ** 2", "1.0"),
        ("0.1 + 0.2", "0.3"),
    ],
)
def test_calculate_gives_pythons_value_rounded_to_cents(expression: str, result: str) -> None:
    assert evaluate(expression) == result


@pytest.mark.parametrize(
    ("expression", "error"),
    [
        ("1.0 / 0", "float division by zero"),
        ("", "invalid syntax (<string>, line 0)"),
        ("()", "float() argument must be a string or a real number, not 'tuple'"),
        ("10 ** 400", "int too large to convert to float"),
        ("__import__('os')", "Invalid characters in expression"),
        ("9 ** 9 ** 9 ** 9", "Expression result is too large"),
    ],
)
def test_calculate_refuses_with_pythons_message(expression: str, error: str) -> None:
    with pytest.raises(ToolError) as caught:
        evaluate(expression)
    assert str(caught.value) == error


# --- state: copy on write, overrides, loading -------------------------------------------------


def test_copies_share_records_until_a_tool_writes_one(dom: Tau2Domain) -> None:
    base = base_db(RETAIL / "db.json")
    a, b = dom.initial_state({}), dom.initial_state({})
    assert isinstance(a, Tau2RetailState) and isinstance(b, Tau2RetailState)
    assert a.orders["#W5918442"] is b.orders["#W5918442"] is base.orders["#W5918442"]
    move = dom.tools["modify_pending_order_address"]
    address = {"address1": "1 Main St", "address2": "", "city": "Boise", "state": "ID"}
    move.run(a, move.args_model(order_id="#W5918442", **address, country="USA", zip="83702"))
    assert a.orders["#W5918442"].address.city == "Boise"
    assert b.orders["#W5918442"].address.city == base.orders["#W5918442"].address.city
    assert b.orders["#W5918442"].address.city != "Boise"
    c = a.model_copy(deep=True)  # a copy of a written state shares the written record ...
    assert c.orders["#W5918442"] is a.orders["#W5918442"]
    cancel = dom.tools["cancel_pending_order"]
    cancel.run(a, cancel.args_model(order_id="#W5918442", reason="no longer needed"))
    assert a.orders["#W5918442"].status == "cancelled"  # ... until either writes it again
    assert c.orders["#W5918442"].status == "pending"
    assert c.orders["#W5918442"].address.city == "Boise"
    assert db_hash(b) == INITIAL


async def test_a_refused_write_leaves_earlier_writes_in_place(env: Environment) -> None:
    await ok(env, "cancel_pending_order", order_id="#W5918442", reason="no longer needed")
    after = db_hash(env.state)
    record = await call(env, "cancel_pending_order", order_id="#W5918442", reason="x")
    assert record.error == "Non-pending order cannot be cancelled"
    assert db_hash(env.state) == after != INITIAL


async def test_scenario_state_overrides_merge_record_by_record(dom: Tau2Domain) -> None:
    env = Environment(dom, scenario({"orders": {"#W2611340": {"status": "pending"}}}))
    result = await ok(env, "cancel_pending_order", order_id="#W2611340", reason="no longer needed")
    assert result["status"] == "cancelled" and len(result["items"]) == 2
    assert base_db(RETAIL / "db.json").orders["#W2611340"].status == "processed"
    fresh = Environment(dom, scenario())
    assert db_hash(fresh.state) == INITIAL


@pytest.mark.parametrize(
    "state",
    [
        {"orders": {"#W2611340": {"status": "shipped"}}},
        {"orders": {"#W2611340": {"colour": "red"}}},
        {"users": {"new_user": {"user_id": "new_user"}}},
        {"coupons": {}},
    ],
)
def test_overrides_that_do_not_fit_tau2s_models_are_refused(
    dom: Tau2Domain, state: dict[str, Any]
) -> None:
    with pytest.raises(ValidationError):
        dom.initial_state(state)


def test_loading_is_cached_by_path_and_reread_when_the_file_changes(tmp_path: Path) -> None:
    assert base_db(RETAIL / "db.json") is base_db(RETAIL / "db.json")
    copy = tmp_path / "db.json"
    raw = json.loads((RETAIL / "db.json").read_text())
    copy.write_text(json.dumps(raw))
    first = base_db(copy)
    raw["orders"]["#W2611340"]["status"] = "pending"
    copy.write_text(json.dumps(raw))
    stat = copy.stat()
    os.utime(copy, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    assert base_db(copy) is not first
    assert base_db(copy).orders["#W2611340"].status == "pending"


def test_a_directory_without_db_json_is_named(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError) as caught:
        domain(tmp_path)
    assert str(tmp_path) in str(caught.value) and "db.json" in str(caught.value)


def test_a_malformed_database_names_file_and_field(tmp_path: Path) -> None:
    raw = json.loads((RETAIL / "db.json").read_text())
    raw["orders"]["#W2611340"]["status"] = "shipped"
    (tmp_path / "db.json").write_text(json.dumps(raw))
    (tmp_path / "policy.md").write_text("policy")
    with pytest.raises(ScenarioError) as caught:
        domain(tmp_path)
    problem = caught.value.problems[0]
    assert problem.file.endswith("db.json") and problem.field == "orders.#W2611340.status"
    (tmp_path / "db.json").write_text("{not json")
    with pytest.raises(ScenarioError, match="not valid JSON"):
        domain(tmp_path)
    (tmp_path / "db.json").write_text('{"products": {}}')
    with pytest.raises(ScenarioError, match="exactly"):
        domain(tmp_path)


def test_a_missing_policy_is_named(tmp_path: Path) -> None:
    (tmp_path / "db.json").write_text('{"products": {}, "users": {}, "orders": {}}')
    with pytest.raises(ScenarioError, match=r"policy\.md"):
        domain(tmp_path)
    (tmp_path / "policy.md").write_text("Be kind.")
    assert domain(tmp_path).policy == "Be kind."
