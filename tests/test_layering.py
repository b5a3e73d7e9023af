"""The packages form a pipeline: each imports only supportsim packages before it.

    errors -> _yaml -> _printable -> scenario -> domains -> environment -> llm
    -> conversation -> scoring -> authoring -> workspace -> store -> batch -> judges -> report
    -> export

``_yaml`` (the one YAML reader), ``_printable`` (terminal-safe text) and ``_tables``
(terminal tables that never cut a value) are base modules.
``llm`` imports only ``errors`` and ``_yaml``; ``cli``, ``_api`` (``supportsim.run``) and
``testing`` may import anything, and nothing in the package imports ``testing`` (only tests,
the cli and benchmarks do). Packages not written yet are skipped.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).parents[1] / "src" / "supportsim"
ORDER = [
    "errors",
    "_yaml",
    "_printable",
    "_tables",
    "_imports",
    "_tracing",
    "scenario",
    "domains",
    "environment",
    "llm",
    "conversation",
    "scoring",
    "validate",
    "authoring",
    "workspace",
    "store",
    "batch",
    "judges",
    "report",
    "export",
]
ONLY = {"llm": {"errors", "_yaml"}}
FREE = {"cli", "testing", "_api", "__main__"}  # __main__ is `python -m supportsim`: the cli


def top_level(name: str) -> str | None:
    """The supportsim package a dotted module name belongs to (None: not supportsim)."""
    parts = name.split(".")
    if parts[0] != "supportsim":
        return None
    return parts[1] if len(parts) > 1 else ""


def files_of(package: str) -> list[Path]:
    folder = SRC / package
    if folder.is_dir():
        return sorted(folder.rglob("*.py"))
    module = SRC / f"{package}.py"
    return [module] if module.exists() else []


def module_name(path: Path) -> list[str]:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    return parts[:-1] if parts[-1] == "__init__" else parts


def imported_packages(path: Path) -> dict[str, int]:
    """supportsim packages a file imports (anywhere in it), with the first line."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    here = module_name(path)
    is_package = path.name == "__init__.py"
    found: dict[str, int] = {}

    def add(dotted: str, line: int) -> None:
        package = top_level(dotted)
        if package:
            found.setdefault(package, line)

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here if is_package else here[:-1]
                base = base[: len(base) - (node.level - 1)]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            if source == "supportsim":
                for alias in node.names:  # from supportsim import scoring
                    add(f"supportsim.{alias.name}", node.lineno)
            else:
                add(source, node.lineno)
    return found


def allowed(package: str) -> set[str]:
    if package in ONLY:
        return ONLY[package] | {package}
    return set(ORDER[: ORDER.index(package) + 1])


EXISTING = [p for p in ORDER if files_of(p)]


def test_the_pipeline_packages_that_exist_are_found() -> None:
    for package in ("errors", "scenario", "domains", "environment", "llm", "scoring"):
        assert package in EXISTING


def test_every_package_has_a_place_in_the_pipeline() -> None:
    """A new package must be given a place in ORDER (or be FREE), so none escapes the check."""
    found = {p.name for p in SRC.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    found |= {p.stem for p in SRC.glob("*.py") if p.stem != "__init__"}
    assert found - set(ORDER) - FREE == set()


@pytest.mark.parametrize("package", EXISTING)
def test_a_package_imports_only_packages_before_it(package: str) -> None:
    wrong = []
    for path in files_of(package):
        for imported, line in imported_packages(path).items():
            if imported not in allowed(package):
                wrong.append(f"{path.relative_to(SRC)}:{line} imports supportsim.{imported}")
    assert wrong == []


def test_nothing_in_the_package_imports_testing_but_the_cli() -> None:
    wrong = []
    for path in sorted(SRC.rglob("*.py")):
        package = path.relative_to(SRC).parts[0].removesuffix(".py")
        if package in FREE:
            continue
        line = imported_packages(path).get("testing")
        if line is not None:
            wrong.append(f"{path.relative_to(SRC)}:{line}")
    assert wrong == []


def test_the_import_walk_sees_relative_and_nested_imports() -> None:
    """The checker itself: relative, function-level and ``from supportsim import x`` forms."""
    sample = SRC / "scoring" / "_score.py"
    found = imported_packages(sample)
    assert {"conversation", "domains", "environment", "scenario"} <= set(found)
    cli = imported_packages(SRC / "cli.py")
    assert "validate" in cli  # imported inside a function
    llm_init = imported_packages(SRC / "llm" / "__init__.py")
    assert set(llm_init) == {"llm"}  # ``from ._anthropic import ...`` stays inside llm
