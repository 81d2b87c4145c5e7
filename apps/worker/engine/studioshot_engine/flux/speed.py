"""Speed settings of the flux generation (bench/gpu measures each).

- bf16 weights and activations on a GPU (weights.py), attention through PyTorch's fused
  scaled-dot-product attention (diffusers' default processor: flash or cuDNN kernels on Hopper).
- torch.compile of the transformer's repeated blocks (regional compilation: one compile per block
  type, not per block), with Inductor's FX-graph and autograd caches and Triton's kernels kept on
  disk in ENGINE_FLUX_COMPILE_CACHE_DIR, so a new process reuses what an earlier one compiled.
  Dynamic shapes by default; ENGINE_FLUX_COMPILE_SHAPES=static compiles per size and image count.
- fp8 (`ENGINE_FLUX_FP8=on`): the block linears multiply in float8 (fp8.py). Off by default: it
  changes the image a little.
- Step caching (`ENGINE_FLUX_STEP_CACHE` > 0): diffusers' first-block cache skips the remaining
  blocks on steps whose first block barely changed. Off by default: it changes the image.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from ..jobs import JobContext
from .settings import FluxSettings
from .weights import Runtime

if TYPE_CHECKING:
    from diffusers import FluxPipeline


RECOMPILE_LIMIT = 32


def compile_enabled(settings: FluxSettings, runtime: Runtime) -> bool:
    return settings.compile == "on" or (settings.compile == "auto" and runtime.is_cuda)


def configure_compile_cache(settings: FluxSettings) -> None:
    """Points Inductor's and Triton's caches at the settings' directory; call before torch is imported
    (both read these variables when their modules load)."""
    cache = settings.compile_cache_dir
    os.environ.setdefault("TORCHINDUCTOR_CACHE_DIR", str(cache / "inductor"))
    os.environ.setdefault("TRITON_CACHE_DIR", str(cache / "triton"))
    os.environ.setdefault("TORCHINDUCTOR_FX_GRAPH_CACHE", "1")
    os.environ.setdefault("TORCHINDUCTOR_AUTOGRAD_CACHE", "1")


def apply_speed_settings(pipe: FluxPipeline, settings: FluxSettings, runtime: Runtime, job: JobContext) -> None:
    import torch  # noqa: PLC0415

    if runtime.is_cuda:
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.backends.cudnn.allow_tf32 = True
    if settings.step_cache > 0:
        from diffusers import FirstBlockCacheConfig  # noqa: PLC0415

        pipe.transformer.enable_cache(FirstBlockCacheConfig(threshold=settings.step_cache))
        job.log("info", f"first-block step cache on (threshold {settings.step_cache})")
    if compile_enabled(settings, runtime):
        compile_blocks(pipe, settings)
        job.log("info", f"transformer blocks compiled (cache {settings.compile_cache_dir})")


def compile_blocks(pipe: FluxPipeline, settings: FluxSettings, backend: str = "inductor") -> None:
    """Compiles the transformer's repeated blocks, lazily: the first call traces and compiles them.

    `backend` is Inductor in the product. The tests pass dynamo's "eager" backend on a CPU: the
    blocks are then traced whole (fullgraph: a graph break fails) with the same guards and shapes,
    and only Inductor's kernel generation, which needs the GPU, is left out."""
    import torch  # noqa: PLC0415

    settings.compile_cache_dir.mkdir(parents=True, exist_ok=True)
    # Compiled lazily, on the first call; later processes find the kernels in the cache. Dynamic
    # shapes: one warm session sees several sizes and image counts, and a graph per shape would
    # soon pass dynamo's recompile limit (a hard failure with fullgraph). The adapter on or off
    # is a second graph; the limit leaves room for both at a few sizes.
    torch._dynamo.config.recompile_limit = max(torch._dynamo.config.recompile_limit, RECOMPILE_LIMIT)
    pipe.transformer.compile_repeated_blocks(
        fullgraph=True, dynamic=settings.compile_shapes == "dynamic", backend=backend
    )
