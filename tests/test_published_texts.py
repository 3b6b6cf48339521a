"""Published texts are plain prose in JSON's words: the descriptions of every generated
document (OpenAPI, AsyncAPI, JSON Schemas), the configuration reference (made from the
settings' docstrings) and every `packplay --help` screen carry no Python markup (double
backticks, Sphinx roles) and say null, true and false, never None, True and False."""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from packplay.cli import build_parser

PROTOCOL = Path(__file__).resolve().parents[1] / "protocol"
CONFIGURATION = Path(__file__).resolve().parents[1] / "deploy" / "configuration.md"
PYTHON_MARKUP = re.compile(r"``|:(?:class|func|meth|mod|attr):|\bNone\b|\bTrue\b|\bFalse\b")
DOCUMENTS = sorted(
    [PROTOCOL / "openapi.json", PROTOCOL / "asyncapi.json", *(PROTOCOL / "schema").rglob("*.json")]
)


def _texts(node: Any, where: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("description", "summary", "title") and isinstance(value, str):
                yield f"{where}/{key}", value
            else:
                yield from _texts(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _texts(value, f"{where}/{index}")


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.relative_to(PROTOCOL).as_posix())
def test_document_descriptions_carry_no_python_markup(document: Path) -> None:
    texts = list(_texts(json.loads(document.read_text(encoding="utf-8"))))
    assert texts, "every document describes something"
    assert [(where, text) for where, text in texts if PYTHON_MARKUP.search(text)] == []


def test_the_configuration_reference_carries_no_python_markup() -> None:
    lines = CONFIGURATION.read_text(encoding="utf-8").splitlines()
    assert [line for line in lines if PYTHON_MARKUP.search(line)] == []


def _screens(parser: argparse.ArgumentParser, name: str) -> Iterator[tuple[str, str]]:
    yield name, parser.format_help()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command, sub in action.choices.items():
                yield from _screens(sub, f"{name} {command}")


def test_help_screens_carry_no_python_markup() -> None:
    screens = list(_screens(build_parser(), "packplay"))
    assert len(screens) > 10, "every subcommand has a screen"
    found = [
        (name, line.strip())
        for name, text in screens
        for line in text.splitlines()
        if PYTHON_MARKUP.search(line)
    ]
    assert found == []
