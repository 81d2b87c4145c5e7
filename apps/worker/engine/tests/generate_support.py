"""Helpers for the generation tests: a model trained on the fixture photos, a recording job,
GenerateParams, and the template data (packages/templates/data/templates.json)."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from studioshot_engine.jobs import JobCancelled
from studioshot_engine.protocol import GenerateParams, GenerateTemplate, LogLevel, Photo, TrainParams

REPO = Path(__file__).resolve().parents[4]
FIXTURES = REPO / "apps" / "worker" / "test" / "fixtures"
TEMPLATES_JSON = REPO / "packages" / "templates" / "data" / "templates.json"
MODEL_PHOTOS = ["astronaut", "astronaut-mirror", "astronaut-warm", "astronaut-tilted", "astronaut-closer"]


# --- the job and the params ----------------------------------------------------------------------


class RecordingJob:
    """A generation JobContext that records what it is told; cancels after `cancel_after_images` artifacts."""

    def __init__(self, cancel_after_images: int | None = None) -> None:
        self.events: list[tuple[str, Any]] = []
        self._cancel_after_images = cancel_after_images

    def progress(
        self,
        step: int,
        total: int,
        message: str,
        metrics: Mapping[str, float] | None = None,
        eta_seconds: float | None = None,
    ) -> None:
        self.raise_if_cancelled()
        self.events.append(
            (
                "progress",
                {"step": step, "total": total, "message": message, "metrics": metrics, "eta_seconds": eta_seconds},
            )
        )

    def raise_if_cancelled(self) -> None:
        images = len(self.of_kind("artifact"))
        if self._cancel_after_images is not None and images >= self._cancel_after_images:
            raise JobCancelled

    def artifact(self, path: str, kind: str, meta: Mapping[str, Any] | None = None) -> None:
        self.events.append(("artifact", {"path": path, "kind": kind, "meta": meta}))

    def log(self, level: LogLevel, message: str) -> None:
        self.events.append(("log", {"level": level, "message": message}))

    def of_kind(self, kind: str) -> list[Any]:
        return [payload for event_kind, payload in self.events if event_kind == kind]


def generate_params(
    model_path: Path | str,
    output_dir: Path | str,
    *,
    studio: dict[str, Any] | None = None,
    template_id: str = "prof_1",
    variant: int = 0,
    prompt: str = "professional headshot of person",
    seed: int = 7,
    count: int = 4,
    size: int = 1024,
) -> GenerateParams:
    template = None if studio is None else GenerateTemplate(id=template_id, variant=variant, studio=studio)
    return GenerateParams(
        model_path=str(model_path),
        prompt=prompt,
        template=template,
        seed=seed,
        count=count,
        size=size,
        output_dir=str(output_dir),
    )


def load_templates() -> list[dict[str, Any]]:
    """The templates package's data: [{id, variants: [{studio: StudioParams, ...}], ...}]."""
    data = json.loads(TEMPLATES_JSON.read_text())
    templates: list[dict[str, Any]] = data["templates"] if isinstance(data, dict) else data
    return templates


# --- the model -----------------------------------------------------------------------------------


def build_model(directory: Path, trainer: Any = None, photos: list[str] | None = None) -> Path:
    """The training's model.npz (format 2) of the fixture photos, in `directory`."""
    from studioshot_engine.studio.training import StudioTrainer  # noqa: PLC0415

    names = photos or MODEL_PHOTOS
    directory.mkdir(parents=True, exist_ok=True)
    params = TrainParams(
        photos=tuple(Photo(id=name, path=str(FIXTURES / f"{name}.jpg")) for name in names),
        output_dir=str(directory),
        trigger_word="person",
        model_name="Test model",
    )
    (trainer or StudioTrainer()).train(RecordingJob(), params)
    path = directory / "model.npz"
    with np.load(path, allow_pickle=False) as archive:
        assert json.loads(str(archive["profile"]))["format_version"] >= 2, "the training writes format 1"
    return path


def downgrade_to_format_one(source: Path, target: Path) -> Path:
    """The same model as format 1 wrote it: no portraits, format_version 1."""
    with np.load(source, allow_pickle=False) as archive:
        profile = json.loads(str(archive["profile"]))
        arrays = {name: archive[name] for name in ("faces", "mattes", "face_boxes", "source_transforms")}
    profile["format_version"] = 1
    for key in ("portrait_size", "portrait_framing"):
        profile.pop(key, None)
    members = {**arrays, "profile": np.array(json.dumps(profile))}
    with zipfile.ZipFile(target, "w") as archive:
        for name, array in members.items():
            buffer = io.BytesIO()
            np.lib.format.write_array(buffer, array, allow_pickle=False)
            archive.writestr(f"{name}.npy", buffer.getvalue(), compress_type=zipfile.ZIP_DEFLATED, compresslevel=1)
    return target
