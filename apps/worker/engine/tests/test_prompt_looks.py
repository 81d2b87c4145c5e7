"""The one prompt rule on the studio engine: a user's prompt shapes the template's look through the
words the engine renders (backdrop, light, framing, finish). Every quick prompt, and the default
prompt of the style page, must change at least one of backdrop, light or framing of the template
the API renders for it (the style's first template, for either gender)."""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from generate_support import load_templates
from harness import REPO, StartEngine, generate_message, start_message
from PIL import Image

from studioshot_engine.studio.render.look import (
    BACKDROP_COLOURS,
    BACKDROP_SURFACES,
    PROMPT_RULES,
    Look,
    from_prompt,
    from_studio,
    recognised_words,
)

TEMPLATES_JSON = REPO / "packages" / "templates" / "data" / "templates.json"
PUBLISHED_WORDS = REPO / "packages" / "contracts" / "studio-prompt-words.json"
# The style page's default prompt (product spec: 'Describe Your Ideal Shot').
DEFAULT_PROMPT = "professional headshot in business attire"
BACKDROP = ("backdrop", "colors", "vignette", "blur")
LIGHT = ("key_side", "key_strength", "fill_ratio", "rim_strength", "rim_color")
FRAMING = ("head_height", "eye_line", "offset_x")


def offered_prompts() -> list[tuple[str, str]]:
    """(style id, prompt) for every quick prompt and the style page's default."""
    data = json.loads(TEMPLATES_JSON.read_text())
    quick = [(category["style_id"], prompt) for category in data["quick_prompts"] for prompt in category["prompts"]]
    return [*quick, ("professional", DEFAULT_PROMPT)]


def style_templates(style_id: str) -> list[dict[str, Any]]:
    """The templates the API renders for a style without a template: its category's first, for a
    man, a woman, or an account without a gender (the first of all)."""
    of_style = [template for template in load_templates() if template["category"] == style_id]
    chosen = [of_style[0], *(next(t for t in of_style if t["gender"] == gender) for gender in ("man", "woman"))]
    return list({template["id"]: template for template in chosen}.values())


def changed(before: Look, after: Look) -> set[str]:
    """Which of backdrop, light and framing differ between two looks."""
    differ = {field.name for field in fields(Look) if getattr(before, field.name) != getattr(after, field.name)}
    groups = (("backdrop", BACKDROP), ("light", LIGHT), ("framing", FRAMING))
    return {name for name, group in groups if differ & set(group)}


def test_the_published_vocabulary_is_the_engines() -> None:
    # The API names the words used from this copy; it must be exactly what the engine reads.
    published = json.loads(PUBLISHED_WORDS.read_text())
    assert published == {
        "rules": [{"group": group, "words": list(options)} for group, options, _ in PROMPT_RULES],
        "colours": list(BACKDROP_COLOURS),
        "surfaces": list(BACKDROP_SURFACES),
    }


def test_there_are_36_quick_prompts_and_the_default() -> None:
    assert len(offered_prompts()) == 37


@pytest.mark.parametrize(("style_id", "prompt"), offered_prompts())
def test_every_offered_prompt_changes_backdrop_light_or_framing(style_id: str, prompt: str) -> None:
    assert recognised_words(prompt), f"no word of {prompt!r} is rendered"
    for template in style_templates(style_id):
        studio = template["variants"][0]["studio"]
        assert changed(from_studio(studio), from_prompt(prompt, base=studio)), (template["id"], prompt)


def test_a_prompt_without_rendered_words_leaves_the_template_as_it_is() -> None:
    studio = load_templates()[0]["variants"][0]["studio"]
    assert recognised_words("a photo of person, smiling") == []
    assert from_prompt("a photo of person, smiling", base=studio) == from_studio(studio)


def test_the_words_name_what_they_change() -> None:
    assert recognised_words("dark moody portrait in an office on a navy background, close-up") == [
        "office",
        "dark",
        "moody",
        "close-up",
        "navy background",
    ]
    # One setting: the first that matches.
    assert recognised_words("outdoors near the office") == ["office"]


def generate_with(
    model: Path, output: Path, job_id: str, template: dict[str, Any], prompt: str, *, shapes: bool
) -> dict[str, Any]:
    message = generate_message(job_id, model, output, count=1, size=256)
    message["params"].update(
        prompt=prompt,
        prompt_shapes_look=shapes,
        template={"id": template["id"], "variant": 0, "studio": template["variants"][0]["studio"]},
    )
    return message


def test_the_engine_process_renders_every_offered_prompt_differently_from_its_template(
    start_engine: StartEngine, tmp_path: Path
) -> None:
    engine = start_engine()
    engine.send(start_message("train", ["astronaut", "astronaut-mirror", "astronaut-warm"], tmp_path / "model"))
    assert engine.receive_until("result", "error")[-1]["type"] == "result"
    model = tmp_path / "model" / "model.npz"

    def render(job_id: str, template: dict[str, Any], prompt: str, *, shapes: bool) -> np.ndarray:
        engine.send(generate_with(model, tmp_path / job_id, job_id, template, prompt, shapes=shapes))
        messages = engine.receive_until("result", "error")
        assert messages[-1]["type"] == "result", messages[-1]
        (image,) = [message for message in messages if message["type"] == "artifact"]
        with Image.open(image["path"]) as opened:
            return np.asarray(opened.convert("RGB"), dtype=np.float32)

    own: dict[str, np.ndarray] = {}
    for index, (style_id, prompt) in enumerate(offered_prompts()):
        template = style_templates(style_id)[0]
        if template["id"] not in own:
            # The template's own result: its prompt, which never shapes its look.
            own[template["id"]] = render(f"own-{template['id']}", template, template["prompt"], shapes=False)
        shaped = render(f"prompt-{index}", template, prompt, shapes=True)
        difference = float(np.abs(shaped - own[template["id"]]).mean())
        assert difference > 2.0, (prompt, template["id"], difference)
