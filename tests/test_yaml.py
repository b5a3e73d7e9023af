"""The one YAML reader: positions, duplicate keys, and limits that make hostile files cheap.

Every limit is a Problem naming the file and line (exit code 2 at the CLI), never an
exception escaping, a hang, or minutes of CPU and gigabytes of memory.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from supportsim._yaml import MAX_BYTES, MAX_DEPTH, MAX_INT_DIGITS, parse_yaml, read_yaml

ALIAS_BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 9)}]\n" for i in range(8)
)


def one_problem(text: str) -> tuple[str, int | None, str]:
    doc, problems = parse_yaml(text, "f.yaml")
    assert doc is None
    [p] = problems
    return p.field, p.line, p.message


def test_data_and_lines_of_a_plain_file() -> None:
    doc, problems = parse_yaml("id: x\nworkflow:\n  - tool: a\n    when: 2024-01-05\n", "f.yaml")
    assert problems == [] and doc is not None
    assert doc.data == {"id": "x", "workflow": [{"tool": "a", "when": "2024-01-05"}]}
    assert doc.line(("workflow", 0, "when")) == 4
    assert doc.line(("workflow", 0, "nowhere")) == 3  # the nearest parent


def test_a_key_given_twice_is_a_problem_with_its_line() -> None:
    doc, problems = parse_yaml("a: 1\nb: 2\na: 3\n", "f.yaml")
    assert doc is not None  # schema problems are still reported alongside
    assert [(p.field, p.line, p.message) for p in problems] == [("a", 3, "duplicate key")]


def test_aliases_are_refused_anchors_alone_are_harmless() -> None:
    doc, problems = parse_yaml("a: &x [1]\nb: [1]\n", "f.yaml")
    assert problems == [] and doc is not None and doc.data == {"a": [1], "b": [1]}
    assert one_problem("a: &x [1]\nb: *x\n") == (
        "",
        2,
        "YAML aliases (*x) are not accepted: write the value out",
    )


def test_an_alias_bomb_is_refused_at_its_first_alias() -> None:
    assert len(ALIAS_BOMB) < 1600  # 9**9 leaves if expanded
    assert one_problem(ALIAS_BOMB)[1:] == (
        2,
        "YAML aliases (*a) are not accepted: write the value out",
    )


@pytest.mark.parametrize("opener", ["[", "{a: ", "- "])
def test_nesting_depth_is_bounded(opener: str) -> None:
    def nested(depth: int) -> str:
        if opener == "- ":  # block sequences: "- - - 1"
            return opener * depth + "1\n"
        closer = "]" if opener == "[" else "}"
        return opener * depth + "1" + closer * depth + "\n"

    doc, problems = parse_yaml(nested(MAX_DEPTH), "f.yaml")
    assert problems == [] and doc is not None
    for depth in (MAX_DEPTH + 1, 5000):
        _, line, message = one_problem(nested(depth))
        assert message == f"nested deeper than {MAX_DEPTH} levels"
        assert line is not None and line >= 1


def test_absurdly_long_integers_are_refused_not_parsed() -> None:
    ok = "9" * MAX_INT_DIGITS
    doc, problems = parse_yaml(f"a:\n  b: {ok}\n", "f.yaml")
    assert problems == [] and doc is not None and doc.data == {"a": {"b": int(ok)}}
    assert one_problem("a:\n  b: " + "9" * 5000 + "\n") == (
        "a.b",
        2,
        f"integer longer than {MAX_INT_DIGITS} digits: refused",
    )
    doc, problems = parse_yaml("a: '" + "9" * 5000 + "'\n", "f.yaml")  # quoted: text
    assert problems == [] and doc is not None


def test_a_value_yaml_cannot_build_is_a_problem_not_an_exception() -> None:
    assert one_problem("a: 1\nwhen: 2024-13-45\n") == (
        "when",
        2,
        "invalid value '2024-13-45': month must be in 1..12",
    )
    assert one_problem("? [a, b]\n: 1\n") == ("", 1, "a key must be a plain value")


def test_file_size_is_bounded(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text("a: '" + "x" * (MAX_BYTES - 10) + "'\n")
    doc, problems = read_yaml(path)
    assert problems == [] and doc is not None and len(doc.sha256) == 64
    path.write_text("a: '" + "x" * MAX_BYTES + "'\n")
    doc, problems = read_yaml(path)
    assert doc is None
    assert [(p.file, p.message) for p in problems] == [
        (str(path), f"file larger than {MAX_BYTES // 1024} KB: refused")
    ]
    doc, problems = parse_yaml("a: '" + "x" * MAX_BYTES + "'\n", "draft")
    assert doc is None and "larger than" in problems[0].message


@pytest.fixture
def no_hang() -> Iterator[None]:
    """Turn a blocking read (the bug: a FIFO opened for reading waits for a writer) into a
    test failure instead of a hung suite. Not a timing assertion: nothing here takes long."""

    def fail(signum: int, frame: object) -> None:
        raise AssertionError("the reader blocked on a non-regular file")

    previous = signal.signal(signal.SIGALRM, fail)
    signal.setitimer(signal.ITIMER_REAL, 30)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_a_named_pipe_is_refused_by_name_never_opened_for_a_blocking_read(
    tmp_path: Path, no_hang: None
) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    doc, problems = read_yaml(fifo)
    assert doc is None
    assert [(p.file, p.message) for p in problems] == [
        (str(fifo), "not a regular file (a named pipe, socket or device is never read)")
    ]
    folder = tmp_path / "folder.yaml"
    folder.mkdir()
    doc, problems = read_yaml(folder)
    assert doc is None and problems[0].message.startswith("a folder")


def test_unreadable_and_non_utf8_files_are_problems(tmp_path: Path) -> None:
    doc, problems = read_yaml(tmp_path / "missing.yaml")
    assert doc is None and problems[0].message.startswith("cannot read file")
    latin = tmp_path / "latin.yaml"
    latin.write_bytes(b"a: caf\xe9\n")
    doc, problems = read_yaml(latin)
    assert doc is None and problems[0].message.startswith("not UTF-8 text")
