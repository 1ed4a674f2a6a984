"""Glare: a lamp's light added to a card may fake a lighter class; such cells are ``?``."""

from __future__ import annotations

import numpy as np

from vision.cells import from_linear, glare_hidden, glare_suspects, to_linear
from vision.layout import CLASS_COLOURS

SIDE = 10
LOOKS = {name: np.array([rgb], np.float32) for name, rgb in CLASS_COLOURS.items()}


def _cell(rgb, added=0.0) -> np.ndarray:
    """SIDE×SIDE pixels of a printed colour with ``added`` light (linear, scalar or SIDE×SIDE)."""
    linear = to_linear(np.array(rgb, np.float32))[None, None] + np.asarray(added)[..., None]
    return np.broadcast_to(from_linear(linear), (SIDE, SIDE, 3)).reshape(-1, 3)


def _row(*cells: np.ndarray) -> np.ndarray:
    return np.stack(cells)[None].astype(np.float32)


WASHED = np.array([[True, False, False]])
WHITE_OUT = _cell((245, 245, 245), 0.3)


def test_only_classes_a_brighter_darker_card_can_fake_are_suspects() -> None:
    assert glare_suspects("tags") == {"."}
    assert "." in glare_suspects("colour")
    assert not {"#", "A", "B", "C"} & glare_suspects("colour")


def test_an_evenly_brightened_card_beside_glare_keeps_its_class() -> None:
    pixels = _row(WHITE_OUT, _cell(CLASS_COLOURS["."], 0.06), _cell(CLASS_COLOURS["A"], 0.06))
    labels = np.array([["?", ".", "A"]])
    assert not glare_hidden(labels, pixels, WASHED, "colour", LOOKS).any()


def test_a_dark_card_under_a_steep_glare_passing_for_empty_is_unknown() -> None:
    ramp = np.linspace(0.45, 0.72, SIDE)[None].repeat(SIDE, 0)   # the glare's falling edge
    faked = _cell(CLASS_COLOURS["#"], ramp)
    labels = np.array([["?", ".", "."]])
    hidden = glare_hidden(labels, _row(WHITE_OUT, faked, _cell(CLASS_COLOURS["."])), WASHED,
                          "tags", {".": LOOKS["."]})
    assert hidden.tolist() == [[False, True, False]]


def test_a_tinted_grey_on_a_colour_mat_is_unknown_even_with_nothing_washed_out() -> None:
    tinted = _cell((200, 200, 170))          # a washed-out yellow card: greyish, not neutral
    labels = np.array([[".", ".", "."]])
    pixels = _row(_cell(CLASS_COLOURS["."]), tinted, _cell(CLASS_COLOURS["."], 0.03))
    hidden = glare_hidden(labels, pixels, np.zeros((1, 3), bool), "colour", LOOKS)
    assert hidden.tolist() == [[False, True, False]]


def test_a_pale_striped_piece_washed_to_grey_is_unknown_a_plain_brighter_grey_is_empty() -> None:
    from dataclasses import replace

    from vision.cells import classify_cells, patterned_grey
    from vision.config import DEFAULT_CONFIG
    from vision.layout import WHITE, MatSpec

    spec, ppc = MatSpec(0, 1, 3, "tags"), 16
    flat = np.full((3 * ppc, 5 * ppc, 3), WHITE, np.float32)
    flat[ppc:2 * ppc, ppc:2 * ppc] = CLASS_COLOURS["."]
    flat[ppc:2 * ppc, 2 * ppc:3 * ppc] = np.array(CLASS_COLOURS["."]) * 1.08  # mild glare
    for x in range(ppc):  # pink and green stripes averaging to a near-neutral light grey
        flat[ppc:2 * ppc, 3 * ppc + x] = (228, 196, 212) if (x // 3) % 2 else (192, 224, 200)
    image = flat.astype(np.uint8)
    ignoring = replace(DEFAULT_CONFIG, empty_max_pattern=1e9)
    assert classify_cells(image, spec, ppc, ignoring) == ["..."]  # the stripes pass as grey
    assert classify_cells(image, spec, ppc) == ["..?"]
    plain = np.full((1, 2, 36, 3), 205.0, np.float32)
    plain[0, 1] += np.random.default_rng(0).normal(0, 3, (36, 3))  # sensor noise is no pattern
    assert not patterned_grey(np.array([[".", "."]]), plain).any()


def test_a_dark_card_under_a_glare_blob_centred_on_it_is_unknown() -> None:
    yy, xx = np.mgrid[0:SIDE, 0:SIDE] - (SIDE - 1) / 2
    blob = 0.9 * np.exp(-(xx ** 2 + yy ** 2) / (2 * (SIDE / 3) ** 2))  # lights every quarter alike
    centred = _cell(CLASS_COLOURS["#"], blob)
    plain = _cell(CLASS_COLOURS["."], 0.03)  # an even, mild brightening
    labels = np.array([[".", "."]])
    hidden = glare_hidden(labels, _row(centred, plain), np.zeros((1, 2), bool), "colour", LOOKS)
    assert hidden.tolist() == [[True, False]]
