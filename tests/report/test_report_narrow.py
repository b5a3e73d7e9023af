"""The report at 900 px (half a laptop screen) in headless Chromium: no table is wider
than its section, so no column hides behind a scrollbar, and the page itself does not
scroll sideways (and at 1400 px neither)."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from playwright.async_api import Browser

from chromium import chromium
from supportsim.report import compare_runs, load_run, render_comparison, render_report
from supportsim.report import summarise_run as summary_of

pytestmark = pytest.mark.asyncio(loop_scope="module")

MEASURE = """() => {
  const page = [document.documentElement.scrollWidth, document.documentElement.clientWidth];
  const tables = [...document.querySelectorAll("table")].map((t) => {
    const box = t.parentElement.closest(".scroll, section");
    return {
      id: t.id || (t.closest("section") || {}).id || "",
      width: Math.ceil(t.getBoundingClientRect().width),
      room: Math.floor(box.getBoundingClientRect().width),
      scrolls: box.scrollWidth > box.clientWidth + 1,
    };
  });
  return {page, tables};
}"""


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser() -> AsyncIterator[Browser]:
    async with chromium() as b:
        yield b


async def _measure(browser: Browser, path: Path, width: int) -> dict[str, Any]:
    page = await browser.new_page(viewport={"width": width, "height": 900})
    try:
        await page.goto(path.as_uri())
        return await page.evaluate(MEASURE)
    finally:
        await page.close()


@pytest.mark.parametrize("width", [900, 1400])
async def test_report_tables_fit_at(browser: Browser, v1_copy: Path, width: int) -> None:
    run = load_run(v1_copy)
    path = v1_copy / "report.html"
    path.write_text(
        render_report(summary_of(run), run.records, run_id=run.run_id, in_progress=False),
        encoding="utf-8",
    )
    measured = await _measure(browser, path, width)
    scroll_width, client_width = measured["page"]
    assert scroll_width <= client_width, "the page scrolls sideways"
    ids = {t["id"] for t in measured["tables"]}
    assert {"leaderboard", "failing-checks", "status", "grid", "by-domain"} <= ids
    for table in measured["tables"]:
        assert not table["scrolls"] and table["width"] <= table["room"] + 1, table


async def test_comparison_tables_fit_at_900(
    browser: Browser, v1_dir: Path, v2_dir: Path, tmp_path: Path
) -> None:
    path = tmp_path / "compare.html"
    path.write_text(
        render_comparison(compare_runs(load_run(v1_dir), load_run(v2_dir))), encoding="utf-8"
    )
    measured = await _measure(browser, path, 900)
    assert measured["page"][0] <= measured["page"][1]
    for table in measured["tables"]:
        assert not table["scrolls"] and table["width"] <= table["room"] + 1, table


@pytest.mark.parametrize("width", [1300, 1350, 1400])
async def test_a_five_trial_leaderboard_fits_at(
    browser: Browser, v1_copy: Path, width: int
) -> None:
    """Issue 25: between the compact layout (up to 1,280 px) and a wide screen the
    leaderboard scrolled sideways; five trials (pass^1..5) and priced agents now fit."""
    run = dataclasses.replace(load_run(v1_copy), trials=5)
    path = v1_copy / "report.html"
    path.write_text(
        render_report(summary_of(run), run.records, run_id=run.run_id, in_progress=False),
        encoding="utf-8",
    )
    measured = await _measure(browser, path, width)
    board = next(t for t in measured["tables"] if t["id"] == "leaderboard")
    assert not board["scrolls"] and board["width"] <= board["room"] + 1, board
    assert measured["page"][0] <= measured["page"][1], "the page scrolls sideways"
