"""The generated reference pages (docs_gen/reference.py, written at build time by
mkdocs-gen-files) cover every CLI command and option, every run-config and models-file
field, every scenario field, every run-directory file and every public name."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from docs_gen import reference  # noqa: E402


def test_the_cli_page_has_every_command_and_every_option() -> None:
    page = reference.cli_page()
    commands = reference.cli_commands()
    names = {path for path, _ in commands}
    # the walk is the app's own: top-level commands and groups' subcommands
    assert {"run", "report", "compare", "validate", "new domain", "import tau2"} <= names
    assert "worker" not in names  # hidden: not for users
    for path, command in commands:
        section = page.split(f"## `supportsim {path}`\n", 1)[1].split("\n## ", 1)[0]
        for param in command.params:
            if getattr(param, "hidden", False) or "--help" in getattr(param, "opts", []):
                continue
            shown = param.opts[0] if param.param_type_name == "option" else param.name.upper()
            assert f"`{shown}`" in section, (path, shown)


@pytest.mark.parametrize(
    ("page", "model_path"),
    [
        ("run_config_page", "supportsim.batch:RunConfig"),
        ("models_file_page", "supportsim.llm:ModelConfig"),
        ("scenario_page", "supportsim.scenario:Scenario"),
    ],
)
def test_every_config_field_is_in_its_page(page: str, model_path: str) -> None:
    import importlib

    module, _, name = model_path.partition(":")
    model = getattr(importlib.import_module(module), name)
    text = getattr(reference, page)()
    schema = model.model_json_schema()
    fields = set(schema["properties"]) - ({"name"} if name == "ModelConfig" else set())
    for field in fields:
        assert f"| `{field}` |" in text, field
    for nested, node in schema.get("$defs", {}).items():  # and the objects they hold
        for field in node.get("properties", {}):
            assert f"| `{field}` |" in text, (nested, field)


def test_models_file_fields_carry_their_docstring_descriptions() -> None:
    text = reference.models_file_page()
    row = next(line for line in text.splitlines() if line.startswith("| `api_key_env` |"))
    assert "OPENAI_API_KEY" in row  # from ModelConfig's Attributes: section


def test_every_run_directory_file_and_public_name_is_in_its_page() -> None:
    from supportsim.store._schemas import DOCUMENTS, RECORDS

    files = reference.run_files_page()
    for file, _model in {**DOCUMENTS, **RECORDS}.values():
        assert f"## `{file}`" in files
    api = reference.api_page()
    import supportsim

    for name in supportsim.__all__:
        if name != "__version__":
            assert f"::: {supportsim._WHERE[name]}.{name}" in api


def test_every_generated_page_is_in_the_site_nav() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in reference.PAGES:
        assert f": {page}" in nav, page
        assert not (ROOT / "docs" / page).exists(), f"{page} is generated: delete the file"


def test_every_run_config_field_says_what_it_does() -> None:
    from supportsim.batch import RunConfig

    undocumented = [
        name
        for name, prop in RunConfig.model_json_schema()["properties"].items()
        if not prop.get("description")
    ]
    assert undocumented == []
