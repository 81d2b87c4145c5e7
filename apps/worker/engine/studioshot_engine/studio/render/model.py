"""Reading a personal model (format 2) for generation, and keeping the last two decoded.

The engine stays warm across jobs, and a user's generations come in runs, so the decoded model
(and the per-portrait preparation the subject module caches on it) is kept by path, size and
modification time: a retrained model at the same path is read again.
"""

from __future__ import annotations

import json
import os
import threading
import zipfile
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from ...jobs import BadInput
from ..artifact import FORMAT_ONE_MESSAGE, GENERATION_FORMAT_VERSION

CACHE_SIZE = 2
UNREADABLE_MESSAGE = "This model file cannot be read: retrain it to generate headshots."
MISSING_MESSAGE = "This model's file is missing: retrain it to generate headshots."


@dataclass(frozen=True)
class Portrait:
    """One reference portrait: a square head-and-shoulders crop, best first in the model."""

    index: int
    rgb: np.ndarray  # uint8 (P, P, 3)
    matte: np.ndarray  # uint8 (P, P): 255 = the person
    valid: np.ndarray | None  # uint8 (P, P): 255 where the crop shows the original photo
    eyes: np.ndarray  # float64 (2, 2): left, right eye centre (x, y) in portrait px
    face_box: np.ndarray  # float64 (4,): x, y, w, h in portrait px
    profile: dict[str, Any]  # the face's profile entry (skin, white_balance, lighting), or the subject's

    @property
    def size(self) -> int:
        return int(self.rgb.shape[0])


@dataclass
class StudioModel:
    path: str
    profile: dict[str, Any]
    arrays: dict[str, np.ndarray]
    count: int
    # Filled as portraits are used: decoded portraits, and what `subject` prepares from them.
    portraits: dict[int, Portrait] = field(default_factory=dict)
    prepared: dict[tuple[str, int], Any] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def subject(self) -> dict[str, Any]:
        subject: dict[str, Any] = self.profile.get("subject") or {}
        return subject

    def portrait(self, index: int) -> Portrait:
        with self.lock:
            if index not in self.portraits:
                self.portraits[index] = self._decode(index)
            return self.portraits[index]

    def _decode(self, index: int) -> Portrait:
        rgb = _blob_image(self.arrays, "portraits_jpeg", "portraits_offsets", index, cv2.IMREAD_COLOR)
        rgb = cv2.cvtColor(rgb, cv2.COLOR_BGR2RGB)
        size = rgb.shape[0]
        matte = _blob_image(self.arrays, "portrait_mattes_png", "portrait_mattes_offsets", index, cv2.IMREAD_GRAYSCALE)
        if matte.shape != rgb.shape[:2]:
            matte = cv2.resize(matte, (rgb.shape[1], rgb.shape[0]), interpolation=cv2.INTER_LINEAR)
        faces = self.profile.get("faces") or []
        face_profile = faces[index] if len(faces) == self.count and isinstance(faces[index], dict) else {}
        profile = {
            key: face_profile.get(key) or self.subject.get(key) or {} for key in ("skin", "white_balance", "lighting")
        }
        return Portrait(
            index=index,
            rgb=rgb,
            matte=matte,
            valid=_valid(self.arrays, index, size),
            eyes=self.arrays["portrait_eyes"][index].astype(np.float64),
            face_box=self.arrays["portrait_face_boxes"][index].astype(np.float64),
            profile=profile,
        )


_cache: OrderedDict[str, tuple[tuple[int, int], StudioModel]] = OrderedDict()
_cache_lock = threading.Lock()


def load_model(path: str) -> StudioModel:
    """The model at `path`, from the cache when the file has not changed; BadInput when it cannot generate."""
    try:
        stat = os.stat(path)
    except OSError:
        raise BadInput(MISSING_MESSAGE) from None
    key, stamp = os.path.realpath(path), (stat.st_mtime_ns, stat.st_size)
    with _cache_lock:
        cached = _cache.get(key)
        if cached is not None and cached[0] == stamp:
            _cache.move_to_end(key)
            return cached[1]
    model = _read(path)
    with _cache_lock:
        _cache[key] = (stamp, model)
        _cache.move_to_end(key)
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return model


def clear_cache() -> None:
    with _cache_lock:
        _cache.clear()


def cached_paths() -> list[str]:
    with _cache_lock:
        return list(_cache)


def _read(path: str) -> StudioModel:
    try:
        with np.load(path, allow_pickle=False) as archive:
            if "profile" not in archive.files:
                raise BadInput(UNREADABLE_MESSAGE)
            profile = json.loads(str(archive["profile"]))
            if not isinstance(profile, dict):
                raise BadInput(UNREADABLE_MESSAGE)
            version = profile.get("format_version")
            if (
                not isinstance(version, int)
                or version < GENERATION_FORMAT_VERSION
                or "portraits_jpeg" not in archive.files
            ):
                raise BadInput(FORMAT_ONE_MESSAGE)
            arrays = {name: archive[name] for name in archive.files if name != "profile"}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError, KeyError) as error:
        raise BadInput(UNREADABLE_MESSAGE) from error
    for name in (
        "portraits_offsets",
        "portrait_mattes_png",
        "portrait_mattes_offsets",
        "portrait_eyes",
        "portrait_face_boxes",
    ):
        if name not in arrays:
            raise BadInput(UNREADABLE_MESSAGE)
    count = len(arrays["portraits_offsets"]) - 1
    if count < 1 or len(arrays["portrait_eyes"]) < count or len(arrays["portrait_mattes_offsets"]) - 1 < count:
        raise BadInput(UNREADABLE_MESSAGE)
    return StudioModel(path=path, profile=profile, arrays=arrays, count=count)


def _blob_image(arrays: dict[str, np.ndarray], data: str, offsets: str, index: int, flags: int) -> np.ndarray:
    start, end = (int(v) for v in arrays[offsets][index : index + 2])
    image = cv2.imdecode(arrays[data][start:end], flags)
    if image is None:
        raise BadInput(UNREADABLE_MESSAGE)
    return image


def _valid(arrays: dict[str, np.ndarray], index: int, size: int) -> np.ndarray | None:
    """Where the portrait shows the photo, in whichever form the model stores it (PNG blobs, a
    stack of masks, or a box x, y, w, h); None when it does not say."""
    if "portrait_valid_png" in arrays and "portrait_valid_offsets" in arrays:
        valid = _blob_image(arrays, "portrait_valid_png", "portrait_valid_offsets", index, cv2.IMREAD_GRAYSCALE)
    elif "portrait_valid" in arrays:
        stored = arrays["portrait_valid"]
        if stored.ndim == 3:
            valid = stored[index]
            valid = (
                (valid > 0).astype(np.uint8) * 255
                if valid.dtype == bool or valid.max() <= 1
                else valid.astype(np.uint8)
            )
        elif stored.ndim == 2 and stored.shape[1] == 4:
            x, y, w, h = (float(v) for v in stored[index])
            valid = np.zeros((size, size), np.uint8)
            valid[max(0, round(y)) : max(0, round(y + h)), max(0, round(x)) : max(0, round(x + w))] = 255
        else:
            return None
    else:
        return None
    if valid.shape != (size, size):
        valid = cv2.resize(valid, (size, size), interpolation=cv2.INTER_NEAREST)
    return valid
