"""``packref catalogue learn|edit|check`` (docs/formats.md §11)."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest

from devkit.station.rehearsal import Rehearsal, laid_card, teach
from station.catalogue.pieces import canonical_card
from vision.layout import MatSpec

CARDS = [["AAC", "DDC"], ["EEE", "AA#"], ["C#A", "CCA"]]


@pytest.fixture(scope="module")
def replay(tmp_path_factory):
    """A short teaching session on disk: three cards, a hand resting over the second."""
    folder = tmp_path_factory.mktemp("replay")
    spec = MatSpec(1, 8, 10, "colour")
    rng = np.random.default_rng(3)
    laid = [laid_card(squares, spec, rng) for squares in CARDS]
    laid[1].hand_held_still = True
    teach(Rehearsal(spec, seed=9), laid, "small-warehouse", folder / "frames")
    mats = folder / "mats.json"
    mats.write_text(json.dumps({"mats": [{"id": 4, "rows": 6, "cols": 5, "kind": "tags"},
                                         {"id": 1, "rows": 8, "cols": 10, "kind": "colour"}]}))
    return folder


def test_learn_writes_the_catalogue_and_a_one_line_summary(cli, replay, tmp_path):
    out = tmp_path / "copy.json"
    result = cli("catalogue", "learn", "small-warehouse", "--replay", replay / "frames",
                 "--mats", replay / "mats.json", "--out", out)
    assert result.status == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["recorded"] == 3 and summary["mat"] == 1 and not summary["interrupted"]
    assert summary["not_recorded"] >= 1
    assert json.loads(out.read_text()) == {"game": "small-warehouse", "cards": [
        {"id": f"c0{index + 1}", "squares": canonical_card(squares)}
        for index, squares in enumerate(CARDS)]}
    assert "card 3 recorded" in result.stderr
    assert "lay it again" in result.stderr


def test_ctrl_c_writes_what_was_recorded(cli, replay, tmp_path, monkeypatch):
    import vision.stability

    real_watch = vision.stability.watch

    def stopped(*args, **kwargs):
        # Ctrl-C right after the first reading that shows a card whole (it is recorded)
        card_seen = False
        for reading in real_watch(*args, **kwargs):
            if card_seen:
                raise KeyboardInterrupt
            cells = "".join(next(m for m in reading["mats"] if m.get("found"))["cells"])
            card_seen = "?" not in cells and cells.strip(".") != ""
            yield reading

    monkeypatch.setattr(vision.stability, "watch", stopped)
    out = tmp_path / "copy.json"
    result = cli("catalogue", "learn", "small-warehouse", "--replay", replay / "frames",
                 "--mats", replay / "mats.json", "--out", out)
    assert result.status == 0, result.stderr
    assert json.loads(result.stdout)["interrupted"] is True
    assert len(json.loads(out.read_text())["cards"]) == 1
    assert not [path for path in tmp_path.iterdir() if path.name != "copy.json"]


@pytest.mark.parametrize(("extra", "starts"), [
    (["--mat", "4"], "--mat: small-warehouse is taught on a colour mat"),
    (["--mat", "9"], "--mat: mat 9 is not in MATS.json"),
    (["--stable", "0"], "--stable: must be at least 1"),
])
def test_learn_bad_input(cli, replay, tmp_path, extra, starts):
    result = cli("catalogue", "learn", "small-warehouse", "--replay", replay / "frames",
                 "--mats", replay / "mats.json", "--out", tmp_path / "x.json", *extra)
    result.assert_bad_input(starts)
    assert not (tmp_path / "x.json").exists()


def test_learn_without_a_tags_mat(cli, replay, tmp_path, write_json):
    mats = write_json({"mats": [{"id": 1, "rows": 8, "cols": 10, "kind": "colour"}]})
    result = cli("catalogue", "learn", "removal", "--replay", replay / "frames",
                 "--mats", mats, "--out", tmp_path / "x.json")
    result.assert_bad_input("--mats: removal is taught on a tags mat")


def test_learn_from_a_missing_replay(cli, replay, tmp_path):
    result = cli("catalogue", "learn", "small-warehouse", "--replay", tmp_path / "none",
                 "--mats", replay / "mats.json", "--out", tmp_path / "x.json")
    result.assert_bad_input()
    assert not (tmp_path / "x.json").exists()


def _feed(monkeypatch, text):
    import sys

    monkeypatch.setattr(sys, "stdin", io.StringIO(text))


BOXES = {"game": "moving-day", "boxes": [{"tag": 60 + index} for index in range(40)]}


def test_edit_asks_each_box_and_rechecks_a_bad_value(cli, write_json, monkeypatch):
    path = write_json(BOXES)
    answers = "".join(f"books\nred\n{'yes' if index % 3 == 0 else 'no'}\n{index % 7 + 1}\n"
                      f"{index % 3 + 1}\n" for index in range(40))
    _feed(monkeypatch, answers.replace("books\nred\nyes\n1\n", "books\nred\nyes\n9\n1\n", 1))
    result = cli("catalogue", "edit", "moving-day", path)
    assert result.status == 0, result.stderr
    assert "$.boxes[0].weight: must be 1..7" in result.stderr.splitlines()
    saved = json.loads(path.read_text())
    assert saved["boxes"][0] == {"tag": 60, "type": "books", "colour": "red", "fragile": True,
                                 "weight": 1, "points": 1}
    assert json.loads(result.stdout) == {"game": "moving-day", "file": str(path),
                                         "answered": 200, "playable": True}


def test_edit_keeps_the_answers_when_stdin_ends_early(cli, write_json, monkeypatch):
    path = write_json(BOXES)
    _feed(monkeypatch, "books\nred\nno\n3\n2\nlamps\n")
    result = cli("catalogue", "edit", "moving-day", path)
    assert result.status == 2 and result.stdout == ""
    assert result.stderr.splitlines()[-1] == (
        f"{path}: 6 answers saved, but $.boxes[1]: missing field 'colour'")
    assert json.loads(path.read_text())["boxes"][1] == {"tag": 61, "type": "lamps"}


def test_edit_names_removal_items_and_marks_boxes(cli, write_json, monkeypatch):
    items = [{"tag": 50 + index, "shape": ["##", "#."] if index % 2 else ["#"]}
             for index in range(30)]
    path = write_json({"game": "removal", "items": items})
    answers = "".join(f"thing {index}\n{'yes' if index < 5 else ''}\n\n\n"
                      f"{'2 -2' if index == 7 else ''}\nhat\n{'1' if index == 9 else ''}\n"
                      for index in range(30))
    _feed(monkeypatch, answers.replace("2 -2", "2 0\n2 -2", 1).replace("hat\n", "cat\nhat\n", 1))
    result = cli("catalogue", "edit", "removal", path)
    assert result.status == 0, result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("$.")]
    assert errors == ["$.items[0].symbol: must be one of \"block-stack\", \"pipe\", \"glasses\", "
                      "\"yarn\", \"hat\", \"graduation-cap\", \"doll\", \"toy-train\", "
                      "\"pacifier\", \"paw\"", "$.items[7].delicate[1]: must be -9..-1"]
    saved = json.loads(path.read_text())["items"]
    assert saved[0] == {"tag": 50, "shape": ["#"], "name": "thing 0", "heavy": True,
                        "symbol": "hat"}
    assert saved[7]["delicate"] == [2, -2] and saved[9]["value"] == 1


def test_check_refuses_a_deck_too_small_to_play(cli, write_json):
    path = write_json({"game": "small-warehouse", "cards": [{"id": "c1", "squares": ["AB"]}]})
    cli("catalogue", "check", "small-warehouse", path).assert_bad_input(
        f"{path}: small-warehouse cannot be played with this catalogue by 2 players: "
        "small-warehouse needs at least 7 cards, not 1")


def test_check_refuses_an_item_that_fits_no_truck(cli, write_json):
    path = write_json({"game": "removal", "items": [{"tag": 50, "shape": ["#########"]}]})
    cli("catalogue", "check", "removal", path).assert_bad_input(
        f"{path}: $.items[0].shape: fits in no truck")


def test_check_counts_a_playable_copy(cli, write_json):
    from rules.catalogue import default_catalogue

    path = write_json(default_catalogue("small-warehouse"))
    result = cli("catalogue", "check", "small-warehouse", path)
    assert json.loads(result.stdout) == {"game": "small-warehouse", "file": str(path),
                                         "playable": True, "cards": 20}


def _learnt_removal():
    """A copy as learnt (tag and shape) and edited (a name, some values) for Removal."""
    from rules.catalogue import default_catalogue

    items = default_catalogue("removal")["items"][:40]
    return {"game": "removal", "items": [
        {"tag": 200 - index, "shape": item["shape"], "name": f"my {item['name']}",
         **{key: item[key] for key in ("heavy", "delicate", "symbol") if key in item}}
        for index, item in enumerate(items)]}


def test_simulate_plays_a_copy(cli, write_json):
    path = write_json(_learnt_removal())
    result = cli("simulate", "removal", "--players", "3", "--seed", "4", "--games", "2",
                 "--catalogue", path)
    assert result.status == 0, result.stderr
    assert [line["seed"] for line in result.json_lines()] == [4, 5]


def test_simulate_refuses_a_copy_the_engine_cannot_play(cli, write_json):
    path = write_json({"game": "small-warehouse", "cards": [{"id": "c1", "squares": ["AB"]}]})
    cli("simulate", "small-warehouse", "--players", "2", "--seed", "1", "--catalogue",
        path).assert_bad_input(f"{path}: small-warehouse cannot be played")


def test_a_table_game_keeps_its_copy_and_replays_without_the_file(cli, write_json, tmp_path):
    from station.cli.table import open_station
    from station.live.camera import table_layout

    path = write_json(_learnt_removal())
    data = tmp_path / "data"
    result = cli("table", "add", "Table 1", "--game", "removal", "--players", "Ana,Ben",
                 "--seed", "3", "--catalogue", path, "--data", data)
    assert result.status == 0, result.stderr
    path.unlink()  # months later: the file is gone
    events = cli("table", "events", "table-1", "--data", data).json_lines()
    game = next(event for event in events if event["kind"] == "game")
    assert game["catalogue"]["items"][0]["name"] == "my piano"
    station = open_station(type("A", (), {"data": str(data), "db": None})())
    state = station.table("table-1").current.state
    assert {item["id"] for item in state.setup["catalogue"]["items"]} == {
        f"T{200 - index}" for index in range(40)}
    _, layout = table_layout(station, "table-1")
    assert layout.tags[200] == {"piece": "T200", "face": "front"}
    assert layout.shapes["T200"] == ["##", "##"]


def test_table_add_refuses_a_copy_too_small_for_the_players(cli, write_json, tmp_path):
    path = write_json({"game": "pick-n-packers", "shop_cards": [
        {"tag": 60 + n, "number": n} for n in range(9)], "presents": [
        {"id": f"p{n}", "material": "wood", "mass_g": 5} for n in range(4)]})
    cli("table", "add", "T", "--game", "pick-n-packers", "--players", "Ana,Ben,Cas",
        "--catalogue", path, "--data", tmp_path).assert_bad_input(
        f"{path}: $.presents: must have at least 9 entries")


def test_kit_prints_stickers_for_exactly_the_copys_pieces(cli, write_json, tmp_path):
    path = write_json(_learnt_removal())
    result = cli("kit", "--out", tmp_path / "kit", "--catalogue", path)
    assert result.status == 0, result.stderr
    from station.cli.kit import copies, piece_names, stickers
    from station.tags import assign_tags

    own = copies([str(path)])
    tags = assign_tags(own)
    labels = {sticker.tag_id: sticker.label
              for sticker in stickers(tags, 20, 20, 70, piece_names(own))}
    assert labels[200] == "removal my piano"
    assert {tag for tag in range(161, 201)} <= set(labels)
    assert json.loads(result.stdout)["tags"] == len(tags)  # 40 items, default boxes, backs
