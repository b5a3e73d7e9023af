"""``supportsim view`` in a real browser: headless Chromium (Debian's, installed by
.ci/browser-deps) driven by Playwright, against the viewer serving a runs folder on
127.0.0.1. The index, the unit filters, navigation to a conversation and back, a running
run gaining units while its page is open, model text with script payloads shown as text
and never run, and every request the pages make staying on the viewer's own address.

No sleeps: a live update is awaited on the page's own state (Playwright's ``expect``,
which polls the page; the pages' policy forbids the eval ``wait_for_function`` needs).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import pytest_asyncio
from playwright.async_api import Browser, Page, Route, expect
from view_runs import append, manifest, unit

from chromium import chromium
from supportsim.store import RunLock
from supportsim.view import start_viewer, url_of

PAYLOAD = 'boom <script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">'

LIVE_MS = 30_000  # not a speed target: the page polls every second; a loaded CI is slow

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser() -> AsyncIterator[Browser]:
    """One Chromium for the module (launching it is the slow part)."""
    async with chromium() as b:
        yield b


@dataclass
class Viewer:
    url: str
    runs: Path
    page: Page
    seen: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def _live_run(runs: Path) -> Path:
    run = runs / "live"
    manifest(run, scenarios=["s1", "s2", "s3"], agents=["a"], trials=1)
    reasons = [
        {"id": "forbidden:leak", "kind": "forbidden", "passed": False,
         "reason": f"agent disclosed a card number (message 1): {PAYLOAD}"},
    ]  # fmt: skip
    review = {
        "findings": [
            {"kind": "invented_fact", "message_index": 0, "detail": PAYLOAD, "critical": True}
        ]
    }
    append(
        run,
        unit("s1", "a", 1, strict=False, checks=reasons, customer_review=review,
             customer_hindered=True),
    )  # fmt: skip
    return run


@pytest_asyncio.fixture(loop_scope="module")
async def viewer(browser: Browser, runs: Path) -> AsyncIterator[Viewer]:
    """The viewer over v1, v2 and a running run ``live``; a page whose every request is
    recorded, and refused unless it is to the viewer itself."""
    live = _live_run(runs)
    lock = RunLock(live)  # a writer holds it: the run is running
    runner = await start_viewer(runs, "127.0.0.1", 0)
    url = url_of(runner)
    page = await browser.new_page(viewport={"width": 1350, "height": 900})
    v = Viewer(url, runs, page)

    async def only_the_viewer(route: Route) -> None:
        v.seen.append(route.request.url)
        if route.request.url.startswith(url + "/"):
            await route.continue_()
        else:
            v.refused.append(route.request.url)
            await route.abort()

    await page.route("**/*", only_the_viewer)
    page.on("pageerror", lambda e: v.errors.append(str(e)))
    page.on("console", lambda m: v.errors.append(m.text) if m.type == "error" else None)
    try:
        yield v
    finally:
        await page.close()
        await runner.cleanup()
        lock.release()
    assert v.refused == [], "a page asked for something off the viewer"
    assert v.errors == [], "the page logged errors (a blocked resource, a script error)"
    assert v.seen and all(u.startswith("http://127.0.0.1:") for u in v.seen)


async def _rows(page: Page) -> list[str]:
    return [
        await row.get_attribute("data-unit") or ""
        for row in await page.query_selector_all("#unit-list tbody tr")
    ]


async def test_index_filters_and_navigation(viewer: Viewer) -> None:
    page = viewer.page
    await page.goto(viewer.url + "/")
    names = [await a.inner_text() for a in await page.query_selector_all("a.run-link")]
    assert names == ["v2", "v1", "live"]  # by folder name, last first
    v2 = page.locator("tr.run[data-run='v2']").first
    assert await v2.locator(".status").inner_text() == "interrupted"
    live = page.locator("tr.run[data-run='live']").first
    assert await live.locator(".status").inner_text() == "running"
    assert (await live.locator("td.progress").inner_text()).startswith("1 / 3")

    await page.click("a.run-link:text-is('v1')")
    await page.wait_for_url("**/runs/v1")
    assert await page.is_visible("#leaderboard")
    for chart in ("strict-partial", "speed", "cost", "latency", "heatmap"):
        assert await page.is_visible(f"#chart-{chart} svg"), chart
    assert len(await _rows(page)) == 12
    assert await page.locator("#pass-k tbody tr").count() == 6

    await page.select_option("#f-status", "fail")  # applies on change
    await page.wait_for_url("**/runs/v1?*status=fail*")
    assert len(await _rows(page)) == 5
    await page.select_option("#f-agent", "alpha")
    await page.wait_for_url("**agent=alpha**")
    assert await _rows(page) == ["plan_upgrade|alpha|1", "plan_upgrade|alpha|2",
                                 "refund_roaming|alpha|1"]  # fmt: skip
    await page.select_option("#f-sort", "-latency")
    await page.wait_for_url("**sort=-latency**")
    assert await _rows(page) == ["plan_upgrade|alpha|2", "refund_roaming|alpha|1",
                                 "plan_upgrade|alpha|1"]  # fmt: skip
    await page.select_option("#f-check", "outcome")
    await page.wait_for_url("**check=outcome**")
    assert await _rows(page) == ["plan_upgrade|alpha|2", "refund_roaming|alpha|1"]

    await page.click("tr[data-unit='refund_roaming|alpha|1'] a.unit-link")
    await page.wait_for_url("**/runs/v1/units/**")
    assert await page.inner_text("#conv-title") == "refund_roaming · alpha · trial 1"
    assert "response 800 ms" in await page.inner_text("#transcript")
    await page.click("nav.top a:text-is('v1')")
    await page.wait_for_url("**/runs/v1")

    await page.click("nav.top a:text-is('supportsim view')")
    await page.check("input[name=run][value=v1]")
    await page.check("input[name=run][value=v2]")
    await page.click("#compare-btn")
    await page.wait_for_url("**/compare?run=v*")
    assert "A = v1 · B = v2" in await page.inner_text("h1")  # the earlier run is A
    await page.click("nav.back a")
    await page.check("input[name=run][value=v1]")
    await page.check("input[name=run][value=v2]")
    await page.click("#trend-btn")
    await page.wait_for_url("**/trend?run=v*")
    assert await page.locator("svg.chart").count() == 6


async def test_a_running_run_gains_units_while_open(viewer: Viewer) -> None:
    page = viewer.page
    live = viewer.runs / "live"
    await page.goto(viewer.url + "/runs/live")
    assert await page.inner_text("#units-count") == "1"
    assert "live: this page updates" in await page.inner_text("#progress")
    line = json.dumps(unit("s3", "a", 1, reply_ms=700)) + "\n"
    with (live / "conversations.jsonl").open("a", encoding="utf-8") as f:
        f.write(line[:50])  # the writer is mid-line
    await page.reload()  # the server reads the torn state: it must neither show nor choke
    assert await page.inner_text("#units-count") == "1"
    assert await page.locator("#problems").count() == 0  # a torn line is not damage
    with (live / "conversations.jsonl").open("a", encoding="utf-8") as f:
        f.write(line[50:])  # the line lands whole: the open page picks it up by itself
    await expect(page.locator("#units-count")).to_have_text("2", timeout=LIVE_MS)
    assert await _rows(page) == ["s1|a|1", "s3|a|1"]
    first = page.locator("#pass-k tbody tr td:first-child")
    await page.click("#pass-k th:text-is('c / n')")  # tables put in by the refresh sort
    assert await page.get_attribute("#pass-k th:text-is('c / n')", "data-dir") == "asc"
    assert await first.all_inner_texts() == ["s1", "s3"]  # 0/1 before 1/1
    await page.click("#pass-k th:text-is('c / n')")
    assert await first.all_inner_texts() == ["s3", "s1"]
    assert await page.inner_text("#matched") == "2"

    await page.goto(viewer.url + "/")
    progress = page.locator("tr.run[data-run='live'] td.progress").first
    assert (await progress.inner_text()).startswith("2 / 3")
    await page.check("input[name=run][value=v1]")
    append(live, unit("s2", "a", 1))
    await expect(page.locator("tr.run[data-run='live'] .units")).to_have_text("3", timeout=LIVE_MS)
    assert await page.is_checked("input[name=run][value=v1]")  # the tick survives a refresh


async def test_model_text_with_script_payloads_is_inert(viewer: Viewer) -> None:
    page = viewer.page
    await page.goto(viewer.url + "/runs/v1/units/refund_roaming%7Calpha%7C1")
    transcript = await page.inner_text("#transcript")
    assert "Sure <script>window.__pwned = 1</script>" in transcript
    assert '<img src=x onerror="window.__pwned = 2"> done' in transcript
    assert "I typed </script><script>window.__pwned = 3</script> & <b>bold</b>" in transcript
    assert '"order_id": "<b>A-1</b>"' in transcript
    assert "refund_order was never called [bold]<i>x</i>[/bold]" in await page.inner_text("#checks")
    assert await page.locator("main script, main img, main b, main i").count() == 0

    await page.goto(viewer.url + "/runs/live/units/s1%7Ca%7C1")
    assert PAYLOAD in await page.inner_text("#checks")
    assert PAYLOAD in await page.inner_text("#review")
    assert "hindered this conversation" in await page.inner_text("#review")
    assert await page.locator("main script, main img").count() == 0
    await page.click("#checks a:text-is('message 1')")  # a check's reason, linked
    await page.wait_for_url("**#m-1")
    await page.click("#review a:text-is('message 0')")  # a finding, linked
    await page.wait_for_url("**#m-0")
    assert await page.evaluate("typeof window.__pwned") == "undefined"

    await page.goto(viewer.url + "/runs/live?finding=invented_fact")
    assert await _rows(page) == ["s1|a|1"]
    assert await page.evaluate("typeof window.__pwned") == "undefined"
