"""One boundary between a unit and the batch: whatever a unit's record does wrong makes
that unit a harness_error with the reason, model text is sanitised before it is stored,
and the batch goes on."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from batch_helpers import LOOKUP, REFUND, records, request, run

from supportsim.batch import _unit, read_manifest
from supportsim.llm import Scrubber, sanitised
from supportsim.store import CONVERSATIONS, ConversationRecord
from supportsim.testing import MockLLMServer, say

LONE = "refund \ud800 done"


async def test_a_lone_surrogate_in_a_reply_is_stored_as_a_replacement_character(
    server: MockLLMServer, out: Path
):
    server.script("agent", [say(LONE)])  # the first agent reply of some unit
    session, _ = await run(server, request(out, agents=["openai:agent"], trials=2))
    got = records(session)
    assert session.status == "completed"
    assert len(got) == 4 and {r.status for r in got} == {"completed"}
    texts = [m.content for r in got for m in r.messages if "\ufffd" in m.content]
    assert texts == ["refund \ufffd done"]
    raw = (session.run_dir / CONVERSATIONS).read_bytes()
    raw.decode("utf-8")  # every byte stored is valid UTF-8
    assert b"\\ud800" not in raw
    assert read_manifest(session.run_dir)["status"] == "completed"


def test_sanitising_keeps_pairs_and_clean_objects():
    clean = {"a": ["text", ("x", 1)]}
    assert sanitised(clean) is clean  # nothing to replace: the same object
    assert sanitised("\ud83d\ude00") == "\U0001f600"  # a pair is one character
    assert sanitised({"k\udc00": ["\ud800"]}) == {"k\ufffd": ["\ufffd"]}


async def test_a_record_that_cannot_be_built_is_a_harness_error_and_the_batch_goes_on(
    server: MockLLMServer, out: Path, monkeypatch: pytest.MonkeyPatch
):
    real = _unit.build_record

    def build(**kwargs: Any) -> ConversationRecord:
        if kwargs["unit_id"] == f"{LOOKUP}|oracle|2" and kwargs["transcript"].error is None:
            raise ValueError("cannot build this record")
        return real(**kwargs)

    monkeypatch.setattr(_unit, "build_record", build)
    session, _ = await run(server, request(out, trials=3, concurrency=2))
    got = records(session)
    assert Counter(r.status for r in got) == {"completed": 5, "harness_error": 1}
    (broken,) = [r for r in got if r.status == "harness_error"]
    assert broken.unit_id == f"{LOOKUP}|oracle|2"
    assert "Traceback" in (broken.error or "") and "cannot build this record" in (
        broken.error or ""
    )
    assert broken.strict is None and broken.checks == []
    assert session.status == "completed"  # every unit has its final record


async def test_a_record_that_cannot_be_encoded_is_a_harness_error(
    server: MockLLMServer, out: Path, monkeypatch: pytest.MonkeyPatch
):
    real = _unit.encode_record

    def encode(record: ConversationRecord, scrub: Scrubber | None = None) -> bytes:
        if record.unit_id == f"{REFUND}|oracle|1" and record.status == "completed":
            raise TypeError("not serialisable")
        return real(record, scrub)

    monkeypatch.setattr(_unit, "encode_record", encode)
    session, _ = await run(server, request(out, trials=2))
    got = {r.unit_id: r for r in records(session)}
    assert len(got) == 4
    assert got[f"{REFUND}|oracle|1"].status == "harness_error"
    assert "not serialisable" in (got[f"{REFUND}|oracle|1"].error or "")
    assert {r.status for k, r in got.items() if k != f"{REFUND}|oracle|1"} == {"completed"}
