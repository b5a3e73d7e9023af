"""Reports: aggregates over a run directory, rendered for the terminal, JSON, HTML, JUnit
XML and Markdown, the paired comparison of two runs, the CI gates on both, and the trend
over many.

Numbers are computed once (``summarise`` for a run, ``compare_runs`` for two); the
terminal and HTML views only render them.
"""

from supportsim.report._aggregate import agent_summary, summarise
from supportsim.report._commands import compare_command, report_command, summarise_run
from supportsim.report._compare import compare_pair, compare_runs
from supportsim.report._customer_check import (
    CustomerCheck,
    CustomerRate,
    customer_check,
    with_pushback,
)
from supportsim.report._customer_check_json import CustomerCheckJson, customer_check_json
from supportsim.report._customer_terminal import customer_check_tables, customer_check_verdict
from supportsim.report._gates import REGRESSION_METRICS, parse_regression_metrics, regressions
from supportsim.report._html import (
    html_environment,
    render_comparison,
    render_report,
    render_summary_sections,
    report_css,
)
from supportsim.report._junit import render_junit
from supportsim.report._load import NotARunError, RunData, assemble_run, load_run, read_manifest
from supportsim.report._markdown import render_markdown
from supportsim.report._pairs import pair_up
from supportsim.report._setup import under_customer
from supportsim.report._stats import (
    cluster_bootstrap,
    mcnemar_exact,
    pairs_needed,
    pairs_needed_mean,
    sign_flip_p,
)
from supportsim.report._terminal import render_leaderboard, render_summary
from supportsim.report._trend import order_runs, started_at, trend
from supportsim.report._trend_command import expand_runs, trend_command
from supportsim.report._trend_html import render_trend_html
from supportsim.report._trend_terminal import render_trend

__all__ = [
    "REGRESSION_METRICS",
    "CustomerCheck",
    "CustomerCheckJson",
    "CustomerRate",
    "NotARunError",
    "RunData",
    "agent_summary",
    "assemble_run",
    "cluster_bootstrap",
    "compare_command",
    "compare_pair",
    "compare_runs",
    "customer_check",
    "customer_check_json",
    "customer_check_tables",
    "customer_check_verdict",
    "expand_runs",
    "html_environment",
    "load_run",
    "mcnemar_exact",
    "order_runs",
    "pair_up",
    "pairs_needed",
    "pairs_needed_mean",
    "parse_regression_metrics",
    "read_manifest",
    "regressions",
    "render_comparison",
    "render_junit",
    "render_leaderboard",
    "render_markdown",
    "render_report",
    "render_summary",
    "render_summary_sections",
    "render_trend",
    "render_trend_html",
    "report_command",
    "report_css",
    "sign_flip_p",
    "started_at",
    "summarise",
    "summarise_run",
    "trend",
    "trend_command",
    "under_customer",
    "with_pushback",
]
