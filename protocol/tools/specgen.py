"""The protocol's generated specifications: JSON Schemas, AsyncAPI, OpenAPI and vectors.

It writes ``schema/v2/**.json`` (JSON Schema of every message and body),
``asyncapi.json``, ``openapi.json`` and ``vectors/**.json`` under ``protocol/``, or
lists the files that are stale. ``generate.py`` beside it runs it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec

from packplay_protocol import catalog, from_client, rest, schemas, to_client
from packplay_protocol.asyncapi import asyncapi_document
from packplay_protocol.openapi import openapi_document

from vectors import invalid_cases, vector_files

PROTOCOL_DIR = Path(__file__).resolve().parents[1]
GENERATED_DIRS = ("schema", "vectors")
"""Folders owned by the generator: any file in them that it does not write is stale."""


def documents() -> dict[str, bytes]:
    """Every generated file, by path relative to ``protocol/``."""
    docs: dict[str, Any] = {
        "asyncapi.json": asyncapi_document(),
        "openapi.json": openapi_document(),
        **_message_schemas(),
        **_game_schemas(),
        **_rest_schemas(),
    }
    docs |= {f"vectors/{path}": msgspec.to_builtins(v) for path, v in vector_files().items()}
    docs["vectors/invalid.json"] = {"cases": msgspec.to_builtins(invalid_cases())}
    return {path: _dump(doc) for path, doc in sorted(docs.items())}


def _dump(doc: Any) -> bytes:
    return (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _message_schemas() -> dict[str, Any]:
    docs: dict[str, Any] = {
        "schema/v2/from_client.json": schemas.standalone(from_client.ClientMessage, "Any client message"),
        "schema/v2/to_client.json": schemas.standalone(to_client.ServerMessage, "Any server message"),
    }
    for folder, messages in (
        ("from_client", from_client.CLIENT_MESSAGES),
        ("to_client", to_client.SERVER_MESSAGES),
    ):
        for message in messages:
            tag = catalog.tag_of(message)
            docs[f"schema/v2/{folder}/{tag}.json"] = schemas.standalone(message, f"{tag} message")
    return docs


def _game_schemas() -> dict[str, Any]:
    docs: dict[str, Any] = {}
    for name, game in catalog.GAMES.items():
        base = f"schema/v2/games/{name}"
        docs[f"{base}/action.json"] = schemas.standalone(catalog.union_of(game.actions), f"{name} action")
        docs[f"{base}/view.json"] = schemas.standalone(game.view, f"{name} view")
        docs[f"{base}/event.json"] = schemas.standalone(catalog.union_of(game.events), f"{name} event")
    return docs


def _rest_schemas() -> dict[str, Any]:
    docs = {
        f"schema/v2/rest/{t.__name__}.json": schemas.standalone(t, t.__name__) for t in schemas.REST_TYPES
    }
    docs["schema/v2/rest/CreateGame.json"] = schemas.standalone(rest.CreateGame, "CreateGame")
    return docs


def stale(out: Path) -> list[str]:
    """The paths under ``out`` (a ``protocol/`` folder) that differ from what would be written."""
    return _stale(out, documents())


def write(out: Path) -> list[str]:
    """Write every document under ``out``, removing stale generated files; the changed paths."""
    docs = documents()
    changed = _stale(out, docs)
    for path in changed:
        target = out / path
        if path in docs:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(docs[path])
        else:
            target.unlink()
    _remove_empty_folders(out)
    return changed


def _remove_empty_folders(out: Path) -> None:
    for folder in GENERATED_DIRS:
        for path in sorted((out / folder).rglob("*"), reverse=True):
            if path.is_dir() and not any(path.iterdir()):
                path.rmdir()


def _stale(out: Path, docs: dict[str, bytes]) -> list[str]:
    existing = {
        p.relative_to(out).as_posix()
        for folder in GENERATED_DIRS
        if (out / folder).is_dir()
        for p in (out / folder).rglob("*.json")
    }
    differing = [p for p, data in docs.items() if not (out / p).is_file() or (out / p).read_bytes() != data]
    return sorted(differing + [p for p in existing if p not in docs])
