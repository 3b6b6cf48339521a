"""The generated documents are current and valid, and every vector agrees with its schema and the codec."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from openapi_spec_validator import validate as validate_openapi

from packplay_protocol import codec, route_table
from packplay_protocol.asyncapi import asyncapi_document
from packplay_protocol.codec import Direction
from packplay_protocol.errors import DecodeError
from packplay_protocol.openapi import openapi_document
from packplay_protocol.version import PROTOCOL_VERSION, Encoding

import specgen
from vectors import complete

PROTOCOL = Path(__file__).resolve().parents[2] / "protocol"
DATA = Path(__file__).resolve().parent / "data"
SCHEMA_FILES = sorted((PROTOCOL / "schema").rglob("*.json"))
VECTOR_FILES = sorted(p for p in (PROTOCOL / "vectors").rglob("*.json") if p.name != "invalid.json")


def _load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def test_checked_in_documents_are_current() -> None:
    assert specgen.stale(PROTOCOL) == [], "run: python protocol/tools/generate.py"


def test_the_generators_run_as_a_script_from_any_folder(tmp_path: Path) -> None:
    # No package: the script's own folder on sys.path is how its modules find one another.
    command = [sys.executable, str(PROTOCOL / "tools" / "generate.py"), "--help"]
    ran = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr
    assert "--check" in ran.stdout


def test_check_mode_notices_a_stale_and_an_extra_file(tmp_path: Path) -> None:
    specgen.write(tmp_path)
    assert specgen.stale(tmp_path) == []
    (tmp_path / "openapi.json").write_text("{}")
    (tmp_path / "vectors" / "left_over.json").write_text("{}")
    assert specgen.stale(tmp_path) == ["openapi.json", "vectors/left_over.json"]
    assert sorted(specgen.write(tmp_path)) == ["openapi.json", "vectors/left_over.json"]
    assert specgen.stale(tmp_path) == []


@pytest.mark.parametrize("path", SCHEMA_FILES, ids=lambda p: str(p.relative_to(PROTOCOL)))
def test_schema_files_are_valid_json_schema(path: Path) -> None:
    jsonschema.Draft202012Validator.check_schema(_load(path))


def test_openapi_document_is_valid_openapi_3_1() -> None:
    document = _load(PROTOCOL / "openapi.json")
    assert document == json.loads(json.dumps(openapi_document()))
    validate_openapi(document)


def test_openapi_document_lists_exactly_the_routes() -> None:
    paths = _load(PROTOCOL / "openapi.json")["paths"]
    listed = {(method.upper(), path) for path, ops in paths.items() for method in ops}
    assert listed == {(r.method, r.path) for r in route_table.ROUTES}


def test_asyncapi_document_is_valid_asyncapi_3() -> None:
    document = _load(PROTOCOL / "asyncapi.json")
    assert document == json.loads(json.dumps(asyncapi_document()))
    validator = jsonschema.Draft7Validator(_load(DATA / "asyncapi-3.0.0.schema.json"))
    assert [e.message for e in validator.iter_errors(document)] == []


def test_the_asyncapi_validator_does_reject_a_broken_document() -> None:
    document = _load(PROTOCOL / "asyncapi.json")
    document["operations"]["send_pong"]["action"] = "shout"
    validator = jsonschema.Draft7Validator(_load(DATA / "asyncapi-3.0.0.schema.json"))
    assert not validator.is_valid(document)


def test_every_message_type_has_vectors() -> None:
    schemas = {p.relative_to(PROTOCOL / "schema" / f"v{PROTOCOL_VERSION}").as_posix() for p in SCHEMA_FILES}
    messages = {s for s in schemas if s.startswith(("from_client/", "to_client/"))}
    vectors = {p.relative_to(PROTOCOL / "vectors").as_posix() for p in VECTOR_FILES}
    assert vectors == messages


def _cases() -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    out = []
    for path in VECTOR_FILES:
        vector = _load(path)
        out += [(f"{vector['direction']}/{vector['type']}/{c['name']}", vector, c) for c in vector["cases"]]
    return out


@pytest.mark.parametrize(("name", "vector", "case"), _cases(), ids=lambda v: v if isinstance(v, str) else "")
def test_vector_matches_its_schema_and_decodes_to_its_message(
    name: str, vector: dict[str, Any], case: dict[str, Any]
) -> None:
    schema_path = (PROTOCOL / "vectors" / vector["direction"] / vector["schema"]).resolve()
    jsonschema.Draft202012Validator(_load(schema_path)).validate(case["message"])
    jsonschema.Draft202012Validator(_load(schema_path)).validate(json.loads(case["json"]))
    direction = Direction(vector["direction"])
    for encoding, frame in (
        (Encoding.JSON, case["json"].encode("utf-8")),
        (Encoding.MSGPACK, bytes.fromhex(case["msgpack_hex"])),
    ):
        decoded = codec.decode(frame, encoding, direction)
        assert not isinstance(decoded, DecodeError), decoded
        assert complete(decoded) == case["message"]  # what was left out is read as its default
        assert json.loads(codec.encode(decoded, Encoding.JSON)) == json.loads(case["json"])


@pytest.mark.parametrize(
    "case", _load(PROTOCOL / "vectors" / "invalid.json")["cases"], ids=lambda c: c["name"]
)
def test_invalid_vector_gets_its_error_code(case: dict[str, Any]) -> None:
    frame = bytes.fromhex(case["frame_hex"])
    result = codec.decode(frame, Encoding(case["encoding"]), Direction(case["direction"]))
    assert isinstance(result, DecodeError)
    assert result.code == case["code"]
