"""Load scenario and persona files, validate them, and check every cross-reference.

Every problem in every file is collected before anything is raised, so one
``supportsim validate scenarios/`` lists all of them. The domain catalogue is passed in
(``Catalogue``): this package sits above ``domains`` in the pipeline and never imports it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel, ValidationError

from supportsim._yaml import Document, PathKey, read_yaml
from supportsim.errors import Problem, ScenarioError
from supportsim.scenario._bundled import resolve_data_paths
from supportsim.scenario._matchers import Literal_, OneOf
from supportsim.scenario._models import MockParam, Scenario
from supportsim.scenario._persona import Persona
from supportsim.scenario._plan import PlanError, reference_plan
from supportsim.scenario._rules import rule_problems

M = TypeVar("M", bound=BaseModel)


class Catalogue(Protocol):
    """What the loader needs to know about domains to check references."""

    def domain_names(self) -> Collection[str]:
        """Names of the domains a scenario may use."""
        ...

    def tool_args(self, domain: str) -> Mapping[str, Collection[str]]:
        """Tool name -> argument names, for one domain."""
        ...

    def state_fields(self, domain: str) -> Collection[str]:
        """Top-level field names of the domain's state (``compare_state`` paths start there)."""
        ...

    def state_problems(self, domain: str, state: Mapping[str, Any]) -> list[tuple[PathKey, str]]:
        """Problems of a scenario's ``state`` merged over the domain fixture, by field."""
        ...

    def received_text(self, domain: str, tools: Collection[str]) -> str:
        """What an Agent with these tools can read (citations must be in it)."""
        ...

    def facts(self, domain: str) -> Mapping[str, Collection[str]]:
        """The domain's fact map (``observe`` steps name its facts)."""
        ...

    def concepts(self) -> Collection[str] | None:
        """Concept names of the shared lexicons (None: not checked at load)."""
        ...

    def categories(self) -> Collection[str]:
        """The categories a scenario's ``tags`` may name (the defaults and the workspace's)."""
        ...


def yaml_files(paths: Iterable[Path]) -> list[Path]:
    """Expand directories to their ``*.yaml``/``*.yml`` entries (recursively, sorted).

    Entries are listed, not opened: a named pipe or other non-regular file is kept so the
    reader refuses it by name (``read_yaml`` never blocks on one)."""
    out: list[Path] = []
    for path in paths:
        if path.is_dir():
            out += sorted(p for p in path.rglob("*") if p.suffix in {".yaml", ".yml"})
        else:
            out.append(path)
    return out


def _parse(model: type[M], path: Path, problems: list[Problem]) -> tuple[M, Document] | None:
    if not path.exists():
        problems.append(Problem(str(path), "", "no such file or directory"))
        return None
    doc, found = read_yaml(path)
    problems += found
    if doc is None:
        return None
    if not isinstance(doc.data, dict):
        problems.append(doc.problem((), "the file must hold a mapping of fields"))
        return None
    try:
        value = model.model_validate(doc.data)
    except ValidationError as exc:
        problems += doc.validation_problems(
            exc, unknown="unknown field (check the spelling; see scenarios/README.md)"
        )
        return None
    return (value, doc) if not found else None


def load_personas(paths: Sequence[Path]) -> dict[str, Persona]:
    """Load persona files (directories expand); raises ScenarioError listing every problem,
    a missing folder included (named, so a mistyped ``--personas`` is not mistaken for
    scenarios naming unknown personas)."""
    paths = resolve_data_paths(paths)  # no ./personas: the bundled ones
    problems: list[Problem] = []
    personas: dict[str, Persona] = {}
    where: dict[str, str] = {}
    for path in paths:
        if not path.exists():
            problems.append(
                Problem(str(path), "", "no such folder or file: personas are read from here")
            )
    for path in yaml_files(p for p in paths if p.exists()):
        parsed = _parse(Persona, path, problems)
        if parsed is None:
            continue
        persona, doc = parsed
        if persona.id in personas:
            problems.append(
                doc.problem(
                    ("id",), f"duplicate persona id {persona.id!r} (also in {where[persona.id]})"
                )
            )
            continue
        personas[persona.id], where[persona.id] = persona, doc.file
    if problems:
        raise ScenarioError(problems)
    return personas


def load_scenarios(
    paths: Sequence[Path], *, catalogue: Catalogue, personas: Mapping[str, Persona]
) -> list[Scenario]:
    """Load scenario files (directories expand) and check their references.

    Raises:
        ScenarioError: with one Problem per broken file and field, all files considered.
    """
    paths = resolve_data_paths(paths)  # no ./scenarios: the bundled ones
    problems: list[Problem] = []
    scenarios: list[Scenario] = []
    where: dict[str, str] = {}
    files = yaml_files(paths)
    if not files:
        problems.append(Problem(", ".join(map(str, paths)), "", "no scenario files found"))
    for path in files:
        if path.name.lower().startswith("readme") or path.name == "suites.yaml":
            continue  # documentation and the suites file live beside the scenarios
        parsed = _parse(Scenario, path, problems)
        if parsed is None:
            continue
        scenario, doc = parsed
        found = check_references(scenario, doc, catalogue, personas)
        if scenario.id in where:
            found.append(
                doc.problem(
                    ("id",), f"duplicate scenario id {scenario.id!r} (also in {where[scenario.id]})"
                )
            )
        problems += found
        if not found:
            scenario._source = doc.file
            scenario._sha256 = doc.sha256
            scenarios.append(scenario)
            where[scenario.id] = doc.file
    if problems:
        raise ScenarioError(problems)
    return scenarios


def check_references(
    scenario: Scenario, doc: Document, catalogue: Catalogue, personas: Mapping[str, Persona]
) -> list[Problem]:
    """Problems with what the scenario names: domain, persona, tools, arguments, step ids."""
    out: list[Problem] = []
    if scenario.persona not in personas:
        known = ", ".join(sorted(personas)) or "none loaded"
        out.append(
            doc.problem(("persona",), f"unknown persona {scenario.persona!r} (known: {known})")
        )
    allowed = catalogue.categories()
    for i, tag in enumerate(scenario.tags):
        if tag not in allowed:
            out.append(
                doc.problem(
                    ("tags", i),
                    f"unknown category {tag!r} (known: {', '.join(allowed)}; a workspace's "
                    "supportsim.yaml may declare more under categories)",
                )
            )
    if scenario.domain not in catalogue.domain_names():
        known = ", ".join(sorted(catalogue.domain_names()))
        out.append(doc.problem(("domain",), f"unknown domain {scenario.domain!r} (known: {known})"))
        return out
    tools: dict[str, Collection[str]] = dict(catalogue.tool_args(scenario.domain))
    for i, mock in enumerate(scenario.mock_tools):
        if mock.name in tools:
            out.append(doc.problem(("mock_tools", i, "name"), f"{mock.name!r} is already a tool"))
        tools[mock.name] = list(mock.parameters)
    for loc, message in mock_tool_problems(scenario, catalogue):
        out.append(doc.problem(loc, message))
    allowed = set(tools) if scenario.tools is None else set(scenario.tools)
    for i, name in enumerate(scenario.tools or []):
        if name not in tools:
            out.append(doc.problem(("tools", i), _unknown_tool(name, tools)))

    def call(loc: PathKey, tool: str, args: Iterable[str], *, must_be_allowed: bool) -> None:
        if tool not in tools:
            out.append(doc.problem((*loc, "tool"), _unknown_tool(tool, tools)))
            return
        if must_be_allowed and tool not in allowed:
            out.append(doc.problem((*loc, "tool"), f"{tool!r} is not in this scenario's tools"))
        for arg in args:
            if arg not in tools[tool]:
                known = ", ".join(sorted(tools[tool])) or "no arguments"
                out.append(
                    doc.problem((*loc, "args", arg), f"{tool} has no argument {arg!r} ({known})")
                )

    ids = [s.id for s in scenario.workflow]
    for i, step in enumerate(scenario.workflow):
        if step.tool is not None:
            call(("workflow", i), step.tool, step.args, must_be_allowed=True)
        for p, path in enumerate(step.any_of or []):
            for c, spec in enumerate(path):
                call(("workflow", i, "any_of", p, c), spec.tool, spec.args, must_be_allowed=True)
        for d, dep in enumerate(step.after or []):
            if dep not in ids:
                out.append(doc.problem(("workflow", i, "after", d), f"unknown step id {dep!r}"))
            elif ids.index(dep) >= i:
                out.append(
                    doc.problem(
                        ("workflow", i, "after", d), f"{dep!r} must be listed before {step.id!r}"
                    )
                )
    for i, rule in enumerate(scenario.forbidden):
        if rule.tool is not None:
            call(("forbidden", i), rule.tool, rule.args, must_be_allowed=False)
    for i, fault in enumerate(scenario.faults):
        if fault.tool not in tools:
            out.append(doc.problem(("faults", i, "tool"), _unknown_tool(fault.tool, tools)))
    for name in scenario.tool_latency_ms:
        if name not in tools:
            out.append(doc.problem(("tool_latency_ms", name), _unknown_tool(name, tools)))
    try:
        reference_plan(scenario)
    except PlanError as exc:
        out.append(doc.problem(exc.loc, str(exc)))
    if isinstance(scenario.compare_state, list):
        fields = catalogue.state_fields(scenario.domain)
        for i, dotted in enumerate(scenario.compare_state):
            if dotted.split(".")[0] not in fields:
                known = ", ".join(sorted(fields))
                out.append(
                    doc.problem(
                        ("compare_state", i),
                        f"no state field {dotted.split('.')[0]!r} (known: {known})",
                    )
                )
    for loc, message in catalogue.state_problems(scenario.domain, scenario.state):
        out.append(doc.problem(("state", *loc), message))
    for loc, message in rule_problems(scenario, catalogue, allowed):
        out.append(doc.problem(loc, message))
    return out


_PARAM_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
}


def _misfit(param: MockParam, value: object) -> str | None:
    """Why an argument can never equal ``value``, or None when it can."""
    if param.enum is not None and value not in param.enum:
        return f"{value!r} is not one of its enum values {param.enum}"
    types = _PARAM_TYPES[param.type]
    if isinstance(value, bool) != (param.type == "boolean") or not isinstance(value, types):
        return f"{value!r} is not of type {param.type}"
    return None


def mock_tool_problems(scenario: Scenario, catalogue: Catalogue) -> list[tuple[PathKey, str]]:
    """Responses of declarative mock tools that could silently never match or mislead.

    A ``when`` key that is no parameter, or a plain value (or ``one_of`` option) that no
    argument of the declared type can equal; a ``result`` outside ``returns``; a ``set``
    on a read tool, or one that leaves the state invalid for the domain.
    """
    if not scenario.mock_tools:
        return []
    import jsonschema  # only declarative mock tools need it

    out: list[tuple[PathKey, str]] = []
    base = catalogue.state_problems(scenario.domain, scenario.state)
    for i, mock in enumerate(scenario.mock_tools):
        checker = None
        if mock.returns is not None:
            try:
                jsonschema.Draft202012Validator.check_schema(mock.returns)
                checker = jsonschema.Draft202012Validator(mock.returns)
            except jsonschema.SchemaError as exc:
                out.append((("mock_tools", i, "returns"), f"not a JSON Schema: {exc.message}"))
        known = ", ".join(sorted(mock.parameters)) or "none"
        for j, response in enumerate(mock.responses):
            at: PathKey = ("mock_tools", i, "responses", j)
            for key, matcher in response.when.items():
                param = mock.parameters.get(key)
                if param is None:
                    message = f"{mock.name} has no parameter {key!r} (parameters: {known})"
                    out.append(((*at, "when", key), message))
                    continue
                rule = matcher.rule
                values = rule.one_of if isinstance(rule, OneOf) else []
                if isinstance(rule, Literal_):
                    values = [rule.value]
                misfits = [m for v in values if (m := _misfit(param, v)) is not None]
                if misfits and len(misfits) == len(values):
                    out.append(((*at, "when", key), f"can never match: {misfits[0]}"))
            if checker is not None and response.error is None:
                error = jsonschema.exceptions.best_match(checker.iter_errors(response.result))
                if error is not None:
                    where = "/".join(str(p) for p in error.absolute_path) or "the result"
                    out.append(((*at, "result"), f"does not fit returns: {where}: {error.message}"))
            if response.set and mock.kind == "read":
                out.append(((*at, "set"), "a read tool cannot change state (kind: write)"))
                continue
            for path, value in response.set.items():
                patched = _with_path(scenario.state, path, value)
                if patched is None:
                    new: list[tuple[PathKey, str]] = [
                        ((), "it goes through a value that is not a mapping")
                    ]
                else:
                    found = catalogue.state_problems(scenario.domain, patched)
                    new = [p for p in found if p not in base]
                for _, message in new[:1]:
                    out.append(((*at, "set", path), f"cannot set {path}: {message}"))
    return out


def _with_path(state: Mapping[str, Any], dotted: str, value: Any) -> dict[str, Any] | None:
    """A copy of the scenario's state with ``value`` at ``dotted`` (None: cannot go there)."""
    import copy

    data = copy.deepcopy(dict(state))
    *parents, last = dotted.split(".")
    node: Any = data
    for part in parents:
        node = node.setdefault(part, {})
        if not isinstance(node, dict):
            return None
    node[last] = value
    return data


def _unknown_tool(name: str, tools: Mapping[str, object]) -> str:
    return f"unknown tool {name!r} (known: {', '.join(sorted(tools))})"
