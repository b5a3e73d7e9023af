"""Tools built the way tau2 builds them: the Agent's text comes from a Google docstring.

tau2 turns a tool method into a schema with ``docstring_parser``: the description is the
docstring's short description (its FIRST LINE only), a blank line, then the rest of the
summary; each argument's description is its entry under ``Args:``; ``Returns:`` and
``Raises:`` are not shown. Parsing tau2's own docstrings with the same library gives the
Agent the same text byte for byte, including that quirk, which hand-copying would not.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from typing import Any, get_type_hints

import docstring_parser
from pydantic import Field, create_model

from supportsim.domains import Args, Tool, ToolKind


def description_of(docstring: str) -> tuple[str, dict[str, str]]:
    """The tool description and argument descriptions tau2 derives from ``docstring``."""
    doc = docstring_parser.parse(docstring)
    short = doc.short_description or ""
    text = f"{short}\n\n{doc.long_description}" if short and doc.long_description else short
    return text, {p.arg_name: p.description or "" for p in doc.params}


def tau2_tool(kind: ToolKind) -> Callable[[Callable[..., object]], Tool]:
    """Make a Tool of ``fn(state, arg1, arg2, ...)`` documented in tau2's docstring form.

    The argument model is built from the signature (names, types, order), rejects unknown
    arguments as tau2's keyword call does, and carries the ``Args:`` descriptions.
    """

    def wrap(fn: Callable[..., object]) -> Tool:
        description, arg_docs = description_of(fn.__doc__ or "")
        if not description:
            raise TypeError(f"tool {fn.__name__} needs a docstring: it is the Agent's prompt")
        hints = get_type_hints(fn)
        names = list(inspect.signature(fn).parameters)[1:]
        fields: dict[str, Any] = {
            name: (hints[name], Field(description=arg_docs.get(name) or None)) for name in names
        }
        model_name = re.sub(r"(?:^|_)(\w)", lambda m: m.group(1).upper(), fn.__name__) + "Args"
        args_model = create_model(model_name, __base__=Args, **fields)

        def run(state: Any, args: Any) -> object:
            return fn(state, **{name: getattr(args, name) for name in names})

        return Tool(fn.__name__, description, args_model, kind, run)

    return wrap
