"""``station.tags``: deterministic tag ids for the catalogue pieces."""

from __future__ import annotations

import pytest

from station.errors import InputError
from station.tags import assign_tags, is_chiral, tags_for_game

SMALL = {
    "removal": {"items": [{"id": "I01", "shape": ["##"]}, {"id": "I02", "shape": ["#.", "##"]},
                          {"id": "I03", "shape": ["##.", ".##"]}],
                "boxes": [{"id": "B01", "shape": ["#"]}]},
    "moving-day": {"boxes": [{"id": "box-01"}, {"id": "box-02"}]},
    "pick-n-packers": {"shop_cards": [{"id": f"shop-{n}"} for n in range(9)]},
}


def test_ids_are_deterministic_and_in_range() -> None:
    tags = assign_tags(SMALL)
    assert tags == assign_tags(SMALL)
    assert min(tags) == 50 and max(tags) <= 249
    assert [tags[i]["piece"] for i in range(50, 54)] == ["I01", "I02", "I03", "B01"]
    assert tags[54] == {"game": "moving-day", "kind": "boxes", "piece": "box-01", "face": "front"}
    assert tags[65]["piece"] == "drone"
    assert tags[66] == {"game": "removal", "kind": "items", "piece": "I03", "face": "back"}
    assert len(tags) == 17


def test_chirality() -> None:
    assert is_chiral(["##.", ".##"])
    assert not is_chiral(["#.", "##"])
    assert not is_chiral(["###"])


def test_repeated_ids_and_too_many_pieces_are_refused() -> None:
    with pytest.raises(InputError, match="repeats"):
        assign_tags({"moving-day": {"boxes": [{"id": "x"}, {"id": "x"}]}})
    with pytest.raises(InputError, match="200"):
        assign_tags({"moving-day": {"boxes": [{"id": str(n)} for n in range(201)]}})


def test_per_game_mapping_for_the_readers() -> None:
    mapping = tags_for_game(assign_tags(SMALL), "pick-n-packers")
    assert mapping[65] == {"piece": "drone", "face": "front"}
    assert all(entry["piece"].startswith(("shop-", "drone")) for entry in mapping.values())


def test_default_catalogues_fit() -> None:
    catalogue = pytest.importorskip("rules.catalogue")
    try:
        catalogue.default_catalogue("removal")
    except FileNotFoundError:
        pytest.skip("the default catalogues are not written yet")
    from station.tags import default_tags

    tags = default_tags()
    assert min(tags) >= 50 and max(tags) <= 249
