"""The personal model file: a NumPy .npz archive, byte-for-byte the same for the same photos.

Arrays (N reference faces, best first; faces[0] is the reference photo's):
- faces              uint8   (N, 512, 512, 3)  aligned RGB crops, eyes at profile.crop's points
- mattes             uint8   (N, 512, 512)     soft head matte, 255 = face, hair and neck
- face_boxes         float32 (N, 4)            detected face x, y, width, height in crop pixels
- source_transforms  float64 (N, 2, 3)         affine map from the upright original photo's pixels
                                               to crop pixels (cv2.warpAffine's convention)
- profile            str     ()                JSON: the colour and lighting profile, per face and
                                               for the subject, and how every photo was judged
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
MODEL_FORMAT_VERSION = 1
# Zip entries carry a timestamp; a fixed one keeps the file a function of its contents.
ENTRY_TIMESTAMP = (1980, 1, 1, 0, 0, 0)
# Level 1: the faces are photographs and barely shrink further, while the mattes shrink 20x at any level.
COMPRESS_LEVEL = 1


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
            archive.writestr(entry, buffer.getvalue(), compress_type=zipfile.ZIP_DEFLATED, compresslevel=COMPRESS_LEVEL)
    os.replace(partial, path)


def read_model(path: str) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The arrays and the parsed profile of a model file."""
    with np.load(path, allow_pickle=False) as archive:
        arrays = {name: archive[name] for name in archive.files if name != "profile"}
        profile: dict[str, Any] = json.loads(str(archive["profile"]))
    return arrays, profile
