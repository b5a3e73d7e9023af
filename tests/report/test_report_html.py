"""The HTML files are self-contained and every piece of model or scenario text is escaped."""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

from report_helpers import make_record

from supportsim.report import compare_runs, load_run, render_comparison, render_report, summarise
from supportsim.report import summarise_run as summary_of

PAYLOAD = "<script>window.__pwned = 1</script>"


def _report(run_dir: Path) -> str:
    run = load_run(run_dir)
    return render_report(summary_of(run), run.records, run_id=run.run_id, in_progress=False)


def _scripts(html: str) -> list[str]:
    return re.findall(r"<script[^>]*>(.*?)</script>", html, flags=re.S)


def test_no_network_needed(v1_dir: Path, v2_dir: Path) -> None:
    pages = [_report(v1_dir), render_comparison(compare_runs(load_run(v1_dir), load_run(v2_dir)))]
    for html in pages:
        assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)
        assert "@import" not in html
        assert "url(" not in html


def test_model_text_never_reaches_the_page_as_markup(v1_dir: Path) -> None:
    html = _report(v1_dir)
    assert PAYLOAD not in html
    assert "<img src=x" not in html
    assert "</script><script>window.__pwned = 3" not in html
    # two script elements: the JSON data block and the report's own script
    assert html.count("<script") == 2
    data = _scripts(html)[0]
    assert "\\u003cscript\\u003ewindow.__pwned = 1\\u003c/script\\u003e" in data
    assert "<" not in data and ">" not in data
    # autoescaped where scenario text is shown directly (the failing-checks table)
    assert "refund_order was never called [bold]&lt;i&gt;x&lt;/i&gt;[/bold]" in html


def test_only_the_reports_own_script_may_run(v1_dir: Path) -> None:
    html = _report(v1_dir)
    script = _scripts(html)[1]
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', html)
    assert csp is not None
    assert f"script-src &#39;sha256-{digest}&#39;" in csp[1]
    assert "unsafe-inline" not in csp[1].split("script-src")[1]


def test_agent_and_category_names_are_escaped_in_tables_and_charts() -> None:
    agent, category = '<img src=x onerror="alert(1)">', "<b>billing</b>"
    records = [make_record("s1", agent, 1, category=category)]
    html = render_report(summarise(records), records, run_id="<i>r</i>", in_progress=True)
    assert agent not in html and category not in html and "<i>r</i>" not in html
    assert "&lt;img src=x onerror=&#34;alert(1)&#34;&gt;" in html
    assert "&lt;b&gt;billing&lt;/b&gt;" in html
    assert "partial results: the run has not finished" in html
