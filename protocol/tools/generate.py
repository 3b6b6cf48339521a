"""Regenerate every generated document of the protocol, or check that they are current.

    python protocol/tools/generate.py            # write what is stale
    python protocol/tools/generate.py --check    # change nothing; exit 1 naming each stale file

First the specifications (``specgen``): the JSON Schemas, ``asyncapi.json``,
``openapi.json`` and the conformance vectors (``vectors``, built from the hand-written
messages of ``examples``). Then the annotated transcripts of real games
(``transcripts``), which start a sandbox server with a private Redis-compatible server
and play each game through the Python SDK. Everything lands in the ``protocol/`` folder
above this one, whatever the current directory.

This folder is no package and is not installed. Run the script with the project
installed (``pip install -e .``): Python puts a script's own folder first on
``sys.path``, so the modules beside it import one another by their plain names
(``import specgen``). The tests import them the same way, through ``pythonpath`` in
``pyproject.toml``. No module of the installed packages imports them.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import specgen
import transcripts

RUN = "python protocol/tools/generate.py"


def main(argv: Sequence[str] | None = None, out: Path = specgen.PROTOCOL_DIR) -> int:
    """Command line entry point; the exit status."""
    parser = argparse.ArgumentParser(
        prog=RUN, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a file is stale")
    args = parser.parse_args(argv)
    return check(out) if args.check else write(out)


def check(out: Path) -> int:
    """Name each stale file on stderr; 1 when there is one."""
    stale = specgen.stale(out) + transcripts.stale(out)
    for path in stale:
        print(f"stale: {out.name}/{path}", file=sys.stderr)
    if stale:
        print(f"run: {RUN}", file=sys.stderr)
    return 1 if stale else 0


def write(out: Path) -> int:
    """Write every stale file, naming each."""
    for path in specgen.write(out) + transcripts.write(out):
        print(f"wrote {out.name}/{path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
