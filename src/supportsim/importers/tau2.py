"""``supportsim import tau2``: tau2-bench retail tasks into supportsim scenarios.

Reads a tau2 data directory as a user's clone has it (``data/tau2`` or its
``domains/retail``: ``tasks.json``, ``db.json``, ``policy.md``, ``split_tasks.json``),
validates every task against tau2's task format, replays each task's gold actions on a
fresh copy of the database (an action that raises is recorded as ignored, with the tool's
error: tau2 ignores it too), and writes, all at once or not at all:

- one ``tau2_retail_<task id>.yaml`` per task: the user instructions verbatim, the reward
  basis and the rest of the evaluation criteria in a ``tau2:`` block (``Tau2Task``), the
  source (path, sha256 of ``tasks.json``, split);
- ``tau2_data/``: copies of ``db.json`` and ``policy.md`` (and tau2's LICENSE, found above
  the data directory, or an attribution note), from which ``builtin_domains(paths)`` builds
  the ``tau2_retail`` domain at run time, so a run never needs the clone; ``import.json``
  there records the source and what was ignored.

A task this cannot run as tau2 scores it (malformed, an unknown reward component, an
initial state, a user-side action, another domain) is listed with its id and reason and
nothing is written (``Tau2ImportError``, exit 2).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from supportsim.environment import Environment
from supportsim.errors import InputError, Problem, ScenarioError
from supportsim.scenario import (
    REWARD_COMPONENTS,
    Scenario,
    Tau2Action,
    Tau2IgnoredAction,
    Tau2Instructions,
    Tau2Source,
    Tau2Task,
)
from supportsim.tau2 import DATA_DIRNAME
from supportsim.tau2.retail import Tau2Domain, db_hash, domain, retail_dir

Split = Literal["train", "test", "base"]
DEFAULT_PERSONA = "calm_precise"
"""tau2's retail tasks set no persona; the scenario still names one of ours (the tau2
conversation mode gives the simulator tau2's instructions instead)."""
MAX_TURNS = 50
"""Customer messages before the run stops the conversation (tau2 counts steps, 100 by
default in its CLI; a message and its tool calls are several steps)."""
IMPORT_FILE = "import.json"
ATTRIBUTION = (
    "Data from sierra-research/tau2-bench (https://github.com/sierra-research/tau2-bench), "
    "Copyright (c) 2025 Sierra Research, MIT licensed.\n"
)


class Tau2ImportError(InputError):
    """Tasks that cannot be imported, each with its id and reason; nothing was written."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


class _Raw(BaseModel):
    # tau2's own models ignore keys they do not know; a task of a newer format (an extra
    # hint on an action, say) must import, not stop the whole split.
    model_config = ConfigDict(extra="ignore")


class _RawAction(_Raw):
    action_id: str
    requestor: Literal["assistant", "user"] = "assistant"
    name: str
    arguments: dict[str, Any]
    info: str | None = None
    compare_args: list[str] | None = None


class _RawCriteria(_Raw):
    actions: list[_RawAction] | None = None
    env_assertions: list[Any] | None = None
    communicate_info: list[str] | None = None
    nl_assertions: list[str] | None = None
    reward_basis: list[str] = ["DB", "COMMUNICATE"]  # tau2's default


class _RawScenario(_Raw):
    persona: str | None = None
    instructions: Tau2Instructions | str


class _RawDescription(BaseModel):
    purpose: str | None = None


MAX_TASK_ID = 100
"""Longest task id (characters): ``tau2_retail_<id>`` is a scenario id and a file name."""


class _RawTask(BaseModel):
    """tau2's ``Task``; top-level fields that do not affect a run or its score (``issues``,
    ``annotations``, ``ticket``...) are accepted and dropped."""

    model_config = ConfigDict(extra="allow")
    id: str = Field(max_length=MAX_TASK_ID)
    description: _RawDescription | None = None
    user_scenario: _RawScenario
    initial_state: Any = None
    evaluation_criteria: _RawCriteria | None = None


@dataclass(slots=True)
class Imported:
    """What ``import_tau2`` wrote."""

    out: Path
    scenario_ids: list[str]
    ignored_actions: int
    source: Tau2Source
    files: list[Path] = field(default_factory=list)


def scenario_id(task_id: str) -> str:
    """``tau2_retail_<task id>``, characters our ids refuse replaced by ``_``."""
    return "tau2_retail_" + re.sub(r"[^A-Za-z0-9_.-]", "_", task_id)


def import_tau2(
    data_dir: Path, *, split: Split | None = None, out: Path, persona: str = DEFAULT_PERSONA
) -> Imported:
    """Import the tasks of ``data_dir`` (all of them, or ``split``'s) into ``out``.

    ``out`` is replaced when it holds an earlier import; any other existing ``out`` is
    refused. Everything is written in a sibling temporary folder, then renamed.

    Raises:
        Tau2ImportError: tasks that cannot be imported, by id and reason.
        InputError: the data directory, split or output folder is unusable.
    """
    folder = retail_dir(data_dir)
    tasks_path = folder / "tasks.json"
    raw_tasks = _read_json(tasks_path)
    if not isinstance(raw_tasks, list):
        raise ScenarioError([Problem(str(tasks_path), "", "expected a list of tasks")])
    chosen = _select(raw_tasks, folder, split)
    tau2 = domain(folder)
    source = Tau2Source(
        path=str(tasks_path.resolve()),
        tasks_sha256=hashlib.sha256(tasks_path.read_bytes()).hexdigest(),
        split=split,
    )
    problems: list[Problem] = []
    tasks: list[Tau2Task] = []
    seen: dict[str, str] = {}
    converted = asyncio.run(_tasks([raw for _, raw in chosen], tau2, source))
    for (index, raw), (task, why) in zip(chosen, converted, strict=True):
        where = _where(index, raw)
        problems += [Problem(str(tasks_path), where, message) for message in why]
        if task is None:
            continue
        sid = scenario_id(task.task_id)
        if sid in seen:
            message = f"duplicate scenario id {sid} (also task {seen[sid]!r})"
            problems.append(Problem(str(tasks_path), where, message))
            continue
        seen[sid] = task.task_id
        tasks.append(task)
    if problems:
        raise Tau2ImportError(problems)
    return _write(out, folder, tasks, source, persona)


class _LongNumber:
    """A JSON number too long for Python's int (4,300 digits): kept as a marker that no
    field accepts, so the task and field it is in are named instead of a traceback."""

    def __init__(self, digits: str) -> None:
        self.digits = digits

    def __repr__(self) -> str:
        return f"a number of {len(self.digits)} digits"


def _int(digits: str) -> int | _LongNumber:
    try:
        return int(digits)
    except ValueError:  # "Exceeds the limit (4300 digits) for integer string conversion"
        return _LongNumber(digits)


def _read_json(path: Path) -> Any:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ScenarioError([Problem(str(path), "", f"cannot read: {exc.strerror}")]) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        why = f"not UTF-8 text (byte {exc.start}: {data[exc.start : exc.start + 1]!r})"
        raise ScenarioError([Problem(str(path), "", why)]) from None
    try:
        return json.loads(text, parse_int=_int)
    except json.JSONDecodeError as exc:
        raise ScenarioError([Problem(str(path), "", f"not valid JSON: {exc}")]) from None


def _where(index: int, raw: Any) -> str:
    """``task 'ID'``, or ``task N`` (its position) when the id is missing, not a short
    string, or too long to print."""
    task_id = raw.get("id") if isinstance(raw, dict) else None
    if isinstance(task_id, str) and len(task_id) <= MAX_TASK_ID:
        return f"task {task_id!r}"
    return f"task {index}"


def _select(raw_tasks: list[Any], folder: Path, split: Split | None) -> list[tuple[int, Any]]:
    """(position, task) of the tasks to import, in ``tasks.json`` order."""
    indexed = list(enumerate(raw_tasks))
    if split is None:
        return indexed
    split_path = folder / "split_tasks.json"
    splits = _read_json(split_path) if split_path.is_file() else {}
    if not isinstance(splits, dict):
        raise ScenarioError([Problem(str(split_path), "", "expected split name -> task ids")])
    if split not in splits:
        if split == "base" and splits.get("base") is None:
            return indexed  # tau2's base split is every task
        known = ", ".join(sorted(splits)) or "none"
        raise ScenarioError([Problem(str(split_path), split, f"no such split (has: {known})")])
    ids = splits[split]
    if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
        raise ScenarioError([Problem(str(split_path), split, "expected a list of task ids")])
    by_id = {t.get("id"): (i, t) for i, t in indexed if isinstance(t, dict)}
    missing = [i for i in ids if i not in by_id]
    if missing:
        raise ScenarioError(
            [Problem(str(split_path), split, f"task ids not in tasks.json: {', '.join(missing)}")]
        )
    wanted = set(ids)
    return [(i, t) for i, t in indexed if isinstance(t, dict) and t.get("id") in wanted]


async def _tasks(
    raws: list[Any], tau2: Tau2Domain, source: Tau2Source
) -> list[tuple[Tau2Task | None, list[str]]]:
    return [await _task(raw, tau2, source) for raw in raws]


async def _task(
    raw: Any, tau2: Tau2Domain, source: Tau2Source
) -> tuple[Tau2Task | None, list[str]]:
    """The task as a ``Tau2Task`` (gold actions replayed), or the reasons it cannot be."""
    try:
        task = _RawTask.model_validate(raw)
    except ValidationError as exc:
        return None, [
            f"{'.'.join(str(p) for p in e['loc']) or 'task'}: {e['msg']}"
            for e in exc.errors(include_url=False)
        ]
    criteria = task.evaluation_criteria or _RawCriteria()
    why: list[str] = []
    for component in criteria.reward_basis:
        if component == "ENV_ASSERTION":
            why.append("reward component ENV_ASSERTION is not supported (no retail task uses it)")
        elif component not in REWARD_COMPONENTS:
            known = ", ".join(REWARD_COMPONENTS)
            why.append(f"unknown reward component {component!r} (known: {known})")
    if not criteria.reward_basis:
        why.append("evaluation_criteria.reward_basis is empty: nothing to score")
    if task.initial_state is not None:
        why.append("initial_state is not supported (retail tasks start from db.json)")
    instructions = task.user_scenario.instructions
    if isinstance(instructions, Tau2Instructions) and instructions.domain != "retail":
        why.append(f"user_scenario.instructions.domain is {instructions.domain!r}, not retail")
    actions = criteria.actions or []
    for action in actions:
        if action.requestor != "assistant":
            why.append(f"action {action.action_id}: user-side actions are not supported")
        elif action.name not in tau2.tools:
            why.append(f"action {action.action_id}: unknown tool {action.name!r}")
    if why:
        return None, why
    ignored, gold = await _replay(tau2, actions)
    return Tau2Task(
        task_id=task.id,
        instructions=instructions,
        persona=task.user_scenario.persona,
        purpose=task.description.purpose if task.description else None,
        reward_basis=criteria.reward_basis,  # type: ignore[arg-type]
        actions=[Tau2Action.model_validate(a.model_dump()) for a in actions],
        ignored_actions=ignored,
        communicate_info=criteria.communicate_info or [],
        nl_assertions=criteria.nl_assertions or [],
        db_criteria=criteria.actions is not None or criteria.env_assertions is not None,
        gold_db_sha256=gold,
        source=source,
    ), []


async def _replay(
    tau2: Tau2Domain, actions: list[_RawAction]
) -> tuple[list[Tau2IgnoredAction], str]:
    """Replay the actions on a fresh copy: those that raise, and the final database hash."""
    env = Environment(tau2, _bare_scenario())
    ignored = []
    for action in actions:
        result = await env.call(action.name, action.arguments, action.action_id)
        record = env.calls[-1]
        if not record.ok:
            reason = record.error or str(result)
            ignored.append(
                Tau2IgnoredAction(action_id=action.action_id, name=action.name, reason=reason)
            )
    return ignored, db_hash(env.state)


def _bare_scenario() -> Scenario:
    return Scenario.model_validate(
        {
            "id": "tau2-import",
            "title": "gold replay",
            "domain": "tau2_retail",
            "persona": DEFAULT_PERSONA,
            "tags": ["policy_conflict"],
            "customer": {"reason": "gold replay"},
        }
    )


def scenario_data(task: Tau2Task, persona: str) -> dict[str, Any]:
    """The scenario file's content for one task (what ``Scenario`` validates)."""
    instructions = task.instructions
    if isinstance(instructions, Tau2Instructions):
        customer: dict[str, Any] = {"reason": instructions.reason_for_call}
        if instructions.known_info is not None:
            customer["known_facts"] = {"known_info": instructions.known_info}
        if instructions.unknown_info is not None:
            customer["unknown_facts"] = [instructions.unknown_info]
        customer["will_accept"] = instructions.task_instructions
    else:
        customer = {"reason": instructions}
    ignored = {a.action_id for a in task.ignored_actions}
    escalates = any(
        a.name == "transfer_to_human_agents" and a.action_id not in ignored for a in task.actions
    )
    return {
        "id": scenario_id(task.task_id),
        "title": f"tau2-bench retail task {task.task_id}",
        "domain": "tau2_retail",
        "persona": persona,
        "tags": ["policy_conflict"],
        "failure_mode": task.purpose or "",
        "max_turns": MAX_TURNS,
        "customer": customer,
        "outcome": "escalated" if escalates else "resolved",
        "compare_state": "none",
        "tau2": task.model_dump(mode="json", exclude_defaults=False),
    }


def _dump_yaml(data: dict[str, Any]) -> str:
    return yaml.safe_dump(
        data, sort_keys=False, allow_unicode=True, default_flow_style=False, width=100
    )


def _licence(folder: Path) -> tuple[str, str]:
    """tau2's LICENSE found above the retail folder (a clone's root), or an attribution."""
    for parent in [folder, *folder.parents][:6]:
        candidate = parent / "LICENSE"
        if candidate.is_file():
            text = candidate.read_text(encoding="utf-8")
            if "MIT" in text:
                return "LICENSE", text
    return "NOTICE.md", ATTRIBUTION


def _write(
    out: Path, folder: Path, tasks: list[Tau2Task], source: Tau2Source, persona: str
) -> Imported:
    if out.exists() and not (out / DATA_DIRNAME / IMPORT_FILE).is_file():
        raise InputError(f"{out}: exists and is not an earlier tau2 import; choose another --out")
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        data = tmp / DATA_DIRNAME
        data.mkdir()
        shutil.copyfile(folder / "db.json", data / "db.json")
        shutil.copyfile(folder / "policy.md", data / "policy.md")
        name, text = _licence(folder)
        (data / name).write_text(text, encoding="utf-8")
        ids = []
        for task in tasks:
            content = scenario_data(task, persona)
            ids.append(content["id"])
            (tmp / f"{content['id']}.yaml").write_text(_dump_yaml(content), encoding="utf-8")
        record = {
            "source": source.model_dump(mode="json"),
            "db_sha256": hashlib.sha256((folder / "db.json").read_bytes()).hexdigest(),
            "policy_sha256": hashlib.sha256((folder / "policy.md").read_bytes()).hexdigest(),
            "scenarios": ids,
            "ignored_actions": {
                scenario_id(t.task_id): [a.model_dump() for a in t.ignored_actions]
                for t in tasks
                if t.ignored_actions
            },
        }
        (data / IMPORT_FILE).write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
        (tmp / "README.md").write_text(_readme(source, len(ids)), encoding="utf-8")
        old = None
        if out.exists():
            old = out.with_name(f".{out.name}.old-{tmp.name[-8:]}")
            out.rename(old)
        tmp.rename(out)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    files = sorted(out.iterdir())
    ignored = sum(len(t.ignored_actions) for t in tasks)
    return Imported(out, ids, ignored, source, files)


def _readme(source: Tau2Source, count: int) -> str:
    return (
        "# tau2-bench retail tasks (imported)\n\n"
        f"{count} scenarios written by `supportsim import tau2` from `{source.path}` "
        f"(sha256 {source.tasks_sha256}, split {source.split or 'all'}). Re-run the import "
        "to update them; do not edit them by hand.\n\n"
        f"`{DATA_DIRNAME}/` holds the retail database and policy the `tau2_retail` domain "
        "is built from at run time, and `import.json` (source, ignored gold actions).\n\n"
        + ATTRIBUTION
    )
