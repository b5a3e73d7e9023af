"""The reference pages, generated from the code so they are never written twice.

- ``cli_page``: every command of the typer app (``supportsim.cli.app``), its help, usage,
  arguments and options, hidden ones left out;
- ``run_config_page`` and ``models_file_page``: the fields of ``RunConfig`` and of a
  models-file entry (``ModelConfig``) from their pydantic JSON Schemas, descriptions from
  the attribute docstrings (or the class's ``Attributes:`` section);
- ``scenario_page``: the scenario file's fields (``Scenario``'s JSON Schema), then the
  annotated example and notes of ``scenarios/README.md``, included as they are;
- ``run_files_page``: every file of a run directory (``supportsim.store``'s models);
- ``api_page``: mkdocstrings directives for every name ``import supportsim`` exports.

Each function returns Markdown; ``gen_pages.py`` writes them at build time and
``tests/docs/test_reference_pages.py`` checks they cover every command and field.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import docstring_parser
import typer
from pydantic import BaseModel

ROOT = Path(__file__).resolve().parents[1]
GENERATED = "<!-- Generated at build time by docs_gen/reference.py: edit the code, not this. -->"


def _cell(text: object) -> str:
    """One Markdown table cell: one line, pipes escaped."""
    return " ".join(str(text).split()).replace("|", "\\|")


# -- the CLI -----------------------------------------------------------------------------


def cli_commands() -> list[tuple[str, Any]]:
    """``(path, click command)`` of every visible command, in ``--help`` order, groups'
    subcommands after their group (``new domain``, ``import tau2``)."""
    from supportsim.cli import app

    root = typer.main.get_command(app)
    found: list[tuple[str, Any]] = []

    def walk(group: Any, prefix: str) -> None:
        ctx = typer.Context(group)
        for name in group.list_commands(ctx):
            command = group.get_command(ctx, name)
            if command is None or command.hidden:
                continue
            path = f"{prefix} {name}".strip()
            found.append((path, command))
            if hasattr(command, "list_commands"):
                walk(command, path)

    walk(root, "")
    return found


def _param_row(param: Any) -> str:
    names = ", ".join(f"`{n}`" for n in [*param.opts, *param.secondary_opts])
    kind = "argument" if param.param_type_name == "argument" else "option"
    if kind == "argument":
        names = f"`{(param.metavar or param.name or '').upper()}`"
    default = param.default
    shown = "" if default is None or callable(default) or default == () else f"`{default}`"
    if getattr(param, "is_flag", False) and default is False:
        shown = ""
    if not getattr(param, "show_default", True):
        shown = ""
    required = " (required)" if param.required else ""
    return f"| {names}{required} | {_cell(getattr(param, 'help', '') or '')} | {shown} |"


def cli_page() -> str:
    """The CLI reference: one section per command."""
    from supportsim.cli import app

    root = typer.main.get_command(app)
    out = [
        "# Command line",
        "",
        GENERATED,
        "",
        _cell(root.help or ""),
        "",
        "Exit codes are the same for every command: see [Exit codes](exit-codes.md).",
        "",
    ]
    for path, command in cli_commands():
        out += [f"## `supportsim {path}`", ""]
        help_text = inspect.cleandoc(command.help or "").partition("\f")[0]
        out += [help_text, ""]
        ctx = typer.Context(command, info_name=f"supportsim {path}")
        usage = " ".join(command.collect_usage_pieces(ctx))
        out += ["```text", f"supportsim {path} {usage}".rstrip(), "```", ""]
        params = [p for p in command.params if not getattr(p, "hidden", False)]
        params = [p for p in params if "--help" not in getattr(p, "opts", [])]
        if params:
            out += ["| argument or option | what | default |", "|---|---|---|"]
            out += [_param_row(p) for p in params]
            out.append("")
    return "\n".join(out)


# -- JSON Schema tables ------------------------------------------------------------------


def _type(prop: Mapping[str, Any], defs: Mapping[str, Any]) -> str:
    if "$ref" in prop:
        name = prop["$ref"].rsplit("/", 1)[1]
        return f"[{name}](#{name.lower()})"
    if "anyOf" in prop:
        return " or ".join(_type(p, defs) for p in prop["anyOf"])
    if "enum" in prop:
        return " \\| ".join(f"`{json.dumps(v)}`" for v in prop["enum"])
    if "const" in prop:
        return f"`{json.dumps(prop['const'])}`"
    kind = prop.get("type", "any")
    if kind == "array":
        return f"list of {_type(prop.get('items', {}), defs)}"
    if kind == "object" and isinstance(prop.get("additionalProperties"), dict):
        return f"map of name to {_type(prop['additionalProperties'], defs)}"
    return "null" if kind == "null" else str(kind)


def _refs(prop: Any) -> Iterator[str]:
    if isinstance(prop, dict):
        if "$ref" in prop:
            yield prop["$ref"].rsplit("/", 1)[1]
        for value in prop.values():
            yield from _refs(value)
    elif isinstance(prop, list):
        for value in prop:
            yield from _refs(value)


def attribute_docs(model: type[BaseModel]) -> dict[str, str]:
    """Field descriptions from the model's docstring ``Attributes:`` section (models that
    document their fields there rather than with attribute docstrings)."""
    parsed = docstring_parser.parse(inspect.getdoc(model) or "")
    return {p.arg_name: p.description or "" for p in parsed.params if p.args[0] == "attribute"}


def schema_tables(
    schema: Mapping[str, Any],
    title: str,
    *,
    skip: frozenset[str] = frozenset(),
    extra_docs: Mapping[str, Mapping[str, str]] | None = None,
    level: str = "##",
) -> str:
    """A field table for the schema's top object, then one for every object it refers to
    (its ``$defs``), in the order they are first met."""
    defs = schema.get("$defs", {})
    extra_docs = extra_docs or {}
    out: list[str] = []
    seen: list[str] = []

    def table(name: str, node: Mapping[str, Any], heading: str) -> None:
        out.extend([f"{level} {heading}", ""])
        if node.get("description") and heading != title:
            out.extend([" ".join(node["description"].split()), ""])
        props = node.get("properties", {})
        if not props:
            out.extend([f"Type: {_type(node, defs)}.", ""])
            return
        required = set(node.get("required", []))
        docs = extra_docs.get(name, {})
        out.extend(["| field | type | default | what |", "|---|---|---|---|"])
        for field, prop in props.items():
            if field in skip and heading == title:
                continue
            default = (
                "(required)"
                if field in required
                else (f"`{json.dumps(prop['default'])}`" if "default" in prop else "")
            )
            what = prop.get("description") or docs.get(field, "")
            out.append(f"| `{field}` | {_type(prop, defs)} | {default} | {_cell(what)} |")
            for ref in _refs(prop):
                if ref not in seen:
                    seen.append(ref)
        out.append("")

    table("", schema, title)
    done: set[str] = set()
    while len(done) < len(seen):
        ref = next(r for r in seen if r not in done)
        done.add(ref)
        node = defs[ref]
        for more in _refs(node):
            if more not in seen:
                seen.append(more)
        table(ref, node, ref)
    return "\n".join(out)


def run_config_page() -> str:
    """The run config file (``supportsim run --config FILE``), field by field."""
    from supportsim.batch import RunConfig

    return "\n".join(
        [
            "# Run config",
            "",
            GENERATED,
            "",
            "A run config is a YAML file of `RunConfig` fields (`supportsim run --config "
            "FILE`, or `supportsim.run(FILE)`); every field can also be given as a flag or a "
            "keyword, which wins over the file. Unknown fields are an error naming the file, "
            "the line and the field. A guided tour: [Overnight runs]"
            "(../tutorials/overnight-runs.md); what each setting does: [Long runs]"
            "(../guide/long-runs.md).",
            "",
            schema_tables(RunConfig.model_json_schema(), "Fields"),
        ]
    )


def models_file_page() -> str:
    """The models file (``--models FILE``): ``models:`` name -> entry."""
    from supportsim.llm import ModelConfig, ModelParams, RateLimit

    docs = {
        "": attribute_docs(ModelConfig),
        "ModelParams": attribute_docs(ModelParams),
        "RateLimit": attribute_docs(RateLimit),
    }
    return "\n".join(
        [
            "# Models file",
            "",
            GENERATED,
            "",
            "A models file (`supportsim run --models FILE`, or `models_file:` in a run "
            "config) names models with their parameters, prices and rate limits:",
            "",
            "```yaml",
            "models:",
            "  NAME:          # what --agent, --customer and the judges call it",
            "    provider: openai",
            "    model: gpt-4.1-mini",
            "```",
            "",
            "Each entry has the fields below (its name is the key). Guide: [Against models]"
            "(../guide/models.md).",
            "",
            schema_tables(
                ModelConfig.model_json_schema(),
                "Entry fields",
                skip=frozenset({"name"}),
                extra_docs=docs,
            ),
        ]
    )


def scenario_page() -> str:
    """The scenario format: the fields, then ``scenarios/README.md`` as it is."""
    from supportsim.scenario import Scenario

    readme = (ROOT / "scenarios" / "README.md").read_text(encoding="utf-8")
    readme = readme.replace("](../", "](https://github.com/supportsim/supportsim/blob/main/")
    body = readme.split("\n", 1)[1]  # its own title goes: this page has one
    return "\n".join(
        [
            "# Scenario format",
            "",
            GENERATED,
            "",
            "A scenario is one YAML file (`scenarios/<domain>/<id>.yaml`). The annotated "
            "example and the notes below are `scenarios/README.md`; the field tables after "
            "them are `Scenario`'s JSON Schema. How scoring reads them: [Scoring]"
            "(../guide/scoring.md).",
            "",
            body.replace("\n## ", "\n## ").replace("\n### ", "\n### "),
            "",
            "## Every field",
            "",
            schema_tables(Scenario.model_json_schema(), "Scenario", level="###"),
        ]
    )


def run_files_page() -> str:
    """Every file of a run directory and its fields (``supportsim.store``)."""
    from supportsim.store._schemas import DOCUMENTS, RECORDS

    out = [
        "# Run directory files",
        "",
        GENERATED,
        "",
        "The files `supportsim run` and the other commands write in `runs/<run-id>/`, and "
        "every field of each, from the pydantic models that write and read them (their JSON "
        "Schemas are in `schemas/`, written by `supportsim schemas`). The layout and what "
        "resume does with them: [Run directory](run-directory.md).",
        "",
    ]
    for _name, (file, model) in {**DOCUMENTS, **RECORDS}.items():
        kind = "one JSON object per line" if file.endswith(".jsonl") else "one JSON document"
        out += [f"## `{file}`", "", f"{kind}; model `{model.__name__}`.", ""]
        out.append(schema_tables(model.model_json_schema(), model.__name__, level="###"))
    return "\n".join(out)


def public_names() -> list[str]:
    """What ``import supportsim`` exports (``__all__``), ``__version__`` left out."""
    import supportsim

    return [n for n in supportsim.__all__ if not n.startswith("_")]


def api_page() -> str:
    """mkdocstrings directives for every public name, from where it is defined."""
    import supportsim

    out = [
        "# Python API",
        "",
        GENERATED,
        "",
        "`import supportsim` is the user contract: what a plug-in Agent, Domain or Scorer "
        "is written against, and `run` to drive a batch from Python. Importing it is cheap: "
        "the names load on first use. Guide: [From Python](../guide/python-api.md).",
        "",
    ]
    for name in public_names():
        where = supportsim._WHERE[name]
        out += [f"## `supportsim.{name}`", "", f"::: {where}.{name}", "    options:"]
        out += ["        show_root_heading: false", "        heading_level: 3", ""]
    return "\n".join(out)


PAGES = {
    "reference/cli.md": cli_page,
    "reference/run-config.md": run_config_page,
    "reference/models-file.md": models_file_page,
    "reference/scenario-format.md": scenario_page,
    "reference/run-files.md": run_files_page,
    "reference/api.md": api_page,
}
"""Generated page (under docs/) -> the function that writes it."""
