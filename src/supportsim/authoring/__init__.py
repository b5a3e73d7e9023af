"""LLM-assisted scenario authoring: draft, validate, oracle-check, write for review."""

from supportsim.authoring._generate import (
    Drafts,
    Rejected,
    check_draft,
    generate,
    submitted_yaml,
    write_drafts,
)
from supportsim.authoring._prompt import SUBMIT, drafting_prompt
from supportsim.authoring._tau2_import import Imported, Tau2ImportError, import_tau2, scenario_data

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
