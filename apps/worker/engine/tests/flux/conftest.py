"""Fixtures of the flux engine's tests. They run in the flux virtualenv (apps/worker/engine/.venv-flux,
made by scripts/lib.sh's ensure_flux_engine) on a tiny random-weight FLUX.1 pipeline made here."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch
from flux_support import offline

from studioshot_engine.flux.random_weights import save_tiny_weights

# The tiny models gain nothing from a second thread, and on a busy two-core machine the two spin
# against each other (measured: 2x slower).
torch.set_num_threads(1)


@pytest.fixture(scope="session")
def flux_weights(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny pipeline saved in the diffusers layout, as an operator's weights directory."""
    offline()
    return save_tiny_weights(tmp_path_factory.mktemp("flux") / "weights")
