"""The ``supportsim`` command line: parse, build a config value, run one coroutine, exit.

Exit codes: 0 success; 1 the work ran but something failed (an oracle run, a unit) or a
gate was missed (``--fail-under``, ``--fail-on-regression``); 2 bad input (files, flags,
environment), with every problem named by file and field (table: docs/reference/exit-codes.md).

One module per command or close family (``_run``, ``_report``, ``_validate``, ``_judge``,
``_author``, ``_serve``, ``_export``, ``_view``), each registering its commands on the
shared ``app`` of ``_app`` when imported here; ``--help`` lists them in ``COMMAND_ORDER``,
not in the order of these imports. Command modules import ``_app`` and ``_options``, never
each other.
"""

from __future__ import annotations

import sys

# imported to register their commands on ``app``
from supportsim.cli import _author, _export, _judge, _report, _serve, _validate, _view  # noqa: F401
from supportsim.cli._app import COMMAND_ORDER, app
from supportsim.cli._options import load_inputs
from supportsim.cli._run import bare_ray

__all__ = ["COMMAND_ORDER", "app", "bare_ray", "load_inputs", "main"]


def main() -> None:
    """Console-script entry point."""
    sys.exit(app(args=bare_ray(sys.argv[1:])))
