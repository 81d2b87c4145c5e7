"""Fixtures of the flux engine's tests. They run in the flux virtualenv (apps/worker/engine/.venv-flux,
made by scripts/lib.sh's ensure_flux_engine) on a tiny random-weight FLUX.1 pipeline made here, on
the machine's CUDA GPU when torch sees one (every test), else on the CPU (every test but those
marked `cuda`, which are skipped saying why)."""

from __future__ import annotations

import os
from pathlib import Path

# The tests compare images and LoRAs of two runs exactly or to float32's precision. On a GPU that
# holds only with deterministic kernels, and cuBLAS has them only when this is set before CUDA
# starts (here, before torch is imported; engine processes inherit it through flux_env).
os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")

import pytest
import torch
from flux_support import offline

from studioshot_engine.flux.random_weights import save_tiny_weights

# The tiny models gain nothing from a second thread, and on a busy two-core machine the two spin
# against each other (measured: 2x slower).
torch.set_num_threads(1)
if torch.cuda.is_available():
    # Deterministic kernels wherever PyTorch has them; an op without one warns rather than fails.
    torch.use_deterministic_algorithms(True, warn_only=True)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The `cuda` tests need a GPU: without one they are skipped, and the skip says why."""
    if torch.cuda.is_available():
        return
    why = pytest.mark.skip(
        reason=f"needs a CUDA GPU: torch {torch.__version__} (CUDA build {torch.version.cuda}) sees none"
    )
    for item in items:
        if item.get_closest_marker("cuda") is not None:
            item.add_marker(why)


@pytest.fixture(scope="session")
def flux_weights(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny pipeline saved in the diffusers layout, as an operator's weights directory."""
    offline()
    return save_tiny_weights(tmp_path_factory.mktemp("flux") / "weights")
