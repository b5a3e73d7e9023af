"""What the viewer (and ``report``) does with numbers no run writes: an absurd trial count,
NaN and infinity, many trials, and a ``.lock`` that is not a writer's lock file. Each is
bad input named by file and field, or a state the page shows; none hangs the viewer, takes
its other runs down or is drawn as "nan"."""

from __future__ import annotations

import html
import io
import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer
from rich.console import Console
from typer.testing import CliRunner
from view_runs import append, manifest, unit

from chromium import chromium
from supportsim.cli import app as cli_app
from supportsim.report import _format, load_run, render_summary, summarise_run
from supportsim.view import build_app, start_viewer, url_of

PAGES = ("/", "/runs/{run}", "/runs/{run}/units/s1%7Ca%7C1", "/trend?run={run}&run=v1")


@pytest.fixture
async def client(runs: Path) -> AsyncIterator[TestClient]:
    async with TestClient(TestServer(build_app(runs), host="127.0.0.1")) as c:
        yield c


async def pages(client: TestClient, run: str) -> dict[str, tuple[int, str]]:
    out = {}
    for path in PAGES:
        response = await client.get(path.format(run=run))
        out[path] = (response.status, await response.text())
    return out


async def test_an_absurd_trial_count_in_run_json_is_named_not_a_hang(
    client: TestClient, runs: Path
) -> None:
    """Found by a review: run.json's ``config.trials`` 10**9 made the plan enumerate a
    billion unit ids and pass^k loop a billion times: the viewer's loop hung, every page
    with it, and ``report`` never ended."""
    run = runs / "huge"
    manifest(run, scenarios=["s1"], agents=["a"], trials=10**9, status="completed")
    append(run, unit("s1", "a", 1))
    why = f"{run / 'run.json'}: config.trials: 1000000000 is not a trial count"
    seen = await pages(client, "huge")
    assert seen["/"][0] == 200 and why in seen["/"][1] and "unreadable" in seen["/"][1]
    assert seen["/runs/{run}"][0] == 422 and why in seen["/runs/{run}"][1]
    assert (await client.get("/runs/v1")).status == 200  # the other runs are unaffected
    result = CliRunner().invoke(cli_app, ["report", str(run)])
    assert result.exit_code == 2 and why in result.output


@pytest.mark.parametrize("trials", [0, True, "3", 100_001])
async def test_any_trial_count_a_run_cannot_ask_for_is_named(
    client: TestClient, runs: Path, trials: object
) -> None:
    run = runs / "odd"
    manifest(run, scenarios=["s1"], agents=["a"], trials=1, status="completed")
    doc = json.loads((run / "run.json").read_text(encoding="utf-8"))
    doc["config"]["trials"] = trials
    (run / "run.json").write_text(json.dumps(doc), encoding="utf-8")
    append(run, unit("s1", "a", 1))
    response = await client.get("/runs/odd")
    assert response.status == 422
    assert f"config.trials: {trials!r} is not a trial count" in html.unescape(await response.text())


async def test_a_record_of_an_absurd_trial_is_a_damaged_line(
    client: TestClient, runs: Path
) -> None:
    """Without a run.json the trials are the largest record's: that one is refused."""
    run = runs / "loose"
    run.mkdir()
    append(run, unit("s1", "a", 1), unit("s1", "a", 10**9))
    page = await (await client.get("/runs/loose")).text()
    assert "line 2: not a valid record (trial: Input should be less than or equal to 100000)" in (
        page
    )
    assert "1 trial(s)" in page


@pytest.mark.parametrize(
    ("where", "value"),
    [("response_ms", float("nan")), ("response_ms", float("inf")), ("partial", float("nan")),
     ("cost_usd", float("-inf")), ("llm_ms", float("inf"))],
)  # fmt: skip
async def test_nan_and_infinity_in_a_record_are_a_damaged_line_never_nan(
    client: TestClient, runs: Path, where: str, value: float
) -> None:
    """Found by a review: Python's json writes NaN and Infinity, the record model took
    them, and a NaN reply time made every page a 500 (``ms`` of NaN), a NaN partial was
    shown as "nan%". JSON has neither: the line is listed as damaged, at its field."""
    run = runs / "figures"
    manifest(run, scenarios=["s1"], agents=["a"], trials=1, status="completed")
    record = unit("s1", "a", 1)
    if where in ("response_ms", "llm_ms"):
        record["messages"][1][where] = value
        field = f"messages.1.{where}"
    else:
        record[where] = value
        field = where
    append(run, record)
    seen = await pages(client, "figures")
    for path, (status, text) in seen.items():
        assert status in (200, 404), path
        shown = [w for w in (">nan", "nan%", "inf ms", "NaN", "Infinity") if w in text]
        assert shown == [], (path, shown)
    run_page = seen["/runs/{run}"][1]
    assert f"line 1: not a valid record ({field}: Input should be a finite number)" in run_page
    state = await client.get("/api/state?run=figures")
    assert isinstance((await state.json())["version"], str)
    result = CliRunner().invoke(cli_app, ["report", str(run)])
    assert result.exit_code == 2 and f"{field}: Input should be a finite number" in result.output


def test_a_figure_that_is_not_finite_is_shown_as_a_dash() -> None:
    """A mean can still overflow to infinity from finite values: a dash, as for none."""
    for value in (float("nan"), float("inf"), float("-inf")):
        shown = (_format.pct(value), _format.ms(value), _format.number(value))
        assert (*shown, _format.usd(value), _format.points(value)) == (_format.DASH,) * 5
        assert _format.ci([value, 0.5]) == _format.DASH
    assert (_format.pct(0.725), _format.ms(1234.0)) == ("72.5%", "1,234")


def test_the_leaderboard_shows_at_most_five_pass_k_columns() -> None:
    assert _format.pass_k_columns(1) == ["1"]
    assert _format.pass_k_columns(5) == ["1", "2", "3", "4", "5"]
    assert _format.pass_k_columns(8) == ["1", "2", "3", "4", "8"]
    assert _format.pass_k_columns(100_000) == ["1", "2", "3", "4", "100000"]


def twelve_trials(runs: Path) -> Path:
    run = runs / "many"
    agents = ["a", "openai:a-long-agent-label"]
    manifest(run, scenarios=["s1", "s2"], agents=agents, trials=12, status="completed")
    append(
        run,
        *(unit(s, a, t, strict=t % 3 != 0) for s in ("s1", "s2") for a in agents
          for t in range(1, 13)),
    )  # fmt: skip
    return run


async def test_twelve_trials_show_pass_k_one_to_four_and_twelve(
    client: TestClient, runs: Path
) -> None:
    twelve_trials(runs)
    page = await (await client.get("/runs/many")).text()
    leaderboard = page.split('id="leaderboard"')[1].split("</thead>")[0]
    assert [f"pass^{k}" in leaderboard for k in (1, 4, 5, 11, 12)] == [1, 1, 0, 0, 1]
    per_scenario = page.split('id="pass-k"')[1].split("</thead>")[0]
    assert per_scenario.count("<th>pass^") == 5 and "<th>pass^12</th>" in per_scenario


async def test_the_leaderboard_of_twelve_trials_fits_its_card(runs: Path) -> None:
    """In a real browser at 1280 px: every leaderboard column within the card (it was
    scrolled off: latency and cost columns hidden past pass^12)."""
    twelve_trials(runs)
    viewer = await start_viewer(runs, port=0)
    try:
        async with chromium() as browser:
            page = await browser.new_page(viewport={"width": 1280, "height": 900})
            await page.goto(url_of(viewer) + "/runs/many")
            scroll = page.locator("div.scroll:has(#leaderboard)")
            box = await scroll.bounding_box()
            table = await page.locator("#leaderboard").bounding_box()
            assert box is not None and table is not None
            assert table["width"] <= box["width"] + 1
            last = await page.locator("#leaderboard thead th").last.bounding_box()
            assert last is not None and last["x"] + last["width"] <= box["x"] + box["width"] + 1
            await page.close()
    finally:
        await viewer.cleanup()


def test_a_fifo_in_place_of_the_lock_file_does_not_hang_the_viewer(runs: Path) -> None:
    """Found by a review: the liveness probe opened ``.lock`` blocking, so a FIFO there
    (anything but a writer's lock file) stopped the viewer's event loop for good. It is
    opened non-blocking and only a regular file is probed: no writer holds it."""
    run = runs / "v2"
    doc = json.loads((run / "run.json").read_text(encoding="utf-8"))
    doc["status"] = "running"
    (run / "run.json").write_text(json.dumps(doc), encoding="utf-8")
    os.mkfifo(run / ".lock")
    probe = "import sys; from pathlib import Path; from supportsim.store import live_status; "
    probe += "print(live_status(Path(sys.argv[1]), 'running'))"
    done = subprocess.run(
        [sys.executable, "-c", probe, str(run)],
        capture_output=True,
        text=True,
        timeout=120,  # a guard: the old probe never returned, not a speed bound
    )
    assert (done.returncode, done.stdout.strip()) == (0, "interrupted"), done.stderr


@pytest.mark.parametrize("trials", [5, 6, 12])
@pytest.mark.parametrize("width", [80, 100, 200])
def test_the_terminal_leaderboard_of_many_trials_fits_any_width(
    runs: Path, trials: int, width: int
) -> None:
    """Found by a review: from 6 trials a terminal under ~120 columns raised IndexError
    (the narrow fit dropped one pass^k column per trial, past those shown)."""
    run = runs / f"t{trials}"
    manifest(run, scenarios=["s1"], agents=["a"], trials=trials, status="completed")
    append(run, *(unit("s1", "a", t, strict=t % 2 == 1) for t in range(1, trials + 1)))
    buffer = io.StringIO()
    render_summary(summarise_run(load_run(run)), Console(file=buffer, width=width))
    out = buffer.getvalue()
    assert max(len(line) for line in out.splitlines()) <= width
    assert "pass^1" in out
