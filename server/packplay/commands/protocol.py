"""``packplay protocol docs``: regenerate (or check) every generated protocol document."""

from __future__ import annotations

import argparse
from typing import Any

from packplay_protocol import specgen


def register(commands: Any) -> None:
    parser = commands.add_parser("protocol", help="the wire protocol's generated documents")
    sub = parser.add_subparsers(dest="protocol_command", required=True, metavar="ACTION")
    docs = sub.add_parser("docs", help="write schemas, AsyncAPI, OpenAPI, vectors and transcripts")
    docs.add_argument("--check", action="store_true", help="change nothing; exit 1 if a document is stale")
    docs.set_defaults(handler=docs_command)


def docs_command(args: argparse.Namespace) -> int:
    # Imported here: the transcripts start a server, which the other commands never need.
    from packplay import transcripts

    specs = specgen.main(["--check"] if args.check else [])
    return max(specs, transcripts.main(check=args.check))
