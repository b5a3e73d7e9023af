"""Domains written as data: a folder with ``domain.yaml``, a policy, a fixture and a tools module.

tau2-bench's shape, with our checks: the policy is Markdown, the knowledge base is one
Markdown file per article, the fixture is JSON or YAML, the state model comes from a JSON
Schema (or a Python class), and only the tools are code. ``domain.yaml``::

    name: banking
    policy: policy.md                 # what the Agent is told
    knowledge: knowledge/             # optional: KB-1.md ... (front matter: title, tags)
    fixture: fixture.json             # the base state (JSON or YAML)
    state: state.schema.json          # or python:package.module:StateClass
    tools: tools.py                   # or python:package.module (its Tool objects, in order)
    gates: {verify_identity: customer_id}
    facts: {balance: [get_account]}
    owned:                            # whose records are private (other_customer_data)
      - {collection: customers, owner: id, fields: [name, phone]}
    public: [products]
    actions: {refund_charge: [refunded]}  # what each write performs (false_claim)
    template_cites: {identity_detail: "never confirm which detail was wrong"}
    ignore_in_state: ["session.*"]

Every problem is an error naming ``domain.yaml`` (or the file it points at) and the field.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import orjson
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from supportsim._imports import import_target
from supportsim._yaml import parse_yaml, read_model, read_yaml
from supportsim.domains._base import Article, Domain, DomainState, Tool
from supportsim.domains._common import Owned, common_tools, private_values_of
from supportsim.domains._schema_state import SchemaStateError, state_model_from_schema
from supportsim.errors import Problem, ScenarioError
from supportsim.scenario import Action

DOMAIN_FILE = "domain.yaml"


class OwnedSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    collection: str
    owner: str
    """The record field holding the owning customer's id."""
    fields: list[str]
    """Dotted globs over the record: the owner's private values."""


class DomainFile(BaseModel):
    """``domain.yaml``: what a data-form domain is made of (paths relative to its folder)."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    description: str = ""
    policy: str = "policy.md"
    knowledge: str | None = None
    fixture: str = "fixture.json"
    state: str = "state.schema.json"
    tools: str = "tools.py"
    common_tools: bool = True
    """Add transfer_to_human and search_knowledge_base (over ``knowledge``)."""
    gates: dict[str, str] = {}
    facts: dict[str, list[str]] = {}
    owned: list[OwnedSpec] = []
    public: list[str] | None = None
    actions: dict[str, list[Action]] = {}
    """The action map: a write tool -> the completed actions a successful call performs
    (refunded, credited, waived, cancelled, booked, rescheduled, changed, escalated,
    flagged, sent). ``forbidden:false_claim`` fails a message that claims an action no
    earlier successful call performed; transfer_to_human escalates without being listed."""
    template_cites: dict[str, str] = {}
    ignore_in_state: list[str] = ["session.*"]


def is_domain_folder(path: Path) -> bool:
    return (path / DOMAIN_FILE).is_file()


def load_domain_folder(folder: Path) -> Domain:
    """The Domain a folder describes, fully checked.

    Raises:
        ScenarioError: every problem, naming the file and the field.
    """
    source = folder / DOMAIN_FILE
    spec = read_model(source, DomainFile)
    loader = _Loader(folder, spec, str(source))
    domain = loader.build()
    if domain is None or loader.problems:
        raise ScenarioError(loader.problems)
    return domain


class _Loader:
    def __init__(self, folder: Path, spec: DomainFile, source: str) -> None:
        self.folder = folder
        self.spec = spec
        self.source = source
        self.problems: list[Problem] = []

    def fail(self, field: str, message: str, file: str | None = None) -> None:
        self.problems.append(Problem(file or self.source, field, message))

    def build(self) -> Domain | None:
        spec = self.spec
        policy = self.text("policy")
        articles = self.knowledge()
        state_model = self.state_model()
        own = self.tools(state_model)
        fixture_data = self.fixture()
        tools = {**own, **(common_tools(articles) if spec.common_tools else {})}
        if not spec.common_tools and articles:
            self.fail("knowledge", "a knowledge base needs common_tools: true (its search tool)")
        for gate in spec.gates:
            if gate not in tools:
                self.fail(f"gates.{gate}", f"no tool {gate!r} in this domain")
        for name in spec.actions:
            if name not in tools:
                self.fail(f"actions.{name}", f"no tool {name!r} in this domain")
            elif tools[name].kind != "write":
                self.fail(f"actions.{name}", "a read tool changes nothing: it performs no action")
        for fact, names in spec.facts.items():
            for name in names:
                if name not in tools:
                    self.fail(f"facts.{fact}", f"no tool {name!r} in this domain")
        if state_model is not None:
            fields = state_model.model_fields
            for i, entry in enumerate(spec.owned):
                if entry.collection not in fields:
                    known = ", ".join(f for f in fields if f not in ("session", "extra"))
                    self.fail(
                        f"owned.{i}.collection",
                        f"no state field {entry.collection!r} (fields: {known}); a typo here "
                        "would silently switch off the other_customer_data check",
                    )
            for i, name in enumerate(spec.public or []):
                if name not in fields:
                    self.fail(f"public.{i}", f"no state field {name!r}")
        if fixture_data is not None and state_model is not None:
            try:
                state_model.model_validate(fixture_data)
            except ValidationError as exc:
                first = exc.errors(include_url=False)[0]
                where = ".".join(str(p) for p in first["loc"])
                self.fail(
                    where, f"does not fit the state model: {first['msg']}", self.path_of("fixture")
                )
        if self.problems or state_model is None or fixture_data is None:
            return None
        frozen = orjson.dumps(fixture_data)
        owned = [Owned(o.collection, o.owner, tuple(o.fields)) for o in spec.owned]
        return Domain(
            name=spec.name,
            state_model=state_model,
            fixture=lambda: orjson.loads(frozen),
            tools=tools,
            policy=policy,
            knowledge=articles,
            ignore_in_state=tuple(spec.ignore_in_state),
            gates=spec.gates,
            facts={k: tuple(v) for k, v in spec.facts.items()},
            private_values=private_values_of(*owned, public=spec.public) if owned else None,
            actions={name: tuple(acts) for name, acts in spec.actions.items()},
            template_cites=spec.template_cites,
        )

    def path_of(self, field: str) -> str:
        return str(self.folder / getattr(self.spec, field))

    def text(self, field: str) -> str:
        path = self.folder / getattr(self.spec, field)
        try:
            return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            self.fail(field, f"cannot read {path}: {exc}")
            return ""

    def knowledge(self) -> tuple[Article, ...]:
        if self.spec.knowledge is None:
            return ()
        folder = self.folder / self.spec.knowledge
        if not folder.is_dir():
            self.fail("knowledge", f"{folder} is not a folder of Markdown articles")
            return ()
        return tuple(
            article
            for path in sorted(folder.glob("*.md"))
            if (article := self.article(path)) is not None
        )

    def article(self, path: Path) -> Article | None:
        """``KB-1.md``: YAML front matter (title, tags) between ``---`` lines, then the text."""
        raw = path.read_text(encoding="utf-8")
        head, sep, body = raw.removeprefix("---\n").partition("\n---\n")
        if not raw.startswith("---\n") or not sep:
            self.fail(
                "knowledge", "an article starts with front matter (---, title:, ---)", str(path)
            )
            return None
        meta, problems = parse_yaml(head, str(path))
        data = meta.data if meta is not None else None
        if problems or not isinstance(data, dict) or not isinstance(data.get("title"), str):
            self.fail("title", "front matter needs a title", str(path))
            return None
        tags = data.get("tags", [])
        return Article(path.stem, data["title"], body.strip("\n"), tuple(map(str, tags)))

    def fixture(self) -> dict[str, Any] | None:
        path = self.folder / self.spec.fixture
        if path.suffix in (".yaml", ".yml"):
            doc, problems = read_yaml(path)
            self.problems += problems
            data = doc.data if doc is not None else None
        else:
            try:
                data = orjson.loads(path.read_bytes())
            except (OSError, orjson.JSONDecodeError) as exc:
                self.fail("fixture", f"cannot read {path} as JSON: {exc}")
                return None
        if not isinstance(data, dict):
            self.fail("fixture", f"{path} must hold a mapping (the base state)")
            return None
        return data

    def state_model(self) -> type[DomainState] | None:
        target = self.spec.state
        if target.startswith("python:"):
            value = self.attr(target.removeprefix("python:"), "state")
            if not (isinstance(value, type) and issubclass(value, DomainState)):
                self.fail("state", f"{target} is not a DomainState subclass")
                return None
            return value
        import jsonschema  # only a folder with a JSON Schema state needs it

        path = self.folder / target
        try:
            schema = orjson.loads(path.read_bytes())
        except (OSError, orjson.JSONDecodeError) as exc:
            self.fail("state", f"cannot read {path} as JSON Schema: {exc}")
            return None
        try:
            jsonschema.validators.validator_for(schema).check_schema(schema)
        except jsonschema.SchemaError as exc:  # not a JSON Schema at all: say where
            where = ".".join(str(p) for p in exc.path) or "(root)"
            self.fail(where, f"not a valid JSON Schema: {exc.message}", str(path))
            return None
        except (AttributeError, TypeError):  # not even a mapping
            self.fail("(root)", "a state schema is a JSON object", str(path))
            return None
        try:
            return state_model_from_schema(schema, self.spec.name)
        except SchemaStateError as exc:
            self.fail(exc.path, exc.message, str(path))
            return None

    def tools(self, state_model: type[DomainState] | None) -> dict[str, Tool]:
        module = self.module(self.spec.tools)
        if module is None:
            return {}
        listed = getattr(module, "TOOLS", None)
        found = (
            list(listed)
            if listed is not None
            else [v for v in vars(module).values() if isinstance(v, Tool)]
        )
        if not found:
            self.fail("tools", f"{self.spec.tools} defines no @tool function")
        tools: dict[str, Tool] = {}
        for t in found:
            if t.name in tools:
                self.fail("tools", f"two tools are named {t.name!r}")
            tools[t.name] = t
        return tools

    def module(self, target: str) -> ModuleType | None:
        if target.startswith("python:"):
            name = target.removeprefix("python:")
            try:
                return importlib.import_module(name)
            except ImportError as exc:
                self.fail("tools", f"cannot import {name}: {exc}")
                return None
        path = (self.folder / target).resolve()
        if not path.is_file():
            self.fail("tools", f"{path} does not exist")
            return None
        digest = hashlib.sha256(str(path).encode()).hexdigest()[:12]
        name = f"supportsim_domain_{self.spec.name}_{digest}"
        if name in sys.modules:
            return sys.modules[name]
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # pydantic resolves the module's annotations through it
        try:
            spec.loader.exec_module(module)
        except Exception as exc:
            del sys.modules[name]
            self.fail("tools", f"{path} failed to load: {type(exc).__name__}: {exc}")
            return None
        return module

    def attr(self, target: str, field: str) -> Any:
        try:
            return import_target(target)
        except ValueError as exc:
            self.fail(field, f"cannot load {exc}")
            return None
