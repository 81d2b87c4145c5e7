"""The flux engine's settings, read once from the environment (the worker passes every ENGINE_* variable).

Each has a production default; a value that does not parse stops the engine before `ready`, naming
the variable, so a misconfigured worker is found when it starts rather than on a user's job.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

PREFIX = "ENGINE_FLUX_"
DEFAULT_WEIGHTS_DIR = "/var/lib/studioshot/flux"
# The spec's generation defaults (api-spec: steps 20, guidance 2.5).
DEFAULT_STEPS = 20
DEFAULT_GUIDANCE = 2.5

DEFAULT_COMPILE_CACHE_DIR = Path("~/.cache/studioshot/torch-compile").expanduser()

Switch = Literal["auto", "on", "off"]


class SettingsError(ValueError):
    """A setting that does not parse; the message names the variable."""


@dataclass(frozen=True)
class FluxSettings:
    weights_dir: Path
    device: str  # "auto", "cpu", "cuda", "cuda:1"...
    dtype: str  # "auto" (bfloat16 on a GPU, float32 on a CPU), "bfloat16", "float16", "float32"
    # Training (a LoRA on the transformer). Defaults suit faces on FLUX.1: rank 16, 1000 steps of 512 px
    # at 4e-4 (what common face trainers use), one image per step.
    lora_rank: int = 16
    lora_alpha: float = 16.0
    learning_rate: float = 4e-4
    train_steps: int = 1000
    train_resolution: int = 512
    checkpoint_every: int = 250
    gradient_checkpointing: Switch = "auto"  # auto: turned on when a step runs out of GPU memory
    seed: int = 0
    # Text: T5 tokens kept per prompt, for training and generation (FLUX.1-schnell allows at most 256).
    max_sequence_length: int = 256
    # Generation.
    steps: int = DEFAULT_STEPS
    guidance_scale: float = DEFAULT_GUIDANCE
    # Speed.
    compile: Switch = "auto"  # auto: on a GPU
    compile_cache_dir: Path = DEFAULT_COMPILE_CACHE_DIR
    # static: one compiled graph per image size and count (faster kernels; a warm worker sees few shapes).
    compile_shapes: str = "dynamic"
    step_cache: float = 0.0  # > 0: first-block cache threshold (reuses the transformer's output on similar steps)
    fp8: Switch = "off"  # on: the block linears multiply in fp8 (fp8.py), LoRAs merged per job

    @property
    def lora_scale(self) -> float:
        return self.lora_alpha / self.lora_rank


def load_settings(env: Mapping[str, str] | None = None) -> FluxSettings:
    source = os.environ if env is None else env
    read = _Reader(source)
    settings = FluxSettings(
        weights_dir=Path(read.text("WEIGHTS_DIR", DEFAULT_WEIGHTS_DIR)).expanduser(),
        device=read.text("DEVICE", "auto"),
        dtype=read.choice("DTYPE", "auto", ("auto", "bfloat16", "float16", "float32")),
        lora_rank=read.integer("LORA_RANK", 16, minimum=1, maximum=256),
        lora_alpha=read.number("LORA_ALPHA", 16.0, minimum=1e-3),
        learning_rate=read.number("LORA_LEARNING_RATE", 4e-4, minimum=1e-7, maximum=1.0),
        train_steps=read.integer("LORA_STEPS", 1000, minimum=1, maximum=100_000),
        train_resolution=read.integer("LORA_RESOLUTION", 512, minimum=64, maximum=2048, multiple_of=16),
        checkpoint_every=read.integer("LORA_CHECKPOINT_EVERY", 250, minimum=1),
        gradient_checkpointing=read.switch("GRADIENT_CHECKPOINTING", "auto"),
        seed=read.integer("LORA_SEED", 0, minimum=0, maximum=2**31 - 1),
        max_sequence_length=read.integer("MAX_SEQUENCE_LENGTH", 256, minimum=16, maximum=512),
        steps=read.integer("STEPS", DEFAULT_STEPS, minimum=1, maximum=150),
        guidance_scale=read.number("GUIDANCE", DEFAULT_GUIDANCE, minimum=0.0, maximum=30.0),
        compile=read.switch("COMPILE", "auto"),
        compile_cache_dir=Path(read.text("COMPILE_CACHE_DIR", str(DEFAULT_COMPILE_CACHE_DIR))).expanduser(),
        compile_shapes=read.choice("COMPILE_SHAPES", "dynamic", ("dynamic", "static")),
        step_cache=read.number("STEP_CACHE", 0.0, minimum=0.0, maximum=1.0),
        fp8=read.switch("FP8", "off"),
    )
    if settings.device != "auto" and not (settings.device == "cpu" or settings.device.startswith("cuda")):
        raise SettingsError(f"{PREFIX}DEVICE must be auto, cpu or cuda[:N], not {settings.device!r}")
    return settings


class _Reader:
    def __init__(self, env: Mapping[str, str]) -> None:
        self._env = env

    def _raw(self, name: str) -> str | None:
        value = self._env.get(PREFIX + name, "").strip()
        return value or None

    def text(self, name: str, default: str) -> str:
        return self._raw(name) or default

    def choice(self, name: str, default: str, choices: tuple[str, ...]) -> str:
        value = (self._raw(name) or default).lower()
        if value not in choices:
            raise SettingsError(f"{PREFIX}{name} must be one of {', '.join(choices)}, not {value!r}")
        return value

    def switch(self, name: str, default: Switch) -> Switch:
        value = self.choice(name, default, ("auto", "on", "off", "true", "false", "1", "0"))
        return {"true": "on", "1": "on", "false": "off", "0": "off"}.get(value, value)  # type: ignore[return-value]

    def integer(
        self, name: str, default: int, *, minimum: int, maximum: int | None = None, multiple_of: int = 1
    ) -> int:
        raw = self._raw(name)
        try:
            value = default if raw is None else int(raw)
        except ValueError:
            raise SettingsError(f"{PREFIX}{name} must be a whole number, not {raw!r}") from None
        if value < minimum or (maximum is not None and value > maximum) or value % multiple_of:
            bounds = f"at least {minimum}" + (f" and at most {maximum}" if maximum is not None else "")
            step = f", a multiple of {multiple_of}" if multiple_of > 1 else ""
            raise SettingsError(f"{PREFIX}{name} must be {bounds}{step}, not {value}")
        return value

    def number(self, name: str, default: float, *, minimum: float, maximum: float | None = None) -> float:
        raw = self._raw(name)
        try:
            value = default if raw is None else float(raw)
        except ValueError:
            raise SettingsError(f"{PREFIX}{name} must be a number, not {raw!r}") from None
        if not (value >= minimum and (maximum is None or value <= maximum)):
            bounds = f"at least {minimum}" + (f" and at most {maximum}" if maximum is not None else "")
            raise SettingsError(f"{PREFIX}{name} must be {bounds}, not {value}")
        return value
