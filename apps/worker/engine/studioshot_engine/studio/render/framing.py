"""Where the portrait lands in the square output: scaled so the head (crown to chin) is the look's
fraction of the frame, the eyes on its eye line, the face centre shifted by its offset.

The person must not visibly end where the photo ended. Where the photo cut them from above (hair
cut flat) that edge may never show: the framing zooms in (about the eyes) until it lies outside
the frame. At the sides and below (shoulders, arms, clothes) the subject's continuation may fill a
band along the frame's edges, no wider than EXTENSION_SIDE / EXTENSION_BOTTOM; a wider shot zooms
in until it fits.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .look import Look
from .subject import Subject

EXTENSION_BOTTOM = 0.01  # of the frame: the seam only
EXTENSION_SIDE = 0.05
STRICT_MARGIN = 0.01
MAX_ZOOM = 2.0


@dataclass(frozen=True)
class Placement:
    transform: np.ndarray  # (2, 3) portrait px -> output px
    scale: float  # output px per portrait px
    zoom: float  # the extra zoom the photo's edges asked for (1: the look's framing as it is)
    head_height: float  # as rendered, fraction of the frame


def place(subject: Subject, look: Look, size: int) -> Placement:
    head = subject.chin_y - subject.crown_y
    scale = look.head_height * size / head
    anchor = np.array([size * (0.5 + look.offset_x), size * look.eye_line])
    # The head's centre line is the eyes' midpoint; the framing puts it at the anchor.
    eye_mid = subject.eye_mid
    zoom = 1.0
    if len(subject.cut_points):
        offsets = (subject.cut_points - eye_mid) * scale
        needed = max(
            _zoom_to_clear(
                offsets[subject.cut_strict], anchor, low=-STRICT_MARGIN * size, high=(1 + STRICT_MARGIN) * size
            ),
            _zoom_to_clear(
                offsets[~subject.cut_strict],
                anchor,
                low=EXTENSION_SIDE * size,
                high=(1 - EXTENSION_SIDE) * size,
                bottom=(1 - EXTENSION_BOTTOM) * size,
            ),
        )
        zoom = float(np.clip(needed, 1.0, MAX_ZOOM))
    scale *= zoom
    transform = np.array(
        [[scale, 0.0, anchor[0] - scale * eye_mid[0]], [0.0, scale, anchor[1] - scale * eye_mid[1]]], np.float64
    )
    return Placement(transform=transform, scale=scale, zoom=zoom, head_height=head * scale / size)


def _zoom_to_clear(
    offsets: np.ndarray, anchor: np.ndarray, *, low: float, high: float, bottom: float | None = None
) -> float:
    """The least zoom (about the anchor) that takes every point past one of the bounds: x < low or
    x > high, y < low or y > bottom (default high). 1 when the points already are."""
    if not len(offsets):
        return 1.0
    bottom = high if bottom is None else bottom
    with np.errstate(divide="ignore", invalid="ignore"):
        dx, dy = offsets[:, 0], offsets[:, 1]
        candidates = np.stack(
            [
                np.where(dx < 0, (low - anchor[0]) / dx, np.inf),
                np.where(dx > 0, (high - anchor[0]) / dx, np.inf),
                np.where(dy < 0, (low - anchor[1]) / dy, np.inf),
                np.where(dy > 0, (bottom - anchor[1]) / dy, np.inf),
            ]
        )
    # A bound the anchor is already past is cleared at any zoom.
    candidates = np.where(candidates < 0, 0.0, candidates)
    per_point = candidates.min(axis=0)
    return float(per_point.max())


def transform_points(transform: np.ndarray, points: np.ndarray) -> np.ndarray:
    moved: np.ndarray = points @ transform[:, :2].T + transform[:, 2]
    return moved


def output_face_box(subject: Subject, placement: Placement) -> list[float]:
    x, y, w, h = subject.face_box
    (left, top), (right, bottom) = transform_points(placement.transform, np.array([[x, y], [x + w, y + h]]))
    return [round(float(left), 1), round(float(top), 1), round(float(right - left), 1), round(float(bottom - top), 1)]
