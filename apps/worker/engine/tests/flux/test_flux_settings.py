"""The flux engine's settings: production defaults, parsing, and refusals that name the variable."""

from __future__ import annotations

from pathlib import Path

import pytest

from studioshot_engine.flux.settings import DEFAULT_WEIGHTS_DIR, SettingsError, load_settings


def test_defaults_are_the_production_ones() -> None:
    settings = load_settings({})
    assert settings.weights_dir == Path(DEFAULT_WEIGHTS_DIR)
    assert (settings.device, settings.dtype) == ("auto", "auto")
    assert (settings.lora_rank, settings.lora_alpha, settings.learning_rate) == (16, 16.0, 4e-4)
    assert (settings.train_steps, settings.train_resolution, settings.checkpoint_every) == (1000, 512, 250)
    assert settings.gradient_checkpointing == "auto"
    # The spec's generation defaults: 20 steps at guidance 2.5.
    assert (settings.steps, settings.guidance_scale) == (20, 2.5)
    assert settings.max_sequence_length == 256
    assert settings.compile == "auto" and settings.step_cache == 0.0
    # Both change the images or the compile behaviour: off until an operator measures and chooses.
    assert (settings.fp8, settings.compile_shapes) == ("off", "dynamic")
    assert settings.compile_cache_dir.is_absolute()


def test_reads_every_setting_from_the_environment() -> None:
    settings = load_settings(
        {
            "ENGINE_FLUX_WEIGHTS_DIR": "/models/flux-schnell",
            "ENGINE_FLUX_DEVICE": "cuda:1",
            "ENGINE_FLUX_DTYPE": "float16",
            "ENGINE_FLUX_LORA_RANK": "32",
            "ENGINE_FLUX_LORA_ALPHA": "8",
            "ENGINE_FLUX_LORA_LEARNING_RATE": "1e-4",
            "ENGINE_FLUX_LORA_STEPS": "1500",
            "ENGINE_FLUX_LORA_RESOLUTION": "768",
            "ENGINE_FLUX_LORA_CHECKPOINT_EVERY": "100",
            "ENGINE_FLUX_GRADIENT_CHECKPOINTING": "true",
            "ENGINE_FLUX_LORA_SEED": "9",
            "ENGINE_FLUX_MAX_SEQUENCE_LENGTH": "512",
            "ENGINE_FLUX_STEPS": "4",
            "ENGINE_FLUX_GUIDANCE": "0",
            "ENGINE_FLUX_COMPILE": "off",
            "ENGINE_FLUX_COMPILE_CACHE_DIR": "/cache/compile",
            "ENGINE_FLUX_STEP_CACHE": "0.08",
            "ENGINE_FLUX_FP8": "on",
            "ENGINE_FLUX_COMPILE_SHAPES": "static",
        }
    )
    assert settings.weights_dir == Path("/models/flux-schnell")
    assert (settings.device, settings.dtype) == ("cuda:1", "float16")
    assert (settings.lora_rank, settings.lora_alpha, settings.learning_rate) == (32, 8.0, 1e-4)
    assert settings.lora_scale == 0.25
    assert (settings.train_steps, settings.train_resolution, settings.checkpoint_every) == (1500, 768, 100)
    assert (settings.gradient_checkpointing, settings.seed, settings.max_sequence_length) == ("on", 9, 512)
    assert (settings.steps, settings.guidance_scale) == (4, 0.0)
    assert (settings.compile, settings.compile_cache_dir, settings.step_cache) == ("off", Path("/cache/compile"), 0.08)
    assert (settings.fp8, settings.compile_shapes) == ("on", "static")


@pytest.mark.parametrize(
    ("name", "value", "problem"),
    [
        ("ENGINE_FLUX_LORA_RANK", "sixteen", "whole number"),
        ("ENGINE_FLUX_LORA_RANK", "0", "at least 1"),
        ("ENGINE_FLUX_LORA_RESOLUTION", "500", "multiple of 16"),
        ("ENGINE_FLUX_LORA_LEARNING_RATE", "fast", "a number"),
        ("ENGINE_FLUX_STEPS", "0", "at least 1"),
        ("ENGINE_FLUX_COMPILE", "sometimes", "one of auto, on, off"),
        ("ENGINE_FLUX_DTYPE", "int8", "one of auto, bfloat16"),
        ("ENGINE_FLUX_DEVICE", "tpu", "auto, cpu or cuda"),
        ("ENGINE_FLUX_STEP_CACHE", "2", "at most 1.0"),
        ("ENGINE_FLUX_FP8", "e5m2", "one of auto, on, off"),
        ("ENGINE_FLUX_COMPILE_SHAPES", "some", "one of dynamic, static"),
    ],
)
def test_a_bad_value_is_refused_naming_the_variable(name: str, value: str, problem: str) -> None:
    with pytest.raises(SettingsError, match=name) as refusal:
        load_settings({name: value})
    assert problem in str(refusal.value)
