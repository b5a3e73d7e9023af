"""The viewer's server without a browser: routes, loopback only, headers, bad input."""

from __future__ import annotations

import json
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer
from typer.testing import CliRunner
from view_runs import append, unit

from supportsim.cli import app as cli_app
from supportsim.errors import InputError
from supportsim.view import build_app, check_host, start_viewer


@pytest.fixture
async def client(runs: Path) -> AsyncIterator[TestClient]:
    async with TestClient(TestServer(build_app(runs), host="127.0.0.1")) as c:
        yield c


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "::1", "localhost", "[::1]"])
def test_loopback_hosts_are_accepted(host: str) -> None:
    check_host(host)


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.4", "::", "example.com", ""])
def test_other_hosts_are_refused_with_why(host: str) -> None:
    with pytest.raises(InputError) as info:
        check_host(host)
    assert f"--host {host}: the viewer serves only on loopback" in str(info.value)
    assert "without any login" in str(info.value)


def test_the_cli_refuses_a_network_host_and_a_missing_folder(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(cli_app, ["view", str(tmp_path), "--host", "0.0.0.0"])
    assert result.exit_code == 2 and "serves only on loopback" in result.output
    result = runner.invoke(cli_app, ["view", str(tmp_path / "nope"), "--port", "0"])
    assert result.exit_code == 2 and "no such folder" in result.output


async def test_a_port_in_use_is_bad_input(runs: Path) -> None:
    first = await start_viewer(runs, port=0)
    try:
        port = first.addresses[0][1]
        with pytest.raises(InputError, match=f"--port {port}: cannot listen"):
            await start_viewer(runs, port=port)
    finally:
        await first.cleanup()


async def test_pages_answer_with_a_strict_policy(client: TestClient) -> None:
    for path in ("/", "/runs/v1", "/runs/v2", "/runs/v1/units/refund_roaming%7Calpha%7C1"):
        response = await client.get(path)
        assert response.status == 200, path
        policy = response.headers["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "default-src 'none'" in policy
        assert response.headers["X-Content-Type-Options"] == "nosniff"
    for name, kind in (("view.js", "text/javascript"), ("report.css", "text/css")):
        response = await client.get(f"/static/{name}")
        assert response.status == 200 and response.content_type == kind
    assert (await client.get("/static/../cli.py")).status == 404
    assert (await client.get("/static/other.js")).status == 404


async def test_a_foreign_host_header_is_refused(client: TestClient) -> None:
    """A page whose DNS name was rebound to 127.0.0.1 sends its own name as Host."""
    response = await client.get("/", headers={"Host": "attacker.example:8600"})
    assert response.status == 403
    assert (await client.get("/", headers={"Host": "localhost:8600"})).status == 200


async def test_unknown_runs_and_units_are_404_and_say_so(client: TestClient) -> None:
    response = await client.get("/runs/nope")
    assert response.status == 404 and "nope: no such run" in await response.text()
    response = await client.get("/runs/v1/units/x%7Cy%7C1")
    assert response.status == 404 and "x|y|1: no record of this unit in v1" in await response.text()
    assert (await client.get("/runs/..%2Fv1")).status == 404


async def test_compare_and_trend_need_the_right_number_of_runs(client: TestClient) -> None:
    response = await client.get("/compare?run=v1")
    assert response.status == 400 and "tick exactly two runs" in await response.text()
    response = await client.get("/trend?run=v1")
    assert response.status == 400 and "tick two runs or more" in await response.text()
    response = await client.get("/compare?run=v1&run=nope")
    assert response.status == 400 and "nope: no such run" in await response.text()
    compare = await (await client.get("/compare?run=v1&run=v2")).text()
    assert "supportsim compare · A = v1 · B = v2" in compare and 'href="/"' in compare
    trend = await (await client.get("/trend?run=v1&run=v2")).text()
    assert "supportsim trend · 2 run(s) · v1 → v2" in trend


async def test_the_state_version_changes_when_a_run_does(client: TestClient, runs: Path) -> None:
    before = await (await client.get("/api/state?run=v1")).json()
    folder_before = await (await client.get("/api/state")).json()
    assert before == await (await client.get("/api/state?run=v1")).json()
    append(runs / "v1", unit("extra", "alpha", 1))
    assert (await (await client.get("/api/state?run=v1")).json()) != before
    assert (await (await client.get("/api/state")).json()) != folder_before
    assert (await client.get("/api/state?run=nope")).status == 404


async def test_a_big_run_sends_one_page_of_units(client: TestClient, runs: Path) -> None:
    run = runs / "big"
    run.mkdir()
    append(run, *(unit(f"s{i:03}", "a", 1, strict=i % 3 != 0) for i in range(250)))
    page = await (await client.get("/runs/big")).text()
    assert page.count('<tr data-unit="') == 100 and 'id="next"' in page
    assert "250</span> matching" in page
    last = await (await client.get("/runs/big?page=3")).text()
    assert last.count('<tr data-unit="') == 50 and 'id="prev"' in last
    failing = await (await client.get("/runs/big?status=fail")).text()
    assert "84</span> matching" in failing


@pytest.mark.parametrize(
    ("extra", "shown"),
    [
        ({}, "This record has no customer review."),
        ({"customer_review": None}, "This record has no customer review."),
        ({"customer_review": {"findings": []}}, "No findings."),
        (
            {"customer_review": {"findings": [], "failed": "review crashed: KeyError"},
             "customer_hindered": False},
            "The review could not be made: review crashed: KeyError",
        ),
    ],
)  # fmt: skip
async def test_the_review_section_reads_what_the_record_has(
    client: TestClient, runs: Path, extra: dict, shown: str
) -> None:
    run = runs / "reviewed"
    run.mkdir()
    append(run, unit("s1", "a", 1, customer_seed=42, **extra))
    page = await (await client.get("/runs/reviewed/units/s1%7Ca%7C1")).text()
    assert shown in page
    assert "(seed 42)" in page
    assert "hindered this conversation" not in page


async def test_a_run_with_a_damaged_run_json_is_listed_with_why(
    client: TestClient, runs: Path
) -> None:
    run = runs / "torn"
    run.mkdir()
    (run / "run.json").write_text('{"run_id": "torn", "sta', encoding="utf-8")
    append(run, unit("s1", "a", 1))
    index = await (await client.get("/")).text()
    assert "cannot read the run manifest" in index and "torn" in index
    response = await client.get("/runs/torn")
    assert response.status == 422
    assert f"{run / 'run.json'}: cannot read the run manifest" in await response.text()
    assert (await client.get("/runs/v1")).status == 200  # the other runs are unaffected


async def test_runs_of_several_customers_are_compared_under_one_or_refused(
    client: TestClient, runs: Path
) -> None:
    """As `supportsim compare`: never pooled across Customers without saying so."""
    for name in ("v1", "v2"):
        doc = json.loads((runs / name / "run.json").read_text(encoding="utf-8"))
        doc["config"]["customer"] = ["scripted", "openai:cust"]
        (runs / name / "run.json").write_text(json.dumps(doc), encoding="utf-8")
        (runs / name / "conversations.jsonl").write_text("", encoding="utf-8")
        append(
            runs / name,
            *(
                unit("s1", "a", 1, unit_id=f"s1|a|1|{c}", customer=c, strict=c == "scripted")
                for c in ("scripted", "openai:cust")
            ),
        )
    refused = await client.get("/compare?run=v1&run=v2")
    assert refused.status == 400
    assert "played several Customers" in await refused.text()
    under = await client.get("/compare?run=v1&run=v2&customer=openai:cust")
    assert under.status == 200
    assert "under Customer openai:cust" in await under.text()


@pytest.mark.parametrize(
    "damage",
    ["rescored-garbage", "records-a-folder", "run-json-field"],
)
async def test_a_run_damaged_past_its_run_json_is_listed_with_why_not_a_500(
    client: TestClient, runs: Path, damage: str
) -> None:
    """Found by a review: one such run took the whole index down (500)."""
    run = runs / "bad"
    shutil.copytree(runs / "v1", run)
    if damage == "rescored-garbage":
        (run / "rescored.jsonl").write_text("garbage\n", encoding="utf-8")
    elif damage == "records-a-folder":
        (run / "conversations.jsonl").unlink()
        (run / "conversations.jsonl").mkdir()
    else:
        doc = json.loads((run / "run.json").read_text(encoding="utf-8"))
        doc["started_at"] = 5
        (run / "run.json").write_text(json.dumps(doc), encoding="utf-8")
    index = await client.get("/")
    assert index.status == 200 and "bad" in await index.text()
    page = await client.get("/runs/bad")
    assert page.status == 422
    assert (await client.get("/runs/v1")).status == 200  # the other runs are unaffected


async def test_the_host_bound_is_the_host_checked(runs: Path) -> None:
    """Found by a review: ' 127.0.0.1 ' passed the check and failed to bind, blaming --port."""
    viewer = await start_viewer(runs, host=" 127.0.0.1 ", port=0)
    try:
        assert viewer.addresses[0][0] == "127.0.0.1"
    finally:
        await viewer.cleanup()
