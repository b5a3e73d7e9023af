"""A domain's state model derived from a JSON Schema, for domains written as data.

A team that describes its records in JSON Schema need not write pydantic classes: each
object schema becomes a strict model (unknown fields refused, assignments validated), so a
scenario's ``state`` override is checked field by field exactly as for a Python state model,
and tools read ``state.customers["C-1"].name``.

The subset is the one a state needs: ``type`` (object, array, string, integer, number,
boolean, null, or a list of them), ``properties`` / ``required`` / ``additionalProperties``
(a schema: a mapping of records by id), ``items``, ``enum``, ``const``, ``default``,
``description``, ``$ref`` to ``#/$defs/...`` or ``#/definitions/...``, and ``anyOf`` /
``oneOf``. Anything else is refused by name rather than silently ignored.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Literal, TypeVar, Union

from pydantic import BaseModel, ConfigDict, Field, create_model

from supportsim.domains._base import DomainState

M = TypeVar("M", bound=BaseModel)

_SCALARS: dict[str, Any] = {
    "string": str,
    "integer": int,
    "number": float,
    "boolean": bool,
    "null": type(None),
}
_KNOWN = {
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "default",
    "description",
    "title",
    "$ref",
    "$defs",
    "definitions",
    "anyOf",
    "oneOf",
    "$schema",
    "$id",
    "examples",
    "format",
}


class SchemaStateError(ValueError):
    """A schema the converter cannot turn into a model; ``path`` names the keyword."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


def state_model_from_schema(schema: Mapping[str, Any], name: str) -> type[DomainState]:
    """The DomainState subclass ``schema`` (an object schema) describes.

    Raises:
        SchemaStateError: an unsupported keyword or shape, naming its path in the schema.
    """
    if schema.get("type", "object") != "object" or "properties" not in schema:
        raise SchemaStateError("(root)", "a state schema is an object with properties")
    for reserved in ("session", "extra"):
        if reserved in schema["properties"]:
            raise SchemaStateError(f"properties.{reserved}", "reserved: every state has it already")
    builder = _Builder(schema)
    return builder.object(schema, _class_name(name) + "State", "(root)", base=DomainState)


class _Builder:
    def __init__(self, root: Mapping[str, Any]) -> None:
        self.defs: Mapping[str, Any] = {**root.get("definitions", {}), **root.get("$defs", {})}
        self.made: dict[str, Any] = {}

    def type_of(self, schema: Any, name: str, path: str) -> Any:
        if not isinstance(schema, Mapping):
            raise SchemaStateError(path, "a schema is a mapping")
        unknown = sorted(set(schema) - _KNOWN)
        if unknown:
            raise SchemaStateError(path, f"unsupported keyword(s): {', '.join(unknown)}")
        if "$ref" in schema:
            return self.ref(schema["$ref"], path)
        for key in ("anyOf", "oneOf"):
            if key in schema:
                options = [
                    self.type_of(s, f"{name}{i}", f"{path}.{key}.{i}")
                    for i, s in enumerate(schema[key])
                ]
                return Union[tuple(options)]  # noqa: UP007 - built at run time
        if "const" in schema:
            return Literal[schema["const"]]
        if "enum" in schema:
            return Literal[tuple(schema["enum"])]
        kind = schema.get("type")
        if isinstance(kind, list):
            return Union[tuple(self.type_of({**schema, "type": k}, name, path) for k in kind)]  # noqa: UP007
        if kind in _SCALARS:
            return _SCALARS[kind]
        if kind == "array":
            return list[self.type_of(schema.get("items", {}), name + "Item", f"{path}.items")]  # type: ignore[misc]
        if kind == "object" or "properties" in schema:
            if "properties" in schema:
                return self.object(schema, _class_name(name), path, base=_Strict)
            extra = schema.get("additionalProperties", True)
            if extra is True or extra == {}:
                return dict[str, Any]
            if extra is False:
                raise SchemaStateError(path, "an object without properties must allow some")
            return dict[str, self.type_of(extra, name, f"{path}.additionalProperties")]  # type: ignore[misc]
        if kind is None and not schema:
            return Any
        raise SchemaStateError(path, f"unsupported type {kind!r}")

    def ref(self, ref: Any, path: str) -> Any:
        match = re.fullmatch(r"#/(?:\$defs|definitions)/([^/]+)", str(ref))
        if match is None or match.group(1) not in self.defs:
            raise SchemaStateError(path, f"$ref {ref!r} names no definition of this schema")
        key = match.group(1)
        if key not in self.made:
            self.made[key] = None  # a recursive reference is refused, not looped on
            self.made[key] = self.type_of(self.defs[key], key, f"$defs.{key}")
        elif self.made[key] is None:
            raise SchemaStateError(path, f"$ref {ref!r} is recursive; state is a tree")
        return self.made[key]

    def object(
        self,
        schema: Mapping[str, Any],
        cls_name: str,
        path: str,
        base: type[M],
    ) -> type[M]:
        if schema.get("additionalProperties", False) not in (False, None):
            raise SchemaStateError(
                path, "an object with properties takes no other fields (additionalProperties)"
            )
        required = set(schema.get("required", []))
        fields: dict[str, Any] = {}
        for prop, sub in schema["properties"].items():
            where = f"{path}.properties.{prop}" if path != "(root)" else f"properties.{prop}"
            annotation = self.type_of(sub, cls_name + _class_name(prop), where)
            info: dict[str, Any] = {"description": sub.get("description")}
            if prop in required:
                fields[prop] = (annotation, Field(**info))
            elif "default" in sub:
                fields[prop] = (annotation, Field(default=sub["default"], **info))
            else:
                fields[prop] = (annotation | None, Field(default=None, **info))
        return create_model(cls_name, __base__=base, **fields)


def _class_name(text: str) -> str:
    return "".join(part.capitalize() for part in re.split(r"[^A-Za-z0-9]+", text)) or "Model"
