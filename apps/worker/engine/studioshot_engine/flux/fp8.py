"""fp8 generation (ENGINE_FLUX_FP8=on; GPUs with fp8 tensor cores: Hopper, Ada and later).

The transformer's block linears (exactly the layers our LoRAs adapt, lora.TARGET_MODULES) multiply
in float8 (e4m3) with row-wise scales: each weight row and each activation row gets its own scale,
the weights quantized once per job, the activations on the fly (torch.compile fuses that into the
preceding kernel). The bf16 weights stay on the GPU as the master copy, so nothing drifts however
many jobs run: a job's LoRA is merged into its layers' master weights (W + alpha/rank * B @ A) and
quantized into the fp8 copy, which costs one pass over the adapted weights instead of the ~20%
per step an unmerged adapter adds. Memory: the fp8 copy adds half the transformer's bf16 size.

bench/gpu measures the speed and how far the images move from bf16's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .lora import TARGET_MODULES

if TYPE_CHECKING:
    import torch
    from diffusers import FluxTransformer2DModel

FP8_MAX = 448.0  # the largest finite float8_e4m3fn
# _scaled_mm wants both inner and outer dimensions in multiples of 16.
ALIGNMENT = 16
LORA_PREFIX = "transformer."


def fp8_supported(device: torch.device) -> bool:
    import torch  # noqa: PLC0415

    return device.type == "cuda" and torch.cuda.get_device_capability(device) >= (8, 9)


def _linear_class() -> type:
    import torch  # noqa: PLC0415

    class Fp8Linear(torch.nn.Module):
        """A frozen linear layer that multiplies in fp8 with row-wise scales."""

        # Buffers (register_buffer), declared so that they read as tensors, not as Module attributes.
        master: torch.Tensor
        weight_fp8: torch.Tensor
        weight_scale: torch.Tensor

        def __init__(self, linear: torch.nn.Linear) -> None:
            super().__init__()
            self.in_features, self.out_features = linear.in_features, linear.out_features
            # The master copy: what a LoRA is merged into (never changed itself).
            self.register_buffer("master", linear.weight.detach(), persistent=False)
            self.bias = None if linear.bias is None else torch.nn.Parameter(linear.bias.detach(), requires_grad=False)
            self.register_buffer("weight_fp8", torch.empty_like(self.master, dtype=torch.float8_e4m3fn))
            self.register_buffer("weight_scale", torch.empty(1, self.out_features, device=self.master.device))
            self.merged = False
            self.load(self.master)

        @torch.no_grad()
        def load(self, weight: torch.Tensor) -> None:
            scale = weight.abs().amax(dim=1).float().clamp(min=1e-12) / FP8_MAX
            self.weight_fp8.copy_((weight.float() / scale[:, None]).to(torch.float8_e4m3fn))
            self.weight_scale.copy_(scale[None, :])

        @torch.no_grad()
        def merge(self, down: torch.Tensor | None, up: torch.Tensor | None, scale: float) -> None:
            """This job's adapter (None: none) merged into the master weights and quantized."""
            if down is None or up is None:
                if self.merged:
                    self.load(self.master)
                    self.merged = False
                return
            delta = up.to(self.master.device, torch.float32) @ down.to(self.master.device, torch.float32)
            # A copy (never in place: in float32 `.float()` would be the master itself).
            self.load(self.master.to(torch.float32, copy=True).add_(delta, alpha=scale))
            self.merged = True

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            rows = x.reshape(-1, self.in_features)
            scale = rows.abs().amax(dim=1, keepdim=True).float().clamp(min=1e-12) / FP8_MAX
            quantized = (rows.float() / scale).to(torch.float8_e4m3fn)
            out = torch._scaled_mm(
                quantized, self.weight_fp8.t(), scale_a=scale, scale_b=self.weight_scale, out_dtype=x.dtype
            )
            if self.bias is not None:
                out = out + self.bias
            return out.reshape(*x.shape[:-1], self.out_features)

    return Fp8Linear


def _targets(transformer: FluxTransformer2DModel) -> list[tuple[str, Any]]:
    import torch  # noqa: PLC0415

    return [
        (name, module)
        for name, module in transformer.named_modules()
        if isinstance(module, torch.nn.Linear)
        and any(name.endswith(target) for target in TARGET_MODULES)
        and module.in_features % ALIGNMENT == 0
        and module.out_features % ALIGNMENT == 0
    ]


def quantize_transformer(transformer: FluxTransformer2DModel) -> int:
    """Replaces the adapted linears with fp8 ones; returns how many. Call before any LoRA is loaded."""
    fp8_linear = _linear_class()
    replaced = 0
    for name, module in _targets(transformer):
        parent_name, _, child = name.rpartition(".")
        parent = transformer.get_submodule(parent_name)
        setattr(parent, child, fp8_linear(module))
        replaced += 1
    return replaced


def merge_lora(transformer: FluxTransformer2DModel, path: str | None, scale: float) -> int:
    """Merges the LoRA file at `path` (None: the base model) into the fp8 layers; returns how many
    layers it adapts. The file's layer names are diffusers' (transformer.<module>.lora_A/B.weight)."""
    from safetensors.torch import load_file  # noqa: PLC0415

    tensors: dict[str, Any] = {}
    if path is not None:
        device = next(transformer.parameters()).device
        tensors = load_file(path, device=str(device))
    adapted = 0
    for name, module in transformer.named_modules():
        if not hasattr(module, "weight_fp8"):
            continue
        down = tensors.get(f"{LORA_PREFIX}{name}.lora_A.weight")
        up = tensors.get(f"{LORA_PREFIX}{name}.lora_B.weight")
        module.merge(down, up, scale)
        adapted += down is not None and up is not None
    return adapted
