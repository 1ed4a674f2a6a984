"""The Removal camera referee: seeded games seen by the camera, and its refusals.

Observations are made the way the station makes them: the truck's tags mat as
``vision read`` returns it (each tile's tag on its shape's first square, its
back tag when flipped), put through ``vision.games.removal``'s reader, so a
change of the reader's format or of its tag geometry shows up here.
"""

from __future__ import annotations

import doctest
import random
from typing import Any

import pytest

import rules.games.removal.referee as referee_module
from rules import AmbiguousReading, IllegalAction, State, get_game
from rules.games.removal.referee import Referee, tag_square
from rules.games.removal.truck import NO_CONTACT, oriented_cells
from tests.rules.games.removal.test_hand_dealt_removal import tags_mat
from vision.games.removal import footprint, read_truck

PLAYERS = ["Ana", "Ben"]


def tag_pieces(state: State) -> dict[int, dict[str, str]]:
    """Two tags per tile: the front, and the back seen when it lies flipped."""
    pieces = {}
    for number, tile in enumerate(sorted(state.specs)):
        pieces[200 + 2 * number] = {"piece": tile, "face": "front"}
        pieces[201 + 2 * number] = {"piece": tile, "face": "back"}
    return pieces


def truck_mat(state: State, player: int, records: list[dict[str, Any]]) -> dict[str, Any]:
    """The truck's tags mat with these tiles on it, drawn from the tile's own sticker rule;
    a tag that a later tile covers (Helper 3 lets tiles overlap) is not seen."""
    tags = {(entry["piece"], entry["face"]): tag for tag, entry in tag_pieces(state).items()}
    layouts = state.setup["catalogue"]["trucks"]
    shapes = {record["item"]: list(state.specs[record["item"]].shape) for record in records}
    return tags_mat(layouts[player % len(layouts)], records, shapes, tags, 9)


def seen_by_camera(state: State, player: int, records: list[dict[str, Any]] | None = None,
                   **extra: Any) -> dict[str, Any]:
    """The observation of ``player``'s truck (its tiles in ``state`` unless ``records``)."""
    if records is None:
        records = state.data["players"][player]["truck"]
    shapes = {tile: list(spec.shape) for tile, spec in state.specs.items()}
    truck = read_truck(truck_mat(state, player, records), tag_pieces(state), shapes)
    assert truck["consistent"]
    return {"kind": "truck", "player": state.players[player], **truck, **extra}


def seen_trucks(state: State, records: dict[int, list[dict[str, Any]]] | None = None,
                **extra: Any) -> dict[str, Any]:
    """The camera's reading of every truck at once (``station.games.removal.camera``'s):
    each player's tiles in ``state``, unless ``records`` gives them."""
    trucks = []
    for player in range(len(state.players)):
        seen = seen_by_camera(state, player, (records or {}).get(player))
        trucks.append({key: value for key, value in seen.items() if key != "kind"})
    return {"kind": "trucks", "trucks": trucks, **extra}


def truck_after(before: State, after: State, player: int,
                action: dict[str, Any]) -> list[dict[str, Any]]:
    """The tiles a camera sees after ``action``: the engine's, or (once the game has ended and
    the final drive emptied the trucks) the ones before plus the tile just loaded."""
    if not after.is_over():
        return after.data["players"][player]["truck"]
    records = list(before.data["players"][player]["truck"])
    if action["type"] in ("load", "load-stored"):
        item = action.get("item", before.data["players"][player]["storage"])
        records.append({key: action[key] for key in ("row", "col", "rotation", "flip")}
                       | {"item": item})
    return [] if action["type"] == "drive" else records


def play_seen_by_camera(seed: int) -> int:
    """Play a seeded random game; the referee, fed the camera's views, must play it too.
    Returns how many times a tile was in the truck but its tag hidden under another."""
    rng = random.Random(seed)
    game = get_game("removal")
    played = game.new_game(PLAYERS, seed=seed)
    refereed = game.new_game(PLAYERS, seed=seed)
    referee = Referee()
    kinds, hidden = set(), 0
    while not played.is_over():
        before = played.clone()
        player = played.current_player()
        action = rng.choice(played.legal_actions())
        kinds.add(action["type"])
        played.apply(action)
        observation = seen_by_camera(
            played, player, truck_after(before, played, player, action),
            helpers=action["helpers"], storage=played.data["players"][player]["storage"])
        hidden += len(truck_after(before, played, player, action)) - len(observation["tiles"])
        untouched = refereed.to_json()
        read = referee.translate(refereed, observation)
        assert refereed.to_json() == untouched  # translate never changes the state
        assert read == [action]
        refereed.apply(read[0])
        if not refereed.is_over():
            assert referee.translate(refereed, observation) == []
    assert refereed == played
    assert kinds == {"load", "store", "load-stored", "drive"}
    return hidden


@pytest.mark.parametrize(("seed", "tags_hidden"), [(1, False), (2, False), (8, True)])
def test_a_seeded_game_seen_by_the_camera_is_the_game_played(seed: int,
                                                             tags_hidden: bool) -> None:
    assert (play_seen_by_camera(seed) > 0) == tags_hidden


def test_two_tiles_seen_at_once_are_a_load_and_its_extra_action() -> None:
    rng = random.Random(11)
    state = get_game("removal").new_game(PLAYERS, seed=11)
    while True:
        before, player = state.clone(), state.current_player()
        first = rng.choice(state.legal_actions())
        state.apply(first)
        if first["type"] == "load" and state.data["extra_action"]:
            second = next(a for a in state.legal_actions()
                          if a["type"] == "load" and not a["helpers"])
            state.apply(second)
            break
    seen = seen_by_camera(state, player, helpers=first["helpers"])
    read = Referee().translate(before, seen)
    assert read == [first, second]


def dealt_with(placed: dict[tuple[int, int], str]) -> State:
    """A two-player game dealt by hand with these items at these house areas (the rest in
    catalogue order), its deal read."""
    state = get_game("removal").new_game(PLAYERS, deal="table")
    catalogue = state.setup["catalogue"]
    items = [item["id"] for item in catalogue["items"] if item["id"] not in placed.values()]
    boxes = [box["id"] for box in catalogue["boxes"]]
    house = [list(line) for line in state.data["house"]]
    for row, line in enumerate(house):
        for col, tile in enumerate(line):
            if tile == "?":
                house[row][col] = placed.get((row, col)) or (
                    boxes if state.layout[row][col] == "B" else items).pop(0)
    waiting = [items.pop(0) for _ in state.data["waiting"]]
    for reveal in Referee().translate(state, {"kind": "house", "house": house,
                                              "waiting": waiting}):
        state.apply(reveal)
    return state


def load(item: str, row: int, col: int, rotation: int = 0) -> dict[str, Any]:
    return {"type": "load", "item": item, "row": row, "col": col, "rotation": rotation,
            "flip": False}


def test_two_tiles_whose_order_changes_the_damage_are_asked_about_not_guessed() -> None:
    # Ana's truck holds the backpack I47 (doll). The hamster cage I17 (doll, delicate 2/-2)
    # and the shelf I57 (doll) then appear together: the shelf lies across the backpack and
    # the cage. Laid first, the cage carries most of the shelf and is damaged; laid after,
    # it slid in under the shelf's overhang and nothing damages it. Either tile pairs with
    # the backpack for the extra action, so the engine accepts both orders.
    state = dealt_with({(4, 1): "I47", (4, 2): "I17", (4, 3): "I57", (3, 0): "I48"})
    state.apply(load("I47", 5, 2))
    state.apply(next(a for a in state.legal_actions() if a.get("item") == "I48"))  # Ben
    cage, shelf = load("I17", 5, 3), load("I57", 4, 2, rotation=90)
    records = [*state.data["players"][0]["truck"],
               *({key: step[key] for key in ("item", "row", "col", "rotation", "flip")}
                 for step in (cage, shelf))]
    before = state.to_json()
    with pytest.raises(AmbiguousReading) as asked:
        Referee().translate(state, seen_by_camera(state, 0, records))
    assert state.to_json() == before  # nothing applied
    first, second = asked.value.readings
    assert first.actions == [dict(cage, helpers=[]), dict(shelf, helpers=[])]
    assert second.actions == [dict(shelf, helpers=[]), dict(cage, helpers=[])]
    assert first.text == "I17 first, then I57 (I57 damages I17, a drive now scores -4)"
    assert second.text == "I57 first, then I17 (no damage, a drive now scores 0)"
    assert asked.value.reason == (
        "the camera cannot tell in which order Ana loaded I17 and I57: either "
        f"{first.text} or {second.text}; pick one")
    drives = []
    for reading in (first, second):
        picked = state.clone()
        for action in reading.actions:  # a person's pick: the reading's actions in a row
            picked.apply(action)
        drives.append(picked.truck(0).drive_score().total)
    assert drives[1] - drives[0] == 4  # the damage: the cage's +2 becomes -2


def test_a_tag_square_agrees_with_the_readers_footprint() -> None:
    state = get_game("removal").new_game(PLAYERS, seed=1)
    for tile, spec in state.specs.items():
        for rotation in (0, 90, 180, 270):
            for flip in (False, True):
                cells = oriented_cells(spec.shape, rotation, flip)
                row, col = tag_square(spec.shape, 4, 3, rotation, flip)
                seen = footprint(list(spec.shape), row, col, rotation, flip)
                assert seen == sorted((4 + r, 3 + c) for r, c in cells), tile


def first_load(state: State) -> tuple[dict[str, Any], State]:
    load = next(a for a in state.legal_actions() if a["type"] == "load")
    after = state.clone()
    after.apply(load)
    return load, after


def test_nothing_new_other_kinds_and_lost_mats_give_nothing() -> None:
    state = get_game("removal").new_game(PLAYERS, seed=1)
    referee = Referee()
    assert referee.translate(state, seen_by_camera(state, 0)) == []
    assert referee.translate(state, seen_by_camera(state, 1)) == []
    assert referee.translate(state, {"kind": "vehicles", "players": []}) == []
    assert referee.translate(state, {"kind": "truck", "found": False}) == []


def test_an_illegal_placement_is_refused_with_the_engines_reason() -> None:
    state = get_game("removal").new_game(PLAYERS, seed=1)
    load, _ = first_load(state)
    floating = dict(load, row=0, col=3, rotation=0, flip=False)
    with pytest.raises(IllegalAction) as engine:
        state.check(floating)
    assert engine.value.reason == NO_CONTACT
    with pytest.raises(IllegalAction) as refused:
        Referee().translate(state, seen_by_camera(state, 0, [dict(floating)]))
    assert refused.value.reason == NO_CONTACT


def test_a_storage_filled_is_a_store_and_the_stored_item_comes_back_with_load_stored() -> None:
    state = get_game("removal").new_game(PLAYERS, seed=1)
    item = state.available_items()[0]
    referee = Referee()
    stored = referee.translate(state, seen_by_camera(state, 0, storage=item))
    assert stored == [{"type": "store", "item": item, "helpers": []}]
    state.apply(stored[0])
    state.apply(next(a for a in state.legal_actions() if a["type"] == "load"))  # Ben
    comeback = next(a for a in state.legal_actions() if a["type"] == "load-stored")
    record = {key: comeback[key] for key in ("row", "col", "rotation", "flip")} | {"item": item}
    assert referee.translate(state, seen_by_camera(state, 0, [record])) == [comeback]
    state.apply(comeback)
    stale = seen_by_camera(state, 0, [record], storage=item)  # the storage still read as full
    assert referee.translate(state, stale) == []


def test_an_emptied_truck_drives() -> None:
    state = get_game("removal").new_game(PLAYERS, seed=1)
    _, state = first_load(state)
    _, state = first_load(state)  # Ben's
    assert Referee().translate(state, seen_by_camera(state, 0, [])) == [
        {"type": "drive", "helpers": []}]


def test_a_changed_truck_of_the_player_not_to_act_is_refused() -> None:
    state = get_game("removal").new_game(PLAYERS, seed=1)
    _, after = first_load(state)
    with pytest.raises(IllegalAction, match="the truck of Ben changed, but it is Ana's turn"):
        Referee().translate(state, seen_by_camera(after, 0) | {"player": "Ben"})


def test_turns_the_camera_saw_at_once_are_caught_up_in_turn_order() -> None:
    # Ana loads; the camera then misses the state between Ben's turn and Ana's next one.
    state = get_game("removal").new_game(PLAYERS, seed=1)
    ana, after_ana = first_load(state)
    ben, after_ben = first_load(after_ana)
    ana_again, both = first_load(after_ben)
    referee = Referee()
    assert referee.translate(after_ana, seen_trucks(both)) == [ben, ana_again]
    # Ana's truck shows two turns at once, Ben's between them
    assert referee.translate(state, seen_trucks(both)) == [ana, ben, ana_again]
    assert referee.shows_state(both, seen_trucks(both))
    assert not referee.shows_state(after_ana, seen_trucks(both))
    # a reading of Ana's truck alone does not show Ben's turn: it is refused as before
    with pytest.raises(IllegalAction, match="the truck of Ana changed, but it is Ben's turn"):
        referee.translate(after_ana, seen_by_camera(both, 0))


def test_a_change_no_legal_turns_reach_is_refused_as_out_of_turn() -> None:
    state = get_game("removal").new_game(PLAYERS, seed=1)
    _, after_ana = first_load(state)
    _, after_ben = first_load(after_ana)
    ben_only = seen_trucks(state, {1: after_ben.data["players"][1]["truck"]})  # Ana's unseen
    with pytest.raises(IllegalAction, match="the truck of Ben changed, but it is Ana's turn"):
        Referee().translate(state, ben_only)


def test_a_persons_entries_on_a_reading_of_every_truck_are_the_acting_players() -> None:
    state = get_game("removal").new_game(PLAYERS, seed=1)
    item = state.available_items()[0]
    assert Referee().translate(state, seen_trucks(state, storage=item)) == [
        {"type": "store", "item": item, "helpers": []}]


def test_turns_the_camera_missed_that_lead_to_different_states_are_asked_about() -> None:
    # As in the order test above, Ana's cage I17 and shelf I57 (a pair of symbols with the
    # backpack: the extra action) are damaged or not by their order; the camera missed
    # the state after them, and Ben has loaded since.
    state = dealt_with({(4, 1): "I47", (4, 2): "I17", (4, 3): "I57", (3, 0): "I48"})
    state.apply(load("I47", 5, 2))
    state.apply(next(a for a in state.legal_actions() if a.get("item") == "I48"))  # Ben
    cage, shelf = dict(load("I17", 5, 3), helpers=[]), dict(load("I57", 4, 2, 90), helpers=[])
    both = state.clone()
    for action in (cage, shelf):
        both.apply(action)
    ben = next(a for a in both.legal_actions() if a["type"] == "load" and not a["helpers"])
    both.apply(ben)
    before = state.to_json()
    with pytest.raises(AmbiguousReading) as asked:
        Referee().translate(state, seen_trucks(both))
    assert state.to_json() == before  # nothing applied
    first, second = asked.value.readings
    assert first.actions == [cage, shelf, ben] and second.actions == [shelf, cage, ben]
    assert first.text == (f"Ana: I17 first, then I57 (I57 damages I17, a drive now scores -4); "
                          f"then Ben: {ben['item']} (no damage, a drive now scores 0)")
    assert second.text == (f"Ana: I57 first, then I17 (no damage, a drive now scores 0); "
                           f"then Ben: {ben['item']} (no damage, a drive now scores 0)")
    assert asked.value.reason == (
        "the camera cannot tell in which order the tiles were loaded in the turns the camera "
        f"missed: either {first.text} or {second.text}; pick one")
    picked = state.clone()
    for action in second.actions:  # a person's pick: the reading's actions in a row
        picked.apply(action)
    assert picked.truck(0).drive_score().total == 0


def test_a_tile_that_moved_or_left_is_refused() -> None:
    state = get_game("removal").new_game(PLAYERS, seed=1)
    load, after = first_load(state)
    _, after = first_load(after)  # Ben's, so Ana acts again
    moved = dict(after.data["players"][0]["truck"][0])
    moved["col"] += 1
    with pytest.raises(IllegalAction, match=f"{load['item']} moved in the truck of Ana"):
        Referee().translate(after, seen_by_camera(after, 0, [moved]))
    extra = next(a for a in after.legal_actions() if a["type"] == "load")
    record = {key: extra[key] for key in ("item", "row", "col", "rotation", "flip")}
    with pytest.raises(IllegalAction, match=f"{load['item']} is no longer seen in the truck"):
        Referee().translate(after, seen_by_camera(after, 0, [record]))


def test_a_tile_whose_tag_another_tile_covers_may_be_unseen() -> None:
    state = get_game("removal").new_game(PLAYERS, seed=1)
    load, state = first_load(state)
    _, state = first_load(state)  # Ben's, so Ana acts again
    tag = tag_square(state.specs[load["item"]].shape, load["row"], load["col"],
                     load["rotation"], load["flip"])
    over = next(a for a in state.legal_actions() if a["type"] == "load" and 3 in a["helpers"]
                and tag in {(a["row"] + r, a["col"] + c) for r, c in oriented_cells(
                    state.specs[a["item"]].shape, a["rotation"], a["flip"])})
    record = {key: over[key] for key in ("item", "row", "col", "rotation", "flip")}
    read = Referee().translate(state, seen_by_camera(state, 0, [record], helpers=[3]))
    assert read == [over]


def test_unknown_tiles_and_strangers_are_refused() -> None:
    state = get_game("removal").new_game(PLAYERS, seed=1)
    odd = {"kind": "truck", "found": True,
           "tiles": [{"tile": "Z99", "row": 0, "col": 0, "rotation": 0, "flipped": False}]}
    with pytest.raises(IllegalAction, match="a tile 'Z99', which this game has not"):
        Referee().translate(state, odd)
    with pytest.raises(IllegalAction, match="'Cas', who is not playing here"):
        Referee().translate(state, {"kind": "truck", "player": "Cas", "tiles": []})


def test_the_module_examples_run_and_the_referee_reads_well() -> None:
    assert doctest.testmod(referee_module).failed == 0
    assert "removal Referee" in repr(Referee())


# -- a game dealt by hand: the deal read from the house ---------------------------------------
def _dealt_board(state: State, rng: random.Random) -> dict[str, Any]:
    """A reading of a house dealt by hand with ``rng``: every slot the engine waits for."""
    catalogue = state.setup["catalogue"]
    items = [item["id"] for item in catalogue["items"]]
    boxes = [box["id"] for box in catalogue["boxes"]]
    rng.shuffle(items)
    rng.shuffle(boxes)
    house = [[None if tile is None else tile for tile in line] for line in state.data["house"]]
    for row, line in enumerate(house):
        for col, tile in enumerate(line):
            if tile == "?":
                house[row][col] = (boxes if state.layout[row][col] == "B" else items).pop()
    waiting = [items.pop() for _ in state.data["waiting"]]
    return {"kind": "house", "house": house, "waiting": waiting}


def test_a_reading_of_the_house_reveals_the_deal_up_to_the_first_unread_slot() -> None:
    state = get_game("removal").new_game(PLAYERS, deal="table")
    board = _dealt_board(state, random.Random(5))
    covered = [list(line) for line in board["house"]]
    covered[2][0] = "?"  # a hand over one area
    read = Referee().translate(state, {**board, "house": covered})
    assert [(a["row"], a["col"]) for a in read] == [(0, 1), (0, 2), (0, 3), (1, 0), (1, 1),
                                                     (1, 2), (1, 3), (1, 4)]
    for action in read:
        state.apply(action)
    rest = Referee().translate(state, board)
    assert rest[-1] == {"type": "reveal", "zone": "waiting", "slot": 2,
                        "item": board["waiting"][2]}
    for action in rest:
        state.apply(action)
    assert not state.is_chance()
    assert state.data["house"] == board["house"] and state.data["waiting"] == board["waiting"]
    assert Referee().translate(state, board) == []  # a stale reading changes nothing


def test_a_reading_that_names_a_tile_already_out_is_refused() -> None:
    state = get_game("removal").new_game(PLAYERS, deal="table")
    board = _dealt_board(state, random.Random(6))
    board["house"][1][0] = board["house"][0][1]  # the same item read twice
    before = state.to_json()
    with pytest.raises(IllegalAction, match="is already on the table"):
        Referee().translate(state, board)
    assert state.to_json() == before


def test_a_truck_that_changes_before_the_deal_is_read_is_refused() -> None:
    state = get_game("removal").new_game(PLAYERS, deal="table")
    assert Referee().translate(state, {"kind": "truck", "found": True, "tiles": []}) == []
    seen = {"tile": "I48", "row": 5, "col": 3, "rotation": 0, "flipped": False}
    with pytest.raises(IllegalAction, match="deal is not read yet: reveal the house area "
                                            "at row 1, column 2"):
        Referee().translate(state, {"kind": "truck", "found": True, "tiles": [seen]})
