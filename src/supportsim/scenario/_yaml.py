"""YAML reading that remembers where each value came from.

``yaml.safe_load`` loses positions and silently keeps the last of two equal keys; scenario
authors need the line of every error and must hear about duplicate keys, so we compose
the node tree once and build both the data and a path -> line index from it.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from supportsim.errors import Problem

PathKey = tuple[str | int, ...]


@dataclass(slots=True)
class Document:
    """A parsed YAML file: its data and the line (1-based) of every key and item."""

    file: str
    data: Any
    lines: dict[PathKey, int] = field(default_factory=dict)

    def line(self, loc: PathKey) -> int | None:
        """The line of ``loc``, or of its nearest parent that has one."""
        for end in range(len(loc), -1, -1):
            if (found := self.lines.get(tuple(loc[:end]))) is not None:
                return found
        return None

    def problem(self, loc: PathKey, message: str) -> Problem:
        return Problem(self.file, format_loc(loc), message, self.line(loc))


def format_loc(loc: PathKey) -> str:
    """``("workflow", 2, "args")`` -> ``workflow[2].args``."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def read_yaml(path: Path) -> tuple[Document | None, list[Problem]]:
    """Parse one file; returns the document or the problems that stopped parsing."""
    name = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return None, [Problem(name, "", f"cannot read file: {exc}")]
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        detail = getattr(exc, "problem", None) or str(exc)
        return None, [Problem(name, "", f"invalid YAML: {detail}", line)]
    doc = Document(name, None)
    problems: list[Problem] = []
    doc.data = _build(node, (), doc, problems) if node is not None else None
    return doc, problems


def _build(node: yaml.Node, loc: PathKey, doc: Document, problems: list[Problem]) -> Any:
    doc.lines.setdefault(loc, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = yaml.SafeLoader(" ").construct_object(key_node)
            child = (*loc, str(key))
            if key in out:
                problems.append(
                    Problem(
                        doc.file, format_loc(child), "duplicate key", key_node.start_mark.line + 1
                    )
                )
            doc.lines[child] = key_node.start_mark.line + 1
            out[key] = _build(value_node, child, doc, problems)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_build(item, (*loc, i), doc, problems) for i, item in enumerate(node.value)]
    value = yaml.SafeLoader(" ").construct_object(node)
    # Dates in support data are identifiers and text, not calendar objects.
    return value.isoformat() if isinstance(value, datetime.date) else value
