"""Entry point: `python -m studioshot_engine --engine studio` with the protocol pipe on fd 3."""

from __future__ import annotations

import argparse
import importlib.util
import os
import signal
import sys

from . import ENGINES, __version__, protocol
from .answer_after import AnswerAfter, answer_after_ms
from .channel import Channel
from .jobs import Generator, Trainer
from .loop import EngineLoop, GeneratorFactory

EXIT_USAGE = 2
EXIT_BROKEN_INSTALL = 3


def load_trainer(engine: str) -> Trainer | None:
    """The engine's trainer, fully loaded (imports, detector and segmentation models) so that `ready`
    means ready."""
    if engine == "studio":
        # Imported here: only this engine pays for OpenCV, numpy and the TFLite runtime.
        from .studio.training import StudioTrainer  # noqa: PLC0415

        return StudioTrainer()
    return None


def generator_factory(engine: str) -> GeneratorFactory | None:
    """Makes the engine's generator on the first generate job (its imports are not paid by training)."""
    if engine != "studio":
        return None

    def make() -> Generator:
        from .studio.generate import StudioGenerator  # noqa: PLC0415

        return StudioGenerator()

    return make


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
    try:
        protocol.load_validators()
    except RuntimeError as error:
        print(f"studioshot_engine: {error}", file=sys.stderr)
        return EXIT_BROKEN_INSTALL
    if args.engine == "flux":
        # Only the flux engine's virtualenv (.venv-flux) has torch and diffusers.
        if not all(importlib.util.find_spec(name) for name in ("torch", "diffusers", "peft")):
            print(
                "the flux engine is not available in this build: torch, diffusers and peft are installed in "
                "its own virtualenv, apps/worker/engine/.venv-flux",
                file=sys.stderr,
            )
            return EXIT_USAGE
        from .flux import FluxEngineError, flux_engine  # noqa: PLC0415

        try:
            trainer, make_generator = flux_engine()
        except FluxEngineError as error:
            print(f"studioshot_engine: {error}", file=sys.stderr)
            return error.exit_code
        factory: GeneratorFactory | None = make_generator
    else:
        studio = load_trainer(args.engine)
        if studio is None:
            print(f"the {args.engine} engine is not available in this build", file=sys.stderr)
            return EXIT_USAGE
        trainer, factory = studio, generator_factory(args.engine)
    try:
        sleep_ms = answer_after_ms(os.environ)
    except ValueError as error:
        print(f"studioshot_engine: {error}", file=sys.stderr)
        return EXIT_USAGE
    if sleep_ms is not None:
        # A development convenience: every job is answered after a fixed sleep (answer_after.py).
        stand_in = AnswerAfter(sleep_ms)
        trainer, factory = stand_in, lambda: stand_in
    channel = Channel(args.fd)
    channel.send(protocol.ready(args.engine, __version__))
    EngineLoop(channel, trainer, factory).serve_forever()


if __name__ == "__main__":
    sys.exit(main())
