"""Every request the bot sends, checked against Discord's own OpenAPI description.

The loopback's hand-written rules (``limits.py``) know the limits someone thought of;
Discord publishes the whole request side of its API as OpenAPI 3.1, and this module
checks each REST request the loopback receives against it:

- the route and method exist (``/channels/{channel_id}/messages``, ``POST``), and the
  path parameters fit their schemas (a snowflake is digits);
- every query parameter is one the operation declares, and its value fits;
- the JSON body (or a multipart body's ``payload_json`` part) validates against the
  operation's ``requestBody`` schema (JSON Schema 2020-12, ``$ref`` resolved over the
  whole document), and a required body is present.

The spec is ``spec/openapi.json``, Discord's published file vendored byte for byte and
pinned by its SHA-256 below (``spec/README.md`` says where it comes from and how to
update it). It is read once per process; each operation's validators are compiled on
first use and kept.

Where the spec is wrong about what Discord accepts, the correction is a named entry of
``SPEC_EXCEPTIONS``, with its reason, and nowhere else.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, relevance
from referencing import Registry
from referencing.jsonschema import DRAFT202012

SPEC_DIR = Path(__file__).parent / "spec"
SPEC_FILE = SPEC_DIR / "openapi.json"
# Discord's "Automated spec update (242668)" of specs/openapi.json (the stable spec,
# not openapi_preview.json), commit 74fda0fad044407ea280043a03ffc9bc64c4e49e, 2026-07-18
SPEC_BUILD = "242668"
SPEC_SHA256 = "8c1d0707ccdf8e380a86dfba04058820a66435c1b69d5ed82e04dd8c0520dd73"
_BASE_URI = "urn:discord:openapi"
JSON_SCHEMA = ("content", "application/json", "schema")
METHODS = ("get", "put", "post", "patch", "delete", "head", "options")


@dataclass(frozen=True)
class SpecProblem:
    """One way a request breaks the spec: ``kind`` is the loopback violation it records."""

    # "spec_route": no such route or method; "spec_request": parameters or body;
    # "loopback_response": the loopback's own answer is not what Discord's would be
    kind: str
    message: str
    where: tuple[str | int, ...] = ()  # in the body, for Discord's error body
    status: int = 400  # what Discord answers: 404 no such route, 405 no such method

    def __str__(self) -> str:
        return self.message


class SpecUnavailable(RuntimeError):
    """The vendored spec is missing or is not the pinned file."""


# ---------------------------------------------------------------- exceptions to the spec


def _snowflake_as_integer(doc: dict[str, Any]) -> None:
    """Discord reads a snowflake sent as a JSON integer as well as a string of digits.

    The spec types ``SnowflakeType`` as a digit string only, but the API parses either
    (the spec's own README: "Our API accepts strings for int fields if they are
    parseable as ints", and the converse holds for ids); discord.py sends ids as
    integers (``recipient_id``, ``message_reference.message_id``, ``applied_tags``,
    command ``channel_types`` …). Only non-negative integers are let through.
    """
    schemas = doc["components"]["schemas"]
    schemas["SnowflakeType"] = {
        "anyOf": [schemas["SnowflakeType"], {"type": "integer", "minimum": 0}]
    }


# name -> patch (its docstring is the reason). Each loosens the spec at one named place.
SPEC_EXCEPTIONS: dict[str, Callable[[dict[str, Any]], None]] = {
    "snowflake_as_integer": _snowflake_as_integer,
}


# ---------------------------------------------------------------- loading


def _read_spec() -> dict[str, Any]:
    if not SPEC_FILE.is_file():
        raise SpecUnavailable(
            f"Discord's OpenAPI spec is missing at {SPEC_FILE}: it is committed to the repository "
            "(see tests/loopback/spec/README.md); restore it with `git checkout -- "
            "tests/loopback/spec/openapi.json`"
        )
    raw = SPEC_FILE.read_bytes()
    digest = hashlib.sha256(raw).hexdigest()
    if digest != SPEC_SHA256:
        raise SpecUnavailable(
            f"{SPEC_FILE} is not the pinned Discord spec (sha256 {digest}, pinned {SPEC_SHA256}); "
            "to update it, follow tests/loopback/spec/README.md and change SPEC_SHA256 with it"
        )
    doc: dict[str, Any] = json.loads(raw)
    for patch in SPEC_EXCEPTIONS.values():
        patch(doc)
    return doc


def _pointer(*segments: str) -> str:
    return "#/" + "/".join(s.replace("~", "~0").replace("/", "~1") for s in segments)


@dataclass
class Parameter:
    name: str
    required: bool
    validator: Draft202012Validator
    kinds: frozenset[str]  # JSON types the schema admits, for coercing query strings


@dataclass
class Operation:
    method: str  # upper case
    template: str
    operation_id: str
    pattern: re.Pattern[str]
    literal_segments: int
    path_params: dict[str, Parameter]
    query_params: dict[str, Parameter]
    body_required: bool
    body_validator: Draft202012Validator | None
    body_types: tuple[str, ...] = field(default_factory=tuple)
    responses: dict[int, Draft202012Validator | None] = field(default_factory=dict)


class DiscordSpec:
    """Discord's OpenAPI document, compiled into per-operation validators on demand."""

    def __init__(self, doc: dict[str, Any]) -> None:
        self.doc = doc
        self.registry: Registry[Any] = Registry().with_resource(
            _BASE_URI, DRAFT202012.create_resource(doc)
        )
        # template -> (compiled path pattern, methods the spec has for it)
        self.templates: list[tuple[str, re.Pattern[str], int, frozenset[str]]] = []
        for template, item in doc["paths"].items():
            pattern = re.compile(re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template)))
            literals = sum(1 for s in template.split("/") if s and not s.startswith("{"))
            methods = frozenset(m.upper() for m in item if m in METHODS)
            self.templates.append((template, pattern, literals, methods))
        # the most literal template first: /users/@me before /users/{user_id}
        self.templates.sort(key=lambda t: -t[2])
        self._operations: dict[tuple[str, str], Operation] = {}

    def validator(self, *pointer: str) -> Draft202012Validator:
        schema = {"$ref": _BASE_URI + _pointer(*pointer)}
        return Draft202012Validator(schema, registry=self.registry)

    def operation(self, method: str, template: str) -> Operation:
        key = (method, template)
        if key not in self._operations:
            self._operations[key] = self._compile(method, template)
        return self._operations[key]

    def _compile(self, method: str, template: str) -> Operation:
        item = self.doc["paths"][template]
        op = item[method.lower()]
        params: dict[tuple[str, str], tuple[int, dict[str, Any], tuple[str, ...]]] = {}
        for where, owner in (
            (("paths", template), item),
            (("paths", template, method.lower()), op),
        ):
            for i, p in enumerate(owner.get("parameters", [])):
                params[(p["in"], p["name"])] = (i, p, where)
        path_params: dict[str, Parameter] = {}
        query_params: dict[str, Parameter] = {}
        for (where, name), (i, p, owner_path) in params.items():
            parameter = Parameter(
                name,
                bool(p.get("required")),
                self.validator(*owner_path, "parameters", str(i), "schema"),
                self._kinds(p.get("schema", {})),
            )
            if where == "path":
                path_params[name] = parameter
            elif where == "query":
                query_params[name] = parameter
        body = op.get("requestBody")
        body_validator = None
        body_types: tuple[str, ...] = ()
        if body is not None:
            content = body.get("content", {})
            body_types = tuple(content)
            if "application/json" in content:
                where = ("paths", template, method.lower(), "requestBody")
                body_validator = self.validator(*where, *JSON_SCHEMA)
        template_pattern = next(t[1] for t in self.templates if t[0] == template)
        literals = next(t[2] for t in self.templates if t[0] == template)
        return Operation(
            method,
            template,
            op.get("operationId", ""),
            template_pattern,
            literals,
            path_params,
            query_params,
            bool(body and body.get("required")),
            body_validator,
            body_types,
        )

    def _kinds(self, schema: Mapping[str, Any], depth: int = 0) -> frozenset[str]:
        """The JSON types a (parameter) schema admits, following refs and unions."""
        if depth > 8:
            return frozenset()
        if "$ref" in schema:
            name = schema["$ref"].rsplit("/", 1)[-1]
            return self._kinds(self.doc["components"]["schemas"].get(name, {}), depth + 1)
        kinds: set[str] = set()
        declared = schema.get("type")
        if isinstance(declared, str):
            kinds.add(declared)
        elif isinstance(declared, list):
            kinds.update(declared)
        for key in ("anyOf", "oneOf", "allOf"):
            for sub in schema.get(key, []):
                kinds |= self._kinds(sub, depth + 1)
        return frozenset(kinds)

    # ------------------------------------------------------------ checking

    def check(
        self,
        method: str,
        path: str,
        query: Mapping[str, str],
        body: Any,
        *,
        has_body: bool,
    ) -> list[SpecProblem]:
        """What is wrong with this request by Discord's spec (empty when nothing is)."""
        candidates = [t for t in self.templates if t[1].fullmatch(path)]
        if not candidates:
            message = f"{method} {path}: no such route in Discord's API"
            return [SpecProblem("spec_route", message, status=404)]
        with_method = [t for t in candidates if method in t[3]]
        if not with_method:
            allowed = sorted(set().union(*(t[3] for t in candidates)))
            message = (
                f"{method} {path}: Discord's {candidates[0][0]} has no {method} "
                f"(it has {', '.join(allowed)})"
            )
            return [SpecProblem("spec_route", message, status=405)]
        first_problems: list[SpecProblem] | None = None
        for template, pattern, _, _ in with_method:
            op = self.operation(method, template)
            match = pattern.fullmatch(path)
            assert match is not None
            problems = list(self._path_problems(op, match.groupdict()))
            if not problems:
                return list(self._query_problems(op, query)) + list(
                    self._body_problems(op, body, has_body)
                )
            if first_problems is None:
                first_problems = problems
        return first_problems or []

    def check_response(self, method: str, path: str, status: int, body: Any) -> list[SpecProblem]:
        """What is wrong with the loopback's successful JSON answer, by the spec's schema."""
        op = self._resolve(method, path)
        if op is None:
            return []
        if status not in op.responses:
            item = self.doc["paths"][op.template][method.lower()].get("responses", {})
            content = item.get(str(status), {}).get("content", {})
            where = ("paths", op.template, method.lower(), "responses", str(status))
            json_content = "application/json" in content
            op.responses[status] = self.validator(*where, *JSON_SCHEMA) if json_content else None
        validator = op.responses[status]
        error = None if validator is None else _first_error(validator, body)
        if error is None:
            return []
        message = (
            f"{method} {op.template}: the loopback answered {status} with {error.json_path}: "
            f"{_say(error)} (make tests/loopback answer as Discord does)"
        )
        return [SpecProblem("loopback_response", message)]

    def _resolve(self, method: str, path: str) -> Operation | None:
        for template, pattern, _, methods in self.templates:
            match = pattern.fullmatch(path)
            if match and method in methods:
                op = self.operation(method, template)
                if not any(self._path_problems(op, match.groupdict())):
                    return op
        return None

    def _path_problems(self, op: Operation, values: dict[str, str]) -> Iterator[SpecProblem]:
        for name, value in values.items():
            param = op.path_params.get(name)
            if param is None:
                continue
            error = _best(param.validator.iter_errors(value))
            if error is not None:
                yield _problem(op, f"path parameter {name}={value!r}: {_say(error)}")

    def _query_problems(self, op: Operation, query: Mapping[str, str]) -> Iterator[SpecProblem]:
        for name, raw in query.items():
            param = op.query_params.get(name)
            if param is None:
                known = ", ".join(sorted(op.query_params)) or "none"
                yield _problem(op, f"unknown query parameter {name!r} (it takes: {known})")
                continue
            value = _coerce(raw, param.kinds)
            error = _best(param.validator.iter_errors(value))
            if error is not None:
                yield _problem(op, f"query {name}={raw!r}: {_say(error)}")
        for name, param in op.query_params.items():
            if param.required and name not in query:
                yield _problem(op, f"required query parameter {name!r} is missing")

    def _body_problems(self, op: Operation, body: Any, has_body: bool) -> Iterator[SpecProblem]:
        if not has_body:
            if op.body_required:
                yield _problem(op, "the request body is required")
            return
        if op.body_validator is None:
            if not op.body_types:
                yield _problem(op, "this operation takes no request body")
            return
        error = _first_error(op.body_validator, body)
        if error is not None:
            message = f"body {error.json_path}: {_say(error)}"
            yield _problem(op, message, tuple(error.absolute_path))


def _problem(op: Operation, message: str, where: tuple[str | int, ...] = ()) -> SpecProblem:
    return SpecProblem("spec_request", f"{op.method} {op.template}: {message}", where)


# A body already found valid by a validator is not walked again: the command tree a
# test bot syncs (and the loopback's answer to it) is ~60 KB of Discord's deepest
# unions and took a second or more to check, in every end-to-end test. Snowflakes
# are read as one: whether a body is valid does not depend on which ids it holds.
_SNOWFLAKE = re.compile(r'"[1-9][0-9]{15,19}"')
_KNOWN_VALID: dict[tuple[int, str], None] = {}
_KNOWN_VALID_MAX = 512


def _first_error(validator: Draft202012Validator, instance: Any) -> ValidationError | None:
    """``_best`` of the validator's errors for ``instance``, remembering what was valid."""
    try:
        text = json.dumps(instance, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError):
        return _best(validator.iter_errors(instance))
    key = (id(validator), _SNOWFLAKE.sub('"100000000000000000"', text))
    if key in _KNOWN_VALID:
        return None
    error = _best(validator.iter_errors(instance))
    if error is None:
        if len(_KNOWN_VALID) >= _KNOWN_VALID_MAX:
            _KNOWN_VALID.pop(next(iter(_KNOWN_VALID)))
        _KNOWN_VALID[key] = None
    return error


def _best(errors: Iterable[ValidationError]) -> ValidationError | None:
    """The error that explains the failure, looking inside Discord's tagged unions.

    Discord's unions (components, command options, callbacks) are told apart by a
    ``type`` tag, so a branch whose tag or JSON type does not fit is not the one meant;
    the error reported is the best one inside the branch that does fit, if any.
    """
    errors = list(errors)
    if not errors:
        return None
    error = max(errors, key=relevance)
    while error.validator in ("anyOf", "oneOf") and error.context:
        branches: dict[Any, list[ValidationError]] = {}
        for sub in error.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        meant = [errs for errs in branches.values() if not any(map(_rules_out, errs))]
        if not meant:
            break
        error = max(min(meant, key=len), key=relevance)
    return error


def _rules_out(error: ValidationError) -> bool:
    """True when this error says the instance is not the kind of thing the branch is."""
    where = list(error.relative_path)
    if error.validator == "type" and not where:
        return True
    return error.validator in ("enum", "const") and where == ["type"]


def _coerce(raw: str, kinds: frozenset[str]) -> Any:
    """A query string's value as the JSON type its schema wants (when it reads as one)."""
    if "string" in kinds:
        return raw
    # Discord's reference, "Boolean Query Strings": True, true and 1; False, false and 0
    if "boolean" in kinds and raw in ("True", "true", "1", "False", "false", "0"):
        return raw in ("True", "true", "1")
    if "integer" in kinds and re.fullmatch(r"-?\d+", raw):
        return int(raw)
    if "number" in kinds:
        try:
            return float(raw)
        except ValueError:
            return raw
    return raw


def _short(value: Any, limit: int = 60) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    if isinstance(value, str) and len(value) > limit:
        return f"a string of {len(value)} characters ({value[:20]!r}…)"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _say(error: ValidationError) -> str:
    """The schema error in a line: which keyword failed, on what value."""
    value = _short(error.instance)
    keyword, expected = error.validator, error.validator_value
    if keyword in ("maxLength", "minLength", "maxItems", "minItems", "maximum", "minimum"):
        size = len(error.instance) if isinstance(error.instance, str | list) else error.instance
        return f"{value} fails {keyword}={expected} (it is {size})"
    if keyword == "type":
        return f"{value} is not of type {expected}"
    if keyword == "required":
        return error.message
    if keyword in ("enum", "const", "pattern"):
        return f"{value} fails {keyword}={_short(expected)}"
    message = error.message
    return message if len(message) <= 200 else f"{value} fails {keyword}"


@functools.cache
def discord_spec() -> DiscordSpec:
    """The pinned spec, read and compiled once per process."""
    return DiscordSpec(_read_spec())


__all__ = [
    "SPEC_BUILD",
    "SPEC_EXCEPTIONS",
    "DiscordSpec",
    "SpecProblem",
    "SpecUnavailable",
    "discord_spec",
]
