"""FLUX.1-dev speed and memory on one GPU, with random weights made directly on it.

Speed and memory do not depend on the weights' values, so the full-size architecture
(studioshot_engine/flux/random_weights.py: 12B transformer, T5-XXL, CLIP-L, the 16-channel VAE)
is built on the GPU in bf16 and driven through the engine's own code: its generator (warm
pipeline, LoRA hotswap, 4 seeded images) and its training step (peft LoRA, rectified-flow loss).

Stages (each a separate command fits the device's 10-minute limit; see bench/README.md):
  env       GPU, driver, library versions; the measured bf16 matmul rate
  eager     ms per denoising step (1 and 4 images) at 1024 and 512, FLOPs per step (PyTorch's
            FLOP counter) and TFLOP/s; a 4-image 20-step generation with a LoRA; LoRA swap time
  train     LoRA training ms/step at 512 and 1024 (peak memory, gradient checkpointing as `auto`
            decides)
  compiled  the same as `eager` with the transformer's blocks compiled (compile time, then
            steady state), and a profile of one 1024 px step (top kernels by GPU time)
  static    `compiled` with static shapes (ENGINE_FLUX_COMPILE_SHAPES=static: a graph per size and count)
  fp8       ENGINE_FLUX_FP8=on: the step's output error and the 4-image generation's change against
            bf16, then eager and compiled (static) step times and the 4-image generation
  stepcache a 4-image generation with the first-block step cache (threshold 0.05 and 0.1): time,
            skipped work, and how far the images move from the uncached ones (random weights:
            the skip rate here is not what real weights give)

  python bench/gpu/flux_bench.py [--stages env,eager,train,stepcache,compiled] [--out DIR]
  python bench/gpu/flux_bench.py --tiny --device cpu   # the same code on the tiny model (a smoke run)

Results: DIR/flux-gpu.json (merged across stages) and DIR/flux-gpu.md, DIR/flux-gpu-profile.txt.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "apps" / "worker" / "engine"))

from studioshot_engine.flux.weights import offline  # noqa: E402

offline()

import numpy as np  # noqa: E402
import torch  # noqa: E402

from studioshot_engine.flux.generate import FluxGenerator  # noqa: E402
from studioshot_engine.flux.lora import lora_config, write_lora  # noqa: E402
from studioshot_engine.flux.random_weights import FLUX1_DEV, TINY, build_pipeline  # noqa: E402
from studioshot_engine.flux.settings import load_settings  # noqa: E402
from studioshot_engine.flux.speed import apply_speed_settings  # noqa: E402
from studioshot_engine.flux.training import EncodedData, FluxTrainer, TrainingRun  # noqa: E402
from studioshot_engine.flux.weights import Runtime, vae_scale_factor  # noqa: E402
from studioshot_engine.protocol import GenerateParams  # noqa: E402

RESOLUTIONS = (1024, 512)
PROMPT = "a professional headshot of ohwx person in a navy suit, soft studio light, grey backdrop"
# Compiled last: its blocks stay compiled for the rest of the process; fp8 quantizes the transformer
# for good, so it runs in a process of its own (`bash bench/gpu/run.sh fp8`).
STAGES = ("env", "eager", "train", "trainstatic", "stepcache", "compiled", "static", "fp8")


class Quiet:
    """A JobContext that keeps only the logs (the bench prints its own figures)."""

    def __init__(self) -> None:
        self.logs: list[str] = []

    def progress(self, *args: Any, **kwargs: Any) -> None:
        pass

    def raise_if_cancelled(self) -> None:
        pass

    def artifact(self, *args: Any, **kwargs: Any) -> None:
        pass

    def log(self, level: str, message: str) -> None:
        self.logs.append(f"{level}: {message}")


class Bench:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.device = torch.device(args.device)
        self.cuda = self.device.type == "cuda"
        self.dtype = torch.bfloat16 if self.cuda else torch.float32
        self.architecture = TINY if args.tiny else FLUX1_DEV
        self.resolutions = (256, 128) if args.tiny else RESOLUTIONS
        self.work = Path(tempfile.mkdtemp(prefix="flux-bench-"))
        self.results: dict[str, Any] = {}
        self._pipe: Any = None
        self._loras: list[Path] = []

    # --- helpers -------------------------------------------------------------------------------------

    def sync(self) -> None:
        if self.cuda:
            torch.cuda.synchronize(self.device)

    def timed(self, run: Callable[[], Any], repeats: int, warmup: int = 2) -> list[float]:
        """Seconds per call, each synchronised."""
        for _ in range(warmup):
            run()
        self.sync()
        times = []
        for _ in range(repeats):
            started = time.perf_counter()
            run()
            self.sync()
            times.append(time.perf_counter() - started)
        return times

    def peak_gib(self) -> float:
        return round(torch.cuda.max_memory_allocated(self.device) / 2**30, 2) if self.cuda else 0.0

    def reset_peak(self) -> None:
        if self.cuda:
            torch.cuda.reset_peak_memory_stats(self.device)

    def settings(self, **overrides: str) -> Any:
        env = {
            "ENGINE_FLUX_WEIGHTS_DIR": str(self.work / "weights"),
            "ENGINE_FLUX_DEVICE": str(self.device),
            "ENGINE_FLUX_COMPILE": "off",
            "ENGINE_FLUX_COMPILE_CACHE_DIR": str(self.work / "compile-cache"),
            **overrides,
        }
        return load_settings(env)

    @property
    def pipe(self) -> Any:
        if self._pipe is None:
            started = time.perf_counter()
            self._pipe = build_pipeline(self.architecture, device=str(self.device), dtype=self.dtype)
            self.sync()
            # The training reads the scheduler's shift from a weights directory.
            self._pipe.scheduler.save_pretrained(str(self.work / "weights" / "scheduler"))
            self.results.setdefault("build", {})["random_pipeline_seconds"] = round(time.perf_counter() - started, 1)
            self.results["build"]["parameters_billion"] = {
                name: round(sum(p.numel() for p in getattr(self._pipe, name).parameters()) / 1e9, 3)
                for name in ("transformer", "text_encoder_2", "text_encoder", "vae")
            }
        return self._pipe

    def loras(self) -> list[Path]:
        """Two users' LoRAs (rank 16, random B so they change the output), written as the engine does."""
        if not self._loras:
            transformer = self.pipe.transformer
            config = lora_config(16, 16.0)
            self.unload_loras()
            for index in range(2):
                transformer.add_adapter(config)
                with torch.no_grad():
                    for name, parameter in transformer.named_parameters():
                        if "lora_B" in name:
                            parameter.normal_(0, 0.01)
                path = self.work / f"lora-{index}.safetensors"
                facts = {"format": "studioshot.flux-lora", "base_model": "", "rank": 16, "alpha": 16.0}
                write_lora(str(path), transformer, config, facts)
                transformer.delete_adapters("default")
                self._loras.append(path)
        return self._loras

    def unload_loras(self) -> None:
        """Back to the bare transformer (a new generator starts its adapter slot afresh)."""
        if getattr(self.pipe.transformer, "peft_config", None):
            self.pipe.unload_lora_weights()

    def generator(self, **overrides: str) -> FluxGenerator:
        self.unload_loras()
        settings = self.settings(**overrides)
        generator = FluxGenerator(settings, Runtime(device=self.device, dtype=self.dtype))
        generator._pipe = self.pipe  # the pipeline built here stands in for the weights directory
        generator._base_model = ""
        return generator

    def generate(self, generator: FluxGenerator, lora: Path | None, size: int, steps: int = 20) -> dict[str, Any]:
        params = GenerateParams(
            model_path=None if lora is None else str(lora),
            prompt=PROMPT,
            template=None,
            seed=1234,
            count=4,
            size=size,
            output_dir=str(self.work / "images" / f"{size}"),
            steps=steps,
        )
        self.reset_peak()
        started = time.perf_counter()
        summary = generator.generate(Quiet(), params)
        summary["wall_seconds"] = round(time.perf_counter() - started, 3)
        summary["peak_gib"] = self.peak_gib()
        return summary

    def step_inputs(self, size: int, batch: int) -> dict[str, Any]:
        """One denoising step's transformer inputs, as the pipeline makes them."""
        from diffusers import FluxPipeline  # noqa: PLC0415

        pipe = self.pipe
        scale = vae_scale_factor(pipe.vae.config)
        side = size // scale
        channels = pipe.transformer.config.in_channels // 4
        with torch.no_grad():
            prompt_embeds, pooled, text_ids = pipe.encode_prompt(
                prompt=[PROMPT] * batch, prompt_2=None, device=self.device, max_sequence_length=256
            )
        latents = torch.randn(batch, channels, side, side, device=self.device, dtype=self.dtype)
        return {
            "hidden_states": FluxPipeline._pack_latents(latents, batch, channels, side, side),
            "timestep": torch.full((batch,), 0.5, device=self.device, dtype=self.dtype),
            "guidance": torch.full((batch,), 2.5, device=self.device, dtype=torch.float32),
            "pooled_projections": pooled,
            "encoder_hidden_states": prompt_embeds,
            "txt_ids": text_ids,
            "img_ids": FluxPipeline._prepare_latent_image_ids(batch, side // 2, side // 2, self.device, self.dtype),
            "return_dict": False,
        }

    def step_flops(self) -> dict[str, int]:
        """FLOPs of one denoising step per size and batch (PyTorch's FLOP counter, on the eager
        transformer: a compiled one runs the same arithmetic, but cannot run under the counter)."""
        from torch.utils.flop_counter import FlopCounterMode  # noqa: PLC0415

        flops = {}
        for size in self.resolutions:
            for batch in (1, 4):
                inputs = self.step_inputs(size, batch)
                with torch.inference_mode(), FlopCounterMode(display=False) as counter:
                    self.pipe.transformer(**inputs)
                flops[f"{size}px_batch{batch}"] = counter.get_total_flops()
        return flops

    def step_figures(self, label: str, repeats: int, flops_per_step: dict[str, int]) -> dict[str, Any]:
        """ms per transformer call (one denoising step) for 1 and 4 images, and TFLOP/s."""
        figures: dict[str, Any] = {}
        transformer = self.pipe.transformer
        for size in self.resolutions:
            for batch in (1, 4):
                inputs = self.step_inputs(size, batch)
                with torch.inference_mode():
                    times = self.timed(lambda inputs=inputs: transformer(**inputs), repeats)
                flops = flops_per_step[f"{size}px_batch{batch}"]
                median = statistics.median(times)
                entry = {
                    "ms_per_step": round(median * 1000, 2),
                    "ms_per_step_min": round(min(times) * 1000, 2),
                    "tflop_per_step": round(flops / 1e12, 2),
                    "tflops": round(flops / median / 1e12, 1),
                }
                matmul = self.results.get("env", {}).get("bf16_matmul_tflops")
                if matmul:
                    entry["share_of_matmul_rate"] = round(entry["tflops"] / matmul, 3)
                figures[f"{size}px_batch{batch}"] = entry
                print(f"{label} {size}px x{batch}: {entry}", flush=True)
        return figures

    # --- stages --------------------------------------------------------------------------------------

    def env(self) -> None:
        import diffusers  # noqa: PLC0415
        import peft  # noqa: PLC0415
        import transformers  # noqa: PLC0415

        info: dict[str, Any] = {
            "python": platform.python_version(),
            "torch": torch.__version__,
            "cuda": torch.version.cuda,
            "diffusers": diffusers.__version__,
            "peft": peft.__version__,
            "transformers": transformers.__version__,
            "architecture": "tiny" if self.args.tiny else "FLUX.1-dev",
        }
        if self.cuda:
            properties = torch.cuda.get_device_properties(self.device)
            info["gpu"] = properties.name
            info["gpu_memory_gib"] = round(properties.total_memory / 2**30, 1)
            info["multiprocessors"] = properties.multi_processor_count
            try:
                info["driver"] = subprocess.run(
                    ["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout.strip()
            except (OSError, subprocess.CalledProcessError):
                info["driver"] = "unknown"
            n = 8192
            a = torch.randn(n, n, device=self.device, dtype=torch.bfloat16)
            b = torch.randn(n, n, device=self.device, dtype=torch.bfloat16)
            times = self.timed(lambda: a @ b, repeats=10, warmup=3)
            info["bf16_matmul_tflops"] = round(2 * n**3 / statistics.mean(times) / 1e12, 1)
            del a, b
        self.results["env"] = info
        print(json.dumps(info), flush=True)

    def eager(self) -> None:
        repeats = 3 if self.args.tiny else 10
        result: dict[str, Any] = {"steps": self.step_figures("eager", repeats, self.step_flops())}
        loras = self.loras()
        generator = self.generator()
        for size in self.resolutions:
            first = self.generate(generator, loras[0], size)
            second = self.generate(generator, loras[1], size)
            base = self.generate(generator, None, size)
            result[f"generation_{size}px"] = {
                "four_images_20_steps_seconds": second["wall_seconds"],
                "first_lora_load_seconds": first["lora_swap_seconds"],
                "lora_swap_seconds": second["lora_swap_seconds"],
                "base_model_seconds": base["wall_seconds"],
                "peak_gib": max(first["peak_gib"], second["peak_gib"]),
            }
            print(f"eager generation {size}px: {result[f'generation_{size}px']}", flush=True)
        self.results["eager"] = result

    def trainstatic(self) -> None:
        self.train(compile_mode="on")

    def train(self, compile_mode: str = "off") -> None:
        label = "train" if compile_mode == "off" else "trainstatic"
        pipe = self.pipe
        self.unload_loras()
        # As the engine does: the encoders leave the GPU before the transformer trains.
        for name in ("text_encoder", "text_encoder_2", "vae"):
            getattr(pipe, name).to("cpu")
        gc.collect()
        if self.cuda:
            torch.cuda.empty_cache()
        steps = 3 if self.args.tiny else 20
        result: dict[str, Any] = {}
        for size in (self.resolutions[1], self.resolutions[0]):
            settings = self.settings(
                ENGINE_FLUX_LORA_RESOLUTION=str(size),
                ENGINE_FLUX_LORA_STEPS=str(steps + 5),
                ENGINE_FLUX_COMPILE=compile_mode,
            )
            trainer = FluxTrainer(settings, Runtime(device=self.device, dtype=self.dtype))
            data = self.training_data(size)
            self.reset_peak()
            run = TrainingRun(trainer, data, "bench", transformer=pipe.transformer)
            times = []
            first_step_started = time.perf_counter()
            for step in range(1, steps + 6):
                started = time.perf_counter()
                run.step(step)
                self.sync()
                if step == 1:
                    first_step_seconds = time.perf_counter() - first_step_started
                if step > 5:  # the first steps allocate and pick kernels (and compile)
                    times.append(time.perf_counter() - started)
            median = statistics.median(times)
            result[f"{size}px"] = {
                "ms_per_step": round(median * 1000, 1),
                "thousand_steps_minutes": round(median * 1000 / 60, 2),
                "peak_gib": self.peak_gib(),
                "gradient_checkpointing": run.gradient_checkpointing,
                "lora_rank": settings.lora_rank,
                "first_step_seconds": round(first_step_seconds, 1),
            }
            print(f"{label} {size}px: {result[f'{size}px']}", flush=True)
            pipe.transformer.delete_adapters("default")
            pipe.transformer.requires_grad_(False)
            pipe.transformer.eval()
            if run.gradient_checkpointing:
                pipe.transformer.disable_gradient_checkpointing()
            del run
            gc.collect()
            if self.cuda:
                torch.cuda.empty_cache()
        for name in ("text_encoder", "text_encoder_2", "vae"):
            getattr(pipe, name).to(self.device)
        self.results[label] = result

    def training_data(self, size: int) -> EncodedData:
        pipe = self.pipe
        scale = vae_scale_factor(pipe.vae.config)
        channels = pipe.transformer.config.in_channels // 4
        tokens = 256
        return EncodedData(
            latents=torch.randn(12, channels, size // scale, size // scale, device=self.device, dtype=self.dtype),
            prompt_embeds=torch.randn(
                2, tokens, pipe.transformer.config.joint_attention_dim, device=self.device, dtype=self.dtype
            ),
            pooled=torch.randn(2, pipe.transformer.config.pooled_projection_dim, device=self.device, dtype=self.dtype),
            text_ids=torch.zeros(tokens, 3, device=self.device, dtype=self.dtype),
            caption_of=[index % 2 for index in range(12)],
            vae_scale=scale,
        )

    def static(self) -> None:
        self.compiled(shapes="static")

    def compiled(self, shapes: str = "dynamic") -> None:
        overrides = {"ENGINE_FLUX_COMPILE": "on", "ENGINE_FLUX_COMPILE_SHAPES": shapes}
        label = "compiled" if shapes == "dynamic" else "static"
        settings = self.settings(**overrides)
        loras = self.loras()
        generator = self.generator(**overrides)
        flops = self.step_flops()
        started = time.perf_counter()
        apply_speed_settings(self.pipe, settings, Runtime(device=self.device, dtype=self.dtype), Quiet())
        result: dict[str, Any] = {}
        # The first generation compiles (with the LoRA loaded, as in production).
        first = self.generate(generator, loras[0], self.resolutions[0])
        result["first_generation_with_compile_seconds"] = round(time.perf_counter() - started, 1)
        repeats = 3 if self.args.tiny else 10
        result["steps"] = self.step_figures(label, repeats, flops)
        for size in self.resolutions:
            warm = self.generate(generator, loras[1], size)
            again = self.generate(generator, loras[0], size)
            result[f"generation_{size}px"] = {
                "four_images_20_steps_seconds": again["wall_seconds"],
                "lora_swap_seconds": again["lora_swap_seconds"],
                "first_at_this_size_seconds": warm["wall_seconds"],
                "peak_gib": again["peak_gib"],
            }
            print(f"{label} generation {size}px: {result[f'generation_{size}px']}", flush=True)
        result["first_lora_load_seconds"] = first["lora_swap_seconds"]
        self.results[label] = result
        self.profile(label)

    def fp8(self) -> None:
        from studioshot_engine.flux.fp8 import quantize_transformer  # noqa: PLC0415

        loras = self.loras()
        size = self.resolutions[0]
        repeats = 3 if self.args.tiny else 10
        flops = self.step_flops()
        inputs = self.step_inputs(size, 1)
        with torch.inference_mode():
            reference_step = self.pipe.transformer(**inputs)[0].float()
        bf16 = self.generate(self.generator(), loras[0], size)
        reference_images = self.images(size)
        self.unload_loras()
        result: dict[str, Any] = {
            "bf16_eager_generation_seconds": bf16["wall_seconds"],
            "quantized_layers": quantize_transformer(self.pipe.transformer),
        }
        with torch.inference_mode():
            step = self.pipe.transformer(**inputs)[0].float()
        result["step_relative_error"] = round(float((step - reference_step).norm() / reference_step.norm()), 4)
        overrides = {"ENGINE_FLUX_FP8": "on", "ENGINE_FLUX_COMPILE": "on", "ENGINE_FLUX_COMPILE_SHAPES": "static"}
        generator = self.generator(**overrides)
        generator._fp8 = True  # the bench's pipeline was quantized above, as _pipeline() does
        eager = self.generate(generator, loras[0], size)
        change = [float(np.abs(a - b).mean()) for a, b in zip(reference_images, self.images(size), strict=True)]
        result["eager_generation_seconds"] = eager["wall_seconds"]
        result["image_mean_abs_change_levels"] = round(statistics.mean(change), 2)
        result["eager_steps"] = self.step_figures("fp8 eager", repeats, flops)
        apply_speed_settings(self.pipe, self.settings(**overrides), Runtime(device=self.device, dtype=self.dtype), Quiet())
        started = time.perf_counter()
        self.generate(generator, loras[1], size)
        result["first_generation_with_compile_seconds"] = round(time.perf_counter() - started, 1)
        result["steps"] = self.step_figures("fp8 static", repeats, flops)
        for each in self.resolutions:
            warm = self.generate(generator, loras[1], each)
            again = self.generate(generator, loras[0], each)
            result[f"generation_{each}px"] = {
                "four_images_20_steps_seconds": again["wall_seconds"],
                "lora_swap_seconds": again["lora_swap_seconds"],
                "first_at_this_size_seconds": warm["wall_seconds"],
                "peak_gib": again["peak_gib"],
            }
            print(f"fp8 generation {each}px: {result[f'generation_{each}px']}", flush=True)
        print(f"fp8: {({k: v for k, v in result.items() if not isinstance(v, dict)})}", flush=True)
        self.results["fp8"] = result
        self.profile("fp8")

    def profile(self, label: str) -> None:
        from torch.profiler import ProfilerActivity, profile  # noqa: PLC0415

        inputs = self.step_inputs(self.resolutions[0], 1)
        transformer = self.pipe.transformer
        activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if self.cuda else [])
        with torch.inference_mode():
            transformer(**inputs)
            self.sync()
            with profile(activities=activities) as trace:
                transformer(**inputs)
                self.sync()
        sort = "cuda_time_total" if self.cuda else "cpu_time_total"
        table = trace.key_averages().table(sort_by=sort, row_limit=25, max_name_column_width=70)
        (self.args.out / f"flux-gpu-profile-{label}.txt").write_text(
            f"One {label} denoising step, {self.resolutions[0]} px, 1 image, LoRA loaded.\n\n{table}\n"
        )
        print(table, flush=True)

    def stepcache(self) -> None:
        from diffusers import FirstBlockCacheConfig  # noqa: PLC0415

        loras = self.loras()
        size = self.resolutions[0]
        plain = self.generate(self.generator(), loras[0], size)
        reference = self.images(size)
        result: dict[str, Any] = {"uncached_seconds": plain["wall_seconds"]}
        for threshold in (0.05, 0.1):
            self.pipe.transformer.enable_cache(FirstBlockCacheConfig(threshold=threshold))
            cached = self.generate(self.generator(), loras[0], size)
            images = self.images(size)
            self.pipe.transformer.disable_cache()
            change = [float(np.abs(a - b).mean()) for a, b in zip(reference, images, strict=True)]
            result[f"threshold_{threshold}"] = {
                "seconds": cached["wall_seconds"],
                "speedup": round(plain["wall_seconds"] / cached["wall_seconds"], 2),
                "mean_abs_change_levels": round(statistics.mean(change), 2),
            }
            print(f"step cache {threshold}: {result[f'threshold_{threshold}']}", flush=True)
        self.results["stepcache"] = result

    def images(self, size: int) -> list[np.ndarray]:
        from PIL import Image  # noqa: PLC0415

        directory = self.work / "images" / f"{size}"
        return [
            np.asarray(Image.open(directory / f"image-{index}.jpg").convert("RGB"), dtype=np.float32)
            for index in range(4)
        ]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--stages", default=",".join(STAGES))
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--tiny", action="store_true", help="the tiny architecture (a smoke run of this script)")
    parser.add_argument("--out", type=Path, default=Path(os.environ.get("OUT") or ROOT / "bench" / "results"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    stages = [stage for stage in args.stages.split(",") if stage]
    unknown = set(stages) - set(STAGES)
    if unknown:
        parser.error(f"unknown stages: {', '.join(sorted(unknown))}")
    bench = Bench(args)
    results_file = args.out / ("flux-gpu-tiny.json" if args.tiny else "flux-gpu.json")
    if results_file.exists():
        bench.results = json.loads(results_file.read_text())
    if "env" not in stages and "env" not in bench.results:
        stages.insert(0, "env")
    for stage in stages:
        started = time.perf_counter()
        getattr(bench, stage)()
        bench.results.setdefault("stage_seconds", {})[stage] = round(time.perf_counter() - started, 1)
        bench.results["measured_at"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        results_file.write_text(json.dumps(bench.results, indent=2) + "\n")
    write_markdown(bench.results, results_file.with_suffix(".md"))
    return 0


def write_markdown(results: dict[str, Any], path: Path) -> None:
    lines = ["# FLUX.1 engine on one GPU (random full-size weights)", ""]
    env = results.get("env", {})
    lines.append(
        f"{env.get('gpu', 'CPU')}, driver {env.get('driver', '-')}, torch {env.get('torch')} (CUDA {env.get('cuda')}), "
        f"diffusers {env.get('diffusers')}, peft {env.get('peft')}, transformers {env.get('transformers')}; "
        f"measured bf16 matmul {env.get('bf16_matmul_tflops', '-')} TFLOP/s; {results.get('measured_at', '')}."
    )
    lines += [
        "",
        "fp8 rows count bf16-equivalent FLOPs against the bf16 matmul rate. `static`: compiled with static shapes.",
        "",
        "| what | figure |",
        "| --- | --- |",
    ]
    for stage in ("eager", "compiled", "static", "fp8"):
        for key, entry in results.get(stage, {}).get("steps", {}).items():
            share = entry.get("share_of_matmul_rate")
            lines.append(
                f"| {stage} step, {key} | {entry['ms_per_step']} ms, {entry['tflops']} TFLOP/s"
                + (f" ({share:.0%} of matmul)" if share else "")
                + " |"
            )
        for key, entry in results.get(stage, {}).items():
            if key.startswith("generation_"):
                lines.append(
                    f"| {stage} 4 images x 20 steps, {key.removeprefix('generation_')} | "
                    f"{entry['four_images_20_steps_seconds']} s, LoRA swap {entry['lora_swap_seconds']} s, "
                    f"peak {entry['peak_gib']} GiB |"
                )
    fp8 = results.get("fp8", {})
    if fp8:
        lines.append(
            f"| fp8 vs bf16 | one step's output {fp8['step_relative_error']:.2%} off (relative L2); images change "
            f"{fp8['image_mean_abs_change_levels']} levels on average; {fp8['quantized_layers']} layers in fp8 |"
        )
        for key, entry in fp8.get("eager_steps", {}).items():
            lines.append(f"| fp8 eager step, {key} | {entry['ms_per_step']} ms, {entry['tflops']} TFLOP/s (bf16-equivalent) |")
    for label, key, entry in [
        (label, key, entry) for label in ("train", "trainstatic") for key, entry in results.get(label, {}).items()
    ]:
        lines.append(
            f"| LoRA training{' (compiled)' if label == 'trainstatic' else ''}, {key} | {entry['ms_per_step']} ms/step "
            f"({entry['thousand_steps_minutes']} min per 1000), "
            f"peak {entry['peak_gib']} GiB, gradient checkpointing {entry['gradient_checkpointing']} |"
        )
    for key, entry in results.get("stepcache", {}).items():
        if key.startswith("threshold_"):
            lines.append(
                f"| step cache {key.removeprefix('threshold_')} | {entry['seconds']} s ({entry['speedup']}x), "
                f"images change {entry['mean_abs_change_levels']} levels on average |"
            )
    path.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    sys.exit(main())
