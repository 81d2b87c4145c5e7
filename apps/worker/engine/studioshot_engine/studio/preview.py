"""The preview contact sheet: what the model learned, at a glance.

Top: the reference face as aligned, and its head-and-shoulders portrait cut out onto a studio
backdrop with its person matte (the aligned face with its head matte when there is no portrait).
Below: the other reference faces with their rank and score. Last: the skin swatch and the profile.
"""

from __future__ import annotations

import os
from typing import Any

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from .alignment import CROP_SIZE

SHEET_WIDTH = 2 * CROP_SIZE
TILE_SIZE = SHEET_WIDTH // 4
FOOTER_HEIGHT = 96
MARGIN = 16
BACKDROP_CENTRE, BACKDROP_EDGE = (112, 124, 138), (38, 44, 54)  # a slate studio paper, lit in the middle
SHEET_BACKGROUND = (24, 26, 30)
TEXT_COLOUR = (236, 236, 236)
JPEG_QUALITY = 88


def write_preview(
    path: str,
    faces: np.ndarray,
    mattes: np.ndarray,
    profile: dict[str, Any],
    portrait: tuple[np.ndarray, np.ndarray] | None = None,
) -> None:
    partial = f"{path}.partial"
    contact_sheet(faces, mattes, profile, portrait).save(partial, format="JPEG", quality=JPEG_QUALITY)
    os.replace(partial, path)  # a reader never sees half a preview


def contact_sheet(
    faces: np.ndarray,
    mattes: np.ndarray,
    profile: dict[str, Any],
    portrait: tuple[np.ndarray, np.ndarray] | None = None,
) -> Image.Image:
    """`portrait`: the reference's portrait (RGB, square) and its person matte."""
    others = len(faces) - 1
    rows = -(-others // 4)  # ceiling division
    sheet = Image.new("RGB", (SHEET_WIDTH, CROP_SIZE + rows * TILE_SIZE + FOOTER_HEIGHT), SHEET_BACKGROUND)
    sheet.paste(Image.fromarray(faces[0]), (0, 0))
    if portrait is None:
        cutout, cutout_matte = faces[0], mattes[0]
    else:
        size = (CROP_SIZE, CROP_SIZE)
        cutout = cv2.resize(portrait[0], size, interpolation=cv2.INTER_AREA)
        cutout_matte = cv2.resize(portrait[1], size, interpolation=cv2.INTER_AREA)
    sheet.paste(Image.fromarray(_on_backdrop(cutout, cutout_matte)), (CROP_SIZE, 0))
    draw = ImageDraw.Draw(sheet)
    small_font, font = ImageFont.load_default(14), ImageFont.load_default(17)
    _label(draw, (MARGIN, MARGIN), f"reference  {profile['faces'][0]['score']:.2f}", font)
    for rank, face in enumerate(faces[1:], start=1):
        x, y = ((rank - 1) % 4) * TILE_SIZE, CROP_SIZE + ((rank - 1) // 4) * TILE_SIZE
        tile = cv2.resize(face, (TILE_SIZE, TILE_SIZE), interpolation=cv2.INTER_AREA)
        sheet.paste(Image.fromarray(tile), (x, y))
        _label(draw, (x + 8, y + 8), f"#{rank + 1}  {profile['faces'][rank]['score']:.2f}", small_font)
    _footer(sheet, draw, profile, font)
    return sheet


def _on_backdrop(face: np.ndarray, matte: np.ndarray) -> np.ndarray:
    rows, columns = np.mgrid[0:CROP_SIZE, 0:CROP_SIZE].astype(np.float32)
    distance = np.hypot(columns - CROP_SIZE / 2, rows - CROP_SIZE * 0.4) / CROP_SIZE
    glow = np.clip(distance / 0.75, 0, 1)[..., None]
    backdrop = np.array(BACKDROP_CENTRE, np.float32) * (1 - glow) + np.array(BACKDROP_EDGE, np.float32) * glow
    alpha = matte.astype(np.float32)[..., None] / 255.0
    composite = face.astype(np.float32) * alpha + backdrop * (1 - alpha)
    rounded: np.ndarray = np.clip(composite + 0.5, 0, 255).astype(np.uint8)
    return rounded


def _footer(
    sheet: Image.Image,
    draw: ImageDraw.ImageDraw,
    profile: dict[str, Any],
    font: ImageFont.ImageFont | ImageFont.FreeTypeFont,
) -> None:
    subject = profile["subject"]
    skin, balance, lighting = subject["skin"], subject["white_balance"], subject["lighting"]
    top = sheet.height - FOOTER_HEIGHT
    swatch = FOOTER_HEIGHT - 2 * MARGIN
    draw.rectangle((MARGIN, top + MARGIN, MARGIN + swatch, top + MARGIN + swatch), fill=tuple(skin["srgb_mean"]))
    light = "even light" if lighting["lit_side"] == "even" else f"key light from the {lighting['lit_side']}"
    lightness, a, b = skin["lab_mean"]
    used, rejected = len(profile["used_photo_ids"]), len(profile["rejected"])
    lines = (
        f"{profile['model_name']}: {used} photos used, {rejected} set aside",
        f"skin L*a*b* {lightness:.0f} / {a:.0f} / {b:.0f}   {light}, ratio {lighting['contrast_ratio']:.1f}:1"
        f"   white balance ~{balance['cct_kelvin']} K",
    )
    for number, line in enumerate(lines):
        draw.text((2 * MARGIN + swatch, top + MARGIN + number * 28), line, fill=TEXT_COLOUR, font=font)


def _label(
    draw: ImageDraw.ImageDraw, at: tuple[int, int], text: str, font: ImageFont.ImageFont | ImageFont.FreeTypeFont
) -> None:
    left, top, right, bottom = draw.textbbox(at, text, font=font)
    draw.rectangle((left - 4, top - 3, right + 4, bottom + 3), fill=SHEET_BACKGROUND)
    draw.text(at, text, fill=TEXT_COLOUR, font=font)
