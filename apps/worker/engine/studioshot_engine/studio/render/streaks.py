"""Edge-replication streaks: what a renderer leaves where it fills missing picture by repeating a
photo's edge pixels outwards. Under the top edge that is a band of columns that change across the
image but hardly down it (each column one repeated pixel, perhaps fading or smeared); beside a side
edge, rows that change down but hardly across. Real picture (hair, fabric, a backdrop with its
grain) changes both ways about as much.

The test works on the image's detail (what a blur of `detail_sigma` px leaves out: a soft backdrop's
window frames and shelf edges are not detail, a repeated row of hair is), on differences between
neighbouring pixels, averaged over windows long along the suspected streaks and narrow across them:
a window is streaked when its differences across are large and several times those along. Each
difference counts only up to a cap, so one strong edge (a cheek, a collar, a window frame in the
backdrop) does not make a window streaked; many columns each unlike the next do. Streaks start at
the image's edge, so only streaked areas reaching it count, and an image is flagged when they cover
more than MIN_COVER of the band next to one edge.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np

Edge = Literal["top", "left", "right"]


@dataclass(frozen=True)
class Scale:
    side: int  # px: the image is judged at this size (never enlarged)
    along: float  # the averaging window's length along the streaks (of the side)
    across: float  # and its width across them
    cap: float  # 8-bit levels: a pixel difference counts up to this
    min_across: float  # levels: the window's mean difference across the streaks, at least
    ratio: float  # and at least this many times its mean difference along them
    detail_sigma: float  # px: what a blur this wide keeps is taken away first (0: nothing)


# Judged at one working size, so the thresholds mean the same for any output size. (Streaks smeared
# so soft that they hold no detail look like a defocused backdrop's own structure and are not
# flagged: they are left to the framing's rules, which keep the photo's cut edges out of frame.)
SCALES = (Scale(side=512, along=0.06, across=0.03, cap=8.0, min_across=2.0, ratio=3.0, detail_sigma=6.0),)
# The bands searched along the top and both side edges, as fractions of the image side.
BAND = 0.3
# A streaked area must reach this close to the edge (of the side).
EDGE_REACH = 0.02
# Share of an edge's band that streaked areas must cover for the image to be flagged.
MIN_COVER = 0.004


@dataclass(frozen=True)
class StreakReport:
    flagged: bool
    cover: dict[Edge, float]  # per edge, the share of its band that is streaked

    @property
    def edges(self) -> list[Edge]:
        return [edge for edge, share in self.cover.items() if share > MIN_COVER]


def find_streaks(image: np.ndarray) -> StreakReport:
    """Looks for edge-replication streaks in an 8-bit RGB (or grey) image."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_RGB2GRAY)
    cover: dict[Edge, float] = {"top": 0.0, "left": 0.0, "right": 0.0}
    for scale in SCALES:
        factor = scale.side / max(grey.shape)
        small = cv2.resize(grey, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA) if factor < 1 else grey
        small = small.astype(np.float32)
        band = max(8, round(BAND * min(small.shape)))
        # Beside a side edge the streaks run across: the same test on the band turned on its side,
        # the edge first.
        bands: tuple[tuple[Edge, np.ndarray], ...] = (
            ("top", small[:band, :]),
            ("left", small[:, :band].T),
            ("right", small[:, ::-1][:, :band].T),
        )
        for edge, part in bands:
            share = float(streak_map(np.ascontiguousarray(part), scale).mean())
            cover[edge] = max(cover[edge], share)
    rounded: dict[Edge, float] = {edge: round(share, 4) for edge, share in cover.items()}
    return StreakReport(flagged=any(share > MIN_COVER for share in cover.values()), cover=rounded)


def streak_map(band: np.ndarray, scale: Scale) -> np.ndarray:
    """Where a band (its edge at row 0, streaks if any running down its columns) is streaked, as
    connected areas reaching the edge: bool, one per pixel difference (a row and a column fewer)."""
    side = max(band.shape)
    if scale.detail_sigma > 0:
        # Only detail finer than the backdrop's softest structure counts.
        band = band - cv2.GaussianBlur(band, (0, 0), scale.detail_sigma)
    across = np.minimum(np.abs(np.diff(band, axis=1))[:-1, :], scale.cap)
    along = np.minimum(np.abs(np.diff(band, axis=0))[:, :-1], scale.cap)
    window = (max(3, round(scale.across * side)), max(5, round(scale.along * side)))
    mean_across = cv2.blur(across, window, borderType=cv2.BORDER_REFLECT)
    mean_along = cv2.blur(along, window, borderType=cv2.BORDER_REFLECT)
    streaked = ((mean_across > scale.min_across) & (mean_across > scale.ratio * mean_along)).astype(np.uint8)
    _, labels = cv2.connectedComponents(streaked, connectivity=8)
    reach = max(1, round(EDGE_REACH * side))
    touching = np.unique(labels[:reach][streaked[:reach] > 0])
    result: np.ndarray = np.isin(labels, touching[touching > 0])
    return result
