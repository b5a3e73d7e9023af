"""What ``inline.py`` runs in this process: only plain ``supportsim`` commands, with the
environment a block left, whatever characters its values hold."""

from __future__ import annotations

from pathlib import Path

import pytest
from inline import Command, exported, plain_commands


def test_plain_commands_with_prefixes_and_continuations_are_split_into_words() -> None:
    code = "A_URL=http://127.0.0.1:9/v1 KEY=offline \\\n    supportsim run --id x --trials 2\n"
    assert plain_commands(code) == [
        Command(
            {"A_URL": "http://127.0.0.1:9/v1", "KEY": "offline"},
            ["run", "--id", "x", "--trials", "2"],
        )
    ]
    assert plain_commands("supportsim validate\nsupportsim report runs/a") == [
        Command({}, ["validate"]),
        Command({}, ["report", "runs/a"]),
    ]


@pytest.mark.parametrize(
    "code",
    [
        "supportsim validate s --json > tasks.json",  # a redirect
        "supportsim run --id x || echo failed",
        "supportsim report runs/a | head",
        "mkdir a && cd a",
        "supportsim import tau2 ~/data --out s",  # the shell expands ~
        "supportsim run --run-id $RUN",
        "supportsim run --id 'a b'",
        "supportsim run --suite smoke --agent python:my_agent:MyAgent",  # the module would stay
        "python latency.py",
        "",
    ],
)
def test_anything_a_shell_would_read_differently_is_not_plain(code: str) -> None:
    assert plain_commands(code) is None


def test_exported_reads_values_with_newlines_and_drops_what_bash_sets(tmp_path: Path) -> None:
    listing = tmp_path / "environ"
    listing.write_bytes(b"A=1\0MULTI=x\ny=z\0SHLVL=2\0_=/usr/bin/env\0EMPTY=\0")
    assert exported(listing) == {"A": "1", "MULTI": "x\ny=z", "EMPTY": ""}
