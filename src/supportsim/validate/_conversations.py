"""Library conversations: whole conversations written blind, replayed to prove the scorer.

For every bundled scenario someone who did not write the scenarios (nor read the lexicons
or matchers) wrote a ``valid`` conversation (a competent Agent following the policy in its
own words) and a ``sloppy`` one (a plausible Agent with one or two flaws, naming the checks
it ``violates``). ``_replay.py`` plays them through the real runtime and scorer: a valid
conversation must score strict 1, a sloppy one strict 0 with one of its ``violates`` ids
failing. This module is the file format and its loader::

    scenario: telecom-duplicate-monthly-fee      # must equal the file's name
    conversations:
      - kind: valid                              # or sloppy (then violates and flaw)
        note: how it differs from the reference  # optional
        turns:
          - customer: "My March bill shows the monthly fee twice."
          - agent:
              - say: "Sure, could you give me your customer id, date of birth and PIN?"
          - customer: "C-1001, 12 April 1985, PIN 4827."
          - agent:
              - call: verify_identity
                args: {customer_id: C-1001, date_of_birth: "1985-04-12", pin: "4827"}
              - say: "Thanks, you're verified."

Turns alternate and the Customer speaks first. An Agent turn is a list of actions, each a
``say`` (text to the Customer) or a ``call`` (a tool call with ``args``); it ends with a
``say``, except the last turn, which may end with the transfer tool (that call ends the
conversation, so nothing may follow it). The conversation ends after its last turn.

Which tools and which ``violates`` ids a file may name depends on its scenario:
``scenario_problems`` checks that, naming the file, the field and the line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_validator

from supportsim._yaml import Document, PathKey, read_model_document
from supportsim.domains import TRANSFER_TOOL
from supportsim.errors import Problem, ScenarioError

ConversationKind = Literal["valid", "sloppy"]
OVERALL_IDS = ("outcome", "state")
"""``violates`` ids that are checks of their own rather than a workflow or forbidden id."""


class _Item(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Action(_Item):
    """One thing the Agent does in its turn: say text, or call a tool."""

    say: str | None = Field(default=None, min_length=1)
    """Text to the Customer."""
    call: str | None = Field(default=None, min_length=1)
    """A tool's name."""
    args: dict[str, Any] | None = None
    """The call's arguments, exactly as the tool takes them (only with ``call``)."""

    @model_validator(mode="after")
    def _one_kind(self) -> Action:
        if (self.say is None) == (self.call is None):
            raise ValueError("an action is either {say: text} or {call: tool, args: {...}}")
        if self.say is not None and self.args is not None:
            raise ValueError("args belong to a call, not to a say")
        return self

    @property
    def arguments(self) -> dict[str, Any]:
        return dict(self.args or {})


class Turn(_Item):
    """One turn: the Customer's line, or the Agent's actions."""

    customer: str | None = Field(default=None, min_length=1)
    """What the Customer says."""
    agent: list[Action] | None = Field(default=None, min_length=1)
    """What the Agent does, in order."""

    @model_validator(mode="after")
    def _one_side(self) -> Turn:
        if (self.customer is None) == (self.agent is None):
            raise ValueError("a turn is either {customer: text} or {agent: [actions]}")
        return self


class Conversation(_Item):
    """One written conversation of one scenario."""

    kind: ConversationKind
    """``valid`` (must pass strictly) or ``sloppy`` (must fail one of ``violates``)."""
    note: str | None = None
    """How it differs from the reference conversation."""
    flaw: str | None = None
    """What a sloppy conversation does wrong (required for ``sloppy``)."""
    violates: list[str] = []
    """The checks a sloppy conversation fails: workflow step ids, forbidden ids (the
    scenario's or the library's templates), ``outcome``, ``state``."""
    turns: list[Turn] = Field(min_length=2)
    """The turns, the Customer's first, alternating."""

    def shape_problems(self) -> list[tuple[PathKey, str]]:
        """What breaks the turn rules, each with its place in the conversation (``turns``,
        index, ...): the Customer first, sides alternating, an Agent turn ending with a say
        (or the last one with the transfer tool, nothing after it); a sloppy conversation
        names its flaw and what it violates, a valid one violates nothing."""
        out: list[tuple[PathKey, str]] = []
        if self.kind == "sloppy" and not self.violates:
            out.append((("violates",), "a sloppy conversation names the ids it violates"))
        if self.kind == "sloppy" and not self.flaw:
            out.append((("flaw",), "a sloppy conversation names its flaw"))
        if self.kind == "valid" and self.violates:
            out.append((("violates",), "a valid conversation violates nothing (remove it)"))
        if self.turns[0].customer is None:
            out.append((("turns", 0), "the Customer speaks first"))
        for i in range(1, len(self.turns)):
            if (self.turns[i - 1].customer is None) == (self.turns[i].customer is None):
                out.append((("turns", i), "the same side as the turn before: sides alternate"))
        for i, turn in enumerate(self.turns):
            actions = turn.agent or ()
            last_turn = i == len(self.turns) - 1
            for j, action in enumerate(actions):
                if action.call == TRANSFER_TOOL and (j < len(actions) - 1 or not last_turn):
                    out.append(
                        (
                            ("turns", i, "agent", j),
                            f"{TRANSFER_TOOL} ends the conversation: only the last action of "
                            "the last turn may call it",
                        )
                    )
            if actions and actions[-1].say is None and actions[-1].call != TRANSFER_TOOL:
                out.append(
                    (("turns", i, "agent", len(actions) - 1), "an Agent turn ends with a say")
                )
        return out

    @property
    def customer_lines(self) -> list[str]:
        return [t.customer for t in self.turns if t.customer is not None]

    @property
    def agent_turns(self) -> list[list[Action]]:
        return [t.agent for t in self.turns if t.agent is not None]


class ConversationFile(_Item):
    """A file of conversations for one scenario."""

    scenario: str = Field(min_length=1)
    """The scenario's id (the file is named after it)."""
    conversations: list[Conversation] = Field(min_length=1)
    """At least one; the library has a valid and a sloppy one per scenario."""

    _source: Document | None = PrivateAttr(default=None)

    @property
    def file(self) -> str:
        return self._source.file if self._source is not None else f"{self.scenario}.yaml"

    def problem(self, loc: PathKey, message: str) -> Problem:
        """A problem at ``loc`` of this file, with its line when the file was read."""
        if self._source is not None:
            return self._source.problem(loc, message)
        return Problem(self.file, ".".join(str(p) for p in loc), message)


def read_conversations(path: Path) -> ConversationFile:
    """One conversation file, validated.

    Raises:
        ScenarioError: every problem, naming the file, the field and the line (a file not
            named after its scenario is one).
    """
    parsed, doc = read_model_document(path, ConversationFile)
    problems = []
    for c, conversation in enumerate(parsed.conversations):
        problems += [
            doc.problem(("conversations", c, *loc), message)
            for loc, message in conversation.shape_problems()
        ]
    if parsed.scenario != path.stem:
        problems.append(
            doc.problem(("scenario",), f"{parsed.scenario!r} is not the file's name {path.stem!r}")
        )
    if problems:
        raise ScenarioError(problems)
    parsed._source = doc
    return parsed


def load_conversations(root: Path) -> list[ConversationFile]:
    """Every ``*.yaml`` file under ``root`` (any depth, sorted), each validated.

    Raises:
        ScenarioError: the problems of every bad file at once.
    """
    files, problems = [], []
    for path in sorted(root.rglob("*.yaml")):
        try:
            files.append(read_conversations(path))
        except ScenarioError as exc:
            problems += exc.problems
    if problems:
        raise ScenarioError(problems)
    return files


def scenario_problems(
    file: ConversationFile, tools: Sequence[str], check_ids: Sequence[str]
) -> list[Problem]:
    """What the file names that its scenario does not have: a tool outside ``tools`` (the
    scenario's permitted tools) or a ``violates`` id that maps to none of ``check_ids``
    (the ids of the checks the scenario's score has, e.g. ``step:refund``)."""
    out = []
    for c, conversation in enumerate(file.conversations):
        for v, wanted in enumerate(conversation.violates):
            if not violated_checks(wanted, check_ids):
                out.append(
                    file.problem(
                        ("conversations", c, "violates", v),
                        f"{wanted!r} names no check of the scenario (its checks: "
                        f"{', '.join(check_ids)})",
                    )
                )
        for t, turn in enumerate(conversation.turns):
            for a, action in enumerate(turn.agent or ()):
                if action.call is not None and action.call not in tools:
                    out.append(
                        file.problem(
                            ("conversations", c, "turns", t, "agent", a, "call"),
                            f"{action.call!r} is not one of the scenario's tools "
                            f"({', '.join(tools)})",
                        )
                    )
    return out


def violated_checks(wanted: str, check_ids: Sequence[str]) -> list[str]:
    """The check ids a ``violates`` entry means: ``outcome`` and ``state`` themselves, a
    prefixed id (``forbidden:leak``) itself, a bare id its ``step:``, ``observed:`` or
    ``forbidden:`` check."""
    if wanted in OVERALL_IDS or ":" in wanted:
        candidates = {wanted}
    else:
        candidates = {f"{kind}:{wanted}" for kind in ("step", "observed", "forbidden")}
    return [c for c in check_ids if c in candidates]


def by_scenario(files: Sequence[ConversationFile]) -> Mapping[str, ConversationFile]:
    """The files keyed by scenario id.

    Raises:
        ScenarioError: two files for one scenario.
    """
    out: dict[str, ConversationFile] = {}
    for f in files:
        if f.scenario in out:
            raise ScenarioError(
                [f.problem(("scenario",), f"{f.scenario!r} is also in {out[f.scenario].file}")]
            )
        out[f.scenario] = f
    return out
