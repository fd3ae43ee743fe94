"""The JSON Schema of results files, generated from the typed records, and validation against it.

``python -m checks.engine.developer schema`` (a developer's command of this package's checkout) rewrites
checks/results/schema.json (results files) and checks/results/mutants.schema.json (mutation results) from the records
(the evidence kinds loaded: this package imports none); a test fails while the committed files differ from what the
records generate.
``python -m checks.results.schema --validate FILE`` validates a results file against the committed schema
with jsonschema (exit 1 if it does not fit).
"""

from __future__ import annotations

import dataclasses
import json
import sys
import types
from enum import Enum
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

from checks.results.codec import JSON, NON_FINITE, Tagged, has_default
from checks.results.records import SCHEMA_VERSION, EvidenceRecord, MutationResults, Results

FOLDER = Path(__file__).resolve().parent
RESULTS_SCHEMA, MUTANTS_SCHEMA = FOLDER / "schema.json", FOLDER / "mutants.schema.json"
DIALECT = "https://json-schema.org/draft/2020-12/schema"


def generate(root: type, title: str, fixed: dict[str, JSON] | None = None) -> dict[str, JSON]:
    """The schema of ``root`` records; ``fixed`` pins top-level fields to one value (the schema version)."""
    definitions: dict[str, JSON] = {}
    top = definitions.pop(_define(root, definitions)["$ref"].rsplit("/", 1)[1])
    for name, value in (fixed or {}).items():
        top["properties"][name] = {"const": value}
    return {"$schema": DIALECT, "title": title, **top, "$defs": dict(sorted(definitions.items()))}


def results_schema() -> dict[str, JSON]:
    if not EvidenceRecord.members():
        raise RuntimeError("no evidence kind is loaded: import checks.evidence before generating the schema")
    return generate(Results, "theory-claims results file", {"schema": SCHEMA_VERSION})


def mutants_schema() -> dict[str, JSON]:
    return generate(MutationResults, "theory-claims mutation results")


def _define(hint: Any, definitions: dict[str, JSON]) -> dict[str, JSON]:
    origin, args = get_origin(hint), get_args(hint)
    if hint is Any:
        return {}
    if origin in (Union, types.UnionType):
        return {"anyOf": [_define(a, definitions) for a in args]}
    if origin is Literal:
        return {"enum": list(args)}
    if origin is list or (origin is tuple and len(args) == 2 and args[1] is Ellipsis):
        return {"type": "array", "items": _define(args[0], definitions)}
    if origin is tuple:
        items = [_define(a, definitions) for a in args]
        return {"type": "array", "prefixItems": items, "items": False, "minItems": len(items)}
    if origin is dict:
        return {"type": "object", "additionalProperties": _define(args[1], definitions)}
    if isinstance(hint, type) and issubclass(hint, Enum):
        return {"enum": [member.value for member in hint]}
    if isinstance(hint, type) and issubclass(hint, Tagged) and not hint.kind:
        members = hint.members().values()
        return {"oneOf": [_define(member, definitions) for member in sorted(members, key=lambda m: m.kind)]}
    if dataclasses.is_dataclass(hint):
        return _record(hint, definitions)
    return _scalar(hint, definitions)


def _record(record_type: type, definitions: dict[str, JSON]) -> dict[str, JSON]:
    name = record_type.__name__
    reference = {"$ref": f"#/$defs/{name}"}
    if name in definitions:
        if definitions[name].get("x-python") != _python_name(record_type):
            raise TypeError(f"two records are named {name}: {_python_name(record_type)} and another")
        return reference
    definitions[name] = {}
    hints = get_type_hints(record_type)
    names = [f.name for f in dataclasses.fields(record_type) if f.init]
    required = [f.name for f in dataclasses.fields(record_type) if f.init and not has_default(f)]
    properties = {n: _define(hints[n], definitions) for n in names}
    if isinstance(record_type, type) and issubclass(record_type, Tagged):
        properties = {"kind": {"const": record_type.kind}, **properties}
    definitions[name] = {
        "description": " ".join((record_type.__doc__ or name).split()),
        "x-python": _python_name(record_type),
        "type": "object",
        "properties": properties,
        "required": (["kind"] if "kind" in properties and "kind" not in names else []) + required,
        "additionalProperties": False,
    }
    return reference


def _scalar(hint: Any, definitions: dict[str, JSON]) -> dict[str, JSON]:
    if hint is float:
        definitions["real"] = {
            "description": "a number; a non-finite one as a string",
            "anyOf": [{"type": "number"}, {"enum": list(NON_FINITE)}],
        }
        return {"$ref": "#/$defs/real"}
    simple = {str: "string", int: "integer", bool: "boolean", type(None): "null"}
    if hint in simple:
        return {"type": simple[hint]}
    raise TypeError(f"no JSON Schema for {hint!r}")


def _python_name(record_type: type) -> str:
    return f"{record_type.__module__}.{record_type.__qualname__}"


def first_problem(document: JSON, schema: dict[str, JSON]) -> tuple[list[str | int], str] | None:
    """Where ``document`` breaks ``schema`` (the path into it) and how, or None when it fits.

    Of several faults, jsonschema's ``best_match`` picks the one most worth reporting.
    """
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match

    error = best_match(Draft202012Validator(schema).iter_errors(document))
    if error is None:
        return None
    text = error.message
    return list(error.absolute_path), text if len(text) <= 200 else text[:197] + "..."


def json_path(where: list[str | int]) -> str:
    """A place in a JSON document as $.claims[3].evidence[0]."""
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in where)


def committed(path: Path) -> dict[str, JSON]:
    return json.loads(path.read_text(encoding="utf-8"))


def render(schema: dict[str, JSON]) -> str:
    return json.dumps(schema, indent=1, ensure_ascii=False) + "\n"


def write_schemas() -> int:
    """Rewrite both committed schema files from the records (the evidence kinds must be loaded)."""
    for path, schema in ((RESULTS_SCHEMA, results_schema()), (MUTANTS_SCHEMA, mutants_schema())):
        path.write_text(render(schema), encoding="utf-8")
        print(f"wrote {path}")
    return 0


def main(argv: list[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    if arguments[:1] == ["--validate"]:
        return _validate([Path(name) for name in arguments[1:]])
    print(
        "usage: python -m checks.results.schema --validate RESULTS.json ... (to rewrite the schema files, in the "
        "package's checkout: python -m checks.engine.developer schema)",
        file=sys.stderr,
    )
    return 2


def _validate(paths: list[Path]) -> int:
    schema, failed = committed(RESULTS_SCHEMA), 0
    for path in paths:
        problem = first_problem(json.loads(path.read_text(encoding="utf-8")), schema)
        verdict = f"fits {RESULTS_SCHEMA.name}" if problem is None else f"{json_path(problem[0])}: {problem[1]}"
        print(f"{path}: {verdict}")
        failed += problem is not None
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
