"""Reading run directories for the viewer while runs may still be writing them.

A :class:`RunReader` keeps one run's records between requests and reads only what was
appended since (from the byte offset of the last complete line), so a page of a
2,000-unit run costs its rendering, not a re-parse of every transcript. A torn last line
(the writer is writing it now, or died mid-write) is left unread until its newline comes;
a damaged complete line is kept as a problem the run page shows, never skipped silently.
A file that shrank (rewritten in place) is read again from the start.

Nothing here writes to a run directory or takes its lock: ``live_status`` probes the lock
with a shared, non-blocking flock held for microseconds.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from supportsim.errors import InputError
from supportsim.report import RunData, assemble_run, read_manifest, summarise_run
from supportsim.store import (
    CONVERSATIONS,
    MANIFEST,
    SUMMARY,
    ConversationRecord,
    StoreError,
    Summary,
    gc_paused,
    read_doc,
)

RESCORED = "rescored.jsonl"
HEAD_BYTES = 256
"""How much of the records file's start is kept to tell the same file from a new one."""


def is_run_dir(path: Path) -> bool:
    """Whether ``path`` is a run directory (it has run.json or conversations.jsonl)."""
    return (path / MANIFEST).is_file() or (path / CONVERSATIONS).is_file()


def _stamp(path: Path) -> tuple[int, int]:
    try:
        st = path.stat()
    except OSError:
        return (-1, -1)
    return (st.st_size, st.st_mtime_ns)


@dataclass(frozen=True, slots=True)
class Snapshot:
    """One run as of one version of its files: the report's RunData and Summary, the
    lines that could not be read, and each record's fields this version of supportsim
    does not model (``customer_review`` and friends, read from the JSON as they are)."""

    name: str
    version: str
    run: RunData | None
    summary: Summary | None
    problem: str | None = None
    """Why the run could not be read at all (run.json damaged): shown, not raised."""
    bad_lines: tuple[str, ...] = ()

    @property
    def records(self) -> list[ConversationRecord]:
        return self.run.records if self.run is not None else []


@dataclass(frozen=True, slots=True)
class Glance:
    """What the index shows of a run, from its last snapshot or, for a run that is not
    running, from a summary.json newer than its records (no record is parsed)."""

    name: str
    version: str
    run_id: str
    status: str
    started_at: str
    units: int
    planned: int | None
    summary: Summary | None
    customers: list[str]
    problem: str | None = None
    bad_lines: int = 0


def _customers(manifest: dict[str, Any] | None, records: list[ConversationRecord]) -> list[str]:
    """The Customers a run used: its records', else what its config names (``customer``:
    one spec, or a list of them in a run of several)."""
    seen = {str(r.customer) for r in records}
    config = (manifest or {}).get("config")
    if not seen and isinstance(config, dict):
        named = config.get("customer")
        named = [named] if isinstance(named, str) else named
        seen = {str(c) for c in named if isinstance(c, str)} if isinstance(named, list) else set()
    return sorted(seen)


class RunReader:
    """One run directory, read incrementally; see the module docstring."""

    def __init__(self, name: str, run_dir: Path) -> None:
        self.name = name
        self.run_dir = run_dir
        self._offset = 0
        self._records: list[ConversationRecord] = []
        self._bad: list[str] = []
        self._line = 0
        self._head = b""
        """The file's first bytes as read: another file under the same name differs."""
        self._snapshot: Snapshot | None = None

    def version(self) -> str:
        """A token that changes whenever the run's files (or its writer's liveness) do:
        sizes and mtimes of run.json, conversations.jsonl and rescored.jsonl."""
        parts = [_stamp(self.run_dir / n) for n in (MANIFEST, CONVERSATIONS, RESCORED)]
        return "-".join(f"{size}.{mtime}" for size, mtime in parts)

    def _state(self) -> tuple[str, dict[str, Any] | None, str | None]:
        """(version, run.json, why run.json cannot be read): the version also changes
        when a dead writer turns ``running`` into ``interrupted``."""
        try:
            manifest, problem = read_manifest(self.run_dir), None
        except InputError as exc:
            manifest, problem = None, str(exc)
        return f"{self.version()}-{(manifest or {}).get('status')}", manifest, problem

    def current_version(self) -> str:
        """The version a snapshot taken now would have, without reading any record."""
        return self._state()[0]

    def glance(self) -> Glance:
        """The index's view of the run, parsing no record when it can (see ``Glance``)."""
        version, manifest, problem = self._state()
        cached = self._snapshot
        if cached is None or cached.version != version:
            fresh = self._fresh_summary(manifest) if problem is None else None
            if fresh is not None:
                section = fresh.run
                return Glance(
                    self.name,
                    version,
                    str((manifest or {}).get("run_id") or self.name),
                    str((manifest or {}).get("status") or "no run.json"),
                    str((manifest or {}).get("started_at") or ""),
                    fresh.units,
                    section.units_planned if section else None,
                    fresh,
                    _customers(manifest, []),
                )
            cached = self.snapshot()
        run = cached.run
        section = cached.summary.run if cached.summary else None
        known = (run.manifest if run else None) or {}
        return Glance(
            self.name,
            cached.version,
            run.run_id if run else self.name,
            str(known.get("status") or ("unreadable" if cached.problem else "no run.json")),
            str(known.get("started_at") or ""),
            len(cached.records),
            section.units_planned if section else None,
            cached.summary,
            _customers(run.manifest if run else None, cached.records),
            cached.problem,
            len(cached.bad_lines),
        )

    def _fresh_summary(self, manifest: dict[str, Any] | None) -> Summary | None:
        """summary.json when the run is not running and it is newer than every record and
        rescored verdict (the runner writes it at the end, ``report`` when asked); else
        None and the records are read (also when it cannot be read)."""
        if manifest is None or manifest.get("status") == "running":
            return None
        summary_at = _stamp(self.run_dir / SUMMARY)[1]
        newest = max(_stamp(self.run_dir / n)[1] for n in (CONVERSATIONS, RESCORED))
        if summary_at < 0 or summary_at <= newest:  # a tie may hide a later record: stale
            return None
        try:
            return read_doc(self.run_dir / SUMMARY, Summary)
        except (InputError, OSError, StoreError):
            return None  # unreadable: the records say it all the same

    def snapshot(self) -> Snapshot:
        """The run as it is now (cached until a file changes)."""
        version, manifest, manifest_problem = self._state()
        cached = self._snapshot
        if cached is not None and cached.version == version:
            return cached
        try:
            self._read_new_lines()
            if manifest_problem is not None:
                raise InputError(manifest_problem)
            run = assemble_run(self.run_dir, manifest, self._records)
            snap = Snapshot(self.name, version, run, summarise_run(run), None, tuple(self._bad))
        except (InputError, OSError, ValidationError) as exc:
            # One damaged run is listed with why (as a run.json that is not an object is);
            # it never takes the index or the other runs down with it.
            problem = str(exc) if isinstance(exc, InputError) else f"{self.run_dir}: {exc}"
            snap = Snapshot(self.name, version, None, None, problem, tuple(self._bad))
        self._snapshot = snap
        return snap

    def _read_new_lines(self) -> None:
        path = self.run_dir / CONVERSATIONS
        try:
            size = os.stat(path).st_size
        except FileNotFoundError:
            return
        with path.open("rb") as f:
            if size < self._offset or f.read(len(self._head)) != self._head:
                # rewritten shorter, or another file now (the run folder made again under
                # the same name: its first bytes differ): read it again from the start
                self._offset, self._line, self._head = 0, 0, b""
                self._records, self._bad = [], []
            if size == self._offset:
                return
            f.seek(self._offset)
            data = f.read(size - self._offset)
        end = data.rfind(b"\n")
        if end < 0:
            return  # only a torn line so far: wait for its newline
        if not self._head:
            self._head = data[: min(end + 1, HEAD_BYTES)]
        with gc_paused(freeze=True):  # the viewer keeps every record: see store.gc_paused
            for line in data[: end + 1].splitlines():
                self._line += 1
                if line.strip():
                    self._take(line)
        self._offset += end + 1

    def _take(self, line: bytes) -> None:
        try:
            record = ConversationRecord.model_validate_json(line)
        except ValidationError as exc:
            error = exc.errors(include_url=False)[0]
            where = ".".join(str(p) for p in error["loc"])
            self._bad.append(
                f"{self.run_dir / CONVERSATIONS} line {self._line}: not a valid record"
                f" ({where + ': ' if where else ''}{error['msg']})"
            )
            return
        self._records.append(record)


class RunsFolder:
    """The runs the viewer shows: the run directories in ``root`` (or ``root`` itself when
    it is one), by folder name, each with its reader."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._readers: dict[str, RunReader] = {}

    def names(self) -> list[str]:
        """The run folders now present, newest name last (sorted by name)."""
        if is_run_dir(self.root):
            return [self.root.resolve().name]
        try:
            children = sorted(p for p in self.root.iterdir() if p.is_dir() and is_run_dir(p))
        except OSError:
            return []
        return [p.name for p in children]

    def reader(self, name: str) -> RunReader | None:
        """The reader of run ``name`` (None: no such run: a name is never a path)."""
        if name not in self.names():
            return None
        reader = self._readers.get(name)
        if reader is None:
            path = self.root if is_run_dir(self.root) else self.root / name
            reader = self._readers[name] = RunReader(name, path)
        return reader

    def readers(self) -> list[RunReader]:
        """The reader of every run now present, in ``names()`` order."""
        return [r for r in map(self.reader, self.names()) if r is not None]

    def version(self) -> str:
        """A token that changes when any run changes, or a run comes or goes (no record
        is read to tell)."""
        joined = "|".join(f"{r.name}={r.current_version()}" for r in self.readers())
        return hashlib.sha256(joined.encode("utf-8")).hexdigest()[:16]
