"""LLM-assisted scenario authoring: draft, validate, oracle-check, write for review.

The tau2 importer lives in ``importers/tau2.py``; its names are re-exported here for the
callers that import them from ``supportsim.authoring``.
"""

from supportsim.authoring._generate import (
    Drafts,
    Rejected,
    check_draft,
    generate,
    submitted_yaml,
    write_drafts,
)
from supportsim.authoring._prompt import SUBMIT, drafting_prompt
from supportsim.importers.tau2 import Imported, Tau2ImportError, import_tau2, scenario_data

__all__ = [
    "SUBMIT",
    "Drafts",
    "Imported",
    "Rejected",
    "Tau2ImportError",
    "check_draft",
    "drafting_prompt",
    "generate",
    "import_tau2",
    "scenario_data",
    "submitted_yaml",
    "write_drafts",
]
