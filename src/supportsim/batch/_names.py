"""Names that become folder names and unit-id parts: run ids, run names, Agent labels.

Each is one safe path segment under ``--out`` (``segment_problem``), refused where it
enters (the command line, a config file, a plug-in's ``name``) rather than written
somewhere unexpected.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from supportsim.conversation import AgentSpec
from supportsim.errors import InputError

_SEGMENT = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
MAX_RUN_ID = 120
"""Longest run id (characters); a run name leaves room for the ``-YYYYMMDD-HHMMSS`` suffix."""
MAX_RUN_NAME = MAX_RUN_ID - 16
SEGMENT_RULE = "letters, digits, '.', '_' and '-', starting with a letter or digit"


def segment_problem(value: str, max_length: int = MAX_RUN_ID) -> str | None:
    """Why ``value`` cannot be one path segment under ``--out``, or None when it can.

    Run ids and run names become a folder name: ``../x``, ``/abs``, ``a/b``, NUL, control
    characters and escape sequences, and names longer than a file system takes are
    refused where they enter rather than written somewhere unexpected.
    """
    if not value:
        return "must not be empty"
    if len(value) > max_length:
        return f"at most {max_length} characters (got {len(value)})"
    if _SEGMENT.fullmatch(value) is None:
        return f"one folder name: {SEGMENT_RULE} (got {value!r})"
    return None


def check_run_id(run_id: str) -> str:
    """``run_id`` if it is one safe folder name under ``--out``.

    Raises:
        InputError: naming ``--run-id`` and why (exit code 2).
    """
    if (problem := segment_problem(run_id)) is not None:
        raise InputError(f"--run-id: {problem}")
    return run_id


MAX_LABEL = 64
"""Longest agent label (characters): it heads table rows and is part of every unit id."""


def keyed_by_label(specs: Sequence[AgentSpec]) -> dict[str, AgentSpec]:
    """The parsed ``--agent`` values by label, each label one safe, unique name.

    A label given (``--agent LABEL=SPEC``) or taken from a plug-in's ``name`` is held to
    the folder-name rule (it is part of every unit id and record); a spec used as its own
    label (``openai:gpt-4.1``) is kept as it always was.

    Raises:
        InputError: A label that is not a safe name, or two Agents with one label; the
            message names the specs and says how to fix it.
    """
    out: dict[str, AgentSpec] = {}
    for spec in specs:
        source = spec.spec or spec.label
        if spec.label_from != "spec" and (problem := segment_problem(spec.label, MAX_LABEL)):
            what = "label" if spec.label_from == "given" else "the agent's name attribute"
            raise InputError(
                f"--agent {source}: {what} {spec.label!r} is not a usable label: {problem}"
                + ("; name it with --agent LABEL=SPEC" if spec.label_from == "name" else "")
            )
        if (other := out.get(spec.label)) is not None:
            raise InputError(
                f"--agent: two agents are labelled {spec.label!r} ({other.spec or other.label} "
                f"and {source}); give each a label of its own: --agent LABEL=SPEC"
            )
        out[spec.label] = spec
    return out


def slug(text: str) -> str:
    """``text`` made one folder name (runs of other characters become ``-``; ``run`` if
    nothing is left)."""
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("._-")
    return slug or "run"
