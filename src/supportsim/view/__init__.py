"""``supportsim view``: a local web viewer over run directories, live while a run writes.

An index of runs (status, when, Agents, Customers, strict / partial / p50 / cost, live
progress), a run page (the HTML report's leaderboards and charts, pass^k per scenario, a
unit table filtered, sorted and paged on the server), a conversation page (transcript,
tool calls and results, checks linked to the messages they are about, per-message
latency, the customer's review), and the report's comparison and trend over the runs
ticked on the index. It reads run directories and never writes them or holds their lock;
it serves on loopback only, with no network asset (its CSS and JS come from the package).
The static ``report --html`` stays the way to share a run.
"""

from supportsim.view._command import view_command
from supportsim.view._reader import RunReader, RunsFolder, Snapshot, is_run_dir
from supportsim.view._server import build_app, check_host, start_viewer, url_of
from supportsim.view._units import UnitQuery, UnitRow, select_units, unit_row

__all__ = [
    "RunReader",
    "RunsFolder",
    "Snapshot",
    "UnitQuery",
    "UnitRow",
    "build_app",
    "check_host",
    "is_run_dir",
    "select_units",
    "start_viewer",
    "unit_row",
    "url_of",
    "view_command",
]
