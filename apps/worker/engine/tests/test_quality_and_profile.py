"""Scoring photos as references, and measuring the subject's colour and lighting."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from harness import FIXTURES, fixture_photo
from PIL import Image

from studioshot_engine.protocol import Photo
from studioshot_engine.studio.profile import summarise
from studioshot_engine.studio.training import AnalysedPhoto, StudioTrainer


def analysed(trainer: StudioTrainer, photo: Photo) -> AnalysedPhoto:
    outcome = trainer.analyse(0, photo)
    assert isinstance(outcome, AnalysedPhoto), f"{photo.id} was set aside: {outcome}"
    return outcome


def relit(tmp_path: Path, name: str, linear_gains: tuple[float, float, float]) -> Photo:
    """astronaut.jpg under different light: its linear RGB scaled channel by channel."""
    srgb = np.asarray(Image.open(FIXTURES / "astronaut.jpg").convert("RGB")) / 255.0
    linear = np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4) * np.array(linear_gains)
    encoded = np.where(linear <= 0.0031308, linear * 12.92, 1.055 * np.clip(linear, 0, None) ** (1 / 2.4) - 0.055)
    path = tmp_path / f"{name}.jpg"
    Image.fromarray(np.round(np.clip(encoded, 0, 1) * 255).astype(np.uint8)).save(path, quality=92)
    return Photo(id=name, path=str(path))


def test_the_sharp_portrait_outscores_its_degraded_copies(trainer: StudioTrainer) -> None:
    scores = {
        name: analysed(trainer, fixture_photo(name)).quality.score
        for name in ("astronaut", "astronaut-low-quality", "astronaut-tilted")
    }
    assert scores["astronaut"] > scores["astronaut-low-quality"] and scores["astronaut"] > scores["astronaut-tilted"]
    assert all(0 < score <= 1 for score in scores.values())


def test_a_turned_face_is_less_frontal(trainer: StudioTrainer) -> None:
    frontal = analysed(trainer, fixture_photo("astronaut")).quality.frontality_score
    three_quarter = analysed(trainer, fixture_photo("two-faces")).quality.frontality_score
    assert frontal > 0.75 and three_quarter < 0.4


@pytest.mark.parametrize(
    ("name", "reason"),
    [("blurred", "blurry"), ("tiny", "face_too_small"), ("no-face-texture", "no_face"), ("small-face", "no_face")],
)
def test_sets_aside_unusable_photos(name: str, reason: str, trainer: StudioTrainer) -> None:
    assert trainer.analyse(0, fixture_photo(name)) == reason


def test_sets_aside_a_face_in_the_dark(trainer: StudioTrainer, tmp_path: Path) -> None:
    assert trainer.analyse(0, relit(tmp_path, "dark", (0.02, 0.02, 0.02))) == "too_dark"


def test_warm_light_reads_warmer(trainer: StudioTrainer, tmp_path: Path) -> None:
    neutral = analysed(trainer, fixture_photo("astronaut")).profile
    warm = analysed(trainer, relit(tmp_path, "warm-light", (1.15, 1.0, 0.8))).profile
    assert warm["white_balance"]["cast_ab"][1] > neutral["white_balance"]["cast_ab"][1] + 2  # b*: more amber
    assert warm["white_balance"]["cct_kelvin"] < neutral["white_balance"]["cct_kelvin"] - 300
    assert warm["white_balance"]["rgb_gains"][2] > neutral["white_balance"]["rgb_gains"][2]  # more blue to add back
    assert warm["skin"]["lab_mean"][2] > neutral["skin"]["lab_mean"][2] + 5


def test_the_warm_fixture_reads_as_a_yellower_paler_skin(trainer: StudioTrainer) -> None:
    # astronaut-warm.jpg is a hue rotation of +12 degrees with saturation 0.75 and brightness 1.1
    # (make-fixtures.mjs), not warmer light: its skin turns yellower, paler and lighter.
    original = analysed(trainer, fixture_photo("astronaut")).profile["skin"]
    warm = analysed(trainer, fixture_photo("astronaut-warm")).profile["skin"]
    assert warm["hue_degrees"] > original["hue_degrees"] + 5
    assert warm["chroma"] < original["chroma"]
    assert warm["lab_mean"][0] > original["lab_mean"][0]


def test_skin_tone_is_plausible_for_the_portrait(trainer: StudioTrainer) -> None:
    skin = analysed(trainer, fixture_photo("astronaut")).profile["skin"]
    lightness, a, b = skin["lab_mean"]
    assert 60 < lightness < 80 and 4 < a < 16 and 10 < b < 25
    assert 41 < skin["ita_degrees"] < 55  # "light" on the ITA scale
    assert all(0 <= channel <= 255 for channel in skin["srgb_mean"])


def test_the_key_light_changes_sides_in_the_mirror(trainer: StudioTrainer) -> None:
    original = analysed(trainer, fixture_photo("astronaut")).profile["lighting"]
    mirrored = analysed(trainer, fixture_photo("astronaut-mirror")).profile["lighting"]
    assert original["lit_side"] == "left" and mirrored["lit_side"] == "right"
    assert original["key_vector"][0] < 0 < mirrored["key_vector"][0]
    assert 1 < original["contrast_ratio"] < 2


def test_the_subject_summary_is_the_median(trainer: StudioTrainer) -> None:
    profiles = [
        analysed(trainer, fixture_photo(name)).profile for name in ("astronaut", "astronaut-mirror", "astronaut-warm")
    ]
    subject = summarise(profiles)
    hues = sorted(profile["skin"]["hue_degrees"] for profile in profiles)
    assert subject["skin"]["hue_degrees"] == hues[1]
    assert set(subject) == {"skin", "white_balance", "lighting"}
    assert subject["white_balance"]["method"] == "neutral_surfaces"
