"""Rescore: score a stored run again with no model call (``supportsim rescore``).

A use case of its own above ``store``: it reads a run directory, rebuilds each unit's
transcript and final state, scores it with the current scenarios and scorer
(``scoring``), reuses or asks the statement judge, and writes ``rescored.jsonl`` through
the store's writer. The file's model and how reports apply it are the store's
(``store.RescoredRecord``, ``store.apply_rescored``).
"""

from supportsim.rescore._command import default_scenario_paths, render_rescore, rescore_command
from supportsim.rescore._run import (
    Change,
    Flip,
    NotRescorable,
    RescoreResult,
    rescore_run,
)
from supportsim.rescore._transcript import transcript_from_record

__all__ = [
    "Change",
    "Flip",
    "NotRescorable",
    "RescoreResult",
    "default_scenario_paths",
    "render_rescore",
    "rescore_command",
    "rescore_run",
    "transcript_from_record",
]
