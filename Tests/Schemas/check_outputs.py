#!/usr/bin/env python3
"""Validate rcpt's JSON outputs against the schemas in docs/schemas.

Usage: check_outputs.py SCHEMA_DIR FILE...

Each FILE is one JSON document (`--format json`), a JSON Lines file (`--format jsonl`: one document per line), or an
HTML page of `rcpt report` (the `rcpt.report/1` data in its `<script type="application/json" id="rcpt-data">`
element). The whole file is parsed as one document first, then line by line. Each document is validated against
the schema its `schema` member names (`rcpt.dump/1` -> SCHEMA_DIR/rcpt.dump-1.schema.json) with JSON Schema draft
2020-12, format checking off; every file in SCHEMA_DIR is registered by its `$id`, so `$ref`s between the files
resolve offline.

Prints one line per failure, `FILE[:LINE]: <json path>: <message>`, and exits 0 when every document is valid, 1 when
any is invalid, 2 on a usage error, an unreadable or unparsable file, an invalid schema, or a document with no
`schema` member or one no schema in SCHEMA_DIR describes (a test cannot skip a document silently).

Needs only `jsonschema` (4.18 or later) and `referencing`.
"""
import json
import os
import re
import sys

try:
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012
except ImportError as error:  # pragma: no cover
    sys.stderr.write(f"check_outputs.py: needs jsonschema 4.18+ and referencing ({error})\n")
    sys.exit(2)

USAGE = "usage: check_outputs.py SCHEMA_DIR FILE..."
ID_PATTERN = re.compile(r"/rcpt\.([a-z0-9-]+?)-([0-9]+)\.schema\.json$")
REPORT_DATA = re.compile(r'<script type="application/json" id="rcpt-data">(.*?)</script>', re.S)
MAX_MESSAGE = 300


class UsageError(Exception):
    pass


def load_schemas(directory):
    """A validator for each `rcpt.<name>-<n>.schema.json` in `directory` by schema id (`rcpt.dump/1`), each resolving
    `$ref`s through a registry of every schema file there, by `$id`."""
    if not os.path.isdir(directory):
        raise UsageError(f"{directory}: not a directory")
    resources = []
    documents = {}
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".json"):
            continue
        path = os.path.join(directory, name)
        try:
            with open(path, encoding="utf-8") as handle:
                contents = json.load(handle)
        except (OSError, ValueError) as error:
            raise UsageError(f"{path}: cannot read the schema: {error}")
        uri = contents.get("$id") if isinstance(contents, dict) else None
        if not uri:
            raise UsageError(f"{path}: the schema has no $id")
        try:
            Draft202012Validator.check_schema(contents)
        except Exception as error:  # jsonschema.SchemaError
            raise UsageError(f"{path}: not a valid draft 2020-12 schema: {getattr(error, 'message', error)}")
        resources.append((uri, Resource.from_contents(contents, default_specification=DRAFT202012)))
        match = ID_PATTERN.search(uri)
        if match:
            documents[f"rcpt.{match.group(1)}/{match.group(2)}"] = contents
    if not documents:
        raise UsageError(f"{directory}: no rcpt.<name>-<n>.schema.json file")
    registry = Registry().with_resources(resources)
    validators = {
        schema_id: Draft202012Validator(contents, registry=registry) for schema_id, contents in documents.items()
    }
    return validators


def documents_in(path):
    """(line or None, document) for each document in the file; raises UsageError when it holds none."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise UsageError(f"{path}: cannot read: {error.strerror}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise UsageError(f"{path}: not UTF-8: {error}")
    if not text.strip():
        raise UsageError(f"{path}: no JSON document (the file is empty)")
    try:
        return [(None, json.loads(text))]
    except ValueError:
        pass
    page = REPORT_DATA.search(text)
    if page and text.lstrip().lower().startswith("<!doctype html"):
        try:
            return [(None, json.loads(page.group(1)))]
        except ValueError as error:
            raise UsageError(f"{path}: the report's rcpt-data element is not JSON: {error}")
    found = []
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            found.append((number, json.loads(line)))
        except ValueError as error:
            raise UsageError(f"{path}:{number}: neither a JSON document nor JSON Lines: {error}")
    return found


JSON_TYPES = {dict: "object", list: "array", str: "string", bool: "boolean", int: "integer", float: "number"}


def message_of(error):
    """The failure's message, with a long instance said by its type (`<object> is not valid under …`)."""
    message = error.message
    shown = repr(error.instance)
    if len(shown) > 60 and message.startswith(shown):
        message = f"<{JSON_TYPES.get(type(error.instance), 'value')}>" + message[len(shown) :]
    message = " ".join(message.split())
    return message if len(message) <= MAX_MESSAGE else message[: MAX_MESSAGE - 1] + "…"


def leaves(error):
    """(json path, message) for each failure to report for `error`: itself, or for a failed oneOf/anyOf, those of the
    branch the document most likely meant (not one its type or discriminator rules out at once, then the one with
    the fewest failures, then the one that failed deepest); when no branch stands out, one line naming each branch's failures."""
    if not error.context or error.validator not in ("anyOf", "oneOf"):
        return [(error.json_path, message_of(error))]
    branches = {}
    for inner in error.context:
        branches.setdefault(inner.relative_schema_path[0], []).append(inner)

    def ruled_out(failures):
        return any(
            len(failure.relative_path) == 0 and failure.validator in ("type", "const", "enum") for failure in failures
        )

    candidates = [failures for failures in branches.values() if not ruled_out(failures)]
    if not candidates:
        return [(error.json_path, message_of(error))]
    fewest = min(len(failures) for failures in candidates)
    best = [failures for failures in candidates if len(failures) == fewest]
    # Then the branch that got furthest into the document before failing.
    deepest = max(min(len(failure.path) for failure in failures) for failures in best)
    best = [failures for failures in best if min(len(failure.path) for failure in failures) == deepest]
    if len(best) == 1:
        return [leaf for failure in best[0] for leaf in leaves(failure)]
    said = "; ".join(
        f"branch {number}: " + ", ".join(f"{path}: {message}" for failure in failures for path, message in leaves(failure))
        for number, failures in enumerate(best, start=1)
    )
    return [(error.json_path, f"not valid under any of the {error.validator} branches ({said})")]


def relevant(errors):
    """`errors` without the `unevaluatedProperties` failures that only follow from another failure at or under the
    same place (a mixin branch that failed evaluates none of its members)."""
    kept = []
    for error in errors:
        if error.validator == "unevaluatedProperties":
            place = list(error.absolute_path)
            if any(
                other is not error
                and other.validator != "unevaluatedProperties"
                and list(other.absolute_path)[: len(place)] == place
                for other in errors
            ):
                continue
        kept.append(error)
    return kept


def main(argv):
    if len(argv) < 3 or argv[1] in ("-h", "--help"):
        sys.stderr.write(USAGE + "\n")
        return 2
    try:
        validators = load_schemas(argv[1])
    except UsageError as error:
        sys.stderr.write(f"check_outputs.py: {error}\n")
        return 2
    status = 0
    for path in argv[2:]:
        try:
            documents = documents_in(path)
        except UsageError as error:
            print(f"{error}")
            status = 2
            continue
        for line, document in documents:
            where = path if line is None else f"{path}:{line}"
            schema_id = document.get("schema") if isinstance(document, dict) else None
            if not isinstance(schema_id, str):
                print(f"{where}: $: no `schema` member: cannot tell which schema describes the document")
                status = 2
                continue
            validator = validators.get(schema_id)
            if validator is None:
                print(f"{where}: $.schema: unknown schema {schema_id!r}: none in {argv[1]} describes it")
                status = 2
                continue
            errors = sorted(validator.iter_errors(document), key=lambda e: (list(map(str, e.absolute_path)), e.message))
            for error in relevant(errors):
                for json_path, message in leaves(error):
                    print(f"{where}: {json_path}: {message}")
            if errors and status == 0:
                status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
