"""The HTML report in a real browser: headless Chromium (Debian's, installed by
.ci/browser-deps) driven by Playwright. Tables and charts are there, sorting and the
conversation drill-down work, and a ``<script>`` payload in a model message does not run.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from playwright.async_api import Browser, Page, Route

from chromium import chromium
from supportsim.report import compare_runs, load_run, render_comparison, render_report
from supportsim.report import summarise_run as summary_of

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser() -> AsyncIterator[Browser]:
    """One Chromium for the module (launching it is the slow part)."""
    async with chromium() as b:
        yield b


async def _open(browser: Browser, path: Path) -> tuple[Page, list[str], list[str]]:
    """Open a file with every non-file request refused; collect them and page errors."""
    page = await browser.new_page(viewport={"width": 1400, "height": 900})
    requests: list[str] = []
    errors: list[str] = []

    async def refuse(route: Route) -> None:
        if route.request.url.startswith("file://"):
            await route.continue_()
        else:
            requests.append(route.request.url)
            await route.abort()

    await page.route("**/*", refuse)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    await page.goto(path.as_uri())
    return page, requests, errors


async def _agents(page: Page) -> list[str]:
    return [
        (await cell.inner_text()).strip()
        for cell in await page.query_selector_all("#leaderboard tbody tr td:first-child")
    ]


async def test_report_in_a_browser(browser: Browser, v1_copy: Path) -> None:
    run = load_run(v1_copy)
    path = v1_copy / "report.html"
    path.write_text(
        render_report(summary_of(run), run.records, run_id=run.run_id, in_progress=False),
        encoding="utf-8",
    )
    page, requests, errors = await _open(browser, path)

    assert await _agents(page) == ["beta", "alpha"]  # best strict rate first
    await page.click("#leaderboard th:has-text('partial')")  # ascending
    assert await _agents(page) == ["beta", "alpha"]
    await page.click("#leaderboard th:has-text('partial')")  # descending
    assert await _agents(page) == ["alpha", "beta"]

    for chart in ("strict-partial", "speed", "cost", "latency", "heatmap"):
        assert await page.is_visible(f"#chart-{chart} svg"), chart
    assert await page.locator("#chart-speed circle.dot").count() == 2
    assert await page.locator("#chart-cost circle.dot").count() == 1  # beta is unpriced
    assert await page.locator("#chart-heatmap rect.heat").count() == 4
    assert await page.locator("#grid button.trial").count() == 12

    await page.click('button[data-unit="refund_roaming|alpha|1"]')
    dialog = page.locator("dialog#conversation")
    assert await dialog.is_visible()
    assert await page.inner_text("#conv-title") == "refund_roaming · alpha · trial 1"
    body = await page.inner_text("#conv-body")
    assert "Sure <script>window.__pwned = 1</script>" in body
    assert '<img src=x onerror="window.__pwned = 2"> done' in body
    assert "I typed </script><script>window.__pwned = 3</script> & <b>bold</b>" in body
    assert '"order_id": "<b>A-1</b>"' in body  # tool arguments, pretty-printed
    assert "injected fault: timeout" in body
    assert "refund_order was never called [bold]<i>x</i>[/bold]" in body
    assert "response 800 ms" in body
    assert await page.locator("#conv-body script, #conv-body img, #conv-body b").count() == 0
    assert await page.evaluate("typeof window.__pwned") == "undefined"

    await page.click("#conv-close")
    assert not await dialog.is_visible()
    await page.click('button[data-unit="refund_roaming|beta|1"]')  # a harness error
    assert "RuntimeError: adapter crashed" in await page.inner_text("#conv-body")
    await page.keyboard.press("Escape")  # the native dialog closes on Escape
    assert not await dialog.is_visible()

    await page.fill("#grid-filter", "plan")
    assert await page.locator("#grid tbody tr:visible").count() == 1
    assert requests == []
    assert errors == []


async def test_comparison_in_a_browser(
    browser: Browser, v1_dir: Path, v2_dir: Path, tmp_path: Path
) -> None:
    path = tmp_path / "compare.html"
    comparison = compare_runs(load_run(v1_dir), load_run(v2_dir))
    path.write_text(render_comparison(comparison), encoding="utf-8")
    page, requests, errors = await _open(browser, path)
    assert "about 520 more scenarios would detect 5 points" in await page.inner_text("#verdicts")
    assert await page.locator("#comparison tbody tr").count() == 1
    assert await page.locator(".agent-compare svg").count() == 2
    assert requests == []
    assert errors == []
