"""The application: one run end to end, for the command line and for Python.

``run`` (``supportsim.run``) and ``run_command`` (``supportsim run``) are the same three
steps (``app._run``): ``batch.prepare_run`` checks every input, ``execute_prepared`` runs
the conversations, ``finish_run`` writes ``summary.json`` (``report.summarise``) and
returns the typed ``RunResult``. ``batch`` runs units and prints nothing; the live view
(``Progress``) and every line of ``supportsim run`` are drawn here.
"""

from supportsim.app._command import run_command
from supportsim.app._customer_check import check_customer
from supportsim.app._progress import Progress
from supportsim.app._run import (
    AgentResult,
    RunHooks,
    RunResult,
    execute_prepared,
    finish_run,
    run,
    write_summary,
)

__all__ = [
    "AgentResult",
    "Progress",
    "RunHooks",
    "RunResult",
    "check_customer",
    "execute_prepared",
    "finish_run",
    "run",
    "run_command",
    "write_summary",
]
