"""The one YAML reader: every file supportsim reads (scenarios, personas, suites, run
configs, models files, rubrics, mock scripts, ``generate``'s model-written drafts).

``yaml.safe_load`` loses positions, silently keeps the last of two equal keys, expands
aliases without bound (a 1.5 KB alias bomb costs minutes and gigabytes), recurses once per
nesting level (5,000 levels: ``RecursionError``) and turns a 5,000-digit integer into a
``ValueError``. This reader composes the node tree once under limits and builds both the
data and a path -> line index from it, so every problem, limits included, is a
:class:`~supportsim.errors.Problem` naming the file and line: bad input, exit code 2.

Limits (module constants, far above anything a hand-written or drafted file needs):
aliases (``*name``) are refused outright, nesting deeper than ``MAX_DEPTH`` is refused,
files larger than ``MAX_BYTES`` are refused before parsing, integers longer than
``MAX_INT_DIGITS`` digits are refused. Only regular files are opened, and without blocking,
so a named pipe among the scenarios is refused by name instead of hanging the reader.
"""

from __future__ import annotations

import datetime
import hashlib
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from supportsim.errors import Problem, ScenarioError

M = TypeVar("M", bound=BaseModel)

__all__ = [
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_INT_DIGITS",
    "Document",
    "PathKey",
    "format_loc",
    "parse_yaml",
    "read_yaml",
]

PathKey = tuple[str | int, ...]

MAX_BYTES = 1024 * 1024
"""Largest file read (bytes). The biggest bundled scenario is under 7 KB."""
MAX_DEPTH = 64
"""Most mappings and sequences nested in one another. Bundled files stay under 10."""
MAX_INT_DIGITS = 40
"""Longest integer literal (digits); 2**128 has 39. Longer ones are refused, not parsed."""


@dataclass(slots=True)
class Document:
    """A parsed YAML file: its data and the line (1-based) of every key and item."""

    file: str
    data: Any
    lines: dict[PathKey, int] = field(default_factory=dict)
    sha256: str = ""
    """Hash of the bytes that were parsed (read once: the file may change afterwards)."""

    def line(self, loc: PathKey) -> int | None:
        """The line of ``loc``, or of its nearest parent that has one."""
        for end in range(len(loc), -1, -1):
            if (found := self.lines.get(tuple(loc[:end]))) is not None:
                return found
        return None

    def problem(self, loc: PathKey, message: str) -> Problem:
        return Problem(self.file, format_loc(loc), message, self.line(loc))

    def validation_problems(
        self, exc: ValidationError, *, unknown: str = "unknown field"
    ) -> list[Problem]:
        """One problem per pydantic error, at its field's line (union tags such as a
        matcher's ``rule`` are left out of the path)."""
        return [
            self.problem(
                tuple(p for p in e["loc"] if isinstance(p, str | int) and p != "rule"),
                unknown
                if e["type"] == "extra_forbidden"
                else str(e["msg"]).removeprefix("Value error, "),
            )
            for e in exc.errors(include_url=False)
        ]


def read_model(path: Path, model: type[M]) -> M:
    """A YAML file read and validated as ``model`` (an empty file is an empty mapping).

    Raises:
        ScenarioError: every problem, reading or validating, naming the file, line and field.
    """
    return read_model_document(path, model)[0]


def read_model_document(path: Path, model: type[M]) -> tuple[M, Document]:
    """``read_model``, with the parsed document (its lines name later problems)."""
    doc, problems = read_yaml(path)
    if doc is None:
        raise ScenarioError(problems)
    try:
        parsed = model.model_validate(doc.data or {})
    except ValidationError as exc:
        raise ScenarioError([*problems, *doc.validation_problems(exc)]) from None
    if problems:
        raise ScenarioError(problems)
    return parsed, doc


def format_loc(loc: PathKey) -> str:
    """``("workflow", 2, "args")`` -> ``workflow[2].args``."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


class _Limit(Exception):
    """A limit was crossed while composing; carries the line."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


class _Loader(yaml.SafeLoader):
    """SafeLoader's composer with the alias and depth limits checked as nodes are read.

    The check has to happen here: the composer recurses once per level, so a 5,000-deep
    document overflows the stack before any later check could run.
    """

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0

    # index: types-PyYAML says int, but PyYAML's mapping composer also passes None and the
    # key node; the stub's return (Node | None) is kept, though PyYAML always returns a node.
    def compose_node(self, parent: yaml.Node | None, index: object) -> yaml.Node | None:
        event = self.peek_event()
        line = event.start_mark.line + 1
        if isinstance(event, yaml.AliasEvent):
            raise _Limit(
                f"YAML aliases (*{event.anchor}) are not accepted: write the value out", line
            )
        if not isinstance(event, yaml.CollectionStartEvent):
            return super().compose_node(parent, index)  # type: ignore[arg-type]  # stub: int
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise _Limit(f"nested deeper than {MAX_DEPTH} levels", line)
            return super().compose_node(parent, index)  # type: ignore[arg-type]  # stub: int
        finally:
            self._depth -= 1


def read_yaml(path: Path) -> tuple[Document | None, list[Problem]]:
    """Parse one file; returns the document or the problems that stopped parsing.

    Only a regular file is read (a FIFO, socket or device is refused without being
    opened for a blocking read), and only up to ``MAX_BYTES``.
    """
    name = str(path)
    try:
        data = _read_regular(path)
    except _NotRegular as exc:
        return None, [Problem(name, "", str(exc))]
    except OSError as exc:
        return None, [Problem(name, "", f"cannot read file: {exc.strerror or exc}")]
    if data is None:
        return None, [Problem(name, "", f"file larger than {MAX_BYTES // 1024} KB: refused")]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, [Problem(name, "", f"not UTF-8 text: {exc.reason} at byte {exc.start}")]
    doc, problems = parse_yaml(text, name)
    if doc is not None:
        doc.sha256 = hashlib.sha256(data).hexdigest()
    return doc, problems


class _NotRegular(Exception):
    pass


def _read_regular(path: Path) -> bytes | None:
    """The file's bytes, or None when it exceeds ``MAX_BYTES``.

    ``O_NONBLOCK`` makes opening a FIFO return at once (a plain open waits for a writer);
    ``fstat`` on the open descriptor then decides, so a swap after a check cannot slip by.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
            raise _NotRegular(f"{kind} (a named pipe, socket or device is never read)")
        if info.st_size > MAX_BYTES:
            return None
        chunks: list[bytes] = []
        size = 0
        while chunk := os.read(fd, 65536):
            chunks.append(chunk)
            size += len(chunk)
            if size > MAX_BYTES:  # grew while being read
                return None
        return b"".join(chunks)
    finally:
        os.close(fd)


def parse_yaml(text: str, name: str) -> tuple[Document | None, list[Problem]]:
    """Parse YAML text that came from ``name`` (a file, or a draft a model wrote).

    Returns the document (None when parsing stopped) and every problem found: syntax,
    limits (aliases, depth, size, integer length), duplicate keys, keys that are not plain
    values. Each problem names ``name`` and, where there is one, the line.
    """
    if len(text.encode("utf-8")) > MAX_BYTES:
        return None, [Problem(name, "", f"larger than {MAX_BYTES // 1024} KB: refused")]
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
    except _Limit as exc:
        return None, [Problem(name, "", str(exc), exc.line)]
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        detail = getattr(exc, "problem", None) or str(exc)
        return None, [Problem(name, "", f"invalid YAML: {detail}", line)]
    finally:
        loader.dispose()
    builder = _Builder(Document(name, None))
    if node is not None:
        builder.doc.data = builder.build(node, ())
    # A value that could not be built stops the file, as a syntax error does; duplicate
    # keys do not, so schema problems are reported alongside them.
    return (None if builder.broken else builder.doc), builder.problems


_INT_TAG = "tag:yaml.org,2002:int"


@dataclass(slots=True)
class _Builder:
    """Turns the node tree into plain data, recording each node's line and each problem."""

    doc: Document
    problems: list[Problem] = field(default_factory=list)
    broken: bool = False

    def fail(self, loc: PathKey, message: str, line: int, *, fatal: bool = True) -> None:
        self.problems.append(Problem(self.doc.file, format_loc(loc), message, line))
        self.broken = self.broken or fatal

    def build(self, node: yaml.Node, loc: PathKey) -> Any:
        self.doc.lines.setdefault(loc, node.start_mark.line + 1)
        if isinstance(node, yaml.MappingNode):
            out: dict[Any, Any] = {}
            for key_node, value_node in node.value:
                line = key_node.start_mark.line + 1
                if not isinstance(key_node, yaml.ScalarNode):
                    self.fail(loc, "a key must be a plain value", line)
                    continue
                key = self.scalar(key_node, loc)
                child = (*loc, str(key))
                if key in out:
                    self.fail(child, "duplicate key", line, fatal=False)
                self.doc.lines[child] = line
                out[key] = self.build(value_node, child)
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, (*loc, i)) for i, item in enumerate(node.value)]
        return self.scalar(node, loc)

    def scalar(self, node: yaml.Node, loc: PathKey) -> Any:
        line = node.start_mark.line + 1
        if node.tag == _INT_TAG and len(str(node.value).replace("_", "")) > MAX_INT_DIGITS:
            self.fail(loc, f"integer longer than {MAX_INT_DIGITS} digits: refused", line)
            return None
        try:
            value = yaml.SafeLoader("").construct_object(node)
        except (yaml.YAMLError, ValueError, OverflowError) as exc:
            # e.g. a date-shaped value that is no date (2024-13-45): SafeLoader's ValueError
            self.fail(loc, f"invalid value {node.value!r}: {exc}", line)
            return None
        # Dates in support data are identifiers and text, not calendar objects.
        return value.isoformat() if isinstance(value, datetime.date) else value
