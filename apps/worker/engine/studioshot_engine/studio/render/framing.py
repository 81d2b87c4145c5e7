"""Where the portrait lands in the square output: scaled so the head (crown to chin) is the look's
fraction of the frame, the eyes on its eye line, the face centre shifted by its offset.

Nothing is ever shown that the photo did not see. Where the photo cut the person from above (hair
cut flat by its top edge) that edge must lie outside the frame: the framing first raises the eyes
in the frame (down to MIN_EYE_LINE), then zooms in about them until it does, and may so cut the top
of the head as a portrait photographer's tight crop does, but by at most MAX_CROWN_CUT of the
head's height and never down to the eyebrows. A photo cut
lower than that cannot be framed (`Unframeable`): the generator takes another portrait. At the
sides and below (shoulders, clothes) the framing zooms in up to MAX_ZOOM to take the photo's edge
out of the frame; what it cannot take out fades into the backdrop (compose). The bottom edge (a
photo that ends at the chest) is taken out past MAX_ZOOM if need be, as far as cutting the
crown as above allows: a horizontal fade across the clothes reads as a defect, a tight crop does not. At
the sides the zoom stops before the crown: a side fade sits beside the shoulder, where a backdrop
would be anyway.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .look import Look
from .subject import Subject

MIN_EYE_LINE = 0.27  # of the frame from its top: how high a cut top may raise the eyes
STRICT_MARGIN = 0.005  # of the frame: a flat-cut top lies at least this far past the frame's top
MAX_ZOOM = 2.0  # for the sides: past this the photo's edge fades instead
# A crop may cut the crown by this share of the head's height (crown to chin), at most.
MAX_CROWN_CUT = 0.15
# The eyebrows' top, above the eyes' centres, in eye distances: a crop never reaches it.
EYEBROWS_ABOVE_EYES = 0.55


class Unframeable(Exception):
    """The photo cut the head too low to frame it without showing the cut or losing the brow."""


@dataclass(frozen=True)
class Placement:
    transform: np.ndarray  # (2, 3) portrait px -> output px
    scale: float  # output px per portrait px
    zoom: float  # the extra zoom the photo's edges asked for (1: the look's framing as it is)
    head_height: float  # as rendered, fraction of the frame
    crown_cut: float  # the share of the head's height above the frame's top (0: the whole head shows)


def place(subject: Subject, look: Look, size: int, *, tighter: float = 1.0) -> Placement:
    """The framing; `tighter` (>= 1) asks for that much more zoom than the look's."""
    head = subject.chin_y - subject.crown_y
    scale = look.head_height * size / head
    anchor = np.array([size * (0.5 + look.offset_x), size * look.eye_line])
    # The head's centre line is the eyes' midpoint; the framing puts it at the anchor.
    eye_mid = subject.eye_mid
    strict_points = subject.cut_points[subject.cut_strict] if len(subject.cut_points) else np.zeros((0, 2))
    above = strict_points[strict_points[:, 1] < eye_mid[1], 1]
    if len(above):
        # The eyes raised just enough for the photo's top edge to leave the frame unzoomed.
        needed = (eye_mid[1] - above.max()) * scale - STRICT_MARGIN * size
        anchor[1] = min(anchor[1], max(needed, MIN_EYE_LINE * size))
    # The most zoom the head allows: the frame's top no lower than MAX_CROWN_CUT into the head, and
    # above the eyebrows; for the sides and bottom alone, no cut into the head at all.
    lowest_top = min(subject.crown_y + MAX_CROWN_CUT * head, eye_mid[1] - EYEBROWS_ABOVE_EYES * subject.eye_distance)
    head_limit = anchor[1] / (scale * max(eye_mid[1] - lowest_top, 1e-6))
    uncut_limit = anchor[1] / (scale * max(eye_mid[1] - subject.crown_y, 1e-6))
    strict_zoom, soft_zoom = 0.0, 1.0
    if len(subject.cut_points):
        offsets = (subject.cut_points - eye_mid) * scale
        strict_zoom = _zoom_to_clear(
            offsets[subject.cut_strict], anchor, low=-STRICT_MARGIN * size, high=(1 + STRICT_MARGIN) * size
        )
        soft = offsets[~subject.cut_strict]
        below = subject.cut_points[~subject.cut_strict, 1] > subject.chin_y
        soft_zoom = _zoom_to_clear(soft[~below], anchor, low=0.0, high=float(size))
        bottom_zoom = _zoom_to_clear(soft[below], anchor, low=0.0, high=float(size))
    else:
        bottom_zoom = 1.0
    if strict_zoom > head_limit * (1 + 1e-6):
        raise Unframeable(f"the photo's top edge needs {strict_zoom:.2f}x, the head allows {head_limit:.2f}x")
    # (Below 1 only where the look itself would cut the crown too far: a little wider then.)
    zoom = max(
        strict_zoom,
        min(max(soft_zoom, 1.0), MAX_ZOOM, max(uncut_limit, strict_zoom)),
        min(bottom_zoom, head_limit),
    )
    zoom = min(zoom * tighter, head_limit)
    scale *= zoom
    transform = np.array(
        [[scale, 0.0, anchor[0] - scale * eye_mid[0]], [0.0, scale, anchor[1] - scale * eye_mid[1]]], np.float64
    )
    frame_top = eye_mid[1] - anchor[1] / scale
    return Placement(
        transform=transform,
        scale=scale,
        zoom=zoom,
        head_height=head * scale / size,
        crown_cut=float(max(0.0, frame_top - subject.crown_y) / head),
    )


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
