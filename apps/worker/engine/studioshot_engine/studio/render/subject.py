"""The person in a portrait, prepared once per portrait for every look (cached on the model).

- alpha: the model's matte (already edge-aligned by the training's guided filter), its faint
  tails cut; 0 outside the original photo.
- foreground: the person's colours with the old background's spill taken out of the soft edge
  (blur-fusion foreground estimation, Forte & Pitié 2021, then the solid hair and skin colour
  carried into the edge), so no halo of the old room shows on a new backdrop.
- valid: where the portrait shows the photo. Nothing past it is ever used or made up from its
  border: where the photo ends inside the frame, the person fades into the backdrop (compose).
- geometry: the eyes, the crown (from the matte), the chin, and the points where the person runs
  into the photo's edge (framing keeps those cut from above out of the frame).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .model import Portrait, StudioModel

# The model's matte is stretched a little between these (a clean inside and outside, the edge's
# ramp as the photo has it).
MATTE_LOW, MATTE_HIGH = 0.04, 0.96
# The outline's own pixels take their colour from this far inside (fraction of the portrait side).
EDGE_DEPTH = 0.003
# Blur-fusion radii (fractions of the portrait side): a wide pass, then a narrow one.
FUSION_RADII = (0.07, 0.006)
# Anthropometry in eye distances: eyes to chin, and the crown's range above the eyes.
CHIN_BELOW_EYES = 1.75
CROWN_RANGE = (1.6, 2.9)
CROWN_DEFAULT = 2.25
CUT_GRID = 8  # cut points are found on a grid this many portrait px apart


@dataclass(frozen=True)
class Subject:
    size: int
    foreground: np.ndarray  # uint8 (P, P, 3)
    alpha: np.ndarray  # uint8 (P, P): 0 outside the photo
    valid: np.ndarray  # uint8 (P, P): 255 where the portrait shows the photo, else 0
    eyes: np.ndarray  # (2, 2)
    crown_y: float
    chin_y: float
    cut_points: np.ndarray  # (K, 2) portrait px
    cut_strict: np.ndarray  # (K,) bool: cut from above (hair cut flat): must never show
    skin_ab: tuple[float, float]  # median a*, b* (OpenCV 8-bit Lab) of the cheeks
    face_box: np.ndarray  # (4,)

    @property
    def eye_distance(self) -> float:
        return float(np.hypot(*(self.eyes[1] - self.eyes[0])))

    @property
    def eye_mid(self) -> np.ndarray:
        mid: np.ndarray = self.eyes.mean(axis=0)
        return mid


def is_prepared(model: StudioModel, index: int) -> bool:
    return ("subject", index) in model.prepared


def subject_of(model: StudioModel, index: int) -> Subject:
    """The prepared subject of portrait `index`, computed once per loaded model."""
    key = ("subject", index)
    cached = model.prepared.get(key)
    if cached is None:
        cached = prepare(model.portrait(index))
        model.prepared[key] = cached
    assert isinstance(cached, Subject)
    return cached


def prepare(portrait: Portrait) -> Subject:
    size = portrait.size
    image = portrait.rgb.astype(np.float32) * (1.0 / 255.0)
    valid = (
        (portrait.valid > 127).astype(np.float32) if portrait.valid is not None else np.ones((size, size), np.float32)
    )
    alpha = refine_matte(portrait.matte.astype(np.float32) * (1.0 / 255.0)) * valid
    foreground = estimate_foreground(image, alpha, size, valid)
    eyes = portrait.eyes
    eye_distance = float(np.hypot(*(eyes[1] - eyes[0])))
    mid = eyes.mean(axis=0)
    crown_y = _crown(alpha, valid, mid, eye_distance)
    chin_y = float(mid[1] + CHIN_BELOW_EYES * eye_distance)
    points, strict = _cut_points(alpha, valid)
    return Subject(
        size=size,
        foreground=_to_uint8(foreground * valid[..., None]),
        alpha=_to_uint8(alpha[..., None])[..., 0],
        valid=(valid > 0.5).astype(np.uint8) * 255,
        eyes=eyes,
        crown_y=crown_y,
        chin_y=chin_y,
        cut_points=points,
        cut_strict=strict,
        skin_ab=_skin_ab(portrait.rgb, mid, eye_distance),
        face_box=portrait.face_box,
    )


def refine_matte(matte: np.ndarray) -> np.ndarray:
    """The model's matte (already edge-aligned to the portrait by the training's guided filter)
    with a clean inside and outside: its faint tails are the old background."""
    stretched: np.ndarray = np.clip((matte - MATTE_LOW) / (MATTE_HIGH - MATTE_LOW), 0.0, 1.0)
    return stretched


def estimate_foreground(image: np.ndarray, alpha: np.ndarray, size: int, valid: np.ndarray) -> np.ndarray:
    """The person's own colours where the matte is soft: the old background's contribution is
    estimated from nearby background and taken out (blur fusion, applied twice). Only the photo's
    own pixels take part (`valid`)."""
    foreground, background = image, image
    a = alpha[..., None]
    background_weight = (1.0 - alpha) * valid
    for fraction in FUSION_RADII:
        radius = max(1, round(fraction * size))
        kernel = (2 * radius + 1, 2 * radius + 1)
        blurred_alpha = cv2.blur(alpha, kernel)[..., None]
        blurred_foreground = cv2.blur(foreground * a, kernel) / (blurred_alpha + 1e-5)
        blurred_background = cv2.blur(background * background_weight[..., None], kernel) / (
            cv2.blur(background_weight, kernel)[..., None] + 1e-5
        )
        foreground = blurred_foreground + a * (image - a * blurred_foreground - (1.0 - a) * blurred_background)
        foreground = np.clip(foreground, 0.0, 1.0)
        background = blurred_background
    # The photo's own edge pixels mix the person with the old background even where the matte is
    # solid, so within EDGE_DEPTH of the outline the colour comes from further in (hair and skin
    # carried outwards), blending back to the estimate by twice that depth.
    depth_px = max(1.0, EDGE_DEPTH * size)
    depth = cv2.distanceTransform((alpha > 0.5).astype(np.uint8), cv2.DIST_L2, 3)
    deep = (depth > depth_px).astype(np.float32)
    sigma = 1.5 * depth_px
    reach = cv2.GaussianBlur(deep, (0, 0), sigma)
    carried = cv2.GaussianBlur(image * deep[..., None], (0, 0), sigma) / np.maximum(reach, 1e-4)[..., None]
    trust = np.clip((depth - depth_px) / depth_px, 0.0, 1.0)[..., None]
    foreground = np.where((reach > 0.01)[..., None], carried + trust * (foreground - carried), foreground)
    # Where there is no person at all the estimate means nothing; keep the image's colour there.
    result: np.ndarray = np.where(a > 0.004, foreground, image)
    return result


def _crown(alpha: np.ndarray, valid: np.ndarray, mid: np.ndarray, eye_distance: float) -> float:
    """The top of the head (hair included) from the matte, within the plausible range."""
    low, high = mid[1] - CROWN_RANGE[1] * eye_distance, mid[1] - CROWN_RANGE[0] * eye_distance
    left, right = round(mid[0] - 0.7 * eye_distance), round(mid[0] + 0.7 * eye_distance)
    bottom = round(mid[1])
    left, right, bottom = max(0, left), min(alpha.shape[1], right), max(1, min(alpha.shape[0], bottom))
    band = alpha[:bottom, left:right] > 0.5
    if band.size == 0 or not band.any():
        return float(mid[1] - CROWN_DEFAULT * eye_distance)
    tops = np.argmax(band, axis=0)[band.any(axis=0)]
    top = float(np.percentile(tops, 20))
    # A head reaching the photo's top edge: its crown is beyond the photo, use the typical height.
    valid_rows = np.flatnonzero(valid[:, round(mid[0])] > 0.5)
    if len(valid_rows) and top <= valid_rows[0] + 2:
        top = float(mid[1] - CROWN_DEFAULT * eye_distance)
    return float(np.clip(top, low, high))


def _cut_points(alpha: np.ndarray, valid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where the person meets the photo's edge (or the portrait's), on a coarse grid, and which of
    those cut the person from above (hair cut flat: framing must leave those out of the frame)."""
    size = alpha.shape[0]
    side = size // CUT_GRID
    person = cv2.resize(alpha, (side, side), interpolation=cv2.INTER_AREA) > 0.5
    outside = np.pad(cv2.resize(valid, (side, side), interpolation=cv2.INTER_AREA) < 0.999, 1, constant_values=True)
    near = cv2.dilate(outside.astype(np.uint8), np.ones((3, 3), np.uint8))[1:-1, 1:-1] > 0
    # The cell right above is outside the photo.
    above = outside[:-2, 1:-1]
    rows, columns = np.nonzero(person & near)
    points = np.stack([columns, rows], axis=1).astype(np.float64) * CUT_GRID + CUT_GRID / 2
    return points.reshape(-1, 2), above[rows, columns]


def _skin_ab(rgb: np.ndarray, mid: np.ndarray, eye_distance: float) -> tuple[float, float]:
    """The median skin colour (a*, b* of OpenCV's 8-bit Lab) of both cheeks."""
    patches = []
    for dx in (-0.45, 0.45):
        x, y = round(mid[0] + dx * eye_distance), round(mid[1] + 0.7 * eye_distance)
        half = max(2, round(0.18 * eye_distance))
        patch = rgb[max(0, y - half) : y + half, max(0, x - half) : x + half]
        if patch.size:
            patches.append(patch.reshape(-1, 3))
    if not patches:
        return (150.0, 150.0)
    lab = cv2.cvtColor(np.concatenate(patches)[None], cv2.COLOR_RGB2Lab)[0].astype(np.float64)
    return (float(np.median(lab[:, 1])), float(np.median(lab[:, 2])))


def _to_uint8(x: np.ndarray) -> np.ndarray:
    result: np.ndarray = np.clip(x * 255.0 + 0.5, 0, 255).astype(np.uint8)
    return result
