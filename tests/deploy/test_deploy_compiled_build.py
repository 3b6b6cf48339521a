"""The compiled build (``PACKPLAY_COMPILE=1``, setup.py): which modules it compiles.

The compiled build itself runs the engines', protocol, conformance and server play tests
in CI (`.ci/run`); here is what can go wrong before a compiler is involved. That the
server image is this build is checked with the image's other stages
(`test_deploy_image.py`).
"""

from __future__ import annotations

import importlib
import runpy
from pathlib import Path

import msgspec
import pytest
from deploy_files import ROOT

SETUP = runpy.run_path(str(ROOT / "setup.py"), run_name="setup_read")
COMPILED: tuple[str, ...] = SETUP["COMPILED_MODULES"]


def module_name(path: str) -> str:
    """``server/packplay/table/rendering.py`` -> ``packplay.table.rendering``."""
    return ".".join(Path(path).with_suffix("").parts[1:])


def test_every_compiled_module_is_a_module_of_a_package() -> None:
    assert COMPILED
    for path in COMPILED:
        assert (ROOT / path).is_file(), path
        assert path.split("/")[0] in ("server", "protocol", "clients"), path


@pytest.mark.parametrize("path", COMPILED)
def test_a_compiled_module_defines_no_message_struct(path: str) -> None:
    # A class compiled by mypyc hides its field annotations from msgspec, which then
    # decodes and describes its fields wrongly: message types stay in pure modules.
    module = importlib.import_module(module_name(path))
    defined = [
        value
        for value in vars(module).values()
        if isinstance(value, type) and value.__module__ == module.__name__
    ]
    assert not [kind for kind in defined if issubclass(kind, msgspec.Struct)]


def test_a_build_without_the_variable_compiles_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PACKPLAY_COMPILE", raising=False)
    assert SETUP["compiled"]() == {}
    monkeypatch.setenv("PACKPLAY_COMPILE", "0")
    assert SETUP["compiled"]() == {}
