"""Errors raised by supportsim.

SupportsimError
├── InputError          bad scenario, persona, config or command line: exit code 2
│   └── ScenarioError   one problem in one file: names the file, the field and the line
├── ProviderError       a model provider failed (after retries: the unit is an infra_error)
│   └── ProviderTimeout
├── SimulatorFault      the simulated Customer broke (empty, role confusion, leaked prompt)
└── ToolError           a Tool refused a call; the Agent sees it as a tool result

SDK exception types never leave ``supportsim.llm``; everything else that escapes a
conversation is a harness error, kept with its traceback.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


class SupportsimError(Exception):
    """Base of every error supportsim raises on purpose."""


class InputError(SupportsimError):
    """Input the user can fix (files, flags, environment variables). The CLI exits 2."""


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with one input file, precise enough to fix without searching."""

    file: str
    field: str
    message: str
    line: int | None = None

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        field = f" [{self.field}]" if self.field else ""
        return f"{where}{field}: {self.message}"


class ScenarioError(InputError):
    """One or more problems in scenario or persona files; every problem is kept."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class ProviderError(SupportsimError):
    """A provider call failed. ``retryable`` says whether trying again may help."""

    def __init__(
        self,
        model: str,
        message: str,
        *,
        status: int | None = None,
        retryable: bool = False,
        retry_after_s: float | None = None,
    ) -> None:
        self.model = model
        self.status = status
        self.retryable = retryable
        self.retry_after_s = retry_after_s
        super().__init__(f"{model}: {message}")


class ProviderTimeout(ProviderError):
    """A provider call took longer than its timeout (always retryable)."""

    def __init__(self, model: str, message: str = "request timed out") -> None:
        super().__init__(model, message, retryable=True)


class SimulatorFault(SupportsimError):
    """The simulated Customer produced an unusable message (see ``kind``)."""

    def __init__(self, kind: str, detail: str) -> None:
        self.kind = kind
        self.detail = detail
        super().__init__(f"{kind}: {detail}")


class ToolError(SupportsimError):
    """Raised by a Tool to refuse a call; the message is shown to the Agent verbatim."""
