"""Entry point: `python -m studioshot_engine --engine studio` with the protocol pipe on fd 3."""

from __future__ import annotations

import argparse
import os
import sys

from . import ENGINES, __version__
from .protocol import encode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="studioshot_engine")
    parser.add_argument("--engine", choices=ENGINES, default="studio")
    parser.add_argument("--fd", type=int, default=3, help="protocol pipe")
    args = parser.parse_args(argv)
    try:
        os.write(args.fd, encode("ready", engine=args.engine, version=__version__))
    except OSError as error:
        print(f"protocol pipe fd {args.fd} is not open: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
