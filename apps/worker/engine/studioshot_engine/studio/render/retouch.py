"""A gentle retouch, as a portrait photographer's: skin evened with an edge-preserving filter (the
eyes, brows, lips and the face's outline keep their edges; some texture always stays), and a
little local contrast on the eyes. Only the face's box is touched."""

from __future__ import annotations

import cv2
import numpy as np

from .filters import guided_filter

# At full strength this share of the skin's fine detail goes: never all of it (no plastic skin).
MAX_SMOOTHING = 0.7
SMOOTHING_RADIUS = 0.07  # of the eye distance
SMOOTHING_EPSILON = 0.0035
# Skin is what is close to the cheeks' colour (OpenCV's 8-bit Lab units).
SKIN_COLOUR_DISTANCE = (7.0, 16.0)
EYE_RADIUS = 0.3  # of the eye distance
EYE_SHARPEN = 1.1
EYE_SIGMA = 0.035


def retouch(
    person: np.ndarray, eyes: np.ndarray, skin_ab: tuple[float, float], smoothing: float, clarity: float
) -> None:
    """Retouches `person` ((S, S, 3) float32 sRGB 0..1) in place; `eyes` in output px."""
    size = person.shape[0]
    eye_distance = float(np.hypot(*(eyes[1] - eyes[0])))
    if eye_distance < 8:
        return
    mid = eyes.mean(axis=0)
    left, right = round(mid[0] - 1.35 * eye_distance), round(mid[0] + 1.35 * eye_distance)
    top, bottom = round(mid[1] - 1.2 * eye_distance), round(mid[1] + 2.1 * eye_distance)
    left, top, right, bottom = max(0, left), max(0, top), min(size, right), min(size, bottom)
    if right - left < 8 or bottom - top < 8:
        return
    crop = person[top:bottom, left:right]
    local_eyes = eyes - np.array([left, top])
    if smoothing > 0:
        _smooth_skin(crop, local_eyes, eye_distance, skin_ab, smoothing)
    if clarity > 0:
        _clarify_eyes(crop, local_eyes, eye_distance, clarity)


def _smooth_skin(
    crop: np.ndarray, eyes: np.ndarray, eye_distance: float, skin_ab: tuple[float, float], amount: float
) -> None:
    height, width = crop.shape[:2]
    mid = eyes.mean(axis=0)
    mask = np.zeros((height, width), np.float32)
    centre = (round(mid[0]), round(mid[1] + 0.45 * eye_distance))
    cv2.ellipse(mask, centre, (round(1.0 * eye_distance), round(1.45 * eye_distance)), 0, 0, 360, 1.0, -1)
    for eye in eyes:
        cv2.circle(mask, (round(eye[0]), round(eye[1] - 0.05 * eye_distance)), round(0.28 * eye_distance), 0.0, -1)
    lab = cv2.cvtColor(np.clip(crop * 255.0, 0, 255).astype(np.uint8), cv2.COLOR_RGB2Lab).astype(np.float32)
    distance = np.hypot(lab[..., 1] - skin_ab[0], lab[..., 2] - skin_ab[1])
    low, high = SKIN_COLOUR_DISTANCE
    mask *= np.clip((high - distance) / (high - low), 0.0, 1.0)
    mask = np.asarray(cv2.GaussianBlur(mask, (0, 0), max(1.0, 0.04 * eye_distance)), np.float32)
    grey = cv2.cvtColor(crop, cv2.COLOR_RGB2GRAY)
    radius = max(2, round(SMOOTHING_RADIUS * eye_distance))
    smooth = np.empty_like(crop)
    for channel in range(3):
        smooth[..., channel] = guided_filter(grey, np.ascontiguousarray(crop[..., channel]), radius, SMOOTHING_EPSILON)
    weight = (MAX_SMOOTHING * amount * mask)[..., None]
    crop += weight * (smooth - crop)


def _clarify_eyes(crop: np.ndarray, eyes: np.ndarray, eye_distance: float, amount: float) -> None:
    height, width = crop.shape[:2]
    mask = np.zeros((height, width), np.float32)
    for eye in eyes:
        axes = (round(EYE_RADIUS * eye_distance), round(0.6 * EYE_RADIUS * eye_distance))
        cv2.ellipse(mask, (round(eye[0]), round(eye[1])), axes, 0, 0, 360, 1.0, -1)
    mask = np.asarray(cv2.GaussianBlur(mask, (0, 0), max(1.0, 0.08 * eye_distance)), np.float32)
    blurred = cv2.GaussianBlur(crop, (0, 0), max(0.7, EYE_SIGMA * eye_distance))
    detail = crop - blurred
    crop += (EYE_SHARPEN * amount * mask)[..., None] * detail
    # A touch brighter, as a catch light and a reflector would make them.
    crop *= (1.0 + 0.05 * amount * mask)[..., None]
    np.clip(crop, 0.0, 1.0, out=crop)
