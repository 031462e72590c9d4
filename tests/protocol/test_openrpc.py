"""The OpenRPC document (``openrpc.json``) against the code it describes.

No jsonschema here on purpose: the checks are structural and written out by hand, so
the protocol package keeps no test-only dependency.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import hookd.protocol
from hookd.daemon.server.dispatch import dispatch_request
from hookd.daemon.server.methods import METHODS
from hookd.protocol import (
    CANCEL_REQUEST,
    ERROR_NAMES,
    HOOK_ASYNC_RESULT,
    HOOK_RUN,
    PROGRESS,
    REQUEST_METHODS,
    load_openrpc,
)

NOTIFICATIONS = {
    PROGRESS: "serverToClient",
    CANCEL_REQUEST: "clientToServer",
    HOOK_ASYNC_RESULT: "serverToClient",
}
SERVER_REQUESTS = {HOOK_RUN}

# Fields the OpenRPC 1.3.2 meta-schema allows; anything else must start with "x-".
DOCUMENT_FIELDS = {"openrpc", "info", "externalDocs", "servers", "methods", "components"}
INFO_FIELDS = {"title", "description", "termsOfService", "version", "contact", "license"}
METHOD_FIELDS = {
    "name",
    "description",
    "summary",
    "servers",
    "tags",
    "paramStructure",
    "params",
    "result",
    "errors",
    "links",
    "examples",
    "deprecated",
    "externalDocs",
}
CONTENT_DESCRIPTOR_FIELDS = {"name", "description", "summary", "schema", "required", "deprecated"}
ERROR_FIELDS = {"code", "message", "data"}  # no extensions allowed on error objects
COMPONENT_FIELDS = {
    "schemas",
    "links",
    "errors",
    "examples",
    "examplePairings",
    "contentDescriptors",
    "tags",
}


def _document() -> dict[str, Any]:
    return load_openrpc()


def _methods() -> list[dict[str, Any]]:
    return list(_document()["methods"])


def _method(name: str) -> dict[str, Any]:
    (method,) = [m for m in _methods() if m["name"] == name]
    return method


def _resolve(pointer: str) -> Any:
    """Follow a local JSON pointer (``#/a/b``) inside the document."""
    assert pointer.startswith("#/"), f"{pointer!r} does not point inside the document"
    node: Any = _document()
    for raw in pointer[2:].split("/"):
        key = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, list):
            node = node[int(key)]
        else:
            assert key in node, f"{pointer!r}: no {key!r}"
            node = node[key]
    return node


def _deref(node: Any) -> Any:
    while isinstance(node, dict) and "$ref" in node:
        node = _resolve(node["$ref"])
    return node


def _refs(node: Any, path: str = "#") -> Iterator[tuple[str, str]]:
    """Every ``$ref`` string in ``node`` with where it occurs."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield path, value
            else:
                yield from _refs(value, f"{path}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _refs(value, f"{path}/{index}")


def _python_params(name: str) -> dict[str, inspect.Parameter]:
    parameters = list(inspect.signature(METHODS[name]).parameters.values())
    assert parameters[0].name == "ctx"
    return {p.name: p for p in parameters[1:]}


def _unknown(fields: set[str], allowed: set[str]) -> set[str]:
    return {f for f in fields - allowed if not f.startswith("x-")}


# (a) the document ---------------------------------------------------------------------
def test_load_openrpc_returns_the_shipped_document() -> None:
    """load_openrpc() parses the openrpc.json next to the package, an OpenRPC 1.3.2 doc."""
    shipped = Path(hookd.protocol.__file__).with_name("openrpc.json")
    document = load_openrpc()
    assert document == json.loads(shipped.read_text("utf-8"))
    assert document["openrpc"] == "1.3.2"
    assert document["info"]["title"] == "hookd"
    assert document["info"]["version"] == "0.1.0"
    assert "Content-Length" in document["info"]["description"]  # the framing is described


async def test_rpc_discover_answers_with_the_document() -> None:
    """rpc.discover answers with exactly the document load_openrpc() returns."""
    message = {"jsonrpc": "2.0", "id": 7, "method": "rpc.discover"}
    response = await dispatch_request(METHODS, None, message)
    assert response == {"jsonrpc": "2.0", "id": 7, "result": load_openrpc()}


# (b) the method names -----------------------------------------------------------------
def test_request_methods_are_exactly_the_served_methods() -> None:
    """Client-to-server methods with a result are exactly the daemon's METHODS table (and
    REQUEST_METHODS); the server-to-client ones are the requests hookd sends."""
    requests = {m["name"] for m in _methods() if "result" in m}
    to_server = {m for m in requests if _method(m).get("x-messageDirection") != "serverToClient"}
    assert to_server == set(METHODS)
    assert to_server == set(REQUEST_METHODS)
    assert requests - to_server == SERVER_REQUESTS


def test_notifications_are_progress_cancel_request_and_async_results() -> None:
    """Methods without a result are exactly $/progress, $/cancelRequest, hook/asyncResult."""
    notifications = {m["name"] for m in _methods() if "result" not in m}
    assert notifications == {"$/progress", "$/cancelRequest", "hook/asyncResult"}
    assert notifications == set(NOTIFICATIONS)


def test_notifications_carry_their_lsp_message_direction() -> None:
    """$/progress is serverToClient and $/cancelRequest clientToServer (x-messageDirection)."""
    for name, direction in NOTIFICATIONS.items():
        assert _method(name)["x-messageDirection"] == direction
    for method in _methods():
        assert method.get("x-messageDirection", "clientToServer") in {
            "clientToServer",
            "serverToClient",
            "both",
        }


# (c) params against the Python signatures ---------------------------------------------
@pytest.mark.parametrize("name", sorted(METHODS))
def test_documented_params_match_the_method_signature(name: str) -> None:
    """The params a method documents are exactly its Python keyword parameters (after ctx)."""
    documented = [_deref(p)["name"] for p in _method(name)["params"]]
    assert len(documented) == len(set(documented)), f"{name}: duplicate param names"
    assert set(documented) == set(_python_params(name))


@pytest.mark.parametrize("name", sorted(METHODS))
def test_params_without_a_python_default_are_required(name: str) -> None:
    """A parameter the Python method cannot do without is documented as required."""
    required = {_deref(p)["name"] for p in _method(name)["params"] if _deref(p).get("required")}
    mandatory = {n for n, p in _python_params(name).items() if p.default is inspect.Parameter.empty}
    assert mandatory <= required


def test_fire_params_match_the_fire_params_typeddict() -> None:
    """fire documents the same param names as hookd.protocol.FireParams."""
    documented = {_deref(p)["name"] for p in _method("fire")["params"]}
    assert documented == set(hookd.protocol.FireParams.__annotations__)


# (d) structure --------------------------------------------------------------------------
def test_every_ref_resolves_inside_the_document() -> None:
    """Every $ref is a local JSON pointer to something that exists in the document."""
    refs = list(_refs(_document()))
    assert refs, "the document is expected to share schemas through $ref"
    for where, pointer in refs:
        assert pointer.startswith("#/"), f"{where}: external $ref {pointer!r}"
        assert _resolve(pointer) is not None, f"{where}: {pointer!r} resolves to null"


def test_every_method_has_a_unique_name_params_and_by_name_structure() -> None:
    """Each method has a unique non-empty name, a params list and paramStructure by-name."""
    names = [m.get("name") for m in _methods()]
    assert all(isinstance(n, str) and n for n in names)
    assert len(names) == len(set(names))
    for method in _methods():
        assert isinstance(method.get("params"), list), method["name"]
        assert method.get("paramStructure") == "by-name", method["name"]
        for param in method["params"]:
            descriptor = _deref(param)
            assert isinstance(descriptor.get("name"), str)
            assert descriptor["name"]
            assert isinstance(descriptor.get("schema"), dict | bool), descriptor["name"]


def test_request_results_are_content_descriptors_and_notifications_have_none() -> None:
    """Request methods describe their result with a schema; notifications have no result."""
    for method in _methods():
        if method["name"] in NOTIFICATIONS:
            assert "result" not in method
            assert not method.get("errors"), f"{method['name']} is never answered"
        else:
            result = _deref(method["result"])
            assert isinstance(result.get("name"), str)
            assert result["name"]
            assert isinstance(result.get("schema"), dict)


def test_error_codes_are_unique_integers_per_method() -> None:
    """Every error a method lists has an integer code, and no code appears twice."""
    lists = [m.get("errors", []) for m in _methods()]
    lists.append(_document().get("x-protocolErrors", []))
    for errors in lists:
        codes = [_deref(e)["code"] for e in errors]
        assert all(isinstance(c, int) and not isinstance(c, bool) for c in codes)
        assert len(codes) == len(set(codes)), codes


def test_error_components_are_the_protocol_error_table() -> None:
    """components.errors holds exactly ERROR_NAMES: each name with its code, each a message."""
    errors = _document()["components"]["errors"]
    assert {name: e["code"] for name, e in errors.items()} == {
        name: code for code, name in ERROR_NAMES.items()
    }
    for error in errors.values():
        assert isinstance(error["message"], str)
        assert error["message"]


def test_only_fields_the_openrpc_meta_schema_allows() -> None:
    """Fields outside the OpenRPC 1.3.2 meta-schema are x- extensions (none on errors)."""
    document = _document()
    assert not _unknown(set(document), DOCUMENT_FIELDS)
    assert not _unknown(set(document["info"]), INFO_FIELDS)
    assert set(document["components"]) <= COMPONENT_FIELDS
    for error in document["components"]["errors"].values():
        assert set(error) <= ERROR_FIELDS
    for method in document["methods"]:
        assert not _unknown(set(method), METHOD_FIELDS), method["name"]
        for descriptor in [*method["params"], method.get("result", {"name": "-", "schema": {}})]:
            if "$ref" not in descriptor:
                assert not _unknown(set(descriptor), CONTENT_DESCRIPTOR_FIELDS), method["name"]
        for error in method.get("errors", []):
            assert set(error) == {"$ref"} or set(error) <= ERROR_FIELDS
