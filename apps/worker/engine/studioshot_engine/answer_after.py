"""A development convenience (the worker refuses it in production): ENGINE_ANSWER_AFTER_MS makes the
engine answer every job after that fixed sleep, with small stand-in files in place of a personal
model and its images. The process, its pipe, its protocol and its cancel handling stay the real
ones, so a test can run hundreds of tasks through real workers and engines in little time.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from typing import Any

import cv2
import numpy as np

from .jobs import JobContext
from .protocol import GenerateParams, TrainParams

ANSWER_AFTER_SETTING = "ENGINE_ANSWER_AFTER_MS"
# How often the sleep looks for a cancel: a cancelled job stops as promptly as a real one.
CANCEL_CHECK_S = 0.02
STAND_IN_SIDE = 64


def answer_after_ms(environ: Mapping[str, str]) -> int | None:
    """The sleep ENGINE_ANSWER_AFTER_MS names in milliseconds; None when unset."""
    value = environ.get(ANSWER_AFTER_SETTING, "").strip()
    if not value:
        return None
    if not value.isdigit():
        raise ValueError(f"{ANSWER_AFTER_SETTING} must be a whole number of milliseconds: {value!r}")
    return int(value)


class AnswerAfter:
    """Trainer and generator at once: sleeps, then writes what a real run announces."""

    def __init__(self, milliseconds: int) -> None:
        self._seconds = milliseconds / 1000

    def train(self, job: JobContext, params: TrainParams) -> dict[str, Any]:
        self._sleep(job)
        os.makedirs(params.output_dir, exist_ok=True)
        model_path = os.path.join(params.output_dir, "model.npz")
        np.savez(model_path, stand_in=np.zeros(1, np.uint8))
        preview_path = _grey_jpeg(os.path.join(params.output_dir, "preview.jpg"), STAND_IN_SIDE)
        job.artifact(model_path, "model")
        job.artifact(preview_path, "preview")
        return {"photos_used": len(params.photos), "answered_after_ms": round(self._seconds * 1000)}

    def generate(self, job: JobContext, params: GenerateParams) -> dict[str, Any]:
        self._sleep(job)
        os.makedirs(params.output_dir, exist_ok=True)
        count, size = int(params.count), int(params.size)
        for index in range(count):
            path = _grey_jpeg(os.path.join(params.output_dir, f"image-{index}.jpg"), size)
            job.artifact(path, "image", meta={"index": index, "width": size, "height": size})
        return {"images": count, "dropped": 0, "size": size, "answered_after_ms": round(self._seconds * 1000)}

    def _sleep(self, job: JobContext) -> None:
        deadline = time.monotonic() + self._seconds
        job.progress(0, 1, "Answering after a fixed sleep")
        while (left := deadline - time.monotonic()) > 0:
            job.raise_if_cancelled()
            time.sleep(min(left, CANCEL_CHECK_S))
        job.progress(1, 1, "Answered after a fixed sleep")


def _grey_jpeg(path: str, side: int) -> str:
    if not cv2.imwrite(path, np.full((side, side, 3), 128, np.uint8)):
        raise OSError(f"could not write {path}")
    return path
