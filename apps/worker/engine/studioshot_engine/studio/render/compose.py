"""One headshot: the prepared subject framed, colour-corrected, retouched and lit, over its
backdrop, then graded. Everything random comes from the image's own generator."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from .backdrops import backdrop, vignette_map
from .framing import Placement, output_face_box, place, transform_points
from .grade import grade
from .lighting import Light, cast_shadow, shade_person
from .look import Look, ShotVariation
from .model import StudioModel
from .retouch import retouch
from .subject import Subject, subject_of

# The photo's white balance is neutralised this much (the profile's gains are linear).
WHITE_BALANCE_STRENGTH = 0.6
WHITE_BALANCE_RANGE = (0.8, 1.25)
# Backdrops close behind the subject take its shadow.
SHADOWED_BACKDROPS = {"seamless": 0.32, "gradient": 0.12, "textured": 0.25}
# A lens's own light falloff over the whole image, relative to the backdrop's.
LENS_VIGNETTE = 0.3
GRAIN = 1.3  # 8-bit levels (standard deviation): keeps gradients free of banding
# Downscaling the portrait further than this goes through an area resize first (no aliasing).
DIRECT_WARP_MIN_SCALE = 0.85
GAMMA = 2.2
# Where the photo ends inside the frame (clothes cut by its side or bottom), the person fades into
# the backdrop over this width (of the frame).
EDGE_FADE = 0.06


@dataclass(frozen=True)
class Rendered:
    image: np.ndarray  # (S, S, 3) uint8 sRGB
    face_box: list[float]
    placement: Placement


def render(
    model: StudioModel,
    reference: int,
    look: Look,
    variation: ShotVariation,
    size: int,
    *,
    rng: np.random.Generator,
    checkpoint: Callable[[], None] = lambda: None,
    tighter: float = 1.0,
) -> Rendered:
    """Raises Unframeable when this portrait cannot be framed without showing where its photo
    cut the head."""
    subject = subject_of(model, reference)
    portrait = model.portrait(reference)
    checkpoint()
    placement = place(subject, look, size, tighter=tighter)
    person, alpha = _warp_subject(subject, placement, size)
    eyes = transform_points(placement.transform, subject.eyes)
    _neutralise_white_balance(person, portrait.profile.get("white_balance") or {})
    retouch(person, eyes, subject.skin_ab, look.skin_smoothing, look.eye_clarity)
    checkpoint()
    light = Light(look.key_side, look.key_strength, look.fill_ratio, look.rim_strength, look.rim_color)
    shading = shade_person(alpha, eyes, light, portrait.profile.get("lighting") or {}, size)
    person *= shading.gain[..., None]
    checkpoint()
    back = backdrop(look, variation, size // 2, rng)
    back = cv2.resize(back, (size, size), interpolation=cv2.INTER_LINEAR)
    if look.backdrop in SHADOWED_BACKDROPS:
        back *= cast_shadow(alpha, light, size, SHADOWED_BACKDROPS[look.backdrop])[..., None]
    checkpoint()
    a = alpha[..., None]
    image = back + a * (person - back)
    # The rim light, screened on (it brightens without clipping).
    image = 1.0 - (1.0 - image) * (1.0 - a * shading.rim)
    image *= vignette_map(size, look.vignette, LENS_VIGNETTE)[..., None]
    grain = rng.standard_normal((size, size), dtype=np.float32) * GRAIN
    eight_bit = np.clip(image * 255.0 + grain[..., None] + 0.5, 0, 255).astype(np.uint8)
    return Rendered(image=grade(eight_bit, look), face_box=output_face_box(subject, placement), placement=placement)


def _warp_subject(subject: Subject, placement: Placement, size: int) -> tuple[np.ndarray, np.ndarray]:
    """The person's colours and matte in the output, from the photo's own pixels only: where the
    photo ends inside the frame the person fades into the backdrop over EDGE_FADE; where the
    frame's edge cuts it, it ends at that edge, as a crop does. float32 (S, S, 3) sRGB 0..1 and
    (S, S) 0..1."""
    transform = placement.transform
    layers = np.dstack([subject.foreground, subject.alpha, subject.valid])
    if placement.scale < DIRECT_WARP_MIN_SCALE:
        side = max(16, round(subject.size * placement.scale))
        layers = _by_four(layers, lambda part: cv2.resize(part, (side, side), interpolation=cv2.INTER_AREA))
        factor = side / subject.size
        transform = np.hstack([transform[:, :2] / factor, transform[:, 2:]])
    warped = _warp(layers, transform, size, cv2.BORDER_CONSTANT)
    person = warped[..., :3].astype(np.float32) * (1.0 / 255.0)
    alpha = warped[..., 3].astype(np.float32) * (1.0 / 255.0)
    return person, alpha * photo_edge_fade(warped[..., 4] > 127, size)


def photo_edge_fade(shown: np.ndarray, size: int) -> np.ndarray:
    """1 further than EDGE_FADE from where the photo ends inside the frame, easing to 0 there. The
    frame's own edge is no photo edge (beyond it the photo may go on)."""
    padded = np.pad(shown, 1, constant_values=True).astype(np.uint8)
    distance = cv2.distanceTransform(padded, cv2.DIST_L2, 5)[1:-1, 1:-1]
    ramp = np.clip(distance / max(1.0, EDGE_FADE * size), 0.0, 1.0)
    fade: np.ndarray = (ramp * ramp * (3.0 - 2.0 * ramp)).astype(np.float32)
    return fade


def _warp(layers: np.ndarray, transform: np.ndarray, size: int, border: int) -> np.ndarray:
    return _by_four(
        layers, lambda part: cv2.warpAffine(part, transform, (size, size), flags=cv2.INTER_LINEAR, borderMode=border)
    )


def _by_four(layers: np.ndarray, operation: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """An OpenCV operation that takes up to 4 channels, on any number of them."""
    parts = []
    for start in range(0, layers.shape[2], 4):
        done = operation(np.ascontiguousarray(layers[..., start : start + 4]))
        parts.append(done if done.ndim == 3 else done[..., None])
    result: np.ndarray = np.dstack(parts)
    return result


def _neutralise_white_balance(person: np.ndarray, white_balance: dict[str, Any]) -> None:
    gains = white_balance.get("rgb_gains")
    if not isinstance(gains, list) or len(gains) != 3:
        return
    linear = np.clip(np.array(gains, np.float64), *WHITE_BALANCE_RANGE) ** WHITE_BALANCE_STRENGTH
    linear /= float(linear @ np.array([0.2126, 0.7152, 0.0722]))  # keep the brightness
    person *= (linear ** (1.0 / GAMMA)).astype(np.float32)
