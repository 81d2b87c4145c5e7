"""The studio backdrops, drawn procedurally from the look's two colours, vignette and blur.

- seamless: studio paper in the main colour, lit behind the subject, falling off to the second
  colour, with the faint mottle of real paper.
- gradient: a smooth studio gradient between the two colours.
- office: a defocused interior: a window on the key light's side, shelves with books and plants,
  ceiling lights; the main colour is the wall, the second the furniture.
- bokeh: outdoors, out of focus: foliage in the two colours (greenery tones), sky gaps and the
  bright discs of out-of-focus highlights.
- textured: a hand-painted canvas backdrop, mottled between the two colours.

Everything is drawn at the working size (half the output: all of it is soft) in float sRGB
0..1, from a numpy Generator, so a seed gives the same backdrop every time.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import NamedTuple

import cv2
import numpy as np

from .look import Look, ShotVariation

Colour = np.ndarray  # (3,) float32 sRGB 0..1


class Paint(NamedTuple):
    """What a backdrop painter draws from."""

    side: int
    main: Colour
    second: Colour
    look: Look
    variation: ShotVariation
    rng: np.random.Generator


def backdrop(look: Look, variation: ShotVariation, side: int, rng: np.random.Generator) -> np.ndarray:
    """(side, side, 3) float32 sRGB 0..1."""
    main, second = (np.array(colour, np.float32) for colour in look.colors)
    image = PAINTERS[look.backdrop](Paint(side, main, second, look, variation, rng))
    image *= vignette_map(side, look.vignette, 0.7)[..., None]
    result: np.ndarray = np.clip(image, 0.0, 1.0).astype(np.float32)
    return result


def vignette_map(side: int, strength: float, reach: float) -> np.ndarray:
    """1 in the middle, darker towards the corners by up to `strength * reach`."""
    x, y = _grid(side)
    radius = np.sqrt(((x - 0.5) / 0.72) ** 2 + ((y - 0.45) / 0.78) ** 2)
    fall = _smoothstep(0.35, 1.0, radius)
    result: np.ndarray = (1.0 - strength * reach * fall).astype(np.float32)
    return result


def _seamless(paint: Paint) -> np.ndarray:
    side, main, second, _, variation, rng = paint
    x, y = _grid(side)
    # The background light: a broad pool behind the subject, a little towards the key's side.
    cx = 0.5 + 0.12 * variation.light_x - 0.08 * variation.key_side
    cy = 0.36 + 0.12 * variation.light_y
    radius = np.sqrt(((x - cx) / 0.62) ** 2 + ((y - cy) / 0.78) ** 2)
    pool = 1.0 - _smoothstep(0.05, 1.25, radius)
    image = _mix(second, main, pool)
    # A lit centre slightly brighter than the paper's own colour.
    image *= (1.0 + 0.08 * np.exp(-((radius / 0.35) ** 2)))[..., None]
    mottle = _fbm(rng, side, (3, 6, 12), (1.0, 0.5, 0.25))
    image *= (1.0 + 0.035 * mottle)[..., None]
    return image


def _gradient(paint: Paint) -> np.ndarray:
    side, main, second, _, variation, rng = paint
    x, y = _grid(side)
    # Light from above and from the key's side, falling off diagonally.
    angle = np.deg2rad(90.0 + 25.0 * variation.key_side + 12.0 * variation.light_x)
    direction = np.array([np.cos(angle), np.sin(angle)], np.float32)
    along = (x - 0.5) * direction[0] + (y - 0.5) * direction[1]
    t = _smoothstep(-0.55, 0.6, along)
    image = _mix(main, second, t)
    glow_x, glow_y = 0.5 + 0.15 * variation.light_x, 0.35 + 0.1 * variation.light_y
    glow = np.exp(-(((x - glow_x) / 0.4) ** 2 + ((y - glow_y) / 0.45) ** 2))
    image = image * (1.0 + 0.18 * glow)[..., None]
    image *= (1.0 + 0.015 * _fbm(rng, side, (4, 8), (1.0, 0.5)))[..., None]
    return image


def _office(paint: Paint) -> np.ndarray:
    """A defocused interior in one of three layouts: a window wall with shelves, a glass-walled
    open-plan floor, or a panelled boardroom (dark walls are more often panelled)."""
    side, main, second, look, variation, rng = paint
    x, _ = _grid(side)
    window_left = variation.key_side <= 0  # daylight comes from the key's side
    wall_light = x if not window_left else 1.0 - x
    canvas = _Canvas(_mix(main * 0.78, main * 1.05, _smoothstep(0.0, 1.0, wall_light)), side, window_left)
    dark_walls = float(main @ np.array([0.2126, 0.7152, 0.0722], np.float32)) < 0.35
    layouts = (
        (_window_and_shelves, _glass_partition, _panelled)
        if not dark_walls
        else (_panelled, _window_and_shelves, _panelled)
    )
    layouts[int(rng.integers(len(layouts)))](canvas, main, second, rng)
    # A desk, a table edge or a sofa back along the bottom.
    canvas.rect(-0.05, 0.86 + rng.uniform(-0.02, 0.03), 1.05, 1.05, second * 0.45)
    sigma = (0.006 + 0.03 * look.blur) * side
    layer = cv2.GaussianBlur(canvas.image, (0, 0), sigma)
    # Ceiling lights: bright out-of-focus discs.
    lights = np.zeros_like(layer)
    canvas_lights = _Canvas(lights, side, window_left)
    warm = np.array([1.0, 0.9, 0.72], np.float32)
    radius = max(0.004, 0.012 + 0.03 * look.blur)
    for _ in range(int(rng.integers(2, 6))):
        canvas_lights.disc(
            rng.uniform(0.3, 1.0), rng.uniform(0.0, 0.14), radius * rng.uniform(0.8, 1.2), warm * rng.uniform(0.35, 0.6)
        )
    lights = cv2.GaussianBlur(lights, (0, 0), max(1.0, 0.15 * sigma))
    return _screen(layer, lights)


class _Canvas:
    """Drawing in 0..1 coordinates, mirrored when the window is on the right."""

    def __init__(self, image: np.ndarray, side: int, window_left: bool) -> None:
        self.image, self.side, self.window_left = image, side, window_left

    def _x(self, x: float) -> float:
        return x if self.window_left else 1.0 - x

    def rect(self, x0: float, y0: float, x1: float, y1: float, colour: Colour) -> None:
        x0, x1 = sorted((self._x(x0), self._x(x1)))
        s = self.side
        cv2.rectangle(
            self.image,
            (round(x0 * s), round(y0 * s)),
            (round(x1 * s), round(y1 * s)),
            np.clip(colour, 0, 1).tolist(),
            -1,
        )

    def disc(self, x: float, y: float, radius: float, colour: Colour) -> None:
        s = self.side
        centre = (round(self._x(x) * s), round(y * s))
        cv2.circle(self.image, centre, max(1, round(radius * s)), np.clip(colour, 0, 1).tolist(), -1, cv2.LINE_AA)


SKY = np.array([0.93, 0.95, 0.97], np.float32)
TREES = np.array([0.45, 0.55, 0.42], np.float32)
LEAF = np.array([0.3, 0.45, 0.26], np.float32)
POT = np.array([0.8, 0.78, 0.74], np.float32)


def _window_and_shelves(canvas: _Canvas, main: Colour, second: Colour, rng: np.random.Generator) -> None:
    sky = SKY * 0.85 + main * 0.15
    w0, w1 = rng.uniform(-0.05, 0.02), rng.uniform(0.26, 0.36)
    top, bottom = rng.uniform(0.02, 0.1), rng.uniform(0.66, 0.8)
    canvas.rect(w0, top, w1, bottom, sky)
    for _ in range(7):  # trees outside
        canvas.disc(
            rng.uniform(w0, w1),
            rng.uniform(bottom - 0.2, bottom),
            rng.uniform(0.03, 0.08),
            (TREES * 0.7 + second * 0.3) * rng.uniform(0.8, 1.15),
        )
    canvas.rect(w0, bottom, w1, 1.0, main * 0.7)  # the wall below the sill
    frame = main * 0.55
    for position in np.linspace(w0, w1, 4)[1:-1]:
        canvas.rect(position - 0.006, top, position + 0.006, bottom, frame)
    transom = top + (bottom - top) * 0.38
    canvas.rect(w0, transom, w1, transom + 0.01, frame)
    palette = [
        second,
        second * 0.7,
        np.array([0.62, 0.28, 0.24], np.float32),
        np.array([0.85, 0.8, 0.7], np.float32),
        np.array([0.25, 0.33, 0.45], np.float32),
        main * 0.6,
        np.array([0.75, 0.6, 0.35], np.float32),
    ]
    shelf_x0 = rng.uniform(0.64, 0.72)
    for shelf_y in (0.24, 0.47, 0.7):
        _shelf(canvas, shelf_x0, shelf_y + rng.uniform(-0.02, 0.02), palette=palette, board=second * 0.55, rng=rng)


def _shelf(
    canvas: _Canvas, x0: float, y: float, *, palette: list[Colour], board: Colour, rng: np.random.Generator
) -> None:
    position = x0 + rng.uniform(0.0, 0.03)
    while position < 1.05:
        if rng.random() < 0.12:  # a plant in a pot
            canvas.rect(position + 0.01, y - 0.05, position + 0.06, y, POT)
            leaf = LEAF * rng.uniform(0.8, 1.2)
            for _ in range(5):
                canvas.disc(
                    position + 0.035 + rng.uniform(-0.04, 0.04),
                    y - rng.uniform(0.06, 0.14),
                    rng.uniform(0.015, 0.03),
                    leaf,
                )
            position += 0.08
            continue
        width, height = rng.uniform(0.01, 0.026), rng.uniform(0.08, 0.15)
        canvas.rect(
            position, y - height, position + width, y, palette[int(rng.integers(len(palette)))] * rng.uniform(0.75, 1.1)
        )
        position += width + (rng.uniform(0.02, 0.07) if rng.random() < 0.1 else 0.002)
    canvas.rect(x0 - 0.01, y, 1.05, y + 0.016, board)


def _glass_partition(canvas: _Canvas, main: Colour, second: Colour, rng: np.random.Generator) -> None:
    """An open-plan floor seen through a glass wall: bright windows far off, desks and people as
    soft shapes, the wall's mullions crossing the frame."""
    far = SKY * 0.6 + main * 0.4
    horizon = rng.uniform(0.5, 0.6)
    canvas.rect(-0.05, 0.05, 1.05, horizon, far)
    for _ in range(int(rng.integers(3, 6))):  # far windows
        x0 = rng.uniform(-0.05, 0.95)
        canvas.rect(
            x0, rng.uniform(0.08, 0.16), x0 + rng.uniform(0.08, 0.2), horizon - 0.08, np.minimum(SKY * 1.05, 1.0)
        )
    canvas.rect(-0.05, horizon, 1.05, 1.05, main * 0.82)  # the floor
    for _ in range(int(rng.integers(4, 8))):  # desks, chairs, colleagues
        cx, width = rng.uniform(-0.05, 1.05), rng.uniform(0.06, 0.16)
        top = horizon - rng.uniform(0.0, 0.18)
        tones: list[Colour] = [second * 0.6, main * 0.5, np.array([0.3, 0.32, 0.36], np.float32)]
        tone = tones[int(rng.integers(3))]
        canvas.rect(
            cx - width / 2, top, cx + width / 2, horizon + rng.uniform(0.05, 0.12), tone * rng.uniform(0.8, 1.2)
        )
    for _ in range(int(rng.integers(1, 3))):  # a plant
        px = rng.uniform(0.0, 1.0)
        for _ in range(6):
            canvas.disc(
                px + rng.uniform(-0.04, 0.04),
                horizon - rng.uniform(0.02, 0.16),
                rng.uniform(0.02, 0.04),
                LEAF * rng.uniform(0.8, 1.2),
            )
    canvas.rect(-0.05, 0.0, 1.05, 0.05, main * 0.9)  # the ceiling
    mullion = second * 0.5
    for position in np.arange(rng.uniform(0.05, 0.2), 1.05, rng.uniform(0.22, 0.32)):
        canvas.rect(position - 0.005, 0.0, position + 0.005, 1.0, mullion)


def _panelled(canvas: _Canvas, main: Colour, second: Colour, rng: np.random.Generator) -> None:
    """A boardroom: wood panels in the second colour, a framed picture, a warm lamp's glow."""
    wood = second * 0.9 + main * 0.1
    width = rng.uniform(0.16, 0.24)
    for index, position in enumerate(np.arange(-rng.uniform(0.0, width), 1.05, width)):
        canvas.rect(position, 0.0, position + width, 1.0, wood * (0.92 + 0.1 * ((index * 7919) % 5) / 5))
        canvas.rect(position - 0.003, 0.0, position + 0.003, 1.0, wood * 0.6)
    canvas.rect(-0.05, rng.uniform(0.62, 0.7), 1.05, 0.72, wood * 0.7)  # dado rail
    x0 = rng.uniform(0.62, 0.74)
    canvas.rect(x0 - 0.015, 0.14, x0 + 0.29, 0.5, main * 0.35)  # a picture in its frame
    canvas.rect(x0, 0.16, x0 + 0.27, 0.48, _mix(main, second, np.float32(0.5)) * 1.2)
    lamp = np.array([1.0, 0.82, 0.55], np.float32)
    canvas.disc(rng.uniform(0.02, 0.2), rng.uniform(0.45, 0.6), 0.07, lamp * 0.75 + wood * 0.25)


def _bokeh(paint: Paint) -> np.ndarray:
    side, main, second, look, variation, rng = paint
    s = side
    x, y = _grid(side)
    sky_side = 0.5 + 0.35 * variation.light_x
    light = _smoothstep(1.1, 0.0, np.sqrt((x - sky_side) ** 2 + (y * 1.4) ** 2))
    image = _mix(main * 0.75, _mix(main, second, np.float32(0.55)), light)
    layer = image.copy()
    # Foliage: blobs in greenery tones between the two colours.
    for _ in range(70):
        cx, cy = rng.uniform(-0.1, 1.1), rng.uniform(-0.1, 1.1)
        axes = (round(rng.uniform(0.03, 0.12) * s), round(rng.uniform(0.025, 0.09) * s))
        tone = _mix(main, second, np.float32(rng.uniform(0.0, 0.6) * (1.2 - cy)))
        tone = np.clip(tone * rng.uniform(0.65, 1.15) + rng.normal(0, 0.02, 3).astype(np.float32), 0, 1)
        cv2.ellipse(layer, (round(cx * s), round(cy * s)), axes, rng.uniform(0, 180), 0, 360, tone.tolist(), -1)
    # Sky showing through the leaves, mostly up high.
    bright = np.clip(second * 0.5 + 0.5, 0, 1)
    for _ in range(12):
        cx, cy = rng.uniform(0.0, 1.0), rng.uniform(-0.05, 0.45)
        radius = round(rng.uniform(0.02, 0.06) * s)
        cv2.circle(layer, (round(cx * s), round(cy * s)), radius, (bright * rng.uniform(0.85, 1.0)).tolist(), -1)
    sigma = (0.012 + 0.035 * look.blur) * s
    layer = cv2.GaussianBlur(layer, (0, 0), sigma)
    # Out-of-focus highlights: discs with a slightly brighter rim.
    discs = np.zeros_like(layer)
    highlight = np.clip(_mix(second, np.array([1.0, 0.95, 0.82], np.float32), np.float32(0.6)), 0, 1)
    for _ in range(int(rng.integers(28, 48))):
        cx, cy = rng.uniform(0.0, 1.0), rng.uniform(0.0, 0.85) ** 1.3
        radius = max(2, round(rng.uniform(0.012, 0.03 + 0.03 * look.blur) * s))
        strength = rng.uniform(0.08, 0.3) * (1.1 - cy)
        colour = (highlight * strength).tolist()
        centre = (round(cx * s), round(cy * s))
        cv2.circle(discs, centre, radius, colour, -1, cv2.LINE_AA)
        cv2.circle(discs, centre, radius, (highlight * strength * 0.6).tolist(), max(1, radius // 8), cv2.LINE_AA)
    discs = cv2.GaussianBlur(discs, (0, 0), max(0.8, 0.003 * s))
    return _screen(layer, discs)


def _textured(paint: Paint) -> np.ndarray:
    side, main, second, look, variation, rng = paint
    x, y = _grid(side)
    # Mottled paint: broad clouds, then brush-sized patches stretched along a stroke direction.
    clouds = _fbm(rng, side, (2, 4, 8), (1.0, 0.6, 0.35))
    strokes = _fbm(rng, side, (10, 20), (0.5, 0.3), stretch=3.0)
    t = np.clip(0.5 + 0.55 * clouds + 0.35 * strokes, 0, 1)
    cx = 0.5 + 0.12 * variation.light_x - 0.1 * variation.key_side
    glow = np.exp(-(((x - cx) / 0.45) ** 2 + ((y - 0.4 - 0.1 * variation.light_y) / 0.55) ** 2))
    t = np.clip(t * 0.75 + glow * 0.45, 0, 1)
    image = _mix(second, main, t)
    sigma = 0.002 * side + 0.012 * side * look.blur
    image = cv2.GaussianBlur(image, (0, 0), sigma)
    # The canvas weave, faint.
    weave = np.sin(x * side * 1.9) * np.sin(y * side * 1.9)
    image = image * (1.0 + 0.012 * (1.0 - look.blur) * weave)[..., None]
    return image


PAINTERS: dict[str, Callable[[Paint], np.ndarray]] = {
    "seamless": _seamless,
    "gradient": _gradient,
    "office": _office,
    "bokeh": _bokeh,
    "textured": _textured,
}


def _fbm(
    rng: np.random.Generator, side: int, cells: tuple[int, ...], weights: tuple[float, ...], stretch: float = 1.0
) -> np.ndarray:
    """Smooth value noise, about -1..1: random grids of `cells` upsampled bicubically and summed."""
    total = np.zeros((side, side), np.float32)
    for count, weight in zip(cells, weights, strict=True):
        columns = max(2, round(count / stretch)) if stretch > 1 else count
        grid = rng.standard_normal((count + 3, columns + 3)).astype(np.float32)
        big = cv2.resize(
            grid, (side + round(3 * side / columns), side + round(3 * side / count)), interpolation=cv2.INTER_CUBIC
        )
        offset = (big.shape[0] - side) // 2, (big.shape[1] - side) // 2
        total += weight * big[offset[0] : offset[0] + side, offset[1] : offset[1] + side]
    norm = float(np.sqrt(sum(w * w for w in weights)))
    result: np.ndarray = total / norm * 0.6
    return result


@cache
def _grid(side: int) -> tuple[np.ndarray, np.ndarray]:
    coordinates = (np.arange(side, dtype=np.float32) + 0.5) / side
    x, y = np.meshgrid(coordinates, coordinates)
    x.flags.writeable = False
    y.flags.writeable = False
    return x, y


def _smoothstep(low: float, high: float, value: np.ndarray) -> np.ndarray:
    t = np.clip((value - low) / (high - low), 0.0, 1.0)
    result: np.ndarray = t * t * (3.0 - 2.0 * t)
    return result


def _mix(a: Colour, b: Colour, t: np.ndarray | np.float32) -> np.ndarray:
    """a where t = 0, b where t = 1."""
    t = np.asarray(t, np.float32)
    result: np.ndarray = a + (b - a) * (t[..., None] if t.ndim else t)
    return result.astype(np.float32)


def _screen(base: np.ndarray, light: np.ndarray) -> np.ndarray:
    result: np.ndarray = 1.0 - (1.0 - np.clip(base, 0, 1)) * (1.0 - np.clip(light, 0, 1))
    return result
