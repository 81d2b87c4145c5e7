"""A studio look (the contract's StudioParams) as typed values: a template variant's, or one read
from the prompt's words when there is no template; and the small per-image variations that make
the four images of a generation four different shots."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

BACKDROP_KINDS = ("seamless", "office", "bokeh", "textured", "gradient")


@dataclass(frozen=True)
class Look:
    # framing
    head_height: float
    eye_line: float
    offset_x: float
    # backdrop
    backdrop: str
    colors: tuple[tuple[float, float, float], tuple[float, float, float]]  # sRGB 0..1
    vignette: float
    blur: float
    # lighting
    key_side: float
    key_strength: float
    fill_ratio: float
    rim_strength: float
    rim_color: tuple[float, float, float]
    # grade
    temperature: float
    tint: float
    contrast: float
    saturation: float
    fade: float
    monochrome: float
    # retouch
    skin_smoothing: float
    eye_clarity: float


def hex_rgb(value: str) -> tuple[float, float, float]:
    value = value.lstrip("#")
    return (int(value[0:2], 16) / 255.0, int(value[2:4], 16) / 255.0, int(value[4:6], 16) / 255.0)


def from_studio(studio: dict[str, Any]) -> Look:
    """The contract's StudioParams (already validated by the protocol) as a Look."""
    framing, backdrop, lighting = studio["framing"], studio["backdrop"], studio["lighting"]
    grade, retouch = studio["grade"], studio["retouch"]
    kind = str(backdrop["kind"])
    return Look(
        head_height=_clip(framing["head_height"], 0.2, 0.55),
        eye_line=_clip(framing["eye_line"], 0.28, 0.48),
        offset_x=_clip(framing["offset_x"], -0.2, 0.2),
        backdrop=kind if kind in BACKDROP_KINDS else "seamless",
        colors=(hex_rgb(backdrop["colors"][0]), hex_rgb(backdrop["colors"][1])),
        vignette=_clip(backdrop["vignette"], 0, 1),
        blur=_clip(backdrop["blur"], 0, 1),
        key_side=_clip(lighting["key_side"], -1, 1),
        key_strength=_clip(lighting["key_strength"], 0, 1),
        fill_ratio=_clip(lighting["fill_ratio"], 0, 1),
        rim_strength=_clip(lighting["rim_strength"], 0, 1),
        rim_color=hex_rgb(lighting["rim_color"]),
        temperature=_clip(grade["temperature"], -1, 1),
        tint=_clip(grade["tint"], -1, 1),
        contrast=_clip(grade["contrast"], 0.6, 1.5),
        saturation=_clip(grade["saturation"], 0, 1.5),
        fade=_clip(grade["fade"], 0, 0.3),
        monochrome=_clip(grade["monochrome"], 0, 1),
        skin_smoothing=_clip(retouch["skin_smoothing"], 0, 1),
        eye_clarity=_clip(retouch["eye_clarity"], 0, 1),
    )


# The look of a plain "professional headshot": slate-blue seamless paper, soft key from the frame's
# left, a little rim, natural colour.
DEFAULT_STUDIO: dict[str, Any] = {
    "framing": {"head_height": 0.4, "eye_line": 0.38, "offset_x": 0.0},
    "backdrop": {"kind": "seamless", "colors": ["#7b8694", "#323943"], "vignette": 0.35, "blur": 0.5},
    "lighting": {
        "key_side": -0.5,
        "key_strength": 0.55,
        "fill_ratio": 0.55,
        "rim_strength": 0.2,
        "rim_color": "#ffffff",
    },
    "grade": {"temperature": 0.05, "tint": 0.0, "contrast": 1.05, "saturation": 1.0, "fade": 0.0, "monochrome": 0.0},
    "retouch": {"skin_smoothing": 0.35, "eye_clarity": 0.3},
}

BACKDROP_COLOURS: dict[str, tuple[str, str]] = {
    "navy": ("#2a3a5c", "#121a2b"),
    "blue": ("#5f7fa6", "#24344c"),
    "teal": ("#3f7d7f", "#173536"),
    "green": ("#5d7a55", "#22301f"),
    "grey": ("#8a8e93", "#383b3f"),
    "gray": ("#8a8e93", "#383b3f"),
    "white": ("#eeeeec", "#c4c4c2"),
    "light": ("#e3e1dd", "#b3afa8"),
    "black": ("#2a2b2d", "#0b0b0c"),
    "beige": ("#cdbfa8", "#8c7d66"),
    "cream": ("#e6dcc8", "#a99c84"),
    "brown": ("#7a5f48", "#2f231a"),
    "burgundy": ("#6e2c36", "#2a0f14"),
    "red": ("#9b3b3b", "#3d1414"),
    "orange": ("#c98a4b", "#5a3418"),
    "yellow": ("#d8c06a", "#6b5a22"),
    "purple": ("#5d4a7a", "#221a30"),
    "pink": ("#d9a3ad", "#7a4a55"),
    "charcoal": ("#4a4e55", "#1f2125"),
    "slate": ("#5e6b7a", "#262d36"),
    "magenta": ("#a03a7a", "#3a1030"),
    "cyan": ("#3aa7b8", "#0f3a44"),
    "cobalt": ("#2f4fa8", "#101c44"),
}


_WORD = re.compile(r"[a-z&]+")

# The words that name a backdrop for a colour word before them.
BACKDROP_SURFACES = ("background", "backdrop", "wall", "paper", "gradient")

# What a prompt's words change, in order (later rules win). Of the rules sharing a group, only the
# first that matches applies: one setting, one framing.
PROMPT_RULES: tuple[tuple[str | None, tuple[str, ...], dict[str, Any]], ...] = (
    (
        None,
        ("executive", "ceo", "leader", "leadership", "corporate", "business", "formal", "lawyer", "finance"),
        {
            "backdrop.kind": "gradient",
            "backdrop.colors": ["#34405a", "#10141d"],
            "backdrop.vignette": 0.45,
            "framing.head_height": 0.42,
            "framing.eye_line": 0.36,
            "lighting.key_strength": 0.7,
            "lighting.fill_ratio": 0.45,
            "lighting.rim_strength": 0.3,
            "grade.contrast": 1.1,
            "grade.saturation": 0.95,
        },
    ),
    (
        "setting",
        ("office", "workplace", "conference", "boardroom", "coworking", "desk"),
        {
            "backdrop.kind": "office",
            "backdrop.colors": ["#b8b2a8", "#5d6b78"],
            "backdrop.blur": 0.65,
            "backdrop.vignette": 0.25,
            "framing.head_height": 0.36,
            "lighting.key_side": -0.4,
            "lighting.fill_ratio": 0.6,
        },
    ),
    (
        "setting",
        ("outdoor", "outdoors", "outside", "park", "garden", "nature", "street", "natural light", "sunlight", "trees"),
        {
            "backdrop.kind": "bokeh",
            "backdrop.colors": ["#5b7446", "#d4dcae"],
            "backdrop.blur": 0.75,
            "backdrop.vignette": 0.2,
            "framing.head_height": 0.36,
            "lighting.key_side": 0.45,
            "lighting.fill_ratio": 0.7,
            "lighting.rim_strength": 0.35,
            "lighting.rim_color": "#fff1d6",
            "grade.temperature": 0.25,
        },
    ),
    (
        "setting",
        ("creative", "artistic", "artist", "designer", "painterly", "textured", "canvas"),
        {
            "backdrop.kind": "textured",
            "backdrop.colors": ["#6d5c4c", "#2a221c"],
            "backdrop.blur": 0.35,
            "backdrop.vignette": 0.45,
            "lighting.key_side": -0.65,
            "lighting.key_strength": 0.7,
            "lighting.fill_ratio": 0.4,
            "lighting.rim_strength": 0.35,
            "lighting.rim_color": "#ffd7a6",
            "grade.temperature": 0.15,
            "grade.fade": 0.08,
            "grade.saturation": 0.9,
        },
    ),
    ("setting", ("studio", "seamless", "backdrop"), {"backdrop.kind": "seamless"}),
    ("setting", ("gradient",), {"backdrop.kind": "gradient"}),
    (
        None,
        ("dark", "moody", "dramatic", "low key", "low-key", "cinematic", "night"),
        {
            "backdrop.colors": ["#3a3d42", "#0e0f11"],
            "backdrop.vignette": 0.55,
            "lighting.key_strength": 0.85,
            "lighting.fill_ratio": 0.2,
            "lighting.rim_strength": 0.55,
            "grade.contrast": 1.2,
        },
    ),
    (
        None,
        ("bright", "airy", "high key", "high-key", "clean", "minimal", "minimalist"),
        {
            "backdrop.colors": ["#f0efec", "#c9c6c0"],
            "backdrop.vignette": 0.1,
            "lighting.key_strength": 0.4,
            "lighting.fill_ratio": 0.85,
            "lighting.rim_strength": 0.1,
            "grade.contrast": 0.98,
        },
    ),
    (None, ("warm", "golden", "sunset", "cozy", "cosy"), {"grade.temperature": 0.4, "lighting.rim_color": "#ffd9a8"}),
    (None, ("cool", "cold", "blue hour", "icy"), {"grade.temperature": -0.35}),
    (
        None,
        ("black and white", "black & white", "b&w", "monochrome", "grayscale", "greyscale", "noir"),
        {"grade.monochrome": 1.0, "grade.contrast": 1.2},
    ),
    (None, ("vintage", "film", "retro", "matte"), {"grade.fade": 0.12, "grade.saturation": 0.85}),
    (None, ("vibrant", "colorful", "colourful", "bold"), {"grade.saturation": 1.2}),
    (
        None,
        ("neon", "gel", "duotone", "electric"),
        {"lighting.rim_strength": 0.6, "lighting.rim_color": "#6fd6ff", "grade.saturation": 1.25},
    ),
    ("framing", ("close up", "close-up", "closeup", "tight"), {"framing.head_height": 0.5, "framing.eye_line": 0.4}),
    (
        "framing",
        ("half body", "half-body", "waist", "wide", "environmental"),
        {"framing.head_height": 0.28, "framing.eye_line": 0.32},
    ),
    (None, ("natural", "no retouch", "unretouched"), {"retouch.skin_smoothing": 0.15}),
    (None, ("polished", "glamour", "flawless"), {"retouch.skin_smoothing": 0.6, "retouch.eye_clarity": 0.5}),
)


def recognised_words(prompt: str) -> list[str]:
    """The prompt's words this engine renders, in rule order: each matched rule's words (one rule
    per group), then the backdrop colour it names ("navy background")."""
    return _read_prompt(prompt)[0]


def from_prompt(prompt: str, base: dict[str, Any] | None = None) -> Look:
    """A look read from the prompt's words over `base` (a template's StudioParams; a plain studio
    headshot without one): the setting, the mood, the framing, colour words and black and white.
    A prompt that says none of these leaves `base` as it is."""
    studio = _deep_copy(DEFAULT_STUDIO if base is None else base)
    for path, value in _read_prompt(prompt)[1]:
        section, key = path.split(".")
        studio[section][key] = value
    return from_studio(studio)


def _read_prompt(prompt: str) -> tuple[list[str], list[tuple[str, Any]]]:
    """The recognised words and the changes they make, in the order they apply (later win)."""
    text = prompt.lower()
    words = set(re.findall(r"[a-z&]+", text))
    recognised: list[str] = []
    changes: list[tuple[str, Any]] = []
    matched_groups: set[str] = set()
    for group, options, rule_changes in PROMPT_RULES:
        if group in matched_groups:
            continue
        # A single word matches a whole word; a phrase or a hyphenated word ("close-up") anywhere.
        matched = [option for option in options if option in words or (not _WORD.fullmatch(option) and option in text)]
        if matched:
            if group is not None:
                matched_groups.add(group)
            recognised.extend(matched)
            changes.extend(rule_changes.items())
    # An explicit backdrop colour ("on a navy background", "blue backdrop") wins over the mood's.
    for word, colours in BACKDROP_COLOURS.items():
        found = re.search(rf"\b{word}\b[^,.;]{{0,24}}\b({'|'.join(BACKDROP_SURFACES)})\b", text)
        if found:
            recognised.append(found.group(0))
            changes.append(("backdrop.colors", list(colours)))
            break
    return recognised, changes


@dataclass(frozen=True)
class ShotVariation:
    """What makes image k a different shot: its framing jitter and light."""

    zoom: float  # multiplies the head height
    shift_x: float  # added to offset_x (fraction of the frame)
    shift_y: float  # added to the eye line
    key_side: float
    key_strength: float
    fill_ratio: float
    rim_strength: float
    light_x: float  # where the backdrop's light falls, -1 .. 1 (frame left .. right)
    light_y: float


def vary(look: Look, index: int, rng: np.random.Generator) -> tuple[Look, ShotVariation]:
    """Image `index`'s look: the first image keeps close to the template, the others move the
    camera and the key light a little further (still inside the template's character)."""
    spread = 0.5 if index == 0 else 1.0
    zoom = float(np.exp(rng.uniform(-0.09, 0.09) * spread))
    # Alternate the subject left and right of the template's position, a little more each time.
    side = 1.0 if index % 2 else -1.0
    shift_x = float(side * rng.uniform(0.025, 0.055) if index else rng.uniform(-0.015, 0.015))
    shift_y = float(rng.uniform(-0.02, 0.02) * spread)
    key_side = float(np.clip(look.key_side + rng.uniform(-0.3, 0.3) * spread, -1, 1))
    key_strength = float(np.clip(look.key_strength * rng.uniform(0.85, 1.12), 0, 1))
    fill_ratio = float(np.clip(look.fill_ratio + rng.uniform(-0.1, 0.1) * spread, 0, 1))
    rim_strength = float(np.clip(look.rim_strength * rng.uniform(0.8, 1.2), 0, 1))
    variation = ShotVariation(
        zoom=zoom,
        shift_x=shift_x,
        shift_y=shift_y,
        key_side=key_side,
        key_strength=key_strength,
        fill_ratio=fill_ratio,
        rim_strength=rim_strength,
        light_x=float(rng.uniform(-0.6, 0.6)),
        light_y=float(rng.uniform(-0.3, 0.3)),
    )
    varied = replace(
        look,
        head_height=float(np.clip(look.head_height * zoom, 0.2, 0.6)),
        offset_x=float(np.clip(look.offset_x + shift_x, -0.25, 0.25)),
        eye_line=float(np.clip(look.eye_line + shift_y, 0.26, 0.5)),
        key_side=key_side,
        key_strength=key_strength,
        fill_ratio=fill_ratio,
        rim_strength=rim_strength,
    )
    return varied, variation


def _clip(value: Any, low: float, high: float) -> float:
    return float(min(high, max(low, float(value))))


def _deep_copy(value: dict[str, Any]) -> dict[str, Any]:
    return {key: dict(inner) if isinstance(inner, dict) else inner for key, inner in value.items()}
