"""Scenario and Persona files: schema, YAML loading with line numbers, reference checks.

First box of the pipeline; imports nothing else of supportsim but ``errors``.
"""

from supportsim.scenario._bundled import (
    bundled_root,
    init_workspace,
    resolve_data_path,
    resolve_data_paths,
)
from supportsim.scenario._coverage import Coverage, coverage
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
    TEMPLATES,
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
    Scenario,
    Step,
    Template,
)
from supportsim.scenario._persona import Persona
from supportsim.scenario._plan import (
    PlanError,
    PlanItem,
    PlannedCall,
    PlannedSay,
    concrete,
    reference_plan,
    say_text,
)
from supportsim.scenario._rules import plain, uncited
from supportsim.scenario._say import ACTIONS, PROMISES, Action, PromiseKind, SayItem, SayKind
from supportsim.scenario._suites import (
    SUITES_FILE,
    Suite,
    find_suites_file,
    load_suites,
    select_suite,
)
from supportsim.scenario._tau2 import (
    REWARD_COMPONENTS,
    RewardComponent,
    Tau2Action,
    Tau2IgnoredAction,
    Tau2Instructions,
    Tau2Source,
    Tau2Task,
)

__all__ = [
    "ACTIONS",
    "CATEGORIES",
    "PROMISES",
    "REWARD_COMPONENTS",
    "SUITES_FILE",
    "TEMPLATES",
    "Action",
    "CallSpec",
    "Catalogue",
    "Category",
    "Coverage",
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
    "PlanError",
    "PlanItem",
    "PlannedCall",
    "PlannedSay",
    "PromiseKind",
    "RewardComponent",
    "SayItem",
    "SayKind",
    "Scenario",
    "Step",
    "Suite",
    "Tau2Action",
    "Tau2IgnoredAction",
    "Tau2Instructions",
    "Tau2Source",
    "Tau2Task",
    "Template",
    "bundled_root",
    "check_references",
    "concrete",
    "coverage",
    "find_suites_file",
    "init_workspace",
    "load_personas",
    "load_scenarios",
    "load_suites",
    "plain",
    "reference_plan",
    "resolve_data_path",
    "resolve_data_paths",
    "say_text",
    "select_suite",
    "uncited",
    "yaml_files",
]
