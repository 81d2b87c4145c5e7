"""The flux model artifact: one safetensors LoRA of the transformer, as diffusers saves and loads it.

Its tensors and `lora_adapter_metadata` (rank, alpha, target modules) are diffusers' own
(`FluxPipeline.save_lora_weights`), so any diffusers FLUX pipeline can load the file; the metadata
key `studioshot` adds the facts generation and operators need (JSON): `format`
(`studioshot.flux-lora`), `format_version`, `engine_version`, `base_model` (the weights'
fingerprint), `trigger_word`, `model_name`, `rank`, `alpha`, `steps`, `resolution`,
`photo_ids`, `final_loss`.
"""

from __future__ import annotations

import json
import os
import tempfile
from typing import TYPE_CHECKING, Any

from ..jobs import BadInput

if TYPE_CHECKING:
    from diffusers import FluxTransformer2DModel
    from peft import LoraConfig

FORMAT = "studioshot.flux-lora"
FORMAT_VERSION = 1
METADATA_KEY = "studioshot"
MODEL_FILE = "model.safetensors"
# Every linear layer of the attention and feed-forward blocks, double-stream and single-stream:
# identity lives in the attention and the MLPs alike.
TARGET_MODULES = [
    "attn.to_k",
    "attn.to_q",
    "attn.to_v",
    "attn.to_out.0",
    "attn.add_k_proj",
    "attn.add_q_proj",
    "attn.add_v_proj",
    "attn.to_add_out",
    "ff.net.0.proj",
    "ff.net.2",
    "ff_context.net.0.proj",
    "ff_context.net.2",
    "proj_mlp",
    "proj_out",
]
UNUSABLE_MODEL = "This model cannot be read by the flux engine: retrain it to generate headshots."


def lora_config(rank: int, alpha: float) -> LoraConfig:
    from peft import LoraConfig  # noqa: PLC0415

    # Gaussian A, zero B: the untrained adapter changes nothing.
    return LoraConfig(r=rank, lora_alpha=alpha, init_lora_weights="gaussian", target_modules=TARGET_MODULES)


def write_lora(path: str, transformer: FluxTransformer2DModel, config: LoraConfig, facts: dict[str, Any]) -> None:
    """Saves the transformer's adapter with diffusers, then adds our facts to the file's metadata (written
    to a `.partial` file and renamed, so a reader never sees half a file)."""
    from diffusers import FluxPipeline  # noqa: PLC0415
    from peft.utils import get_peft_model_state_dict  # noqa: PLC0415
    from safetensors import safe_open  # noqa: PLC0415
    from safetensors.torch import save_file  # noqa: PLC0415

    layers = {name: tensor.detach().contiguous() for name, tensor in get_peft_model_state_dict(transformer).items()}
    with tempfile.TemporaryDirectory(dir=os.path.dirname(path) or ".") as staging:
        FluxPipeline.save_lora_weights(
            staging,
            transformer_lora_layers=layers,
            weight_name=MODEL_FILE,
            transformer_lora_adapter_metadata=config.to_dict(),
        )
        saved = os.path.join(staging, MODEL_FILE)
        with safe_open(saved, framework="pt") as file:
            metadata = dict(file.metadata() or {})
            tensors = {key: file.get_tensor(key) for key in file.keys()}  # noqa: SIM118 (safe_open is not a dict)
    metadata[METADATA_KEY] = json.dumps({"format": FORMAT, "format_version": FORMAT_VERSION, **facts})
    save_file(tensors, f"{path}.partial", metadata=metadata)
    os.replace(f"{path}.partial", path)


def read_facts(path: str) -> dict[str, Any]:
    """The LoRA's facts; BadInput when the file is missing, unreadable, or not a flux LoRA of ours."""
    from safetensors import SafetensorError, safe_open  # noqa: PLC0415

    try:
        with safe_open(path, framework="pt") as file:
            metadata = file.metadata() or {}
        facts: dict[str, Any] = json.loads(metadata[METADATA_KEY])
    except (OSError, SafetensorError, KeyError, ValueError) as error:
        raise BadInput(UNUSABLE_MODEL) from error
    if facts.get("format") != FORMAT or not isinstance(facts.get("format_version"), int):
        raise BadInput(UNUSABLE_MODEL)
    if facts["format_version"] > FORMAT_VERSION:
        raise BadInput("This model was made by a newer engine than this worker runs.")
    return facts
