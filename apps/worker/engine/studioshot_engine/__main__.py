"""Entry point: `python -m studioshot_engine --engine studio` with the protocol pipe on fd 3."""

from __future__ import annotations

import argparse
import os
import signal
import sys

from . import ENGINES, __version__, protocol
from .channel import Channel
from .jobs import Trainer
from .loop import EngineLoop

EXIT_USAGE = 2


def load_trainer(engine: str) -> Trainer | None:
    """The engine's trainer, fully loaded (imports, detector files) so that `ready` means ready."""
    if engine == "studio":
        # Imported here: only this engine pays for OpenCV and numpy.
        from .studio.training import StudioTrainer  # noqa: PLC0415

        return StudioTrainer()
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="studioshot_engine")
    parser.add_argument("--engine", choices=ENGINES, default="studio")
    parser.add_argument("--fd", type=int, default=3, help="protocol pipe")
    args = parser.parse_args(argv)
    # A parent may have left SIGTERM ignored; the worker's shutdown relies on it ending us.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        os.fstat(args.fd)
    except OSError as error:
        print(f"protocol pipe fd {args.fd} is not open: {error}", file=sys.stderr)
        return EXIT_USAGE
    trainer = load_trainer(args.engine)
    if trainer is None:
        print(f"the {args.engine} engine is not available in this build", file=sys.stderr)
        return EXIT_USAGE
    channel = Channel(args.fd)
    channel.send(protocol.ready(args.engine, __version__))
    EngineLoop(channel, trainer).serve_forever()


if __name__ == "__main__":
    sys.exit(main())
