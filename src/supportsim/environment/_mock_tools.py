"""Declarative mock tools: a scenario's inline tools with canned responses, as Tools."""

from __future__ import annotations

from typing import Any

from pydantic import Field, create_model

from supportsim.domains import Args, DomainState, Tool
from supportsim.errors import ToolError
from supportsim.scenario import MockTool

_TYPES: dict[str, type] = {"string": str, "integer": int, "number": float, "boolean": bool}


def build_mock_tool(spec: MockTool) -> Tool:
    """Turn a MockTool into a Tool with a generated argument model and JSON schema."""
    fields: dict[str, Any] = {}
    for name, param in spec.parameters.items():
        annotation: Any = _TYPES[param.type]
        if param.enum is not None:
            from typing import Literal

            annotation = Literal[tuple(param.enum)]
        default = ... if param.required else None
        if not param.required:
            annotation = annotation | None
        fields[name] = (annotation, Field(default, description=param.description or None))
    model = create_model(f"{spec.name}_args", __base__=Args, **fields)

    def run(state: DomainState, args: Args) -> object:
        given = args.model_dump(exclude_none=True)
        for response in spec.responses:
            if all(k in given and m.matches(given[k]) for k, m in response.when.items()):
                if response.error is not None:
                    raise ToolError(response.error)
                for path, value in response.set.items():
                    set_path(state, path, value)
                return response.result
        raise ToolError(f"no matching record for {given}")

    return Tool(spec.name, spec.description, model, spec.kind, run)


def set_path(state: DomainState, dotted: str, value: Any) -> None:
    """Write ``value`` at a dotted path of the state, re-validating the whole state."""
    data = state.model_dump()
    *parents, last = dotted.split(".")
    node = data
    for part in parents:
        node = node.setdefault(part, {})
        if not isinstance(node, dict):
            raise ToolError(f"cannot set {dotted}: {part} is not a mapping")
    node[last] = value
    fresh = type(state).model_validate(data)
    for name in type(state).model_fields:
        object.__setattr__(state, name, getattr(fresh, name))
