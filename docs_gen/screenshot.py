"""Render a run's HTML report to a PNG for the README (docs/assets/demo-report.png).

    supportsim run --config runs/demo.yaml --run-id demo-picture
    supportsim report runs/demo-picture --html
    python docs_gen/screenshot.py runs/demo-picture/report.html docs/assets/demo-report.png

Headless Chromium (Debian's, /usr/bin/chromium; ``bash .ci/browser-deps`` installs it)
driven by Playwright. The page runs only its own inline script, so nothing is fetched.
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

SHOWN = ("failing-checks",)
"""Sections kept beside the header and the leaderboard: what a first report is read for."""


def screenshot(report: Path, png: Path, *, width: int = 1280, height: int = 1100) -> None:
    """``report``'s header, leaderboard and failing checks (the other sections hidden for
    the picture; nothing else is changed) as ``png``."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium")
        page = browser.new_page(viewport={"width": width, "height": height})
        page.goto(report.resolve().as_uri())
        page.evaluate(
            """shown => document.querySelectorAll("section[id]").forEach(s => {
                if (!shown.includes(s.id)) s.style.display = "none"; })""",
            list(SHOWN),
        )
        page.screenshot(path=str(png))
        browser.close()


if __name__ == "__main__":
    screenshot(Path(sys.argv[1]), Path(sys.argv[2]))
