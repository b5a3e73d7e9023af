"""tau2 retail's read-only tools, and the record lookups every tool shares.

Each tool returns what tau2's returns: a record as its model dumps it (dict in field order),
or text for the id lookups, the calculator, the product list and the transfer. A refusal is a
``ToolError`` whose message is tau2's exception text ("Order not found"); tau2 shows it to
the Agent as ``"Error: " + message``. The docstrings are tau2's (MIT, Sierra Research), kept
verbatim because they are the prompt text the Agent reads (see ``_tooling``).
"""

from __future__ import annotations

import ast
import json
import operator
from collections.abc import Callable
from typing import Any

from supportsim.errors import ToolError
from supportsim.tau2.retail._state import (
    Order,
    PaymentMethod,
    Product,
    Tau2RetailState,
    User,
    Variant,
)
from supportsim.tau2.retail._tooling import tau2_tool

# --- lookups (tau2's messages) --------------------------------------------------------------


def order_of(db: Tau2RetailState, order_id: str) -> Order:
    """The order keyed exactly ``order_id`` (with its '#'), or "Order not found"."""
    if order_id not in db.orders:
        raise ToolError("Order not found")
    return db.orders[order_id]


def user_of(db: Tau2RetailState, user_id: str) -> User:
    if user_id not in db.users:
        raise ToolError("User not found")
    return db.users[user_id]


def product_of(db: Tau2RetailState, product_id: str) -> Product:
    if product_id not in db.products:
        raise ToolError("Product not found")
    return db.products[product_id]


def variant_of(db: Tau2RetailState, product_id: str, variant_id: str) -> Variant:
    """A variant of one product: "Product not found", then "Variant not found"."""
    product = product_of(db, product_id)
    if variant_id not in product.variants:
        raise ToolError("Variant not found")
    return product.variants[variant_id]


def payment_method_of(db: Tau2RetailState, user_id: str, method_id: str) -> PaymentMethod:
    """One of a user's payment methods: "User not found", then "Payment method not found"."""
    user = user_of(db, user_id)
    if method_id not in user.payment_methods:
        raise ToolError("Payment method not found")
    return user.payment_methods[method_id]


def count_missing(wanted: list[str], present: list[str]) -> str | None:
    """The first id ``wanted`` more often than the order has it (duplicates count), if any."""
    for item_id in wanted:
        if wanted.count(item_id) > present.count(item_id):
            return item_id
    return None


# --- the calculator -------------------------------------------------------------------------

CALC_CHARS = frozenset("0123456789+-*/(). ")
_BINARY: dict[type[ast.operator], Callable[[object, object], object]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Pow: operator.pow,
}
# Any: like operator.add's, pos and neg take whatever the expression holds (a wrong operand
# raises TypeError, as eval's would); typeshed types them by a protocol that object fails.
_UNARY: dict[type[ast.unaryop], Callable[[Any], object]] = {
    ast.UAdd: operator.pos,
    ast.USub: operator.neg,
}
MAX_POWER_BITS = 1_000_000
"""Bigger integer powers are refused: tau2's ``eval`` would compute them for minutes."""


def evaluate(expression: str) -> str:
    """tau2's ``calculate``: the expression's value as ``str(round(float(value), 2))``.

    tau2 checks the characters and hands the text to Python's ``eval``; this parses it
    with Python's own grammar instead and applies Python's operators to the numbers, so
    results and error texts are Python's ("division by zero", "invalid syntax (<string>,
    line 1)") without evaluating arbitrary code. Python's ``eval`` of a string ignores
    leading spaces, so they are dropped before parsing.
    """
    if not all(char in CALC_CHARS for char in expression):
        raise ToolError("Invalid characters in expression")
    try:
        tree = ast.parse(expression.lstrip(" \t"), filename="<string>", mode="eval")
        return str(round(float(_value(tree.body)), 2))  # type: ignore[arg-type]
    except (SyntaxError, ArithmeticError, TypeError, ValueError) as exc:
        raise ToolError(str(exc)) from None


def _value(node: ast.expr) -> object:
    if isinstance(node, ast.Constant):
        return node.value  # a number, or ``...``: float() then refuses it as eval's would
    if isinstance(node, ast.Tuple):
        return tuple(_value(e) for e in node.elts)
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](_value(node.operand))
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _value(node.left), _value(node.right)
        if isinstance(node.op, ast.Pow) and _huge_power(left, right):
            raise ValueError("Expression result is too large")
        return _BINARY[type(node.op)](left, right)
    raise ValueError("Unsupported expression")  # unreachable with the allowed characters


def _huge_power(base: object, exponent: object) -> bool:
    if not isinstance(base, int) or not isinstance(exponent, int) or exponent <= 0:
        return False
    return abs(base) > 1 and exponent * abs(base).bit_length() > MAX_POWER_BITS


# --- tools (tau2's names, arguments, docstrings and results) -------------------------------


@tau2_tool("read")
def calculate(db: Tau2RetailState, expression: str) -> str:
    """
    Calculate the result of a mathematical expression.

    Args:
        expression: The mathematical expression to calculate, such as '2 + 2'. The expression can contain numbers, operators (+, -, *, /), parentheses, and spaces.

    Returns:
        The result of the mathematical expression.

    Raises:
        ValueError: If the expression is invalid.
    """  # noqa: E501
    return evaluate(expression)


@tau2_tool("read")
def find_user_id_by_name_zip(db: Tau2RetailState, first_name: str, last_name: str, zip: str) -> str:
    """Find user id by first name, last name, and zip code. If the user is not found, the function
    will return an error message. By default, find user id by email, and only call this function
    if the user is not found by email or cannot remember email.

    Args:
        first_name: The first name of the customer, such as 'John'.
        last_name: The last name of the customer, such as 'Doe'.
        zip: The zip code of the customer, such as '12345'.

    Returns:
        str: The user id if found, otherwise an error message.

    Raises:
        ValueError: If the user is not found.
    """
    first, last = first_name.lower(), last_name.lower()
    for user_id, user in db.users.items():  # the database's order: the first match wins
        name = user.name
        if (
            name.first_name.lower() == first
            and name.last_name.lower() == last
            and user.address.zip == zip
        ):
            return user_id
    raise ToolError("User not found")


@tau2_tool("read")
def find_user_id_by_email(db: Tau2RetailState, email: str) -> str:
    """Find user id by email. If the user is not found, the function will return an error message.

    Args:
        email: The email of the user, such as 'something@example.com'.

    Returns:
        str: The user id if found, otherwise an error message.

    Raises:
        ValueError: If the user is not found.
    """
    wanted = email.lower()
    for user_id, user in db.users.items():
        if user.email.lower() == wanted:
            return user_id
    raise ToolError("User not found")


@tau2_tool("read")
def get_order_details(db: Tau2RetailState, order_id: str) -> dict[str, object]:
    """Get the status and details of an order.

    Args:
        order_id: The order id, such as '#W0000000'. Be careful there is a '#' symbol at the beginning of the order id.

    Returns:
        Order: The order details.

    Raises:
        ValueError: If the order is not found.
    """  # noqa: E501
    return order_of(db, order_id).model_dump()


@tau2_tool("read")
def get_product_details(db: Tau2RetailState, product_id: str) -> dict[str, object]:
    """Get the inventory details of a product.

    Args:
        product_id: The product id, such as '6086499569'. Be careful the product id is different from the item id.

    Returns:
        Product: The product details.

    Raises:
        ValueError: If the product is not found.
    """  # noqa: E501
    return product_of(db, product_id).model_dump()


@tau2_tool("read")
def get_item_details(db: Tau2RetailState, item_id: str) -> dict[str, object]:
    """Get the inventory details of an item.

    Args:
        item_id: The item id, such as '6086499569'. Be careful the item id is different from the product id.

    Returns:
        Variant: The item details.

    Raises:
        ValueError: If the item is not found.
    """  # noqa: E501
    for product in db.products.values():
        if item_id in product.variants:
            return product.variants[item_id].model_dump()
    raise ToolError("Item not found")


@tau2_tool("read")
def get_user_details(db: Tau2RetailState, user_id: str) -> dict[str, object]:
    """Get the details of a user, including their orders.

    Args:
        user_id: The user id, such as 'sara_doe_496'.

    Returns:
        User: The user details.

    Raises:
        ValueError: If the user is not found.
    """
    return user_of(db, user_id).model_dump()


@tau2_tool("read")
def list_all_product_types(db: Tau2RetailState) -> str:
    """List the name and product id of all product types.
    Each product type has a variety of different items with unique item ids and options.
    There are only 50 product types in the store.

    Returns:
        str: A JSON string mapping product names to their product IDs, sorted alphabetically by name.
    """  # noqa: E501
    # json's own text (", " and ": " separators); a name listed twice keeps its last id.
    by_name = {p.name: p.product_id for p in db.products.values()}
    return json.dumps(by_name, sort_keys=True)


@tau2_tool("read")
def transfer_to_human_agents(db: Tau2RetailState, summary: str) -> str:
    """
    Transfer the user to a human agent, with a summary of the user's issue.
    Only transfer if
     -  the user explicitly asks for a human agent
     -  given the policy and the available tools, you cannot solve the user's issue.

    Args:
        summary: A summary of the user's issue.

    Returns:
        A message indicating the user has been transferred to a human agent.
    """
    return "Transfer successful"
