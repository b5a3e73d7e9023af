"""The HTML report's measurement line: shown when the run has an inflation estimate, and
escaped like every other field."""

from __future__ import annotations

from report_helpers import make_record

from supportsim.report import render_report, summarise
from supportsim.store import Measurement

PAYLOAD = "<script>window.__pwned = 1</script>"


def _page(measurement: Measurement | None) -> str:
    records = [make_record("s1", "a", 1)]
    summary = summarise(records)
    summary.measurement = measurement
    return render_report(summary, records, run_id="r", in_progress=False)


def _measured(**update: object) -> Measurement:
    return Measurement.model_validate(
        {
            "calls": 10,
            "wire_calls": 10,
            "client_ms": {"p50": 1.5, "p99": 4.0},
            "loop_lag_ms": {"p50": 2.0, "p99": 40.0},
            "inflation_ms": {"p50": 2.0, "p99": 40.0},
            **update,
        }
    )


def test_the_estimate_is_shown_with_the_lag_and_client_time() -> None:
    html = _page(_measured())
    assert "recorded LLM latency inflated by about p50 2 ms, p99 40 ms" in html
    assert "client time per call p50 1.5 ms" in html
    assert "10 of 10 calls timed at the wire" in html


def test_no_estimate_no_line() -> None:
    assert "timed at the wire" not in _page(_measured(inflation_ms=None))
    assert "timed at the wire" not in _page(None)


def test_the_line_is_escaped() -> None:
    # a typed Summary holds no text here; unvalidated, the page still escapes what it gets
    html = _page(_measured().model_copy(update={"calls": PAYLOAD}))
    assert PAYLOAD not in html
    assert "&lt;script&gt;window.__pwned = 1&lt;/script&gt; calls timed at the wire" in html
