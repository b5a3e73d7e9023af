"""What every command shares: the typer ``app`` (its commands in ``COMMAND_ORDER``),
the two consoles, and the bad-input exit (``fail_input``: every problem printed,
exit 2). Command modules import this one, never each other."""

from __future__ import annotations

import inspect
from typing import Any

import typer
from rich.console import Console
from typer.core import TyperGroup

from supportsim._printable import printable
from supportsim.errors import InputError

COMMAND_ORDER = (
    "run",
    "report",
    "compare",
    "view",
    "validate",
    "init",
    "new",
    "mock-server",
    "export",
    "trend",
    "rescore",
    "judge",
    "judge-eval",
    "generate",
    "import",
    "mcp-stdio",
    "schemas",
)
"""``supportsim --help`` lists the commands in the order a user meets them: run one, read
it, compare two, browse them, then write scenarios, then the rest."""


class _Commands(TyperGroup):
    """The top-level group: commands in ``COMMAND_ORDER`` (any other after them), each
    shown by its docstring's first paragraph on one line. (Typer's rich help keeps the
    docstring's line breaks in the command list, which breaks a sentence mid-line.)"""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for command in self.commands.values():
            if command.help and not command.short_help:
                first = inspect.cleandoc(command.help).split("\n\n", 1)[0]
                command.short_help = " ".join(first.split())

    def list_commands(self, ctx: Any) -> list[str]:  # typer's own (vendored) click Context
        rank = {name: i for i, name in enumerate(COMMAND_ORDER)}
        names: list[str] = super().list_commands(ctx)
        return sorted(names, key=lambda name: rank.get(name, len(rank)))


app = typer.Typer(
    cls=_Commands,
    name="supportsim",
    help="Evaluate customer-support AI agents against simulated customers.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console()
# Messages are never wrapped: a path or a unit id split over two lines cannot be searched
# for or copied (rich wraps at 80 columns in a pipe or CI log). Tables still fit the width.
err = Console(stderr=True, soft_wrap=True)


def fail_input(exc: InputError) -> typer.Exit:
    err.print(f"[bold red]error:[/] {len(getattr(exc, 'problems', [])) or 1} problem(s)")
    err.print(printable(exc, newlines=True), markup=False, highlight=False)
    return typer.Exit(2)
