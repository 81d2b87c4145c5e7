"""The subject's colour and lighting: skin tone, the photo's white balance, where the key light is.

All colour is CIE L*a*b* (D65) from sRGB: L* lightness 0-100, a* green(-)/red(+), b* blue(-)/yellow(+).
A later generation step matches a studio style to these numbers, measured the same way.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import cv2
import numpy as np

from .regions import face_halves, skin_area

# Skin pixels are the skin area's pixels whose colour (a*, b*) lies this close to the area's median:
# hair, brows, lips and background fall away; shadowed skin keeps its hue and stays.
SKIN_MAX_CHROMA_DISTANCE = 15.0
SKIN_LIGHTNESS_RANGE = (10.0, 99.0)
# White balance is read from near-grey surfaces (walls, shirts, paper), when a photo has enough.
NEUTRAL_MAX_CHROMA = 10.0
NEUTRAL_LIGHTNESS_RANGE = (25.0, 95.0)
MIN_NEUTRAL_FRACTION = 0.02
WHITE_BALANCE_SAMPLE_SIDE = 256
# One side of the face this much brighter (relative difference) and the light counts as from that side.
SIDE_LIGHT_THRESHOLD = 0.05
# sRGB (linear) to CIE XYZ, D65.
SRGB_TO_XYZ = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])


def to_lab(rgb: np.ndarray) -> np.ndarray:
    """float32 L*a*b* of a uint8 sRGB image."""
    return cv2.cvtColor(rgb.astype(np.float32) / 255.0, cv2.COLOR_RGB2Lab)


def skin_mask(crop_lab: np.ndarray) -> np.ndarray:
    area = skin_area()
    lab = crop_lab[area]
    median = np.median(lab[:, 1:], axis=0)
    close = np.hypot(lab[:, 1] - median[0], lab[:, 2] - median[1]) <= SKIN_MAX_CHROMA_DISTANCE
    lit = (lab[:, 0] >= SKIN_LIGHTNESS_RANGE[0]) & (lab[:, 0] <= SKIN_LIGHTNESS_RANGE[1])
    mask = np.zeros(area.shape, bool)
    mask[area] = close & lit
    return mask


def measure_skin(crop_rgb: np.ndarray, crop_lab: np.ndarray, mask: np.ndarray) -> dict[str, Any]:
    lab = crop_lab[mask].astype(np.float64)
    lightness, a, b = lab.mean(axis=0)
    return {
        "lab_mean": _rounded(lab.mean(axis=0)),
        "lab_std": _rounded(lab.std(axis=0)),
        "srgb_mean": [round(float(v)) for v in crop_rgb[mask].mean(axis=0)],
        # Hue: 0 red, 90 yellow. Chroma: how colourful.
        "hue_degrees": _round(math.degrees(math.atan2(b, a))),
        "chroma": _round(math.hypot(a, b)),
        # Individual Typology Angle, the dermatologists' skin-tone scale: over 55 very light, under -30 dark.
        "ita_degrees": _round(math.degrees(math.atan2(lightness - 50.0, b))),
    }


def estimate_white_balance(photo_rgb: np.ndarray) -> dict[str, Any]:
    """The colour cast of the light, from near-grey surfaces, or the whole photo's mean (grey world)."""
    scale = min(1.0, WHITE_BALANCE_SAMPLE_SIDE / max(photo_rgb.shape[:2]))
    small = cv2.resize(photo_rgb, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else photo_rgb
    lab = to_lab(small).reshape(-1, 3)
    rgb = small.reshape(-1, 3)
    neutral = (
        (np.hypot(lab[:, 1], lab[:, 2]) <= NEUTRAL_MAX_CHROMA)
        & (lab[:, 0] >= NEUTRAL_LIGHTNESS_RANGE[0])
        & (lab[:, 0] <= NEUTRAL_LIGHTNESS_RANGE[1])
    )
    method = "neutral_surfaces" if neutral.mean() >= MIN_NEUTRAL_FRACTION else "gray_world"
    chosen = neutral if method == "neutral_surfaces" else np.ones(len(lab), bool)
    linear = _srgb_to_linear(rgb[chosen]).mean(axis=0)
    red, green, blue = np.maximum(linear, 1e-6)
    return {
        "method": method,
        # a*, b* of what should be grey: b* > 0 is a warm (amber) cast, b* < 0 a cool (blue) one.
        "cast_ab": _rounded(lab[chosen, 1:].astype(np.float64).mean(axis=0)),
        # Multiply linear R, G, B by these to neutralise the cast.
        "rgb_gains": _rounded([green / red, 1.0, green / blue]),
        "cct_kelvin": round(_correlated_colour_temperature(linear)),
    }


def measure_lighting(crop_lab: np.ndarray, mask: np.ndarray) -> dict[str, Any]:
    """Where the key light comes from, as seen in the photo, and how hard it is."""
    luminance = _lightness_to_luminance(crop_lab[..., 0][mask].astype(np.float64))
    halves = {name: half[mask] for name, half in face_halves().items()}
    left, right = luminance[halves["left"]].mean(), luminance[halves["right"]].mean()
    upper, lower = luminance[halves["upper"]].mean(), luminance[halves["lower"]].mean()
    return _lighting(
        (right - left) / (right + left), (upper - lower) / (upper + lower), max(left, right) / min(left, right)
    )


def summarise(photos: list[dict[str, Any]]) -> dict[str, Any]:
    """The subject over all used photos: medians, so a few odd photos do not move it."""
    skins = [p["skin"] for p in photos]
    balances = [p["white_balance"] for p in photos]
    lights = [p["lighting"] for p in photos]
    skin = {key: _median([s[key] for s in skins]) for key in skins[0]}
    skin["srgb_mean"] = [round(v) for v in skin["srgb_mean"]]
    balance = {key: _median([b[key] for b in balances]) for key in ("cast_ab", "rgb_gains", "cct_kelvin")}
    balance["cct_kelvin"] = round(balance["cct_kelvin"])
    methods = Counter(b["method"] for b in balances).most_common()
    # Ties go to the method listed first in the count, i.e. of the better-ranked photo.
    balance = {"method": methods[0][0], **balance}
    key_vector = _median([light["key_vector"] for light in lights])
    lighting = _lighting(key_vector[0], key_vector[1], _median([light["contrast_ratio"] for light in lights]))
    return {"skin": skin, "white_balance": balance, "lighting": lighting}


def _lighting(horizontal: float, vertical: float, contrast_ratio: float) -> dict[str, Any]:
    if horizontal > SIDE_LIGHT_THRESHOLD:
        side = "right"
    elif horizontal < -SIDE_LIGHT_THRESHOLD:
        side = "left"
    else:
        side = "even"
    return {
        # x > 0: brighter towards the photo's right; y > 0: brighter above.
        "key_vector": _rounded([horizontal, vertical]),
        # 0 from the photo's right, 90 from above, 180 from its left.
        "direction_degrees": _round(math.degrees(math.atan2(vertical, horizontal))),
        "lit_side": side,
        # Bright half over dark half of the face: 1 flat, 2 soft, 4 and more dramatic.
        "contrast_ratio": _round(contrast_ratio),
    }


def _srgb_to_linear(rgb: np.ndarray) -> np.ndarray:
    values = rgb.astype(np.float64) / 255.0
    linear: np.ndarray = np.where(values <= 0.04045, values / 12.92, ((values + 0.055) / 1.055) ** 2.4)
    return linear


def _lightness_to_luminance(lightness: np.ndarray) -> np.ndarray:
    """CIE L* back to relative luminance Y (0-1): light adds up in Y, not in L*."""
    f = (lightness + 16.0) / 116.0
    luminance: np.ndarray = np.where(f > 6 / 29, f**3, 3 * (6 / 29) ** 2 * (f - 4 / 29))
    return luminance


def _correlated_colour_temperature(linear_rgb: np.ndarray) -> float:
    """McCamy's approximation from the chromaticity of the light; clamped to daylight-ish bounds."""
    x_, y_, z_ = SRGB_TO_XYZ @ linear_rgb
    total = x_ + y_ + z_
    x, y = x_ / total, y_ / total
    n = (x - 0.3320) / (0.1858 - y)
    return float(np.clip(449 * n**3 + 3525 * n**2 + 6823.3 * n + 5520.33, 1500, 20000))


def _median(values: list[Any]) -> Any:
    median = np.median(np.array(values, dtype=np.float64), axis=0)
    return _rounded(median) if median.ndim else _round(float(median))


def _round(value: float) -> float:
    return round(float(value), 3)


def _rounded(values: Any) -> list[float]:
    return [_round(v) for v in values]
