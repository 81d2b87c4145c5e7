"""The flux engine: personal FLUX.1 LoRAs trained with peft and generated with diffusers (GPU).

Weights come from a local directory in the diffusers layout (ENGINE_FLUX_WEIGHTS_DIR); the hub is
never reached. Its dependencies (torch, diffusers, peft...) live in their own virtualenv
(apps/worker/engine/.venv-flux, requirements-flux.lock), so the studio engine never imports them.
"""

from __future__ import annotations

from collections.abc import Callable

from ..jobs import Generator, Trainer
from .settings import SettingsError, load_settings
from .weights import WeightsError, check_weights_dir, offline

EXIT_USAGE = 2
EXIT_BROKEN_INSTALL = 3


class FluxEngineError(RuntimeError):
    """The engine cannot start: a setting, the weights or the device. `exit_code` says which."""

    def __init__(self, message: str, exit_code: int) -> None:
        super().__init__(message)
        self.exit_code = exit_code


def flux_engine() -> tuple[Trainer, Callable[[], Generator]]:
    """The trainer and the generator factory, after checking the settings and the weights directory
    and importing torch and diffusers (so `ready` means ready); weights load on the first job."""
    try:
        settings = load_settings()
    except SettingsError as error:
        raise FluxEngineError(str(error), EXIT_USAGE) from None
    # Before torch and the Hugging Face libraries are imported: they read these when they load.
    from .speed import configure_compile_cache  # noqa: PLC0415

    configure_compile_cache(settings)
    offline()
    try:
        check_weights_dir(settings.weights_dir)
        from .weights import resolve_runtime  # noqa: PLC0415

        runtime = resolve_runtime(settings)
    except WeightsError as error:
        raise FluxEngineError(str(error), EXIT_BROKEN_INSTALL) from None
    from .generate import FluxGenerator  # noqa: PLC0415
    from .training import FluxTrainer  # noqa: PLC0415

    return FluxTrainer(settings, runtime), lambda: FluxGenerator(settings, runtime)
