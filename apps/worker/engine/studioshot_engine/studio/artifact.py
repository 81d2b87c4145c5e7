"""The personal model file: a NumPy .npz archive, byte-for-byte the same for the same photos.

Format 2 (this engine writes it; generation reads nothing else, never the photos). N reference
faces, best first; faces[0] is the reference photo's. Format 1's arrays, unchanged:
- faces                    uint8   (N, 512, 512, 3)  aligned RGB crops, eyes at profile.crop's points
- mattes                   uint8   (N, 512, 512)     soft head matte, 255 = face, hair and neck
- face_boxes               float32 (N, 4)            detected face x, y, width, height in crop pixels
- source_transforms        float64 (N, 2, 3)         upright `path` photo pixels -> crop pixels
                                                     (cv2.warpAffine's convention)
Added in format 2 (P = profile.portrait_size, 1280):
- portraits_jpeg           uint8   (bytes,)          N square head-and-shoulders portraits (JPEG,
- portraits_offsets        int64   (N + 1,)          quality 95), portrait i is bytes [o[i], o[i+1])
- portrait_mattes_png      uint8   (bytes,)          N person mattes (8-bit greyscale PNG, P x P,
- portrait_mattes_offsets  int64   (N + 1,)          255 = the person; 0 outside the photo)
- portrait_valid           bool    (N, P, P)         where a portrait shows the photo (elsewhere its
                                                     edge pixels are repeated)
- portrait_eyes            float32 (N, 2, 2)         left, right eye centre (x, y) in portrait pixels
- portrait_face_boxes      float32 (N, 4)            detected face x, y, width, height in portrait pixels
- portrait_transforms      float64 (N, 2, 3)         upright source photo pixels -> portrait pixels
                                                     (the source: profile.faces[i].portrait.source)
- descriptors              float32 (N, 128)          the photo checks' face descriptor of each face
- descriptor_present       bool    (N,)              whether that row is one (else zeros)
- profile                  str     ()                JSON: format, format_version, the colour and
                                                     lighting profile, how every photo was judged
"""

from __future__ import annotations

import io
import json
import os
import zipfile
from typing import Any

import numpy as np

MODEL_FILE = "model.npz"
PREVIEW_FILE = "preview.jpg"
MODEL_FORMAT = "studioshot.studio-model"
MODEL_FORMAT_VERSION = 2
# The first format generation can use; format 1 (no portraits) has to be retrained.
GENERATION_FORMAT_VERSION = 2
FORMAT_ONE_MESSAGE = "This model was trained before generation existed: retrain it to generate headshots."
DESCRIPTOR_LENGTH = 128
# Zip entries carry a timestamp; a fixed one keeps the file a function of its contents.
ENTRY_TIMESTAMP = (1980, 1, 1, 0, 0, 0)
# Level 1: the faces are photographs and barely shrink further, while the mattes shrink 20x at any level.
COMPRESS_LEVEL = 1
# Already compressed (JPEG, PNG): deflating again only costs time.
STORED_MEMBERS = frozenset({"portraits_jpeg", "portrait_mattes_png"})


def write_model(path: str, arrays: dict[str, np.ndarray], profile: dict[str, Any]) -> None:
    """Writes the archive next to its final name, then renames: a reader never sees half a model."""
    members = {**arrays, "profile": np.array(json.dumps(profile, ensure_ascii=False, allow_nan=False))}
    partial = f"{path}.partial"
    with zipfile.ZipFile(partial, "w") as archive:
        for name, array in members.items():
            buffer = io.BytesIO()
            np.lib.format.write_array(buffer, array, allow_pickle=False)
            entry = zipfile.ZipInfo(f"{name}.npy", date_time=ENTRY_TIMESTAMP)
            entry.external_attr = 0o644 << 16
            if name in STORED_MEMBERS:
                archive.writestr(entry, buffer.getvalue(), compress_type=zipfile.ZIP_STORED)
            else:
                archive.writestr(
                    entry, buffer.getvalue(), compress_type=zipfile.ZIP_DEFLATED, compresslevel=COMPRESS_LEVEL
                )
    os.replace(partial, path)


def read_model(path: str) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The arrays and the parsed profile of a model file."""
    with np.load(path, allow_pickle=False) as archive:
        arrays = {name: archive[name] for name in archive.files if name != "profile"}
        profile: dict[str, Any] = json.loads(str(archive["profile"]))
    return arrays, profile


def read_profile(path: str) -> dict[str, Any]:
    """Only the profile of a model file (the arrays stay on disk)."""
    with np.load(path, allow_pickle=False) as archive:
        if "profile" not in archive.files:
            raise ValueError(f"{path} is not a studio model: it has no profile")
        profile = json.loads(str(archive["profile"]))
    if not isinstance(profile, dict) or profile.get("format") != MODEL_FORMAT:
        raise ValueError(f"{path} is not a studio model")
    return profile


def read_format_version(path: str) -> int:
    """The model file's format version (1: trained before generation existed, 2: portraits).

    Raises ValueError (or OSError) when the file is not a studio model at all."""
    version = read_profile(path).get("format_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ValueError(f"{path} has no valid format_version")
    return version


def can_generate(path: str) -> bool:
    """Whether generation can use the model (format 2 or later); False for a format-1 model, which
    has to be retrained (tell the user FORMAT_ONE_MESSAGE)."""
    return read_format_version(path) >= GENERATION_FORMAT_VERSION


def unpack(data: np.ndarray, offsets: np.ndarray, index: int) -> bytes:
    """Item `index` of concatenated blobs (portraits_jpeg with portraits_offsets, ...)."""
    return bytes(data[int(offsets[index]) : int(offsets[index + 1])])
