"""The template text contract: a template card shown for a studio model promises only what the
studio engine renders (backdrop, light, framing, finish around the person's own photo, clothes
included), and says the backdrop its studio parameters render; the flux engine's text and prompt
keep the attire the prompt asks for."""

from __future__ import annotations

import re
from typing import Any

import pytest
from generate_support import load_templates

# What the studio engine cannot change: the person's clothes, accessories, expression, and settings
# its backdrops do not draw (its office is a defocused interior, its textured backdrop a painted
# canvas, its bokeh blobs and discs of light).
ATTIRE = (
    r"suit|shirt|tie|blazer|jacket|sweater|turtleneck|coat|blouse|dress|top|tee|t-shirt|hoodie|cardigan|"
    r"overshirt|bomber|polo|corduroy|denim|linen|velvet|satin|silk|earrings?|necklace|jewellery|pearls?|glasses|"
    r"makeup|business casual"
)
EXPRESSION = r"smile|smiling|expression|gaze|eye contact|grin"
UNRENDERED_SETTINGS = (
    r"brick|concrete|plaster|books?|bookshelf|library|panelling|skyline|towers?|city|street|rooftop|sea|"
    r"seaside|water|sand(?!\b)|rain|rainy|window-speckled|greenhouse|campus|chandelier|lobby|penthouse|hotel|"
    r"corridor|hospital|loft|cafe|living room|garden terrace|trees"
)
FORBIDDEN = re.compile(rf"\b({ATTIRE}|{EXPRESSION}|{UNRENDERED_SETTINGS})\b", re.IGNORECASE)
# What each backdrop kind is called on a card (one of these words).
BACKDROP_WORDS = {
    "seamless": r"backdrop|studio|seamless|white|grey|ivory|slate|charcoal|black|off-white|coral|navy",
    "gradient": r"gradient",
    "office": r"office|interior|boardroom",
    "bokeh": r"bokeh",
    "textured": r"canvas|mottled|textured",
}


@pytest.fixture(scope="module")
def templates() -> list[dict[str, Any]]:
    return load_templates()


def test_the_studio_card_promises_only_backdrop_light_framing_and_finish(templates: list[dict[str, Any]]) -> None:
    assert len(templates) == 60
    for template in templates:
        for field in ("name", "description"):
            found = FORBIDDEN.search(template[field])
            assert found is None, f"{template['id']} {field} promises '{found.group(0) if found else ''}'"
        for variant in template["variants"]:
            found = FORBIDDEN.search(variant["name"])
            assert found is None, f"{template['id']} variant {variant['name']}"


def test_the_studio_card_names_the_backdrop_its_parameters_render(templates: list[dict[str, Any]]) -> None:
    for template in templates:
        studio = template["variants"][0]["studio"]
        kind = studio["backdrop"]["kind"]
        text = f"{template['name']} {template['description']}"
        assert re.search(BACKDROP_WORDS[kind], text, re.IGNORECASE), f"{template['id']} ({kind}): {text}"
        monochrome = all(variant["studio"]["grade"]["monochrome"] >= 0.9 for variant in template["variants"])
        if re.search(r"black and white|monochrome|noir", template["description"], re.IGNORECASE):
            assert monochrome, template["id"]


def test_the_flux_text_and_prompt_keep_the_attire(templates: list[dict[str, Any]]) -> None:
    attire = re.compile(rf"\b({ATTIRE})\b", re.IGNORECASE)
    suits = 0
    for template in templates:
        asked = {word.lower() for word in attire.findall(template["prompt"])}
        assert asked, f"{template['id']}'s prompt names no attire"
        described = {word.lower() for word in attire.findall(template["flux_description"])}
        assert asked & described, f"{template['id']}: the flux text drops the prompt's attire {sorted(asked)}"
        suits += "suit" in asked
    assert suits >= 18
