"""Helpers of the flux engine's tests (fixtures are in conftest.py)."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from harness import FIXTURES, TRANSCRIPTS

from studioshot_engine.flux.weights import offline

# Before anything imports diffusers or transformers: nothing may reach a hub.
offline()

from studioshot_engine.flux.settings import FluxSettings, load_settings  # noqa: E402
from studioshot_engine.jobs import JobCancelled  # noqa: E402
from studioshot_engine.protocol import FaceBox, Photo  # noqa: E402

FLUX_TRANSCRIPTS = TRANSCRIPTS / "flux"
# A flux engine imports torch and diffusers before `ready`: seconds alone, a minute on a busy machine.
FLUX_MESSAGE_TIMEOUT_S = 120.0
# Small and quick on a CPU: 4 LoRA steps of 128 px, checkpoints every 2, 2 denoising steps.
FAST_SETTINGS: dict[str, str] = json.loads((FLUX_TRANSCRIPTS / "settings.json").read_text())
# The astronaut fixtures' faces (512 px photos), as the photo checks would report them.
ASTRONAUT_FACE = FaceBox(x=172, y=72, width=128, height=150)
MIRRORED_FACE = FaceBox(x=212, y=72, width=128, height=150)
OTHER_FACE = FaceBox(x=230, y=150, width=180, height=200)


def flux_env(weights: Path, **overrides: str) -> dict[str, str]:
    """The environment of a flux engine process on the tiny weights, with the fast settings."""
    # One thread, as in process (conftest.py).
    return {**os.environ, **FAST_SETTINGS, "ENGINE_FLUX_WEIGHTS_DIR": str(weights), "OMP_NUM_THREADS": "1", **overrides}


def flux_settings(weights: Path, **overrides: str) -> FluxSettings:
    return load_settings({**FAST_SETTINGS, "ENGINE_FLUX_WEIGHTS_DIR": str(weights), **overrides})


def astronaut_photos() -> list[Photo]:
    """One person's photos with their face boxes (the fixture is both the optimised copy and the original)."""
    boxes = {"astronaut": ASTRONAUT_FACE, "astronaut-mirror": MIRRORED_FACE, "astronaut-warm": ASTRONAUT_FACE}
    return [_photo(name, box) for name, box in boxes.items()]


def other_person_photos() -> list[Photo]:
    """A second user's photos (two pictures; the third is the first again, under another id)."""
    return [
        _photo("other-person", OTHER_FACE),
        _photo("other-person-2", OTHER_FACE),
        _photo("other-person", OTHER_FACE, photo_id="other-person-again"),
    ]


def _photo(name: str, box: FaceBox, photo_id: str | None = None) -> Photo:
    path = str(FIXTURES / f"{name}.jpg")
    return Photo(id=photo_id or name, path=path, original_path=path, face_box=box)


def start_line(job_id: str, task: str, params: dict[str, Any]) -> dict[str, Any]:
    return {"v": 2, "type": "start", "job_id": job_id, "task": task, "params": params}


def train_line(job_id: str, photos: list[Photo], output_dir: Path, **extra: Any) -> dict[str, Any]:
    return start_line(
        job_id,
        "train",
        {
            "photos": [
                {
                    "id": photo.id,
                    "path": photo.path,
                    "original_path": photo.original_path,
                    "descriptor": None,
                    **(
                        {}
                        if photo.face_box is None
                        else {"face_box": {k: getattr(photo.face_box, k) for k in ("x", "y", "width", "height")}}
                    ),
                }
                for photo in photos
            ],
            "output_dir": str(output_dir),
            "trigger_word": "ohwx",
            "model_name": "Test model",
            **extra,
        },
    )


class Recorder:
    """A JobContext that keeps everything a flux task reports (metrics and meta included); with
    `cancel_after`, the job is cancelled once that many progress reports went out."""

    def __init__(self, cancel_after: int | None = None) -> None:
        self.progress_reports: list[dict[str, Any]] = []
        self.artifacts: list[dict[str, Any]] = []
        self.logs: list[tuple[str, str]] = []
        self._cancel_after = cancel_after

    def progress(
        self,
        step: int,
        total: int,
        message: str,
        metrics: Mapping[str, float] | None = None,
        eta_seconds: float | None = None,
    ) -> None:
        self.raise_if_cancelled()
        self.progress_reports.append(
            {"step": step, "total": total, "message": message, "metrics": dict(metrics or {}), "eta": eta_seconds}
        )

    def raise_if_cancelled(self) -> None:
        if self._cancel_after is not None and len(self.progress_reports) >= self._cancel_after:
            raise JobCancelled

    def artifact(self, path: str, kind: str, meta: Mapping[str, Any] | None = None) -> None:
        self.artifacts.append({"path": path, "kind": kind, "meta": dict(meta or {})})

    def log(self, level: str, message: str) -> None:
        self.logs.append((level, message))

    def of_kind(self, kind: str) -> list[dict[str, Any]]:
        return [artifact for artifact in self.artifacts if artifact["kind"] == kind]
