"""The flux training: a personal LoRA on the FLUX.1 transformer, from the user's face-centred photos.

Order of work, so that the GPU holds at most one big model at a time:
1. crops (close-up and head-and-shoulders per photo) with captions naming the trigger word;
2. the text encoders and the VAE encode every caption and crop once (latents, prompt embeddings),
   then are freed;
3. the transformer is loaded (frozen, in the run's dtype), a peft LoRA added to its attention and
   MLP layers (trainable weights kept in float32 so small updates are not rounded away), and
   trained with AdamW on the rectified-flow loss: noise and timestep drawn per step from the seed,
   so step N is the same computation whether or not the run resumed before it;
4. every `checkpoint_every` steps a checkpoint (adapter and optimizer state, one safetensors file)
   is written and announced (`artifact {kind: 'checkpoint'}`); a retried job given it back as
   `resume_from` continues after it;
5. the adapter is saved with diffusers as `model.safetensors` (lora.py).

Gradient checkpointing: `on`, `off`, or `auto`, which turns it on when a step runs out of GPU memory
and retries that step.
"""

from __future__ import annotations

import gc
import hashlib
import json
import math
import os
import time
from collections import deque
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import __version__
from ..jobs import BadInput, JobContext
from ..protocol import TrainParams
from .crops import TrainingCrop, training_crops
from .lora import MODEL_FILE, TARGET_MODULES, lora_config, write_lora
from .settings import FluxSettings
from .speed import compile_enabled, configure_compile_cache
from .weights import Runtime, base_model_fingerprint, load_text_and_vae, load_transformer, vae_scale_factor

if TYPE_CHECKING:
    import torch
    from diffusers import FluxTransformer2DModel

CHECKPOINT_FORMAT = "studioshot.flux-checkpoint"
CHECKPOINT_PREFIX = "checkpoint-"
DEFAULT_MIN_PHOTOS = 3
# Progress at most this often (and always at a checkpoint and the last step): steps can take 0.2 s.
PROGRESS_INTERVAL_S = 0.5
LOSS_WINDOW = 50
# A guidance-distilled transformer (FLUX.1-dev) is trained at guidance 1, as its LoRA trainers do.
TRAINING_GUIDANCE = 1.0
MAX_GRAD_NORM = 1.0
WARMUP_FRACTION = 0.02
# Until this process has timed a training: a 512 px step on an H100-class GPU (bench/gpu).
DEFAULT_SECONDS_PER_STEP = 0.3


class FluxTrainer:
    # Seconds a step took in this process's last training: the first ETA of the next one.
    _seconds_per_step = DEFAULT_SECONDS_PER_STEP

    def __init__(self, settings: FluxSettings, runtime: Runtime) -> None:
        self.settings = settings
        self.runtime = runtime
        self._base_model: str | None = None

    def train(self, job: JobContext, params: TrainParams) -> dict[str, Any]:
        started = time.perf_counter()
        settings = self.settings
        os.makedirs(params.output_dir, exist_ok=True)
        crops = self._crops(job, params)
        total = settings.train_steps
        # Every progress carries metrics and an ETA (the first from this process's last run, or a guess).
        job.progress(
            0,
            total,
            "Preparing your photos",
            metrics={"training_images": len(crops)},
            eta_seconds=round(FluxTrainer._seconds_per_step * total, 1),
        )
        data = self._encode(crops)
        job.raise_if_cancelled()
        fingerprint = self._fingerprint(params, crops)

        run = TrainingRun(self, data, fingerprint)
        first_step = 1
        if params.resume_from:
            resumed = run.restore(params.resume_from)
            if resumed is None:
                job.log("warn", f"checkpoint {params.resume_from} is not of this training: starting afresh")
            else:
                first_step = resumed + 1
                job.log("info", f"resuming from the checkpoint of step {resumed}")
        seconds_per_step: float | None = None
        last_report = 0.0
        for step in range(first_step, total + 1):
            job.raise_if_cancelled()
            step_started = time.perf_counter()
            loss = run.step(step)
            elapsed = time.perf_counter() - step_started
            # The first step of a run includes warm-up (kernels, allocations): an average ignores it.
            seconds_per_step = elapsed if seconds_per_step is None else 0.9 * seconds_per_step + 0.1 * elapsed
            checkpoint_due = step % settings.checkpoint_every == 0 and step < total
            now = time.perf_counter()
            if checkpoint_due or step == total or now - last_report >= PROGRESS_INTERVAL_S:
                last_report = now
                job.progress(
                    step,
                    total,
                    "Training your model",
                    metrics={
                        "loss": loss,
                        "loss_average": run.loss_average(),
                        "seconds_per_step": round(seconds_per_step, 4),
                        "learning_rate": run.learning_rate(step),
                    },
                    eta_seconds=round(seconds_per_step * (total - step), 1),
                )
            if checkpoint_due:
                path = run.save_checkpoint(params.output_dir, step)
                job.artifact(path, "checkpoint", meta={"step": step})

        if seconds_per_step is not None:
            FluxTrainer._seconds_per_step = seconds_per_step
        model_path = os.path.join(params.output_dir, MODEL_FILE)
        facts = {
            "engine_version": __version__,
            "base_model": self._base_model,
            "trigger_word": params.trigger_word,
            "model_name": params.model_name,
            "rank": settings.lora_rank,
            "alpha": settings.lora_alpha,
            "steps": total,
            "resolution": settings.train_resolution,
            "photo_ids": sorted({crop.photo_id for crop in crops}),
            "final_loss": run.loss_average(),
        }
        write_lora(model_path, run.transformer, run.config, facts)
        job.artifact(model_path, "model", meta={"rank": settings.lora_rank, "steps": total})
        summary = {
            "photos_used": len({crop.photo_id for crop in crops}),
            "photos_rejected": len(params.photos) - len({crop.photo_id for crop in crops}),
            "training_images": len(crops),
            "steps": total,
            "resumed_from_step": first_step - 1 if first_step > 1 else None,
            "final_loss": run.loss_average(),
            "gradient_checkpointing": run.gradient_checkpointing,
            "seconds": round(time.perf_counter() - started, 2),
        }
        run.close()
        return summary

    def _crops(self, job: JobContext, params: TrainParams) -> list[TrainingCrop]:
        crops: list[TrainingCrop] = []
        for photo in params.photos:
            job.raise_if_cancelled()
            if photo.face_box is None:
                job.log("info", f"photo {photo.id}: no face box from the photo checks; cropping its centre")
            crops.extend(training_crops(photo, self.settings.train_resolution, params.trigger_word))
        minimum = params.min_usable_photos or DEFAULT_MIN_PHOTOS
        if len({crop.photo_id for crop in crops}) < minimum:
            raise BadInput(f"At least {minimum} photos are needed to train a model.")
        return crops

    def _encode(self, crops: Sequence[TrainingCrop]) -> EncodedData:
        """Latents and prompt embeddings of every crop, then the encoders are freed."""
        import torch  # noqa: PLC0415

        runtime, settings = self.runtime, self.settings
        if self._base_model is None:
            self._base_model = base_model_fingerprint(settings.weights_dir)
        pipe = load_text_and_vae(settings, runtime)
        try:
            captions = sorted({crop.caption for crop in crops})
            with torch.no_grad():
                prompt_embeds, pooled, text_ids = pipe.encode_prompt(
                    prompt=captions,
                    prompt_2=None,
                    device=runtime.device,
                    max_sequence_length=settings.max_sequence_length,
                )
                vae = pipe.vae
                latents = []
                for crop in crops:
                    pixels = torch.from_numpy(np.asarray(crop.image, dtype=np.float32) / 127.5 - 1.0)
                    pixels = pixels.permute(2, 0, 1).unsqueeze(0).to(runtime.device, vae.dtype)
                    # The distribution's mean: the VAE's variance is negligible for FLUX and a fixed latent
                    # keeps every step of a resumed run identical.
                    mean = vae.encode(pixels).latent_dist.mode()
                    latents.append(((mean - vae.config.shift_factor) * vae.config.scaling_factor).cpu())
            scale = vae_scale_factor(vae.config)
            del vae
        finally:
            # The encoders are not needed again: the transformer gets their memory.
            del pipe
            _free_memory()
        caption_index = {caption: index for index, caption in enumerate(captions)}
        return EncodedData(
            latents=torch.cat(latents).to(runtime.device, runtime.dtype),
            prompt_embeds=prompt_embeds.to(runtime.device, runtime.dtype),
            pooled=pooled.to(runtime.device, runtime.dtype),
            text_ids=text_ids.to(runtime.device, runtime.dtype),
            caption_of=[caption_index[crop.caption] for crop in crops],
            vae_scale=scale,
        )

    def _fingerprint(self, params: TrainParams, crops: Sequence[TrainingCrop]) -> str:
        """What a checkpoint must match to be resumed: the photos, the training settings, the base model."""
        settings = self.settings
        facts = {
            "photos": sorted({crop.photo_id for crop in crops}),
            "trigger": params.trigger_word,
            "base_model": self._base_model,
            "rank": settings.lora_rank,
            "alpha": settings.lora_alpha,
            "learning_rate": settings.learning_rate,
            "steps": settings.train_steps,
            "resolution": settings.train_resolution,
            "seed": settings.seed,
            "max_sequence_length": settings.max_sequence_length,
            "dtype": str(self.runtime.dtype),
            "targets": TARGET_MODULES,
        }
        return hashlib.sha256(json.dumps(facts, sort_keys=True).encode()).hexdigest()[:24]


class EncodedData:
    def __init__(
        self,
        *,
        latents: torch.Tensor,
        prompt_embeds: torch.Tensor,
        pooled: torch.Tensor,
        text_ids: torch.Tensor,
        caption_of: list[int],
        vae_scale: int,
    ) -> None:
        self.latents = latents  # (images, channels, h, w), scaled and shifted as the transformer sees them
        self.prompt_embeds = prompt_embeds  # (captions, tokens, dim)
        self.pooled = pooled  # (captions, dim)
        self.text_ids = text_ids  # (tokens, 3)
        self.caption_of = caption_of  # image index -> caption index
        self.vae_scale = vae_scale


class TrainingRun:
    """The transformer with its adapter, the optimizer, and one step's computation."""

    def __init__(
        self,
        trainer: FluxTrainer,
        data: EncodedData,
        fingerprint: str,
        transformer: FluxTransformer2DModel | None = None,
    ) -> None:
        """`transformer`: one already in memory (bench/gpu's); else loaded from the weights directory."""
        import torch  # noqa: PLC0415
        from diffusers.training_utils import cast_training_params  # noqa: PLC0415

        self.settings = trainer.settings
        self.runtime = trainer.runtime
        self.data = data
        self.fingerprint = fingerprint
        self.transformer = transformer if transformer is not None else load_transformer(self.settings, self.runtime)
        self.transformer.requires_grad_(False)
        self.config = lora_config(self.settings.lora_rank, self.settings.lora_alpha)
        # The adapter's random initial A matrices come from the run's seed, not the process's state:
        # the same training gives the same LoRA in any process.
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(_mix(self.settings.seed, 0, 3))
            self.transformer.add_adapter(self.config)
        cast_training_params(self.transformer, dtype=torch.float32)
        self.transformer.train()
        self.gradient_checkpointing = self.settings.gradient_checkpointing == "on"
        if self.gradient_checkpointing:
            self.transformer.enable_gradient_checkpointing()
        self.parameters = {
            name: parameter for name, parameter in self.transformer.named_parameters() if parameter.requires_grad
        }
        self.optimizer = torch.optim.AdamW(
            self.parameters.values(),
            lr=self.settings.learning_rate,
            betas=(0.9, 0.999),
            weight_decay=1e-4,
            fused=self.runtime.is_cuda,  # one kernel for all the adapter's tensors, not several per tensor
        )
        if compile_enabled(self.settings, self.runtime):
            # A step's hundreds of small adapter kernels cost more launching than computing: compiled,
            # each block's forward and backward run as a few fused kernels (cached on disk, as for
            # generation). Static shapes: a run trains at one resolution.
            configure_compile_cache(self.settings)
            self.settings.compile_cache_dir.mkdir(parents=True, exist_ok=True)
            self.transformer.compile_repeated_blocks(dynamic=False)
        self.losses: deque[float] = deque(maxlen=LOSS_WINDOW)
        _, _, height, width = data.latents.shape
        self.height, self.width = height, width
        self.image_ids = _latent_image_ids(height, width, self.runtime)
        self.guidance = (
            torch.full((1,), TRAINING_GUIDANCE, device=self.runtime.device, dtype=torch.float32)
            if self.transformer.config.guidance_embeds
            else None
        )
        self.shift_mu = _resolution_shift(self.settings.weights_dir, (height // 2) * (width // 2))

    def learning_rate(self, step: int) -> float:
        warmup = max(1, math.ceil(WARMUP_FRACTION * self.settings.train_steps))
        return self.settings.learning_rate * min(1.0, step / warmup)

    def loss_average(self) -> float:
        return round(float(np.mean(self.losses)), 6) if self.losses else 0.0

    def step(self, step: int) -> float:
        import torch  # noqa: PLC0415

        for group in self.optimizer.param_groups:
            group["lr"] = self.learning_rate(step)
        try:
            loss = self._forward_backward(step)
        except torch.OutOfMemoryError:
            if self.settings.gradient_checkpointing != "auto" or self.gradient_checkpointing:
                raise
            # Out of GPU memory without checkpointing: recompute activations in the backward pass instead.
            self.optimizer.zero_grad(set_to_none=True)
            _free_memory()
            self.transformer.enable_gradient_checkpointing()
            self.gradient_checkpointing = True
            loss = self._forward_backward(step)
        torch.nn.utils.clip_grad_norm_(self.parameters.values(), MAX_GRAD_NORM)
        self.optimizer.step()
        self.optimizer.zero_grad(set_to_none=True)
        self.losses.append(loss)
        return round(loss, 6)

    def _forward_backward(self, step: int) -> float:
        from torch.nn.attention import SDPBackend, sdpa_kernel  # noqa: PLC0415

        # Not cuDNN's attention: its backward pass faults (illegal memory access) on FLUX's shapes on
        # Hopper with torch 2.11; flash and memory-efficient attention train at the same speed.
        with sdpa_kernel([SDPBackend.FLASH_ATTENTION, SDPBackend.EFFICIENT_ATTENTION, SDPBackend.MATH]):
            loss = self.loss(step)
        loss.backward()  # type: ignore[no-untyped-call]  # torch leaves Tensor.backward unannotated
        return float(loss.detach().item())

    def loss(self, step: int) -> torch.Tensor:
        """The rectified-flow loss of step `step`: its image, noise and timestep come from (seed, step)."""
        import torch  # noqa: PLC0415
        from diffusers import FluxPipeline  # noqa: PLC0415

        data, runtime = self.data, self.runtime
        count = data.latents.shape[0]
        # Each epoch visits every image once, in an order drawn from (seed, epoch).
        epoch, position = divmod(step - 1, count)
        order = torch.randperm(count, generator=torch.Generator().manual_seed(_mix(self.settings.seed, epoch, 1)))
        index = int(order[position])
        generator = torch.Generator().manual_seed(_mix(self.settings.seed, step, 2))
        clean = data.latents[index : index + 1]
        noise = torch.randn(clean.shape, generator=generator, dtype=torch.float32).to(runtime.device, clean.dtype)
        # Logit-normal timesteps shifted for the resolution, as the sampler's schedule is at inference.
        u = torch.sigmoid(torch.randn((1,), generator=generator, dtype=torch.float32))
        sigma = (math.exp(self.shift_mu) / (math.exp(self.shift_mu) + (1 / u - 1))).to(runtime.device)
        noisy = (1.0 - sigma.view(-1, 1, 1, 1)) * clean + sigma.view(-1, 1, 1, 1) * noise
        _, channels, height, width = clean.shape
        packed = FluxPipeline._pack_latents(noisy.to(runtime.dtype), 1, channels, height, width)
        caption = data.caption_of[index]
        prediction = self.transformer(
            hidden_states=packed,
            timestep=sigma.to(runtime.dtype),
            guidance=self.guidance,
            pooled_projections=data.pooled[caption : caption + 1],
            encoder_hidden_states=data.prompt_embeds[caption : caption + 1],
            txt_ids=data.text_ids,
            img_ids=self.image_ids,
            return_dict=False,
        )[0]
        scale = data.vae_scale
        prediction = FluxPipeline._unpack_latents(prediction, height * scale, width * scale, scale)
        target = noise - clean
        loss: torch.Tensor = torch.nn.functional.mse_loss(prediction.float(), target.float())
        return loss

    # --- checkpoints -------------------------------------------------------------------------------

    def save_checkpoint(self, output_dir: str, step: int) -> str:
        """Adapter weights and AdamW state in one safetensors file; the one before the last is removed
        (the worker may still be storing the last)."""
        from safetensors.torch import save_file  # noqa: PLC0415

        tensors = {}
        for name, parameter in self.parameters.items():
            tensors[f"param/{name}"] = parameter.detach().float().contiguous().cpu()
            state = self.optimizer.state.get(parameter, {})
            for key in ("exp_avg", "exp_avg_sq"):
                if key in state:
                    tensors[f"{key}/{name}"] = state[key].detach().contiguous().cpu()
        metadata = {
            "format": CHECKPOINT_FORMAT,
            "fingerprint": self.fingerprint,
            "step": str(step),
            "losses": json.dumps(list(self.losses)),
            "gradient_checkpointing": json.dumps(self.gradient_checkpointing),
        }
        path = os.path.join(output_dir, f"{CHECKPOINT_PREFIX}{step:06d}.safetensors")
        save_file(tensors, f"{path}.partial", metadata=metadata)
        os.replace(f"{path}.partial", path)
        older = sorted(name for name in os.listdir(output_dir) if name.startswith(CHECKPOINT_PREFIX))[:-2]
        for name in older:
            os.remove(os.path.join(output_dir, name))
        return path

    def restore(self, path: str) -> int | None:
        """The step the checkpoint was taken at, with its state loaded; None when it is not this training's."""
        import torch  # noqa: PLC0415
        from safetensors import SafetensorError, safe_open  # noqa: PLC0415

        try:
            with safe_open(path, framework="pt") as file:
                metadata = file.metadata() or {}
                if metadata.get("format") != CHECKPOINT_FORMAT or metadata.get("fingerprint") != self.fingerprint:
                    return None
                tensors = {key: file.get_tensor(key) for key in file.keys()}  # noqa: SIM118
            step = int(metadata["step"])
        except (OSError, SafetensorError, KeyError, ValueError):
            return None
        if step >= self.settings.train_steps or set(self.parameters) != {
            key.removeprefix("param/") for key in tensors if key.startswith("param/")
        }:
            return None
        with torch.no_grad():
            for name, parameter in self.parameters.items():
                parameter.copy_(tensors[f"param/{name}"].to(parameter.device, parameter.dtype))
                if f"exp_avg/{name}" in tensors:
                    self.optimizer.state[parameter] = {
                        "step": torch.tensor(float(step)),
                        "exp_avg": tensors[f"exp_avg/{name}"].to(parameter.device),
                        "exp_avg_sq": tensors[f"exp_avg_sq/{name}"].to(parameter.device),
                    }
        self.losses.extend(json.loads(metadata.get("losses", "[]")))
        if json.loads(metadata.get("gradient_checkpointing", "false")) and not self.gradient_checkpointing:
            self.transformer.enable_gradient_checkpointing()
            self.gradient_checkpointing = True
        return step

    def close(self) -> None:
        del self.optimizer, self.parameters, self.transformer
        _free_memory()


def _mix(seed: int, counter: int, stream: int) -> int:
    """A seed for (run seed, counter, stream): independent draws that a resumed run repeats exactly."""
    return int(np.random.SeedSequence([seed, counter, stream]).generate_state(1)[0])


def _latent_image_ids(height: int, width: int, runtime: Runtime) -> torch.Tensor:
    from diffusers import FluxPipeline  # noqa: PLC0415

    ids: torch.Tensor = FluxPipeline._prepare_latent_image_ids(
        1, height // 2, width // 2, runtime.device, runtime.dtype
    )
    return ids


def _resolution_shift(weights_dir: Any, image_tokens: int) -> float:
    """The scheduler's timestep shift for this many image tokens (its `calculate_shift`), so training
    spends its steps where sampling at this resolution does."""
    from diffusers import FlowMatchEulerDiscreteScheduler  # noqa: PLC0415
    from diffusers.pipelines.flux.pipeline_flux import calculate_shift  # noqa: PLC0415

    config = FlowMatchEulerDiscreteScheduler.load_config(str(weights_dir), subfolder="scheduler", local_files_only=True)
    if not config.get("use_dynamic_shifting", False):
        return math.log(float(config.get("shift", 1.0)))
    return float(
        calculate_shift(
            image_tokens,
            config.get("base_image_seq_len", 256),
            config.get("max_image_seq_len", 4096),
            config.get("base_shift", 0.5),
            config.get("max_shift", 1.15),
        )
    )


def _free_memory() -> None:
    import torch  # noqa: PLC0415

    gc.collect()
    if torch.cuda.is_available():
        torch.cuda.empty_cache()
