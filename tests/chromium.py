"""Headless Chromium for the browser tests: Debian's (installed by .ci/browser-deps),
driven by Playwright; one browser per test module (launching it is the slow part)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from playwright.async_api import Browser, async_playwright
from playwright.async_api import Error as PlaywrightError

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@asynccontextmanager
async def chromium() -> AsyncIterator[Browser]:
    """A started browser, closed on exit; a browser that cannot start fails the test
    (never skips it) with how to install one."""
    async with async_playwright() as p:
        try:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        except PlaywrightError as exc:
            pytest.fail(f"cannot start {CHROMIUM} (install it with .ci/browser-deps): {exc}")
        try:
            yield browser
        finally:
            await browser.close()
