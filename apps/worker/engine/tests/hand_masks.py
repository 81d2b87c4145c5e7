"""Hand-drawn person masks of fixture photos (tests/fixtures/masks/*.json), the matte tests' ground truth.

Each file: `image` (a photo in apps/worker/test/fixtures), `size` [width, height], and `person`, a
list of polygons ([[x, y], ...] in photo pixels, upright) whose union is the person: head, hair,
neck, shoulders and the clothes in frame. Points may lie on or past the frame; they are clipped.

    python tests/hand_masks.py [OUT_DIR]   # renders each mask over its photo, to check the drawing
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageOps

HERE = Path(__file__).resolve().parent
MASKS = HERE / "fixtures" / "masks"
FIXTURES = HERE.parents[1] / "test" / "fixtures"
SUBPIXEL_BITS = 4


def mask_names() -> list[str]:
    return sorted(path.stem for path in MASKS.glob("*.json"))


def hand_mask(name: str) -> np.ndarray:
    """The person (True) in the photo `name`, at the photo's upright resolution."""
    spec = json.loads((MASKS / f"{name}.json").read_text())
    width, height = spec["size"]
    mask = np.zeros((height, width), np.uint8)
    polygons = [
        np.round(np.array(polygon, np.float64) * (1 << SUBPIXEL_BITS)).astype(np.int32) for polygon in spec["person"]
    ]
    cv2.fillPoly(mask, polygons, 1, lineType=cv2.LINE_8, shift=SUBPIXEL_BITS)
    return mask.astype(bool)


def photo_rgb(name: str) -> np.ndarray:
    spec = json.loads((MASKS / f"{name}.json").read_text())
    with Image.open(FIXTURES / spec["image"]) as image:
        rgb = np.asarray(ImageOps.exif_transpose(image).convert("RGB"))
    assert rgb.shape[1::-1] == tuple(spec["size"]), f"{name}: the mask's size is not the photo's"
    return rgb


def overlay(rgb: np.ndarray, mask: np.ndarray, colour: tuple[int, int, int] = (255, 0, 64)) -> np.ndarray:
    """The photo with the mask tinted and its outline drawn, for looking at."""
    shown = rgb.astype(np.float32)
    shown[mask] = shown[mask] * 0.6 + np.array(colour, np.float32) * 0.4
    contours, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    result = shown.astype(np.uint8)
    cv2.drawContours(result, contours, -1, (255, 255, 0), 1)
    return result


def main(out_dir: str) -> None:
    Path(out_dir).mkdir(parents=True, exist_ok=True)
    for name in mask_names():
        path = Path(out_dir) / f"hand-mask-{name}.png"
        Image.fromarray(overlay(photo_rgb(name), hand_mask(name))).save(path)
        print(path)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/tmp")
