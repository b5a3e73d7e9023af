"""Tools every domain has: transfer to a human, and knowledge-base search."""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import Field

from supportsim.domains._base import KB_TOOL, Args, Article, Domain, DomainState, Tool, tool
from supportsim.errors import ToolError
from supportsim.scenario import Action

TRANSFER_TOOL = "transfer_to_human"
COMMON_ACTIONS: Mapping[str, tuple[Action, ...]] = {TRANSFER_TOOL: ("escalated",)}
"""What the common tools perform (the action map's part every domain shares): a transfer
escalates, whatever the domain."""


class TransferArgs(Args):
    reason: str = Field(min_length=1)
    """Why a human must take over, for the human agent."""
    summary: str = ""
    """What has been done so far, so the customer need not repeat themselves."""


@tool("write", name=TRANSFER_TOOL)
def transfer_to_human(state: DomainState, args: TransferArgs) -> dict[str, object]:
    """Hand the conversation to a human agent. Use it only when policy requires a human or
    the customer's request cannot be handled with your tools. The conversation ends."""
    if state.session.transferred:
        raise ToolError("the conversation has already been transferred")
    state.session.transferred = True
    state.session.transfer_reason = args.reason
    return {"transferred": True, "queue": "human_support", "estimated_wait_minutes": 4}


class SearchArgs(Args):
    query: str = Field(min_length=1)
    """Keywords describing the policy or procedure you need."""


_WORD = re.compile(r"[\w'-]+", re.UNICODE)


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.casefold()) if len(w) > 2}


def knowledge_tool(articles: Sequence[Article]) -> Tool:
    """A search tool over a domain's articles: the best three by shared words."""

    @tool("read", name=KB_TOOL)
    def search_knowledge_base(state: DomainState, args: SearchArgs) -> dict[str, object]:
        """Search the company knowledge base (policies, fees, procedures). Returns the most
        relevant articles; quote them rather than guessing policy."""
        query = _words(args.query)
        scored = []
        for i, art in enumerate(articles):
            score = 2 * len(query & _words(art.title + " " + " ".join(art.tags)))
            score += len(query & _words(art.text))
            if score:
                scored.append((-score, i, art))
        if not scored:
            raise ToolError(f"no articles match {args.query!r}; try other keywords")
        return {
            "results": [
                {"id": a.id, "title": a.title, "text": a.text} for _, _, a in sorted(scored)[:3]
            ]
        }

    return search_knowledge_base


def actions_of(domain: Domain) -> dict[str, tuple[Action, ...]]:
    """The domain's action map with the common tools' (a domain may override them)."""
    return {**COMMON_ACTIONS, **domain.actions}


def common_tools(articles: Sequence[Article]) -> dict[str, Tool]:
    """The tools every domain adds to its own."""
    return {TRANSFER_TOOL: transfer_to_human, KB_TOOL: knowledge_tool(articles)}


@dataclass(frozen=True, slots=True)
class Owned:
    """Records of one state collection that belong to a customer, and which of their fields
    are that customer's private data (dotted globs over the record: ``items.*.name``)."""

    collection: str
    owner: str
    fields: tuple[str, ...]


def private_values_of(
    *owned: Owned, public: Collection[str] | None = None
) -> Callable[[Mapping[str, Any]], dict[str, set[str]]]:
    """A ``Domain.private_values`` from declarations: customer id -> text values of their
    records' private fields, read from a state dump. A value that also stands in a public
    collection (the product catalogue, the plan list) is public, not private: naming a
    product is not reading out someone's order.

    Args:
        public: the collections anyone may hear about (default: every collection nobody
            owns). Name them when an unowned collection holds per-customer values, as SIM
            cards hold their line's phone number.
    """
    collections = {spec.collection for spec in owned}

    def private_values(state: Mapping[str, Any]) -> dict[str, set[str]]:
        public_values = {
            value.strip().casefold()
            for key, records in state.items()
            if (key in public if public is not None else key not in collections)
            and key not in ("session", "extra")
            for _, value in _leaves(records)
            if isinstance(value, str)
        }
        out: dict[str, set[str]] = {}
        for spec in owned:
            for record in (state.get(spec.collection) or {}).values():
                owner = record.get(spec.owner) if isinstance(record, dict) else None
                if not owner:
                    continue
                values = out.setdefault(str(owner), set())
                for path, value in _leaves(record):
                    if not isinstance(value, str) or not value.strip():
                        continue
                    private = any(fnmatch.fnmatchcase(path, g) for g in spec.fields)
                    if private and value.strip().casefold() not in public_values:
                        values.add(value.strip())
        return out

    return private_values


def _leaves(value: Any, prefix: str = "") -> list[tuple[str, Any]]:
    if isinstance(value, dict):
        return [
            leaf
            for key, item in value.items()
            for leaf in _leaves(item, f"{prefix}.{key}" if prefix else str(key))
        ]
    if isinstance(value, list):
        return [leaf for i, item in enumerate(value) for leaf in _leaves(item, f"{prefix}.{i}")]
    return [(prefix, value)]
