"""A copy's file → the engine's catalogue: values checked at their JSON paths, defaults added."""

from __future__ import annotations

import json

import pytest

from station.catalogue.copy import check_playable
from station.copies import read_copy, station_catalogues
from station.errors import InputError
from station.jsonin import Node


@pytest.mark.parametrize(("game", "document", "message"), [
    ("moving-day", {"boxes": [{"tag": 60, "type": "a", "colour": "b", "fragile": False,
                               "weight": 8, "points": 1}]}, "$.boxes[0].weight: must be 1..7"),
    ("moving-day", {"boxes": [{"tag": 60}]}, "$.boxes[0]: missing field 'type'"),
    ("removal", {"items": [{"tag": 50, "shape": ["#"]}, {"tag": 50, "shape": ["#"]}]},
     "$.items[1].tag: tag 50 is already on $.items[0]"),
    ("removal", {"items": [{"tag": 50, "shape": ["#.", ".#"]}]}, "$.items[0].shape: must be one"),
    ("removal", {"items": [{"tag": 50, "shape": ["#"], "symbol": "cat"}]},
     "$.items[0].symbol: must be one of"),
    ("removal", {"items": [{"shape": ["#"]}]}, "$.items[0]: give the piece an 'id' or a 'tag'"),
    ("removal", {"items": [{"tag": 50, "shape": ["#"]}], "boxes": [{"tag": 51, "shape": ["#"]}]},
     "$.boxes[0]: missing field 'value'"),
    ("pick-n-packers", {"shop_cards": [{"tag": 60, "number": 1}, {"tag": 61, "number": 1}]},
     "$.shop_cards[1].number: 1 is already the number of $.shop_cards[0]"),
    ("small-warehouse", {"game": "removal", "cards": []},
     "$.game: this is a catalogue of 'removal', not of 'small-warehouse'"),
])
def test_bad_values_are_refused_at_their_place(game, document, message):
    with pytest.raises(InputError) as refused:
        read_copy(game, Node(document))
    assert str(refused.value).startswith(message)


def test_a_removal_copy_is_completed_from_the_defaults():
    copy = read_copy("removal", Node({"items": [
        {"tag": 50 + n, "shape": ["##"], "name": f"thing {n}"} for n in range(30)] + [
        {"tag": 99, "shape": ["#"], "value": 2}]}))
    assert [item["id"] for item in copy["items"][:2]] == ["T50", "T51"]
    assert copy["boxes"] == [{"id": "T99", "tag": 99, "shape": ["#"], "value": 2}]
    assert len(copy["trucks"]) == 4 and "house" in copy
    check_playable("removal", copy, 4)


def test_the_station_finds_copies_in_its_data_folder(tmp_path, write_json):
    folder = tmp_path / "catalogues"
    folder.mkdir()
    (folder / "small-warehouse.json").write_text(json.dumps(
        {"cards": [{"id": f"c{n}", "squares": ["AB", "C#"]} for n in range(9)]}))
    given = write_json({"boxes": [{"tag": 60 + n, "type": "t", "colour": "c", "fragile": False,
                                   "weight": 2, "points": 1} for n in range(40)]})
    found = station_catalogues(folder, {"moving-day": str(given)})
    assert sorted(found) == ["moving-day", "small-warehouse"]
    (folder / "removal.json").write_text("{}")
    with pytest.raises(InputError, match=r"removal.json: \$: missing field 'items'"):
        station_catalogues(folder, {})
