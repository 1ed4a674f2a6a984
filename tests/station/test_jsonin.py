import pytest

from station.errors import InputError
from station.jsonin import Node, load_json_file


def test_paths_name_the_offending_place() -> None:
    doc = Node({"players": [{"player": "Ana"}, {"player": 3}]})
    with pytest.raises(InputError, match=r"^\$\.players\[1\]\.player: must be a string"):
        doc["players"].items()[1]["player"].string()


def test_missing_field_and_range() -> None:
    doc = Node({"a": {"weight": 9}})
    with pytest.raises(InputError, match=r"^\$\.a: missing field 'b'"):
        doc["a"]["b"]
    with pytest.raises(InputError, match=r"^\$\.a\.weight: must be 1\.\.7$"):
        doc["a"]["weight"].integer(1, 7)


def test_booleans_are_not_numbers() -> None:
    with pytest.raises(InputError, match="whole number"):
        Node(True).integer()


def test_grid_checks_alphabet_and_width() -> None:
    with pytest.raises(InputError, match=r"^\$\[1\]: has 3 cells, the first row 2"):
        Node(["..", "..."]).grid(".#")
    with pytest.raises(InputError, match=r"^\$\[0\]: column 2: 'x'"):
        Node([".x"]).grid(".#")


def test_odd_keys_are_quoted() -> None:
    with pytest.raises(InputError, match=r'^\$\["a b"\]: must be'):
        Node({"a b": 1})["a b"].string()


def test_file_errors_are_one_line(tmp_path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{nope", encoding="utf-8")
    with pytest.raises(InputError, match="invalid JSON at line 1"):
        load_json_file(bad)
    with pytest.raises(InputError, match="no such file"):
        load_json_file(tmp_path / "missing.json")


def test_duplicate_keys_are_refused(tmp_path) -> None:
    twice = tmp_path / "twice.json"
    twice.write_text('{"speculations": {"Cas": 4, "Cas": 5}}', encoding="utf-8")
    with pytest.raises(InputError, match="'Cas' appears twice"):
        load_json_file(twice)


def test_players_are_named_once_each() -> None:
    entries = Node({"p": [{"player": "Ana"}, {"player": "Ben"}]})["p"].players()
    assert [name for name, _ in entries] == ["Ana", "Ben"]
    with pytest.raises(InputError, match=r"^\$\.p\[1\]\.player: player 'Ana' is listed twice"):
        Node({"p": [{"player": "Ana"}, {"player": "Ana"}]})["p"].players()
    with pytest.raises(InputError, match=r"^\$\.p: must have at least 1 entry"):
        Node({"p": []})["p"].players()
