"""No secret is written to a run directory: a password in a models file's base_url and a
key a provider echoes in its error text are scrubbed from run.json, summary.json and
conversations.jsonl; credentials in an ``http:`` agent spec (its label) are refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from batch_helpers import LOOKUP, env_for, no_wait, request

from supportsim.app import write_summary
from supportsim.batch import execute, prepare_run
from supportsim.conversation import parse_agent_spec
from supportsim.errors import InputError
from supportsim.store import iter_records
from supportsim.testing import MockLLMServer, http_error

KEY = "sk-agent-0123456789abcdef"
PASSWORD = "hunter2-in-the-url"


async def test_url_passwords_and_echoed_keys_are_not_stored(
    tmp_path: Path, server: MockLLMServer
) -> None:
    host = server.url.removeprefix("http://")
    models = tmp_path / "models.yaml"
    models.write_text(
        "models:\n"
        "  agent-x:\n"
        "    provider: openai\n"
        "    model: agent-model\n"
        f"    base_url: http://agent:{PASSWORD}@{host}/v1\n"
        "    api_key_env: AGENT_KEY\n",
        encoding="utf-8",
    )
    server.script("agent-model", [http_error(401, message=f"Incorrect API key: {KEY}")])
    req = request(tmp_path / "runs", ids=[LOOKUP], agents=["agent-x"], models_file=str(models))
    prepared = prepare_run(req, {**env_for(server), "AGENT_KEY": KEY})
    prepared.pool.sleep = no_wait
    try:
        session = await execute(prepared.session, prepared.ctx, prepared.config, pool=prepared.pool)
    finally:
        await prepared.pool.aclose()
    write_summary(session, trials=1)

    [record] = iter_records(session.run_dir)
    assert record.status == "infra_error"  # the call did reach the endpoint and failed
    assert "Incorrect API key: ***" in (record.error or "")
    assert server.requests(model="agent-model")  # the URL with its password worked
    for name in ("run.json", "summary.json", "conversations.jsonl"):
        text = (session.run_dir / name).read_text(encoding="utf-8")
        assert PASSWORD not in text, name
        assert KEY not in text, name
    manifest = (session.run_dir / "run.json").read_text(encoding="utf-8")
    assert f"http://***@{host}/v1" in manifest

    # The stored, scrubbed model compares equal on resume: the run is not "changed".
    resumed = prepare_run(
        request(
            tmp_path / "runs",
            run_id=session.run_id,
            resume=True,
            ids=[LOOKUP],
            agents=["agent-x"],
            models_file=str(models),
        ),
        {**env_for(server), "AGENT_KEY": KEY},
    )
    try:
        assert resumed.session.forced == []
        assert [u.unit_id for u in resumed.session.todo] == [record.unit_id]  # infra: retried
    finally:
        await resumed.pool.aclose()
        if resumed.session.lock is not None:
            resumed.session.lock.release()


def test_credentials_in_an_http_agent_spec_are_refused() -> None:
    assert parse_agent_spec("http:https://agents.example/v1#m", {}).label.startswith("http:")
    with pytest.raises(InputError) as info:
        parse_agent_spec(f"http:https://bot:{PASSWORD}@agents.example/v1", {})
    assert PASSWORD not in str(info.value)
    assert "no credentials in an agent spec" in str(info.value)
    assert "https://***@agents.example/v1" in str(info.value)


async def test_a_key_a_model_echoes_in_its_reply_is_not_stored(
    tmp_path: Path, server: MockLLMServer
) -> None:
    from supportsim.testing import say

    server.script("agent-model", [say(f"Sure! My key is {KEY}, anything else?")] * 8)
    req = request(tmp_path / "runs", ids=[LOOKUP], agents=["openai:agent-model"])
    prepared = prepare_run(req, {**env_for(server), "OPENAI_API_KEY": KEY})
    prepared.pool.sleep = no_wait
    try:
        session = await execute(prepared.session, prepared.ctx, prepared.config, pool=prepared.pool)
    finally:
        await prepared.pool.aclose()
    [record] = iter_records(session.run_dir)
    said = [m.content for m in record.messages if m.role == "agent"]
    assert said and all("My key is ***" in text for text in said)
    assert KEY not in (session.run_dir / "conversations.jsonl").read_text(encoding="utf-8")
