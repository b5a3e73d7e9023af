"""The library conversations, written blind, replayed through the real runtime and scorer.

Every bundled scenario has a ``valid`` conversation (a competent Agent in its own words),
which must score strict 1, and a ``sloppy`` one, which must score strict 0 with at least one
of the checks it ``violates`` failing. What does not hold today is a measured finding listed,
one line each and counted, in ``known_conversations.yaml`` (``expectations.py``): a valid
conversation's check that wrongly fails, a sloppy conversation that is not caught, a
``violates`` id that names no check yet. The list may only shrink.

Print the per-scenario table and the counts with
``pytest tests/validate/test_library_conversations.py -s``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from expectations import Known, compare_known

from supportsim.domains import DomainCatalogue, builtin_domains
from supportsim.scenario import load_personas, load_scenarios
from supportsim.scoring import CONCEPTS
from supportsim.validate import (
    ConversationFile,
    Replayed,
    ReplayTally,
    by_scenario,
    load_conversations,
    replay,
    violated_checks,
)

ROOT = Path(__file__).resolve().parents[2]
CONVERSATIONS = ROOT / "tests" / "library_conversations"
KNOWN = Path(__file__).with_name("known_conversations.yaml")
HEADER = """\
Library conversations the scorer gets wrong today (tests/validate/test_library_conversations.py).
kind valid: a check that wrongly fails on a valid conversation (a false failure).
kind sloppy: a sloppy conversation none of whose violates ids fails (a false pass);
  check lists the ids it names, why says how it scored.
kind unknown_id: a violates id that names no check of the scenario yet.
Every fix removes a line; the test fails when a listed one holds or a new one appears.
"""
DOMAINS = builtin_domains()
LIBRARY = {
    s.id: s
    for s in load_scenarios(
        [ROOT / "scenarios"],
        catalogue=DomainCatalogue(DOMAINS, CONCEPTS),
        personas=load_personas([ROOT / "personas"]),
    )
}


@pytest.fixture(scope="module")
def files() -> dict[str, ConversationFile]:
    return dict(by_scenario(load_conversations(CONVERSATIONS)))


def test_every_scenario_has_a_valid_and_a_sloppy_conversation(
    files: dict[str, ConversationFile],
) -> None:
    assert set(files) == set(LIBRARY)
    for scenario_id, file in files.items():
        kinds = {c.kind for c in file.conversations}
        assert kinds == {"valid", "sloppy"}, scenario_id


def findings(scenario_id: str, done: Replayed) -> list[Known]:
    """What does not hold for one replayed conversation, one Known each."""
    conversation = done.conversation
    if conversation.kind == "valid":
        reasons = {c.id: c.reason for c in done.score.checks}
        return [
            Known(scenario=scenario_id, kind="valid", check=c, why=reasons.get(c, c))
            for c in done.failed
        ]
    ids = [c.id for c in done.score.checks]
    out = [
        Known(scenario=scenario_id, kind="unknown_id", check=v, why="names no check")
        for v in conversation.violates
        if not violated_checks(v, ids)
    ]
    if not done.holds:
        named = ", ".join(conversation.violates)
        out.append(Known(scenario=scenario_id, kind="sloppy", check=named, why=done.why()))
    return out


async def test_library_conversations_score_as_written(
    files: dict[str, ConversationFile],
) -> None:
    tally, found, lines = ReplayTally(), [], []
    for scenario_id, file in sorted(files.items()):
        scenario = LIBRARY[scenario_id]
        for conversation in file.conversations:
            done = await replay(DOMAINS[scenario.domain], scenario, conversation)
            # A call the tools do not accept is a wrongly written conversation, never a finding.
            assert done.rejected == (), (file.file, conversation.kind, done.rejected)
            tally.add(done)
            mark = "ok " if done.holds else "BAD"
            lines.append(f"{mark} {scenario_id} {conversation.kind}: {done.why()}")
            found += findings(scenario_id, done)
    print("\n".join(lines))
    print(tally.line())
    print(f"known lines: {len(found)} ({KNOWN.name})")
    for k in sorted(found, key=lambda k: k.key):
        print(f"  {k.scenario} {k.kind} {k.check}: {k.why}")
    assert tally.valid == tally.sloppy == len(LIBRARY)
    # Reasons are printed, not compared: a listed failure may change how it fails.
    assert compare_known(KNOWN, HEADER, found) == []
