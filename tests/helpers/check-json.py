#!/usr/bin/env python3
"""check-json.py SCHEMA FILE [DEF]: every line of FILE is a JSON value that
fits SCHEMA (or its $defs/DEF).  A small JSON Schema subset (type, enum,
anyOf, required, properties, additionalProperties, items, $ref to #/$defs,
const, minimum, pattern, propertyNames),
enough for man/zhkit-game.schema.json and man/zhkit-position.schema.json,
so the tests need no jsonschema module."""
import json
import re
import sys

TYPES = {"object": dict, "array": list, "string": str, "boolean": bool,
         "null": type(None)}


def is_type(v, t):
    if t == "integer":
        return isinstance(v, int) and not isinstance(v, bool)
    if t == "number":
        return isinstance(v, (int, float)) and not isinstance(v, bool)
    return isinstance(v, TYPES[t])


def check(v, s, root, path):
    if "$ref" in s:
        s = root["$defs"][s["$ref"].rsplit("/", 1)[1]]
    if "anyOf" in s:
        errs = []
        for alt in s["anyOf"]:
            try:
                check(v, alt, root, path)
                break
            except ValueError as e:
                errs.append(str(e))
        else:
            raise ValueError(f"{path}: fits none of anyOf: " + "; ".join(errs))
    t = s.get("type")
    if t is not None:
        ts = t if isinstance(t, list) else [t]
        if not any(is_type(v, x) for x in ts):
            raise ValueError(f"{path}: {v!r} is not {t}")
    if "enum" in s and v not in s["enum"]:
        raise ValueError(f"{path}: {v!r} is not one of {s['enum']}")
    if "const" in s and (v != s["const"] or type(v) is not type(s["const"])):
        raise ValueError(f"{path}: {v!r} is not {s['const']!r}")
    if "minimum" in s and is_type(v, "number") and v < s["minimum"]:
        raise ValueError(f"{path}: {v!r} is less than {s['minimum']}")
    if "pattern" in s and isinstance(v, str) and not re.search(s["pattern"], v):
        raise ValueError(f"{path}: {v!r} does not match {s['pattern']}")
    if isinstance(v, dict) and "propertyNames" in s:
        for k in v:
            check(k, s["propertyNames"], root, f"{path}.{k} (name)")
    if isinstance(v, dict):
        for k in s.get("required", []):
            if k not in v:
                raise ValueError(f"{path}: '{k}' missing")
        props = s.get("properties", {})
        for k, x in v.items():
            if k in props:
                check(x, props[k], root, f"{path}.{k}")
            elif s.get("additionalProperties") is False:
                raise ValueError(f"{path}: unexpected '{k}'")
            elif isinstance(s.get("additionalProperties"), dict):
                check(x, s["additionalProperties"], root, f"{path}.{k}")
    if isinstance(v, list) and "items" in s:
        for i, x in enumerate(v):
            check(x, s["items"], root, f"{path}[{i}]")


def main():
    root = json.load(open(sys.argv[1]))
    top = root["$defs"][sys.argv[3]] if len(sys.argv) > 3 else root
    n = 0
    for n, line in enumerate(open(sys.argv[2], encoding="utf-8"), 1):
        try:
            check(json.loads(line), top, root, "$")
        except ValueError as e:
            sys.exit(f"{sys.argv[2]}:{n}: {e}")
    print(f"{n} objects fit {sys.argv[1]}")


main()
