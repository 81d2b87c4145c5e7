"""Studio light on the person: a key from the look's side, its fill, a rim from behind, and the
subject's soft shadow on a near backdrop.

The person has no 3-D model, so the shading runs on a height field guessed from the matte: the
body rounds off towards its outline (the square root of the distance to it), and the face is an
ellipsoid in front of it. Its normals, lit by a wrapped Lambert key (a soft box) over a fill
floor, give a gain that is applied to the photo (which has light of its own: the side the
training measured as brighter is evened out first). Everything here is smooth, so it is worked
out at a quarter of the output size and scaled up.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

WORK_FACTOR = 4
# Wrapped Lambert (a large soft box wraps further round): this much, plus this much more with fill.
WRAP = (0.25, 0.35)
GAIN_RANGE = (0.18, 1.3)
# The height field: the body's rounded outline counts this much, the face is an ellipsoid-like dome
# this high (eye distances), its profile (1 - r^2)^DOME_POWER.
BODY_SHARE = 0.5
# The rim: a band this wide (eye distances) inside the outline, this bright at full strength.
RIM_WIDTH = 0.1
RIM_GAIN = 1.3
DOME_HEIGHT = 1.2
DOME_POWER = 0.6
# The measured side-to-side difference of the photo's own light is evened out this much.
NEUTRALISE = 0.75
BODY_FALLOFF = 0.28  # the key is aimed at the face: the body below gets this much less at most
GAMMA = 2.2


@dataclass(frozen=True)
class Light:
    key_side: float
    key_strength: float
    fill_ratio: float
    rim_strength: float
    rim_color: tuple[float, float, float]


@dataclass(frozen=True)
class Shading:
    gain: np.ndarray  # (S, S) float32: multiply the person's sRGB values by it
    rim: np.ndarray  # (S, S, 3) float32: rim light to add (sRGB, on the person only)


@dataclass(frozen=True)
class _Form:
    """The person's guessed shape at the working size."""

    alpha: np.ndarray
    distance: np.ndarray  # to the outline, inside the person (px)
    normals: tuple[np.ndarray, np.ndarray, np.ndarray]  # x (right), y (down), z (to the camera)
    face: np.ndarray  # 0..1, 1 at the face's centre, 0 outside its ellipse
    mid: tuple[float, float]  # the eyes' midpoint
    eye_distance: float


def shade_person(
    alpha: np.ndarray, eyes: np.ndarray, light: Light, photo_lighting: dict[str, Any], size: int
) -> Shading:
    """`alpha`: the person in the output (S, S) float32; `eyes` in output px."""
    form = _form(alpha, eyes, size)
    gain = _key_and_fill(form, light)
    gain = _even_out_photo_light(form, gain, photo_lighting)
    # The key is aimed at the face: the body below falls off a little.
    _, y = _grid(form.alpha.shape[0])
    chin = form.mid[1] + 1.75 * form.eye_distance
    below = np.clip((y - chin) / (3.5 * form.eye_distance), 0.0, 1.0)
    gain *= 1.0 - BODY_FALLOFF * (0.4 + 0.6 * light.key_strength) * below * below * (3 - 2 * below)
    gain = np.clip(gain, *GAIN_RANGE).astype(np.float32)
    # Linear light multiplies; the person is in sRGB, where that is roughly the 1/2.2 power.
    gain = gain ** (1.0 / GAMMA)
    rim_amount = cv2.resize(_rim(form, light), (size, size), interpolation=cv2.INTER_LINEAR)
    rim = rim_amount[..., None] * np.array(light.rim_color, np.float32)
    return Shading(gain=cv2.resize(gain, (size, size), interpolation=cv2.INTER_LINEAR), rim=rim)


def _form(alpha: np.ndarray, eyes: np.ndarray, size: int) -> _Form:
    side = max(32, size // WORK_FACTOR)
    small_alpha = cv2.resize(alpha, (side, side), interpolation=cv2.INTER_AREA)
    eyes_small = eyes * (side / size)
    eye_distance = float(np.hypot(*(eyes_small[1] - eyes_small[0])))
    mid = (float(eyes_small[:, 0].mean()), float(eyes_small[:, 1].mean()))
    distance = cv2.distanceTransform((small_alpha > 0.5).astype(np.uint8), cv2.DIST_L2, 5)
    # The body rounds off towards its outline; the face stands out from it as a dome.
    reach = 1.4 * eye_distance
    body = reach * np.sqrt(np.clip(distance / reach, 0.0, 1.0))
    x, y = _grid(side)
    u = (x - mid[0]) / (1.08 * eye_distance)
    v = (y - (mid[1] + 0.5 * eye_distance)) / (1.55 * eye_distance)
    face = np.clip(1.0 - u * u - v * v, 0.0, 1.0)
    height = (BODY_SHARE * body + face**DOME_POWER * DOME_HEIGHT * eye_distance) * (small_alpha > 0.02)
    height = cv2.GaussianBlur(height.astype(np.float32), (0, 0), max(0.8, 0.12 * eye_distance))
    gx = cv2.Sobel(height, cv2.CV_32F, 1, 0, ksize=3) / 8.0
    gy = cv2.Sobel(height, cv2.CV_32F, 0, 1, ksize=3) / 8.0
    norm = np.sqrt(gx * gx + gy * gy + 1.0)
    return _Form(small_alpha, distance, (-gx / norm, -gy / norm, 1.0 / norm), face, mid, eye_distance)


def _key_and_fill(form: _Form, light: Light) -> np.ndarray:
    """The key (a wrapped Lambert from the look's side and above) over the fill's floor, relative
    to the face's lit side: the photo's exposure stays where the key falls."""
    nx, ny, nz = form.normals
    key = np.array([light.key_side * 0.9, -0.45, 0.75], np.float32)
    key /= np.linalg.norm(key)
    wrap = WRAP[0] + WRAP[1] * light.fill_ratio
    lambert = np.clip((nx * key[0] + ny * key[1] + nz * key[2] + wrap) / (1.0 + wrap), 0.0, 1.0)
    floor = 0.08 + 0.75 * light.fill_ratio
    shading = floor + (1.0 - floor) * lambert
    face = (form.face > 0.15) & (form.alpha > 0.5)
    lit = float(np.percentile(shading[face], 80)) if face.any() else 1.0
    gain: np.ndarray = (shading / lit) ** (0.5 + 1.1 * light.key_strength)
    return gain


def _even_out_photo_light(form: _Form, gain: np.ndarray, photo_lighting: dict[str, Any]) -> np.ndarray:
    """The side the training measured as brighter in the photo, brought down (and the other up)."""
    measured = float((photo_lighting.get("key_vector") or [0.0, 0.0])[0])
    measured = float(np.clip(measured, -0.35, 0.35))
    x, _ = _grid(form.alpha.shape[0])
    across = np.clip((x - form.mid[0]) / (1.2 * form.eye_distance), -1.0, 1.0)
    evened: np.ndarray = gain / (1.0 + NEUTRALISE * measured * across)
    return evened


def _rim(form: _Form, light: Light) -> np.ndarray:
    """A band inside the outline on the side away from the key (both sides when the key is
    frontal) and over the top of the head; a stronger rim light is also a wider one."""
    nx, ny, _ = form.normals
    width = RIM_WIDTH * (0.5 + light.rim_strength) * form.eye_distance
    band = np.exp(-form.distance / max(0.6, width)) * np.clip(form.alpha, 0, 1)
    outward = np.sqrt(nx * nx + ny * ny) + 1e-6
    ox, oy = nx / outward, ny / outward
    if abs(light.key_side) < 0.25:
        facing = np.maximum(np.abs(ox) * 0.85 - oy * 0.5, 0.0)
    else:
        facing = ox * -np.sign(light.key_side) * 0.85 - oy * 0.5
    amount: np.ndarray = (light.rim_strength * RIM_GAIN * band * np.clip(facing, 0.0, 1.0)).astype(np.float32)
    return amount


def cast_shadow(alpha: np.ndarray, light: Light, size: int, strength: float) -> np.ndarray:
    """How much the subject darkens a backdrop close behind it: (S, S) float32, 1 = no shadow."""
    side = max(32, size // WORK_FACTOR)
    small = cv2.resize(alpha, (side, side), interpolation=cv2.INTER_AREA)
    shift = np.array([[1, 0, -light.key_side * 0.06 * side], [0, 1, 0.035 * side]], np.float32)
    moved = cv2.warpAffine(small, shift, (side, side), borderMode=cv2.BORDER_REPLICATE)
    soft = cv2.GaussianBlur(moved, (0, 0), 0.05 * side)
    darkness = strength * (0.4 + 0.6 * light.key_strength) * (1.0 - 0.5 * light.fill_ratio)
    shadow = 1.0 - darkness * soft
    result: np.ndarray = cv2.resize(shadow.astype(np.float32), (size, size), interpolation=cv2.INTER_LINEAR)
    return result


_grids: dict[int, tuple[np.ndarray, np.ndarray]] = {}


def _grid(side: int) -> tuple[np.ndarray, np.ndarray]:
    if side not in _grids:
        coordinates = np.arange(side, dtype=np.float32)
        _grids[side] = tuple(np.meshgrid(coordinates, coordinates))  # type: ignore[assignment]
    return _grids[side]
