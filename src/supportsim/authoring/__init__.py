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

__all__ = [
    "SUBMIT",
    "Drafts",
    "Rejected",
    "check_draft",
    "drafting_prompt",
    "generate",
    "submitted_yaml",
    "write_drafts",
]
