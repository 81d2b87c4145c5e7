"""FLUX.1 weights from a local directory in the diffusers layout; nothing is ever fetched from a hub.

`offline()` must run before diffusers, transformers or huggingface_hub is imported: their offline
switches are read at import time, so a missing file fails at once instead of trying the network.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .settings import FluxSettings

if TYPE_CHECKING:
    import torch
    from diffusers import FluxPipeline, FluxTransformer2DModel

# What an operator puts in the weights directory (a FLUX.1 checkpoint saved by diffusers).
COMPONENTS = ("transformer", "vae", "text_encoder", "text_encoder_2", "tokenizer", "tokenizer_2", "scheduler")
MODEL_INDEX = "model_index.json"
WEIGHT_SUFFIXES = (".safetensors", ".bin")


class WeightsError(RuntimeError):
    """The weights directory is missing or not a FLUX.1 checkpoint in the diffusers layout."""


def offline() -> None:
    """Forces the Hugging Face libraries offline and quiet, before they are imported."""
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    os.environ["HF_HUB_DISABLE_TELEMETRY"] = "1"
    os.environ["HF_HUB_DISABLE_PROGRESS_BARS"] = "1"
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    os.environ.setdefault("DIFFUSERS_VERBOSITY", "error")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def check_weights_dir(path: Path) -> dict[str, Any]:
    """The directory's model index, after checking every component is there (a WeightsError names what is not)."""
    index_file = path / MODEL_INDEX
    try:
        index: dict[str, Any] = json.loads(index_file.read_text())
    except (OSError, ValueError) as error:
        raise WeightsError(
            f"{index_file} cannot be read ({error}): ENGINE_FLUX_WEIGHTS_DIR must name a FLUX.1 checkpoint "
            "in the diffusers layout (model_index.json, transformer/, vae/, text_encoder/, text_encoder_2/, "
            "tokenizer/, tokenizer_2/, scheduler/)"
        ) from None
    if index.get("_class_name") != "FluxPipeline":
        raise WeightsError(f"{index_file} is for {index.get('_class_name')!r}, not a FluxPipeline checkpoint")
    missing = [name for name in COMPONENTS if not (path / name).is_dir()]
    if missing:
        raise WeightsError(f"{path} lacks {', '.join(f'{name}/' for name in missing)}")
    return index


def base_model_fingerprint(path: Path) -> str:
    """A short id of the checkpoint: its index, each component's config, and its weight files' names and
    sizes (hashing gigabytes at every start would cost more than it tells). Kept in each LoRA."""
    digest = hashlib.sha256()
    for file in sorted(path.rglob("*")):
        if not file.is_file():
            continue
        relative = file.relative_to(path).as_posix()
        if file.name.endswith(".json"):
            digest.update(relative.encode() + b"\0" + file.read_bytes() + b"\0")
        elif file.name.endswith(WEIGHT_SUFFIXES):
            digest.update(f"{relative}\0{file.stat().st_size}\0".encode())
    return digest.hexdigest()[:16]


@dataclass(frozen=True)
class Runtime:
    """Where and in which precision the models run."""

    device: torch.device
    dtype: torch.dtype

    @property
    def is_cuda(self) -> bool:
        return self.device.type == "cuda"


def resolve_runtime(settings: FluxSettings) -> Runtime:
    import torch  # noqa: PLC0415

    if settings.device == "auto":
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    else:
        device = torch.device(settings.device)
    if device.type == "cuda" and not torch.cuda.is_available():
        raise WeightsError(f"ENGINE_FLUX_DEVICE is {settings.device} but torch sees no CUDA device")
    if settings.dtype == "auto":
        # bf16 on a GPU (FLUX.1 is trained in it); a CPU runs float32 (its bf16 kernels are slow or missing).
        dtype = torch.bfloat16 if device.type == "cuda" else torch.float32
    else:
        dtype = getattr(torch, settings.dtype)
    return Runtime(device=device, dtype=dtype)


def _quiet() -> None:
    """No progress bars on stderr (the worker logs every line of it)."""
    from diffusers.utils import logging as diffusers_logging  # noqa: PLC0415
    from transformers.utils import logging as transformers_logging  # noqa: PLC0415

    diffusers_logging.disable_progress_bar()
    transformers_logging.disable_progress_bar()


def load_text_and_vae(settings: FluxSettings, runtime: Runtime) -> FluxPipeline:
    """The pipeline without its transformer: what training needs to encode captions and photos once."""
    from diffusers import FluxPipeline  # noqa: PLC0415

    _quiet()
    pipe = FluxPipeline.from_pretrained(
        str(settings.weights_dir), transformer=None, dtype=runtime.dtype, local_files_only=True
    )
    return pipe.to(runtime.device)


def load_transformer(settings: FluxSettings, runtime: Runtime) -> FluxTransformer2DModel:
    from diffusers import FluxTransformer2DModel  # noqa: PLC0415

    _quiet()
    transformer = FluxTransformer2DModel.from_pretrained(
        str(settings.weights_dir), subfolder="transformer", dtype=runtime.dtype, local_files_only=True
    )
    return transformer.to(runtime.device)


def load_pipeline(settings: FluxSettings, runtime: Runtime) -> FluxPipeline:
    from diffusers import FluxPipeline  # noqa: PLC0415

    _quiet()
    pipe = FluxPipeline.from_pretrained(str(settings.weights_dir), dtype=runtime.dtype, local_files_only=True)
    pipe.set_progress_bar_config(disable=True)
    return pipe.to(runtime.device)


def vae_scale_factor(vae_config: Any) -> int:
    return int(2 ** (len(vae_config.block_out_channels) - 1))
