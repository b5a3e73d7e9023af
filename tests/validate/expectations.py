"""Counted expectation files: the failures we know of, one line each, that may only shrink.

A proof that does not hold everywhere yet (a library conversation the scorer gets wrong, a
perturbation variant a weak rule lets through) is a finding, not a reason to skip: it is
listed in a YAML file with its count, CI passes while the list is exactly what happens,
and the test fails both when a new failure appears and when a listed one starts passing
(remove its line: the list only shrinks). ``counts`` repeats the number of lines per kind,
so a change to the figures shows in review::

    counts: {valid: 1, sloppy: 1}
    known:
      - {scenario: s1, kind: valid, check: "step:confirm", why: "message 7 lacks ..."}
      - {scenario: s2, kind: sloppy, check: "refund", why: "scores strict 1"}

Run the test with ``SUPPORTSIM_WRITE_KNOWN=1`` to rewrite the file from what happens now
(the test still fails, so a rewrite is never a silent pass); review the diff.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from supportsim._yaml import read_model


class Known(BaseModel):
    """One known failure: where, of which kind, which check (or variant), and why."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    scenario: str
    kind: str
    check: str
    why: str = ""

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.scenario, self.kind, self.check)


class KnownList(BaseModel):
    model_config = ConfigDict(extra="forbid")
    counts: dict[str, int] = {}
    known: list[Known] = []


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_known(path: Path, header: str, found: Iterable[Known]) -> None:
    """Write ``found`` as the expectation file at ``path`` (sorted, one line each)."""
    items = sorted(set(found), key=lambda k: k.key)
    counts = Counter(k.kind for k in items)
    lines = [f"# {line}".rstrip() for line in header.strip().splitlines()]
    lines.append("counts: {" + ", ".join(f"{k}: {n}" for k, n in sorted(counts.items())) + "}")
    lines.append("known:" if items else "known: []")
    lines += [
        f"  - {{scenario: {_q(k.scenario)}, kind: {k.kind}, check: {_q(k.check)}, "
        f"why: {_q(k.why)}}}"
        for k in items
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def compare_known(path: Path, header: str, found: Iterable[Known]) -> list[str]:
    """What differs between the expectation file and ``found``: new failures, listed ones
    that now pass, counts that do not match the lines. Empty when they agree.

    With ``SUPPORTSIM_WRITE_KNOWN=1`` the file is rewritten from ``found`` first, and the
    rewrite itself is reported (so the test fails and the diff is reviewed)."""
    found = list(found)
    if os.environ.get("SUPPORTSIM_WRITE_KNOWN") == "1":
        write_known(path, header, found)
        return [f"{path} rewritten from this run (unset SUPPORTSIM_WRITE_KNOWN and review it)"]
    listed = read_model(path, KnownList)
    known = {k.key: k for k in listed.known}
    now = {k.key: k for k in found}
    out = [
        f"new failure, not in {path.name}: {k.scenario} {k.kind} {k.check}: {k.why}"
        for key, k in sorted(now.items())
        if key not in known
    ]
    out += [
        f"listed in {path.name} but holds now (remove the line): {k.scenario} {k.kind} {k.check}"
        for key, k in sorted(known.items())
        if key not in now
    ]
    if len(known) != len(listed.known):
        out.append(f"{path.name} lists a failure twice")
    counted = dict(Counter(k.kind for k in listed.known))
    if counted != listed.counts:
        out.append(f"{path.name} counts {listed.counts}, but its lines count {counted}")
    return out
