"""A player's code for a game: made when the seats are known, one per player and game, checked
as typed (any case, spaces, dashes), another player's refused."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from station.store import Database
from station.store.clock import FixedClock
from station.store.models import MatchCodeRow, MatchRow
from station.tournament import codes, rounds, service
from station.tournament.codes import WrongCode, check_code, codes_of


def test_codes_are_random_from_an_alphabet_read_without_doubt() -> None:
    made = {codes.new_code() for _ in range(200)}
    assert len(made) == 200  # no repeats (31⁸ possible)
    assert all(len(code) == codes.CODE_LENGTH for code in made)
    assert not set("".join(made)) & set("01OIL")


def test_each_player_of_a_game_gets_a_code_when_the_seats_are_known(database: Database) -> None:
    with database.session() as session:
        service.create_tournament(session, FixedClock(), "Cup", players=["Ana", "Ben", "Cas"])
        by_hand = service.add_match(session, "cup", 1, ["Ana", "Ben"])
        paired = rounds.pair_next_round(session, None, "cup", "small-warehouse", None, "o",
                                        force=True)
        stored = {(row.match_id, row.player) for row in session.scalars(select(MatchCodeRow))}
    [game], [bye] = paired["games"], paired["byes"]
    assert stored == {(by_hand["id"], "Ana"), (by_hand["id"], "Ben"),
                      *((game["id"], player) for player in game["players"])}  # a bye: none
    assert bye not in game["players"]


def test_a_code_is_checked_as_typed_and_only_for_its_player(database: Database) -> None:
    with database.session() as session:
        service.create_tournament(session, FixedClock(), "Cup", players=["Ana", "Ben"])
        game = session.get(MatchRow, service.add_match(session, "cup", 1, ["Ana", "Ben"])["id"])
        shown = codes_of(session, game)
        assert codes_of(session, game) == shown  # made once, read again
        check_code(session, game, "Ana", f"  {shown['Ana'].lower()} ")
        check_code(session, game, "Ana", shown["Ana"].replace("-", ""))
        for player, code in [("Ben", shown["Ana"]), ("Ana", ""), ("Ana", "ÄBCD-EFGH"),
                             ("Zed", shown["Ana"])]:
            with pytest.raises(WrongCode, match=f"not {player}'s code for game {game.id}"):
                check_code(session, game, player, code)


def test_a_game_made_before_codes_existed_gets_them_when_the_organiser_asks(
        database: Database) -> None:
    with database.session() as session:
        service.create_tournament(session, FixedClock(), "Cup", players=["Ana", "Ben"])
        old = MatchRow(tournament_id="cup", round=1, players=["Ben", "Ana"])
        session.add(old)
        session.flush()
        with pytest.raises(WrongCode):
            check_code(session, old, "Ana", "ABCD-EFGH")
        assert list(codes_of(session, old)) == ["Ben", "Ana"]  # in seat order
