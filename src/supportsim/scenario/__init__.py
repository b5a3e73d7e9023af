"""Scenario and Persona files: schema, YAML loading with line numbers, reference checks.

First box of the pipeline; imports nothing else of supportsim but ``errors``.
"""

from supportsim.scenario._load import (
    Catalogue,
    check_references,
    load_personas,
    load_scenarios,
    yaml_files,
)
from supportsim.scenario._matchers import Matcher
from supportsim.scenario._models import (
    CATEGORIES,
    CallSpec,
    Category,
    CustomerGoal,
    Fault,
    FaultKind,
    Forbidden,
    MockParam,
    MockResponse,
    MockTool,
    Outcome,
    Persona,
    Scenario,
    Step,
)

__all__ = [
    "CATEGORIES",
    "CallSpec",
    "Catalogue",
    "Category",
    "CustomerGoal",
    "Fault",
    "FaultKind",
    "Forbidden",
    "Matcher",
    "MockParam",
    "MockResponse",
    "MockTool",
    "Outcome",
    "Persona",
    "Scenario",
    "Step",
    "check_references",
    "load_personas",
    "load_scenarios",
    "yaml_files",
]
