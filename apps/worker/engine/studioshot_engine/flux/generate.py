"""The flux generation: a warm FLUX.1 pipeline, the user's LoRA swapped in per job.

The pipeline is loaded on the first generate job and kept by the process (the worker's warm
session). The adapter slot is made once; each job's LoRA replaces its weights in place (diffusers'
LoRA hotswap), so a compiled transformer stays valid and a swap costs a copy of a few tens of MB; a
job without a model (the base model alone) turns the adapter off. With ENGINE_FLUX_FP8=on there is
no adapter: the LoRA is merged into the fp8 layers' weights instead (fp8.py). Every image has its own seed,
derived from the job's, and its own random generator, so the same parameters give the same images
whatever the batch.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from PIL import Image

from ..jobs import BadInput, JobContext
from ..protocol import GenerateParams
from .fp8 import fp8_supported, merge_lora, quantize_transformer
from .lora import read_facts
from .settings import FluxSettings
from .speed import apply_speed_settings
from .weights import Runtime, base_model_fingerprint, load_pipeline

if TYPE_CHECKING:
    from diffusers import FluxPipeline

ADAPTER = "personal"
JPEG_QUALITY = 92
# FLUX latents are 8x smaller than the image and packed in 2x2 patches.
SIDE_MULTIPLE = 16
# Until this process has timed its own steps: the ETA's guess per megapixel and image.
DEFAULT_SECONDS_PER_STEP_MEGAPIXEL = 0.03


@dataclass
class _LoadedLora:
    key: tuple[str, int, int]  # path, size, mtime: the same file is not read again
    rank: int


def seed_for_image(seed: int, index: int) -> int:
    """Image `index`'s own seed (announced in its meta), independent of the batch it is made in."""
    return int(np.random.SeedSequence([seed, index]).generate_state(1)[0] & 0x7FFFFFFF)


class FluxGenerator:
    _seconds_per_step_megapixel = DEFAULT_SECONDS_PER_STEP_MEGAPIXEL

    def __init__(self, settings: FluxSettings, runtime: Runtime) -> None:
        self.settings = settings
        self.runtime = runtime
        self._pipe: FluxPipeline | None = None
        self._base_model = ""
        self._lora: _LoadedLora | None = None
        self._lora_enabled = False
        self._fp8 = False

    def generate(self, job: JobContext, params: GenerateParams) -> dict[str, Any]:
        import torch  # noqa: PLC0415

        started = time.perf_counter()
        settings = self.settings
        steps = params.steps or settings.steps
        guidance = settings.guidance_scale if params.guidance_scale is None else params.guidance_scale
        count, seed = int(params.count), int(params.seed)
        side = max(SIDE_MULTIPLE, params.size - params.size % SIDE_MULTIPLE)
        facts = read_facts(params.model_path) if params.model_path is not None else None
        pipe = self._pipeline(job)
        job.raise_if_cancelled()
        swap_started = time.perf_counter()
        self._use_lora(pipe, params.model_path, facts, job)
        swap_seconds = time.perf_counter() - swap_started
        os.makedirs(params.output_dir, exist_ok=True)

        total = steps + count
        megapixels = count * side * side / 1e6
        job.progress(
            0,
            total,
            "Loaded your model",
            metrics={"lora_swap_seconds": round(swap_seconds, 4)},
            eta_seconds=round(steps * megapixels * FluxGenerator._seconds_per_step_megapixel, 2),
        )
        denoising_started = time.perf_counter()

        def on_step_end(_pipe: Any, index: int, _timestep: Any, _tensors: dict[str, Any]) -> dict[str, Any]:
            done = index + 1
            per_step = (time.perf_counter() - denoising_started) / done
            # Raises JobCancelled out of the pipeline once a cancel has arrived.
            job.progress(
                done,
                total,
                "Creating your headshots",
                metrics={"seconds_per_step": round(per_step, 4)},
                eta_seconds=round(per_step * (steps - done), 2),
            )
            return {}

        seeds = [seed_for_image(seed, index) for index in range(count)]
        with torch.inference_mode():
            images = pipe(
                prompt=params.prompt,
                height=side,
                width=side,
                num_inference_steps=steps,
                guidance_scale=guidance,
                num_images_per_prompt=count,
                # CPU generators: the same noise on any device.
                generator=[torch.Generator().manual_seed(image_seed) for image_seed in seeds],
                max_sequence_length=settings.max_sequence_length,
                callback_on_step_end=on_step_end,
                output_type="pil",
            ).images
        denoising_seconds = time.perf_counter() - denoising_started
        FluxGenerator._seconds_per_step_megapixel = denoising_seconds / steps / megapixels
        for index, image in enumerate(images):
            job.raise_if_cancelled()
            delivered = (
                image if side == params.size else image.resize((params.size, params.size), Image.Resampling.LANCZOS)
            )
            path = _write_jpeg(os.path.join(params.output_dir, f"image-{index}.jpg"), delivered)
            job.artifact(
                path,
                "image",
                meta={
                    "index": index,
                    "seed": seeds[index],
                    "width": params.size,
                    "height": params.size,
                    "steps": steps,
                    "guidance_scale": guidance,
                },
            )
            job.progress(
                steps + index + 1,
                total,
                "Saving your headshots",
                metrics={"seconds_per_step": round(denoising_seconds / steps, 4)},
                eta_seconds=0.0,
            )
        return {
            "images": count,
            "seed": seed,
            "size": params.size,
            "steps": steps,
            "guidance_scale": guidance,
            "lora": facts is not None,
            "lora_swap_seconds": round(swap_seconds, 4),
            "seconds_per_step": round(denoising_seconds / steps, 4),
            "seconds": round(time.perf_counter() - started, 2),
        }

    def _pipeline(self, job: JobContext) -> FluxPipeline:
        if self._pipe is None:
            loading = time.perf_counter()
            self._base_model = base_model_fingerprint(self.settings.weights_dir)
            pipe = load_pipeline(self.settings, self.runtime)
            if self.settings.fp8 == "on":
                if fp8_supported(self.runtime.device):
                    layers = quantize_transformer(pipe.transformer)
                    self._fp8 = True
                    job.log("info", f"fp8 on: {layers} linear layers multiply in float8")
                else:
                    job.log("warn", "ENGINE_FLUX_FP8=on needs a GPU with fp8 tensor cores: generating in bf16")
            apply_speed_settings(pipe, self.settings, self.runtime, job)
            self._pipe = pipe
            job.log("info", f"flux pipeline loaded in {time.perf_counter() - loading:.1f} s")
        return self._pipe

    def _use_lora(self, pipe: FluxPipeline, path: str | None, facts: dict[str, Any] | None, job: JobContext) -> None:
        """Puts this job's LoRA in the adapter slot (or turns the slot off for the base model)."""
        if self._fp8:
            self._merge_lora(pipe, path, facts)
            return
        if path is None or facts is None:
            if self._lora is not None and self._lora_enabled:
                pipe.disable_lora()
                self._lora_enabled = False
            return
        if facts.get("base_model") != self._base_model:
            job.log("warn", f"this LoRA was trained on base model {facts.get('base_model')}, not {self._base_model}")
        stat = os.stat(path)
        key = (os.path.realpath(path), stat.st_size, stat.st_mtime_ns)
        rank = int(facts.get("rank", self.settings.lora_rank))
        try:
            if self._lora is None:
                # Once, before the first adapter: its slot can then take any LoRA up to this rank in place.
                pipe.enable_lora_hotswap(target_rank=max(rank, self.settings.lora_rank), check_compiled="ignore")
                pipe.load_lora_weights(path, adapter_name=ADAPTER)
            elif self._lora.key != key:
                pipe.load_lora_weights(path, adapter_name=ADAPTER, hotswap=True)
        except (ValueError, RuntimeError, KeyError, OSError) as error:
            # A LoRA the slot cannot take (another shape): start the slot afresh with it.
            job.log("info", f"LoRA slot rebuilt: {error}")
            self._reset_slot(pipe)
            try:
                pipe.enable_lora_hotswap(target_rank=max(rank, self.settings.lora_rank), check_compiled="ignore")
                pipe.load_lora_weights(path, adapter_name=ADAPTER)
            except (ValueError, RuntimeError, KeyError, OSError) as second:
                self._reset_slot(pipe)
                raise BadInput(
                    "This model cannot be read by the flux engine: retrain it to generate headshots."
                ) from second
        self._lora = _LoadedLora(key=key, rank=rank)
        if not self._lora_enabled:
            pipe.enable_lora()
            self._lora_enabled = True

    def _merge_lora(self, pipe: FluxPipeline, path: str | None, facts: dict[str, Any] | None) -> None:
        """fp8: this job's LoRA merged into the quantized layers (none: the base model's weights)."""
        if path is None or facts is None:
            if self._lora is not None:
                merge_lora(pipe.transformer, None, 0.0)
                self._lora = None
            return
        stat = os.stat(path)
        key = (os.path.realpath(path), stat.st_size, stat.st_mtime_ns)
        if self._lora is not None and self._lora.key == key:
            return
        rank = int(facts.get("rank", self.settings.lora_rank))
        alpha = float(facts.get("alpha", self.settings.lora_alpha))
        if merge_lora(pipe.transformer, path, alpha / rank) == 0:
            raise BadInput("This model cannot be read by the flux engine: retrain it to generate headshots.")
        self._lora = _LoadedLora(key=key, rank=rank)

    def _reset_slot(self, pipe: FluxPipeline) -> None:
        pipe.unload_lora_weights()
        self._lora = None
        self._lora_enabled = False


def _write_jpeg(path: str, image: Image.Image) -> str:
    image.convert("RGB").save(f"{path}.partial", format="JPEG", quality=JPEG_QUALITY, subsampling=0)
    os.replace(f"{path}.partial", path)
    return path
