"""``supportsim --help``: the commands in the order a user meets them, each on one line."""

from __future__ import annotations

import re

import typer
from typer.testing import CliRunner

from supportsim.cli import COMMAND_ORDER, app


def visible_commands() -> list[str]:
    group = typer.main.get_command(app)
    assert isinstance(group, typer.core.TyperGroup)
    ctx = typer.Context(group)
    return [n for n in group.list_commands(ctx) if not group.commands[n].hidden]


def test_every_command_has_a_place_in_the_order() -> None:
    missing = [n for n in visible_commands() if n not in COMMAND_ORDER]
    assert missing == [], f"add {missing} to supportsim.cli.COMMAND_ORDER"


def test_help_lists_run_report_compare_first_and_validate_before_the_rest() -> None:
    result = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "400"})
    assert result.exit_code == 0
    listed = re.findall(r"^│ ([a-z][a-z-]+) {2,}", result.output, flags=re.M)
    assert listed == visible_commands()
    assert listed[:3] == ["run", "report", "compare"]
    assert listed.index("validate") < listed.index("export") < listed.index("schemas")


def test_each_description_is_one_line_when_the_terminal_is_wide() -> None:
    result = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "400"})
    lines = result.output.split("Commands")[1].splitlines()
    rows = [line for line in lines if line.startswith("│ ")]
    # a wrapped description would leave a row with no command name in its first column
    assert all(re.match(r"│ [a-z]", row) for row in rows), rows
    validate = next(row for row in rows if row.startswith("│ validate "))
    assert "run the oracle on each; exit 1 when an oracle run" in validate
