"""Run a page's code blocks as a reader would: in order, in one folder, offline.

How a block is marked (every block of a tutorial carries one mark; the test fails on an
unmarked one, so no block is left untested by accident):

- docs pages, by the fence's attributes: ```` ``` {.bash .run} ```` is run;
  ```` ``` {.python .file title="my_agent.py"} ```` is written to that path (relative to the
  folder the commands are in at that point); ```` ``` {.bash .offline} ```` cannot run
  offline (a real API key, a clone of another repository, a CI service) and is counted;
- the README (rendered by GitHub, where attributes would show): a ```` ```bash ```` block is
  run; ``<!-- file: NAME -->`` or ``<!-- offline: why -->`` on the line before a block marks
  it as a file or as not run.

A run block is run by bash (``set -euo pipefail``) in the folder and with the variables the
blocks before it left (``cd`` and ``export`` carry over, as in one terminal). Once a page's
first ``supportsim`` command has run so, a later block of plain ``supportsim`` commands only
runs in this process, through the same CLI entry, in that folder with those variables
(``inline.py``): the page is still proven as a user runs it, without paying the CLI's imports
once a command. A one-line block
ending in ``&`` starts a server in the background, as a reader does in a second terminal: the
next block starts once it has printed its first line (the mock server's "mock LLM server on
..."), and it is stopped when the page is done. Port 8765 is replaced by a free port, so the
page can run beside other tests.
"""

from __future__ import annotations

import os
import re
import selectors
import shlex
import socket
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from inline import Command, exported, plain_commands, run_inline

FENCE = re.compile(r"^```(?P<info>[^\n]*)\n(?P<code>.*?)^```[ \t]*$", re.S | re.M)
ATTRS = re.compile(r"^\s*\{(?P<body>[^}]*)\}\s*$")
MARK = re.compile(r"<!--\s*(?P<kind>file|offline):\s*(?P<value>.*?)\s*-->\s*$")
KINDS = ("run", "file", "offline")
CLI = re.compile(r"(?:^|[\s;&|(])supportsim\s", re.M)
PORT = "8765"


@dataclass(frozen=True, slots=True)
class Block:
    kind: str  # run | file | offline | "" (unmarked)
    lang: str
    code: str
    title: str = ""
    line: int = 0


def docs_blocks(text: str) -> list[Block]:
    """The fenced blocks of a docs page, with their marks (attributes)."""
    found = []
    for match in FENCE.finditer(text):
        info, line = match.group("info").strip(), text.count("\n", 0, match.start()) + 1
        attrs = ATTRS.match(info)
        if attrs is None:
            found.append(Block("", info, match.group("code"), line=line))
            continue
        body = attrs.group("body")
        classes = re.findall(r"\.([\w-]+)", body)
        title = re.search(r'title="([^"]*)"', body)
        kinds = [c for c in classes if c in KINDS]
        lang = next((c for c in classes if c not in KINDS), "")
        found.append(
            Block(
                kinds[0] if len(kinds) == 1 else "",
                lang,
                match.group("code"),
                title.group(1) if title else "",
                line,
            )
        )
    return found


def readme_blocks(text: str) -> list[Block]:
    """The fenced blocks of a README section, marked by the comment line before them."""
    found = []
    for match in FENCE.finditer(text):
        before = text[: match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        line = text.count("\n", 0, match.start()) + 1
        lang = match.group("info").strip()
        mark = MARK.search(before)
        if mark is not None:
            kind, value = mark.group("kind"), mark.group("value")
            found.append(
                Block(kind, lang, match.group("code"), value if kind == "file" else "", line)
            )
        else:
            found.append(
                Block(
                    "run" if lang in ("bash", "sh", "console") else "",
                    lang,
                    match.group("code"),
                    line=line,
                )
            )
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def offline_env(home: Path) -> dict[str, str]:
    """The environment of a reader's shell with no key and no network: this venv's
    commands first on PATH, no provider variables, caches under the temp folder."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("OPENAI_", "ANTHROPIC_", "OTEL_", "SUPPORTSIM_"))
    }
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["HOME"] = str(home)
    env["XDG_CACHE_HOME"] = str(home / ".cache")
    env["COLUMNS"] = "200"
    return env


@dataclass
class Reader:
    """One reader's terminal: a folder, the variables set so far, background servers."""

    folder: Path
    env: dict[str, str]
    port: str = field(default_factory=lambda: str(free_port()))
    servers: list[subprocess.Popen[str]] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)
    real_cli: bool = False
    """A ``supportsim`` command of the page has run as a child process of bash."""
    inline: list[int] = field(default_factory=list)
    """The lines of the blocks run in this process (``inline.py``)."""

    def __post_init__(self) -> None:
        self.state = self.folder / ".reader"
        self.state.mkdir(parents=True, exist_ok=True)
        self.work = self.folder / "work"
        self.work.mkdir(exist_ok=True)
        (self.state / "cwd").write_text(str(self.work))
        (self.state / "env").write_text("")
        environ = "".join(f"{k}={v}\0" for k, v in self.env.items())
        (self.state / "environ").write_bytes(environ.encode("utf-8", "surrogateescape"))

    def _script(self, code: str) -> str:
        env, cwd = shlex.quote(str(self.state / "env")), shlex.quote(str(self.state / "cwd"))
        environ = shlex.quote(str(self.state / "environ"))
        return (
            f'set -euo pipefail\nsource {env}\ncd "$(cat {cwd})"\n'
            f"{code.replace(PORT, self.port)}\n"
            f"export -p | grep -v -E '^declare -x (BASHOPTS|SHELLOPTS|SHLVL|_)=' > {env} || true\n"
            f"pwd > {cwd}\nenv -0 > {environ}\n"
        )

    def cwd(self) -> Path:
        return Path((self.state / "cwd").read_text().strip())

    def do(self, block: Block) -> None:
        """Run, write or (offline) skip one block; raise AssertionError on a failure."""
        if block.kind == "file":
            path = self.cwd() / block.title
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(block.code.replace(PORT, self.port), encoding="utf-8")
            return
        if block.kind != "run":
            return
        lines = [ln for ln in block.code.strip().splitlines() if ln.strip()]
        command = re.sub(r"\s+#.*$", "", lines[0]).rstrip() if len(lines) == 1 else ""
        if command.endswith("&"):
            self._background(command[:-1])
            return
        plain = plain_commands(block.code.replace(PORT, self.port))
        if self.real_cli and plain is not None:
            self._inline(block, plain)
            return
        done = subprocess.run(
            ["bash", "-c", self._script(block.code)],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        self.outputs.append(done.stdout)
        assert done.returncode == 0, (
            f"block at line {block.line} exited {done.returncode}:\n{block.code}\n"
            f"--- stdout\n{done.stdout[-3000:]}\n--- stderr\n{done.stderr[-3000:]}"
        )
        self.real_cli = self.real_cli or CLI.search(block.code) is not None

    def _inline(self, block: Block, commands: list[Command]) -> None:
        """The block's plain commands in this process, stopping at the first that fails
        (as ``set -e`` does)."""
        self.inline.append(block.line)
        printed = []
        try:
            for command in commands:
                done = run_inline(command, self.cwd(), exported(self.state / "environ"))
                printed.append(done.stdout)
                assert done.exit_code == 0, (
                    f"block at line {block.line} (in this process) exited {done.exit_code}:\n"
                    f"{block.code}\n--- stdout\n{done.stdout[-3000:]}\n"
                    f"--- stderr\n{done.stderr[-3000:]}"
                )
        finally:
            self.outputs.append("".join(printed))

    def _background(self, command: str) -> None:
        env, cwd = shlex.quote(str(self.state / "env")), shlex.quote(str(self.state / "cwd"))
        script = f'source {env}\ncd "$(cat {cwd})"\nexec {command.replace(PORT, self.port)}'
        server = subprocess.Popen(
            ["bash", "-c", script],
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        self.servers.append(server)
        assert server.stdout is not None
        with selectors.DefaultSelector() as ready:
            ready.register(server.stdout, selectors.EVENT_READ)
            assert ready.select(timeout=120), f"{command!r} printed nothing"
        first = server.stdout.readline()
        assert server.poll() is None, f"{command!r} exited: {first}"

    def close(self) -> None:
        for server in self.servers:
            server.terminate()
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


def run_blocks(blocks: list[Block], folder: Path) -> Reader:
    """Every block in order, as one reader; returns the reader (outputs, folder)."""
    reader = Reader(folder, offline_env(folder / "home"))
    try:
        for block in blocks:
            reader.do(block)
    finally:
        reader.close()
    return reader


def unmarked(blocks: list[Block]) -> Iterator[Block]:
    return (b for b in blocks if b.kind not in KINDS)
