"""The run directory: append-only conversations.jsonl, run.json, summary.json.

Records are appended one line each and written to the file at once (a killed process
loses nothing that finished: the kernel has the bytes). ``sync`` fsyncs them for power
loss; the batch runner calls it a few times a second rather than per record, because one
fsync blocks the event loop for milliseconds. A torn last line (a crash mid-write) is
detected and dropped on read and truncated away before appending resumes; any other line
that cannot be read is reported with its file and line number, never skipped silently.
JSON documents are replaced atomically.

A store that cannot write (disk full, read-only, permissions) raises ``StoreError`` and
leaves no half-written line and no temp file behind, so the run can be resumed as it is
once the cause is fixed.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import gc
import os
import stat
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import orjson
from pydantic import BaseModel, ValidationError

from supportsim.errors import InputError, Problem, ScenarioError, SupportsimError
from supportsim.llm import Scrubber
from supportsim.store._plan import RunPlan, split_planned
from supportsim.store._records import ConversationRecord

CONVERSATIONS = "conversations.jsonl"
MANIFEST = "run.json"
SUMMARY = "summary.json"
LOCK = ".lock"
M = TypeVar("M", bound=BaseModel)
_URLS = Scrubber()  # no secret values: URL credentials only
OnBadLine = Callable[[Problem], None]


class StoreError(SupportsimError):
    """The run directory could not be written (disk full, read-only, permissions).

    Nothing half-written is left behind: a failed append is truncated away and a failed
    JSON document keeps its previous version.
    """

    def __init__(self, path: Path, cause: OSError) -> None:
        self.path = path
        self.errno = cause.errno
        self.strerror = cause.strerror or str(cause)
        super().__init__(f"store: {self.strerror} ({path})")

    @property
    def reason(self) -> str:
        """A short why, for run.json's ``stop_reason``: ``store: No space left on device``."""
        return f"store: {self.strerror}"


def _write_all(fd: int, data: bytes) -> None:
    """Write every byte of ``data`` (tests replace this to inject a full disk)."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        if written == 0:  # pragma: no cover - a regular file never writes nothing
            raise OSError(errno.EIO, "write wrote nothing")
        view = view[written:]


def _document(data: Any) -> bytes:
    """A JSON document's bytes, URL credentials scrubbed (``https://***@host``): a base URL
    with a password must not reach run.json or summary.json."""
    return orjson.dumps(_URLS.data(data), option=orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS)


def write_json(path: Path, data: Any) -> None:
    """Write a JSON document atomically (temp file, fsync, rename).

    Raises:
        StoreError: It could not be written; the previous version stays and no temp file
            is left.
    """
    tmp = path.with_name(path.name + ".tmp")
    payload = _document(data)
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            _write_all(fd, payload)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise StoreError(path, exc) from exc


def rewrite_json_in_place(path: Path, data: Any) -> None:
    """Overwrite a JSON document in place: the last resort when ``write_json`` failed for
    lack of space, since rewriting a file's own blocks needs none. Not atomic, so only
    for a file that would otherwise keep a wrong state (run.json saying ``running``).

    Raises:
        StoreError: It could not be written either.
    """
    payload = _document(data)
    try:
        fd = os.open(path, os.O_WRONLY)
        try:
            _write_all(fd, payload)
            os.ftruncate(fd, len(payload))
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as exc:
        raise StoreError(path, exc) from exc


def read_json(path: Path) -> Any:
    return orjson.loads(path.read_bytes())


def iter_jsonl(path: Path, model: type[M], *, on_bad_line: OnBadLine | None = None) -> Iterator[M]:
    """Every complete line of a JSONL file as ``model``, in file order.

    A torn last line (no newline: the writer died mid-write, or is writing it now) ends
    the file quietly. Any other line that is not a valid ``model`` is a damaged file: it
    is passed to ``on_bad_line`` (the reader goes on) or, by default, raised.

    Raises:
        ScenarioError: A line that cannot be read, naming the file and the line number
            (an InputError: the user must repair or remove that line).
    """
    if not path.exists():
        return
    with path.open("rb") as f:
        for number, line in enumerate(f, start=1):
            if not line.endswith(b"\n"):
                return  # torn last line: the process died mid-write
            if not line.strip():
                continue  # a blank line holds no record
            try:
                yield model.model_validate_json(line)
            except ValidationError as exc:  # invalid JSON is a ValidationError too
                problem = Problem(
                    str(path),
                    "",
                    f"damaged line, not a valid {model.__name__}: "
                    f"{_first_error(exc)}; repair or remove the line (a run's unit without "
                    "a record is run again on resume)",
                    line=number,
                )
                if on_bad_line is None:
                    raise ScenarioError([problem]) from None
                on_bad_line(problem)


def _first_error(exc: ValidationError) -> str:
    error = exc.errors(include_url=False)[0]
    where = ".".join(str(p) for p in error["loc"])
    return f"{where}: {error['msg']}" if where else str(error["msg"])


@contextlib.contextmanager
def gc_paused(*, freeze: bool = False) -> Iterator[None]:
    """The cyclic garbage collector paused while many records are read and kept.

    Records are trees (reference counting frees them when dropped), but every full
    collection walks every live object: keeping each record read made reading 2,000 of
    them about 4x slower (1.4 s against 0.32 s, ``benchmarks/bench_view.py``'s run).
    Pausing leaves one walk for the first collection after; ``freeze`` (a long-lived
    reader that keeps the records, the viewer) also moves what is alive on leaving out
    of later collections (``gc.freeze``), so no later one walks the kept records.
    Restores the collector's state on leaving (it stays off if the caller had turned it
    off)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if freeze:
            gc.freeze()
        if was_enabled:
            gc.enable()


def iter_records(
    run_dir: Path, *, on_bad_line: OnBadLine | None = None
) -> Iterator[ConversationRecord]:
    """Every complete record of a run directory, in file order (see ``iter_jsonl``)."""
    return iter_jsonl(run_dir / CONVERSATIONS, ConversationRecord, on_bad_line=on_bad_line)


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """What resuming needs of a record: its unit, how it ended, what it cost."""

    unit_id: str
    status: str
    cost_usd: float | None


def iter_ledger(run_dir: Path, *, on_bad_line: OnBadLine | None = None) -> Iterator[LedgerEntry]:
    """``iter_records`` (every line read and checked the same), keeping three fields of
    each: a long run's records are gigabytes, its ledger a few hundred bytes per unit."""
    for r in iter_records(run_dir, on_bad_line=on_bad_line):
        yield LedgerEntry(r.unit_id, r.status, r.cost_usd)


def read_plan(run_dir: Path) -> RunPlan | None:
    """The plan of the run's run.json (None when there is no run.json).

    Raises:
        InputError: run.json cannot be read, naming the file.
    """
    path = run_dir / MANIFEST
    if not path.exists():
        return None
    try:
        manifest = read_json(path)
    except (OSError, ValueError) as exc:  # orjson.JSONDecodeError is a ValueError
        raise InputError(f"{path}: cannot read the run manifest: {exc}") from None
    return RunPlan.of_manifest(manifest if isinstance(manifest, dict) else None)


def latest_records(run_dir: Path) -> dict[str, ConversationRecord]:
    """The last record of each planned unit (readers take a unit's last record); records
    outside run.json's plan are left out (``RunPlan``), as every reader leaves them out."""
    records, _ = split_planned(iter_records(run_dir), read_plan(run_dir))
    return {r.unit_id: r for r in records}


def final_unit_ids(records: Iterable[ConversationRecord | LedgerEntry]) -> set[str]:
    """Units that have a final record: any status but infra_error (which resume retries)."""
    return {r.unit_id for r in records if r.status != "infra_error"}


class JsonlWriter:
    """Appends pydantic models to a JSONL file, one line each. Opening repairs a torn last
    line left by a crash.

    Args:
        path: The file (its folder must exist).
        fsync_each: fsync after every line (simple, ~4 ms each: right when a line costs
            seconds of model time); otherwise call ``sync`` periodically and ``close``.
        scrub: removes secret values (API keys a model might echo) from every line.

    Raises:
        StoreError: The file cannot be opened or repaired.
    """

    def __init__(
        self, path: Path, *, fsync_each: bool = False, scrub: Scrubber | None = None
    ) -> None:
        self.path = path
        self._scrub = scrub
        try:
            _drop_torn_tail(self.path)
            self._fd: int | None = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError as exc:
            raise StoreError(path, exc) from exc
        self._fsync_each = fsync_each
        self._dirty = False
        self.written = 0

    def encode(self, item: BaseModel) -> bytes:
        """``item`` as this file's line: JSON, secrets scrubbed, newline included."""
        line = item.__pydantic_serializer__.to_json(item)
        if self._scrub is not None and (self._scrub.values or b"@" in line):
            line = self._scrub(line.decode("utf-8")).encode("utf-8")
        return line + b"\n"

    def append(self, item: BaseModel) -> None:
        """Write one line and hand it to the kernel (survives SIGKILL); see ``append_line``."""
        self.append_line(self.encode(item))

    def append_line(self, line: bytes) -> None:
        """Append one encoded line (ending in a newline).

        Raises:
            StoreError: The write failed (disk full, read-only...). Whatever part of the
                line reached the file is truncated away, so the file stays whole lines.
        """
        fd = self._open_fd()
        size = -1
        try:
            size = os.fstat(fd).st_size
            _write_all(fd, line)
        except OSError as exc:
            if size >= 0:
                with contextlib.suppress(OSError):
                    os.ftruncate(fd, size)  # freeing blocks needs no space
            raise StoreError(self.path, exc) from exc
        self.written += 1
        self._dirty = True
        if self._fsync_each:
            self.sync()

    def sync(self) -> None:
        """fsync what was appended since the last sync (survives power loss).

        Raises:
            StoreError: fsync failed (a full disk may only say so here).
        """
        if self._dirty and self._fd is not None:
            try:
                os.fsync(self._fd)
            except OSError as exc:
                raise StoreError(self.path, exc) from exc
            self._dirty = False

    def close(self) -> None:
        """Sync and close; idempotent. A failing final sync is raised after closing."""
        if self._fd is None:
            return
        try:
            self.sync()
        finally:
            os.close(self._fd)
            self._fd = None

    def _open_fd(self) -> int:
        if self._fd is None:
            raise ValueError(f"{self.path}: writer is closed")
        return self._fd


class RecordWriter(JsonlWriter):
    """Appends conversation records to a run directory's conversations.jsonl."""

    def __init__(self, run_dir: Path, *, fsync_each: bool = False) -> None:
        super().__init__(run_dir / CONVERSATIONS, fsync_each=fsync_each)


def _drop_torn_tail(path: Path) -> None:
    if not path.exists() or path.stat().st_size == 0:
        return
    data = path.read_bytes()
    if data.endswith(b"\n"):
        return
    keep = data.rfind(b"\n") + 1
    with path.open("r+b") as f:
        f.truncate(keep)
        f.flush()
        os.fsync(f.fileno())


class RunLock:
    """One writer per run directory: an exclusive ``flock`` on ``<run>/.lock``.

    Two processes resuming one run at once would run its units twice; the second is
    refused instead. The kernel drops the lock when the process dies, so a crash never
    leaves a run locked, and ``writer_alive`` tells a dead run from a running one.

    Raises:
        InputError: another process (or another session in this one) holds the run, or
            the directory cannot be written.
    """

    def __init__(self, run_dir: Path) -> None:
        try:
            self._file = (run_dir / LOCK).open("a+b")
        except OSError as exc:
            raise InputError(
                f"{run_dir}: cannot write the run directory ({exc.strerror or exc})"
            ) from None
        try:
            fcntl.flock(self._file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self._file.close()
            raise InputError(
                f"{run_dir} is being written by another supportsim session; wait for it to "
                "end (or stop it) before resuming"
            ) from None

    def release(self) -> None:
        if not self._file.closed:
            fcntl.flock(self._file.fileno(), fcntl.LOCK_UN)
            self._file.close()


def writer_alive(run_dir: Path) -> bool:
    """Whether a live process holds the run directory's lock (is writing it now).

    A shared, non-blocking probe held for microseconds; a run without a lock file (or one
    that cannot be opened) has no live writer, nor has one whose ``.lock`` is not a regular
    file (a writer's is; a FIFO there made the open, and so the viewer's event loop, wait
    for ever: it is opened non-blocking and without following a link).
    """
    try:
        fd = os.open(run_dir / LOCK, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    else:
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False
    finally:
        os.close(fd)


def live_status(run_dir: Path, status: Any) -> Any:
    """run.json's status as it really is: a run still marked ``running`` whose writer is
    gone (killed, power loss) is ``interrupted``, not running forever."""
    if status == "running" and not writer_alive(run_dir):
        return "interrupted"
    return status
