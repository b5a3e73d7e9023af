"""The fact matchers' reading tables, shipped precomputed with the package.

Month, weekday, day-period, currency and unit names come from Babel's CLDR data and the
numbers 0-999 are spelled by num2words (``facts/_vocab``, ``facts/_words``). Building them
took about 0.8 s of CPU on the first score of every process (the ``other_customer`` check
reads values in all four languages, so every process builds every language's tables), and
a run with ``--workers N`` paid it N + 1 times. Each builder decorated with
:func:`shipped` is instead looked up in ``shipped_tables.json`` (package data) for the
arguments it was generated for, and built as before, on first use, for any other.

Why a file generated at build time and shipped, rather than a cache under the user's
cache directory:

- Nothing is written at run time: a read-only install, a container without a home, and
  ``--workers`` processes starting together (which would race to write one cache) all read
  the same file.
- The first process is as fast as any other: with a cache, the first run after an install
  or an upgrade (the one CI and a benchmark see) pays the whole cost.
- The data is text under review: a change in what a matcher reads (new CLDR names, an
  edited constant) shows in the diff of ``shipped_tables.json``.

Results are identical to building the tables: the file records the Babel and num2words
versions it was made with and is used only when those are the installed ones (otherwise
every table is built from them, as before). ``tests/scoring/test_shipped_tables.py``
checks that every shipped table equals the freshly built one, so a builder changed without
regenerating fails there. Regenerate with ``python -m supportsim.scoring.text._shipped_build``.
"""

from __future__ import annotations

import functools
import json
import typing
from collections.abc import Callable, Iterable
from importlib import metadata, resources
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

FILE = "shipped_tables.json"
PACKAGES = ("babel", "num2words")
"""The packages whose data the tables are made from: their versions key the file."""


class Table:
    """A table builder (the undecorated function) and the arguments it is shipped for."""

    def __init__(self, name: str, build: Callable[..., Any], over: Iterable[tuple[Any, ...]]):
        self.name = name
        self.build = build
        self.over = tuple(over)
        self.lookup: Any = None

    def hint(self) -> Any:
        return typing.get_type_hints(self.build)["return"]


_BYPASS: list[bool] = []  # set by _shipped_build.generate(): build all from the packages

TABLES: dict[str, Table] = {}
"""Every shipped table by name (``module.function``), in the order they were declared."""


def key(args: tuple[Any, ...]) -> str:
    """The file's key of a call: ``("de", "en")`` -> ``"de+en"``, ``("de",)`` -> ``"de"``."""
    return "+".join("+".join(a) if isinstance(a, tuple) else str(a) for a in args)


def shipped(over: Iterable[tuple[Any, ...]]) -> Callable[[Callable[P, T]], Callable[P, T]]:
    """Make a table builder read its result from the shipped file for the argument tuples
    ``over`` (and build it for any other), once per process per arguments (``cache``).

    The builder's return annotation says how the JSON is read back (``frozenset``,
    ``tuple`` and ``dict`` of str, int and float, nested).
    """

    def decorate(build: Callable[P, T]) -> Callable[P, T]:
        name = f"{build.__module__.rsplit('.', 1)[-1]}.{build.__name__}"
        if name in TABLES:  # two modules of one last name: one table would serve the other
            raise RuntimeError(f"shipped table {name!r} is declared twice")
        table = TABLES[name] = Table(name, build, over)
        make: Callable[..., Any] = build

        @functools.cache
        def lookup(*args: Any) -> Any:
            found = _shipped().get(name, {}).get(key(args))
            if found is None:
                return make(*args)
            return _typed(found, table.hint())

        functools.update_wrapper(lookup, build)

        table.lookup = lookup
        return lookup  # type: ignore[return-value]

    return decorate


def versions() -> dict[str, str]:
    """The installed versions of the packages the tables are made from."""
    return {name: metadata.version(name) for name in PACKAGES}


@functools.cache
def _shipped() -> dict[str, dict[str, Any]]:
    """The shipped tables, or none when the installed Babel or num2words is not the
    version they were made with (each table is then built from the installed one)."""
    if _BYPASS:
        return {}
    path = resources.files("supportsim.scoring.text").joinpath(FILE)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    if data.get("versions") != versions():
        return {}
    tables: dict[str, dict[str, Any]] = data["tables"]
    return tables


def _typed(value: Any, hint: Any) -> Any:
    """``value`` read from JSON as the type ``hint`` (lists become tuples and frozensets)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is dict:
        return {_typed(k, args[0]): _typed(v, args[1]) for k, v in value.items()}
    if origin is frozenset:
        return frozenset(_typed(v, args[0]) for v in value)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_typed(v, args[0]) for v in value)
        return tuple(_typed(v, a) for v, a in zip(value, args, strict=True))
    return value
