"""The edge-replication streak detector (studio/render/streaks.py): it flags a picture whose edge
row or column was repeated outwards, and passes the picture itself."""

from __future__ import annotations

import cv2
import numpy as np
from generate_support import FIXTURES
from PIL import Image

from studioshot_engine.studio.render.streaks import find_streaks


def head_and_shoulders(name: str = "astronaut", size: int = 512) -> np.ndarray:
    """A fixture photo's head and shoulders (its hair near the top edge), as a square of `size`."""
    rgb = np.asarray(Image.open(FIXTURES / f"{name}.jpg").convert("RGB"))[:320, 96:416]
    return cv2.resize(rgb, (size, size), interpolation=cv2.INTER_CUBIC)


def replicated_top(image: np.ndarray, rows: int) -> np.ndarray:
    """The image moved down by `rows`, the gap above filled with its first row repeated, fading
    into the backdrop's colour as a renderer's continuation does."""
    moved = np.empty_like(image)
    moved[rows:] = image[: image.shape[0] - rows]
    fade = np.linspace(0.6, 1.0, rows, dtype=np.float32)[:, None, None]
    backdrop = image[:8].reshape(-1, 3).mean(axis=0)
    moved[:rows] = np.clip(fade * image[0][None].astype(np.float32) + (1 - fade) * backdrop, 0, 255).astype(np.uint8)
    return moved


def test_the_detector_flags_a_replicated_top_edge_and_passes_the_photo() -> None:
    photo = head_and_shoulders()
    clean = find_streaks(photo)
    assert not clean.flagged, clean.cover
    streaked = find_streaks(replicated_top(photo, 60))
    assert streaked.flagged and streaked.edges == ["top"], streaked.cover


def test_the_detector_flags_a_replicated_side_edge_at_any_size() -> None:
    photo = head_and_shoulders("astronaut-warm", 1024)
    assert not find_streaks(photo).flagged
    # The picture's left column repeated over the left tenth: rows that change down but not across.
    sideways = np.ascontiguousarray(np.rot90(replicated_top(np.ascontiguousarray(np.rot90(photo, -1)), 100)))
    report = find_streaks(sideways)
    assert report.flagged and report.edges == ["left"], report.cover
