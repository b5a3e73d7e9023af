"""A page's plain ``supportsim`` commands run in this process, through the CLI's own entry.

Every command of a page started as a child process paid the CLI's imports again (a second
or more each on a loaded 2-core machine). ``blocks.Reader`` runs the first ``supportsim``
command of a page as a real child process, so each page is still proven as a user runs it
from a shell; a later block whose every command is *plain* runs here instead: what the
console script does (``supportsim.cli.main``: ``app`` on ``bare_ray(argv)``), in the
reader's folder, with exactly the reader's environment (the variables the blocks before it
exported over ``offline_env``, and a command's own ``NAME=value`` prefixes), stdout kept as
the page's output and the exit code checked as bash's ``set -e`` would.

Plain means nothing a shell would do differently from a word list: each line (``\\``
continuations joined) is ``supportsim`` then words of ``[A-Za-z0-9_./:=,@+-]`` (no quote,
``$``, ``~``, glob, pipe, redirect, ``&&``, ``||`` or ``;``), with ``NAME=value`` prefixes of
the same characters. A ``python:`` Agent is never plain: importing the reader's module into
this process would keep it (``sys.modules``) for a later command that changed it.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

WORD = r"[A-Za-z0-9_./:=,@+-]+"
PREFIX = re.compile(rf"(?P<name>[A-Z_][A-Z0-9_]*)=(?P<value>{WORD})")
PLAIN = re.compile(rf"^(?:[A-Z_][A-Z0-9_]*={WORD}\s+)*supportsim(?:\s+{WORD})*$")


@dataclass(frozen=True, slots=True)
class Command:
    env: dict[str, str]
    """The command's own ``NAME=value`` prefixes."""
    argv: list[str]
    """The words after ``supportsim``."""


@dataclass(frozen=True, slots=True)
class Done:
    exit_code: int
    stdout: str
    stderr: str


def plain_commands(code: str) -> list[Command] | None:
    """The block's commands when every one is plain (see the module), else None."""
    lines = [ln.strip() for ln in code.replace("\\\n", " ").splitlines() if ln.strip()]
    if not lines or not all(PLAIN.match(ln) for ln in lines):
        return None
    out = []
    for line in lines:
        words = line.split()
        at = words.index("supportsim")
        prefixes = {m["name"]: m["value"] for m in map(PREFIX.fullmatch, words[:at]) if m}
        argv = words[at + 1 :]
        if any(w.startswith("python:") for w in argv):
            return None
        out.append(Command(prefixes, argv))
    return out


SHELL_OWN = ("BASHOPTS", "SHELLOPTS", "SHLVL", "_", "OLDPWD")
"""Variables bash sets for itself, not the reader (``PWD`` is set to the folder instead)."""


def exported(environ_file: Path) -> dict[str, str]:
    """The environment a block left (``env -0`` at its end: NUL-separated, so a value may
    hold any character), without what bash sets for itself."""
    out = {}
    for item in environ_file.read_bytes().decode("utf-8", "surrogateescape").split("\0"):
        name, sep, value = item.partition("=")
        if sep and name not in SHELL_OWN:
            out[name] = value
    return out


@contextlib.contextmanager
def _as_reader(cwd: Path, env: dict[str, str]) -> Iterator[None]:
    """This process in the reader's folder with exactly the reader's environment."""
    saved_env, saved_cwd = dict(os.environ), os.getcwd()
    os.environ.clear()
    os.environ.update(env)
    os.chdir(cwd)
    try:
        yield
    finally:
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)


def run_inline(command: Command, cwd: Path, env: dict[str, str]) -> Done:
    """One plain command, as the console script runs it, in ``cwd`` with ``env`` and the
    command's own prefixes."""
    from typer.testing import CliRunner

    from supportsim.cli import app, bare_ray

    with _as_reader(cwd, {**env, "PWD": str(cwd), **command.env}):
        result = CliRunner().invoke(app, bare_ray(command.argv))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return Done(result.exit_code, result.stdout, result.stderr)
