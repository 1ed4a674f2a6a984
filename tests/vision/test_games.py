"""The per-game readers on the committed game photos."""

from __future__ import annotations

from tests.vision.helpers import FIXTURES, load_truth, specs_of
from vision.games.moving_day import read_vehicles
from vision.games.pick_n_packers import read_shop
from vision.games.removal import footprint, read_truck
from vision.games.small_warehouse import read_warehouses
from vision.reader import Reader

GAMES = FIXTURES / "games"


def observe(name: str) -> tuple[dict, list[dict]]:
    image = GAMES / f"{name}.jpg"
    truth = load_truth(image)
    return truth, Reader(specs_of(truth)).read_file(image)["mats"]


def agrees(seen: list[str], truth: list[str]) -> bool:
    return all(s in ("?", t) for s_row, t_row in zip(seen, truth, strict=True)
               for s, t in zip(s_row, t_row, strict=True))


def test_small_warehouse_grids() -> None:
    truth, mats = observe("small-warehouse")
    warehouses = read_warehouses(mats, {"Ana": 0, "Ben": 1, "Cy": 9})
    assert [w["player"] for w in warehouses] == ["Ana", "Ben", "Cy"]
    assert warehouses[2] == {"player": "Cy", "found": False}
    for warehouse, mat in zip(warehouses[:2], truth["mats"], strict=True):
        assert agrees(warehouse["grid"], mat["cells"])
        assert warehouse["complete"] == (not any("?" in row for row in warehouse["grid"]))
        assert sum(row.count("?") for row in warehouse["grid"]) <= sum(
            row.count("1") for row in mat["covered"]) + 2


def test_moving_day_boxes_per_vehicle() -> None:
    truth, mats = observe("moving-day")
    pieces = {tag_id: f"box-{tag_id - 119:02d}" for tag_id in range(120, 126)}
    vehicles = read_vehicles(mats, {"Ana": {"scooter": 2, "car": 3, "truck": 4}}, pieces)
    assert [v["vehicle"] for v in vehicles[0]["vehicles"]] == ["scooter", "car", "truck"]
    for vehicle, mat in zip(vehicles[0]["vehicles"], truth["mats"], strict=True):
        every = {(f"box-{t['id'] - 119:02d}", t["row"], t["col"], t["rotation"])
                 for t in mat["tags"]}
        visible = {(f"box-{t['id'] - 119:02d}", t["row"], t["col"], t["rotation"])
                   for t in mat["tags"] if not t["covered"]}
        seen = {(b["box"], b["row"], b["col"], b["rotation"]) for b in vehicle["boxes"]}
        assert visible <= seen <= every
        assert vehicle["unknown_tags"] == []


def test_removal_tiles_with_rotation_flip_and_footprint() -> None:
    truth, mats = observe("removal")
    pieces = {60: {"piece": "I01", "face": "front"}, 61: {"piece": "I02", "face": "front"},
              62: {"piece": "I03", "face": "back"}, 63: {"piece": "B01", "face": "front"}}
    shapes = {"I01": ["##", "##"], "I02": ["###"], "I03": [".#", "##"], "B01": ["##"]}
    truck = read_truck(mats[0], pieces, shapes)
    visible = {t["id"] for t in truth["mats"][0]["tags"] if not t["covered"]}
    every = {pieces[t["id"]]["piece"] for t in truth["mats"][0]["tags"]}
    assert {pieces[t]["piece"] for t in visible} <= {tile["tile"] for tile in truck["tiles"]}
    assert {tile["tile"] for tile in truck["tiles"]} <= every
    by_tile = {tile["tile"]: tile for tile in truck["tiles"]}
    if "I02" in by_tile:
        assert by_tile["I02"]["rotation"] == 180
        assert by_tile["I02"]["cells"] == [[2, 1], [2, 2], [2, 3]]
    if "I03" in by_tile:
        assert by_tile["I03"]["flipped"] is True
    assert truck["consistent"] is True or any("?" in row for row in mats[0]["cells"])


def test_footprint_turns_clockwise_and_mirrors() -> None:
    assert footprint(["##", "#."], 5, 5, 90, False) == [(5, 4), (5, 5), (6, 5)]
    assert footprint(["##", "#."], 5, 5, 0, True) == [(5, 4), (5, 5), (6, 5)]
    assert footprint(["#"], 1, 2, 270, True) == [(1, 2)]


def test_pick_n_packers_layout_and_drone() -> None:
    truth, mats = observe("pick-n-packers")
    pieces = {180 + n: f"shop-{n}" for n in range(9)}
    pieces[200] = "drone"
    previous = [[f"shop-{3 * r + c}" for c in range(3)] for r in range(3)]
    shop = read_shop(mats[0], pieces, previous=previous)
    assert shop["drone"] == {"row": 1, "col": 1, "card": "shop-4"}
    for tag in truth["mats"][0]["tags"]:
        if not tag["covered"] and tag["id"] != 200:
            assert shop["cards"][tag["row"]][tag["col"]] == pieces[tag["id"]]
    assert read_shop({"id": 6, "found": False}, pieces) == {"found": False}
