"""Tournament operations on the database, shared by the API and ``packref tournament``.

Every function takes an open session (one transaction: a refused request
leaves nothing half-written) and returns plain JSON-ready values.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from rules import RulesError, get_game
from station.games import game_record
from station.live.station import Station, UnknownTable
from station.store.clock import Clock
from station.store.events import aware, slugify, valid_id
from station.store.models import (
    MatchRow,
    TableRow,
    TournamentGameRow,
    TournamentHintsRow,
    TournamentPlayerRow,
    TournamentRow,
    TournamentRuleRow,
)
from station.tournament import signing, tables, tiebreak
from station.tournament.codes import make_codes
from station.tournament.config import DEFAULT_TIE_BREAKERS
from station.tournament.standings import (
    GameResult,
    Standing,
    check_tie_breakers,
    standings,
    standings_csv,
)


class UnknownTournament(LookupError):
    """No tournament (or no game of it) has that id."""


class TournamentRefusal(ValueError):
    """A request the tournament cannot take: its message says why."""


class TournamentConflict(TournamentRefusal):
    """A request that clashes with what is stored: a player added twice, an id taken."""


def tournament_row(session: Session, tournament_id: str) -> TournamentRow:
    row = session.get(TournamentRow, tournament_id)
    if row is None:
        raise UnknownTournament(f"there is no tournament {tournament_id!r}")
    return row


def player_names(session: Session, tournament_id: str) -> list[str]:
    """Every registered player (late entries and dropped players too), in order of entry."""
    query = (select(TournamentPlayerRow.name)
             .where(TournamentPlayerRow.tournament_id == tournament_id)
             .order_by(TournamentPlayerRow.id))
    return list(session.scalars(query))


def match_rows(session: Session, tournament_id: str) -> list[MatchRow]:
    query = (select(MatchRow).where(MatchRow.tournament_id == tournament_id)
             .order_by(MatchRow.round, MatchRow.id))
    return list(session.scalars(query))


def last_round(session: Session, tournament_id: str) -> int:
    """The number of the latest round with a game (0 before the first)."""
    return max((match.round for match in match_rows(session, tournament_id)), default=0)


def bye_result(player: str) -> dict[str, Any]:
    """A bye: a win, with no points and no opponent."""
    return {"scores": {player: 0}, "winners": [player], "source": "bye", "author": "station"}


def is_bye(match: MatchRow) -> bool:
    return bool(match.result) and match.result.get("source") == "bye"


def match_row(session: Session, tournament_id: str, match_id: int) -> MatchRow:
    row = session.get(MatchRow, match_id)
    if row is None or row.tournament_id != tournament_id:
        raise UnknownTournament(f"tournament {tournament_id!r} has no game {match_id}")
    return row


def game_tie_breakers(game: str | None) -> Sequence[str]:
    """A new tournament's tie-breakers when it names ``game``: its record's, else the
    defaults (no game, or one without a record)."""
    record = game_record(game) if game else None
    return record.tie_breakers if record is not None else DEFAULT_TIE_BREAKERS


def create_tournament(session: Session, clock: Clock, name: str, tournament_id: str | None = None,
                      tie_breakers: Sequence[str] | None = None,
                      players: Sequence[str] = (), game: str | None = None) -> dict[str, Any]:
    """A new tournament, with its players if given; without tie-breakers, those of its
    game (its record's ``tie_breakers``) or the defaults."""
    tournament_id = tournament_id or slugify(name)
    if not valid_id(tournament_id):
        raise TournamentRefusal(f"id {tournament_id!r}: use lower-case letters, digits, dashes")
    if session.get(TournamentRow, tournament_id) is not None:
        raise TournamentConflict(f"there is already a tournament {tournament_id!r}")
    if game is not None:
        game = known_game(game)
    try:
        breakers = check_tie_breakers(list(tie_breakers or game_tie_breakers(game)))
    except ValueError as error:
        raise TournamentRefusal(str(error)) from None
    session.add(TournamentRow(id=tournament_id, name=name, tie_breakers=breakers,
                              created_at=clock.now()))
    session.flush()
    if game is not None:
        session.add(TournamentGameRow(tournament_id=tournament_id, game=game))
    for player in players:
        add_player(session, tournament_id, player)
    return {"id": tournament_id, "name": name, "tie_breakers": breakers, "game": game}


def known_game(game: str) -> str:
    """``game`` if the station referees it (its engine's name), else a refusal."""
    try:
        return get_game(game).name
    except (RulesError, KeyError, ValueError) as error:
        raise TournamentRefusal(str(error).strip("'\"")) from None


def tournament_game(session: Session, tournament_id: str) -> str | None:
    """The game the tournament is played at (None: it names none, e.g. made before games
    were stored with tournaments)."""
    row = session.get(TournamentGameRow, tournament_id)
    return row.game if row is not None else None


def set_tournament_game(session: Session, tournament_id: str, game: str) -> None:
    """Remember ``game`` as the tournament's (its next rounds default to it)."""
    row = session.get(TournamentGameRow, tournament_id)
    if row is None:
        session.add(TournamentGameRow(tournament_id=tournament_id, game=game))
    else:
        row.game = game


def list_tournaments(session: Session) -> list[dict[str, Any]]:
    rows = session.scalars(select(TournamentRow).order_by(TournamentRow.created_at))
    return [{"id": row.id, "name": row.name, "tie_breakers": row.tie_breakers,
             "game": tournament_game(session, row.id),
             "created_at": aware(row.created_at).isoformat()} for row in rows]


def set_tie_breakers(session: Session, tournament_id: str, names: Sequence[str]) -> list[str]:
    row = tournament_row(session, tournament_id)
    try:
        row.tie_breakers = check_tie_breakers(list(names))
    except ValueError as error:
        raise TournamentRefusal(str(error)) from None
    return row.tie_breakers


def add_player(session: Session, tournament_id: str, name: str) -> list[str]:
    """Register a player; returns every player of the tournament."""
    tournament_row(session, tournament_id)
    name = name.strip()
    if not name:
        raise TournamentRefusal("a player needs a name")
    if name in player_names(session, tournament_id):
        raise TournamentConflict(f"{name!r} is already a player")
    session.add(TournamentPlayerRow(tournament_id=tournament_id, name=name))
    session.flush()
    return player_names(session, tournament_id)


def add_match(session: Session, tournament_id: str, round_number: int, players: Sequence[str],
              table_id: str | None = None) -> dict[str, Any]:
    """Add a game to a round: who plays, and at which table if it is played live."""
    tournament_row(session, tournament_id)
    known = set(player_names(session, tournament_id))
    if round_number < 1:
        raise TournamentRefusal("round must be at least 1")
    if len(players) < 1 or len(set(players)) != len(players):
        raise TournamentRefusal("a game needs players, each once")
    strangers = [player for player in players if player not in known]
    if strangers:
        raise TournamentRefusal(f"{strangers[0]!r} is not a player of this tournament")
    if table_id is not None and session.get(TableRow, table_id) is None:
        raise TournamentRefusal(f"there is no table {table_id!r}")
    row = MatchRow(tournament_id=tournament_id, round=round_number, players=list(players),
                   table_id=table_id)
    session.add(row)
    session.flush()
    make_codes(session, row)  # the seats are known: each player gets the code they sign with
    return {"id": row.id, "round": row.round, "players": row.players, "table": row.table_id}


def start_match(session: Session, station: Station, tournament_id: str, match_id: int,
                game: str | None, author: str, seed: int | None = None,
                options: dict[str, Any] | None = None, deal: str = "table",
                table: str | None = None, replace: bool = False) -> dict[str, Any]:
    """Start the game of a match at its table (or at ``table``, named for a game that waits
    for one); dealt by hand unless ``deal="seed"``; ``game``: default the tournament's.
    Its result will come from the live game."""
    match = match_row(session, tournament_id, match_id)
    table_id = table or match.table_id
    if table_id is None:
        raise TournamentRefusal(f"game {match_id} has no table: name one (\"table\") to "
                                "start it there, or enter its result by hand")
    if match.result is not None or match.game_seq is not None:
        raise TournamentRefusal("this game has already been played or started")
    if deal == "table" and seed is not None:
        raise TournamentRefusal('$.seed: a game dealt by hand ("deal": "table") has no seed')
    game = game_to_play(session, tournament_id, game, "$.game")
    check_table = tables.check_tables(station, [table_id], replace, "$.table")
    tables.check_deal(game, list(match.players), deal, options)
    started = tables.start_at_table(station, check_table[0], game, list(match.players), deal,
                                    author, f"tournament {tournament_id} game {match.id}", seed,
                                    options)
    match.table_id, match.game_seq = table_id, started.game_seq
    return {"id": match.id, "table": match.table_id, "game_seq": match.game_seq,
            "seed": started.seed, "deal": deal, "game": game}


def game_to_play(session: Session, tournament_id: str, game: str | None, where: str) -> str:
    """The game named, else the tournament's; refused when neither says one."""
    game = game or tournament_game(session, tournament_id)
    if game is None:
        raise TournamentRefusal(f"{where}: name the game (the tournament names none)")
    return known_game(game)


def record_result(session: Session, clock: Clock, station: Station | None, tournament_id: str,
                  match_id: int, scores: dict[str, int], winners: Sequence[str] | None,
                  author: str, tie_break: dict[str, int] | None = None) -> dict[str, Any]:
    """Enter (or correct) a game's result by hand. Winners default to the highest totals,
    then the game's rulebook tie-break (``tie_break``: each tied player's figure, e.g.
    Moving Day's snack points, :mod:`.tiebreak`), then a shared victory. A game still in
    play at its table is ended there (the hand result decides it); a result replacing
    another is kept as a correction (old, new, who, when)."""
    match = match_row(session, tournament_id, match_id)
    if is_bye(match):
        raise TournamentRefusal(f"game {match_id} is a bye: it has no scores to enter")
    if sorted(scores) != sorted(match.players):
        raise TournamentRefusal(f"scores must name exactly the players: {', '.join(match.players)}")
    chosen = _hand_winners(session, tournament_id, match, scores, winners, tie_break)
    old = match.result or _final_live_result(match, station)
    if station is not None and match.table_id and match.game_seq is not None:
        # before this session writes: the table's events go through another connection
        tables.end_for_hand_result(station, match.table_id, match.game_seq, author,
                                   f"result entered by hand for tournament game {match.id}")
    new = {"scores": {p: scores[p] for p in match.players}, "winners": chosen}
    if tie_break:
        new["tie_break"] = {p: tie_break[p] for p in match.players if p in tie_break}
    corrections = list((match.result or {}).get("corrections", []))
    if old is not None and _outcome(old) != _outcome(new):
        corrections.append({"at": aware(clock.now()).isoformat(), "author": author,
                            "old": _outcome(old), "new": _outcome(new)})
    match.result = {**new, "source": "hand", "author": author,
                    **({"corrections": corrections} if corrections else {})}
    return match_json(match, None)


def _hand_winners(session: Session, tournament_id: str, match: MatchRow, scores: dict[str, int],
                  winners: Sequence[str] | None,
                  tie_break: dict[str, int] | None) -> list[str]:
    if winners:
        if any(winner not in scores for winner in winners):
            raise TournamentRefusal("every winner must be a player of this game")
        return list(winners)
    try:
        return tiebreak.hand_winners(tournament_game(session, tournament_id), match.players,
                                     scores, tie_break)
    except tiebreak.TieBreakRefusal as error:
        raise TournamentRefusal(str(error)) from None


def _outcome(result: dict[str, Any]) -> dict[str, Any]:
    """What a correction records of a result: its scores, winners and tie-break figures."""
    kept = {"scores": dict(result["scores"]), "winners": list(result["winners"])}
    if result.get("tie_break"):
        kept["tie_break"] = dict(result["tie_break"])
    return kept


def _final_live_result(match: MatchRow, station: Station | None) -> dict[str, Any] | None:
    """The live game's final result not stored yet (the recorder's thread lags a moment)."""
    live = _live_result(match, station)
    return live if live is not None and live["final"] else None


def _live_result(match: MatchRow, station: Station | None) -> dict[str, Any] | None:
    """The live game of a match as a result (``final`` once the game is over)."""
    if station is None or match.table_id is None or match.game_seq is None:
        return None
    try:
        live = station.refresh(match.table_id)
    except UnknownTable:
        return None
    games = list(live.past_games)
    if live.current is not None:
        games.append(live.current.summary())
    for game in games:
        if game["seq"] == match.game_seq:
            return {"scores": {s["player"]: s["total"] for s in game["scores"]},
                    "winners": game["winners"], "source": "live", "final": game["over"]}
    return None


def match_json(match: MatchRow, station: Station | None) -> dict[str, Any]:
    """A game as the public sees it: players, table, result; a stored result shows whether
    it is disputed (read from the signing record, :mod:`.signing`). Never the codes."""
    result = match.result or _live_result(match, station)
    if match.result is not None and not is_bye(match):
        result = {**match.result, **signing.state(match)}
    return {"id": match.id, "round": match.round, "players": match.players,
            "table": match.table_id, "game_seq": match.game_seq, "result": result}


def _standings(session: Session, station: Station | None,
               tournament_id: str) -> tuple[list[dict[str, Any]], list[Standing]]:
    """Every game as JSON, and the standings re-derived from every final result."""
    row = tournament_row(session, tournament_id)
    matches = [match_json(match, station) for match in match_rows(session, tournament_id)]
    results = [GameResult(m["result"]["scores"], m["result"]["winners"]) for m in matches
               if m["result"] and m["result"].get("final", True)]
    return matches, standings(player_names(session, tournament_id), results, row.tie_breakers)


def tournament_detail(session: Session, station: Station | None,
                      tournament_id: str) -> dict[str, Any]:
    """The whole tournament: players, rounds with their games, results and byes, standings,
    the organiser's pairing rules."""
    row = tournament_row(session, tournament_id)
    matches, lines = _standings(session, station, tournament_id)
    rounds: dict[int, dict[str, Any]] = {}
    for match in matches:
        entry = rounds.setdefault(match["round"], {"round": match["round"], "games": [],
                                                   "byes": []})
        if match["result"] and match["result"].get("source") == "bye":
            entry["byes"].append(match["players"][0])
        else:
            entry["games"].append(match)
    game = tournament_game(session, tournament_id)
    return {"id": row.id, "name": row.name, "tie_breakers": row.tie_breakers,
            "game": game, "tie_break": tiebreak.describe(game),
            "players": player_names(session, tournament_id),
            "rounds": [rounds[number] for number in sorted(rounds)],
            "standings": [line.to_json() for line in lines],
            "disputes": _disputes(match_rows(session, tournament_id)),
            "allow_hints": hints_allowed(session, tournament_id),
            **pairing_rules(session, tournament_id)}


def hints_allowed(session: Session, tournament_id: str) -> bool:
    """Whether the organiser allows the advisor's hints at the tournament's tables (default:
    no; :mod:`station.tournament.hints`)."""
    row = session.get(TournamentHintsRow, tournament_id)
    return bool(row is not None and row.allowed)


def _disputes(matches: list[MatchRow]) -> list[dict[str, Any]]:
    """Games the organiser must look at: a player disagreed with the final scores, and the
    organiser has not settled it since."""
    return [{"game": match.id, "round": match.round, "table": match.table_id, "disagree": who}
            for match in matches if (who := signing.disagreeing(match))]


def tournament_csv(session: Session, station: Station | None, tournament_id: str) -> str:
    """The standings as CSV."""
    return standings_csv(_standings(session, station, tournament_id)[1])


# -- the organiser's pairing rules: drops, locks, forbidden pairs ----------------------------
def rules_of(session: Session, tournament_id: str, kind: str) -> list[TournamentRuleRow]:
    query = (select(TournamentRuleRow)
             .where(TournamentRuleRow.tournament_id == tournament_id,
                    TournamentRuleRow.kind == kind).order_by(TournamentRuleRow.id))
    return list(session.scalars(query))


def dropped(session: Session, tournament_id: str) -> dict[str, int]:
    """Dropped players and the round after which they left."""
    return {rule.players[0]: rule.round for rule in rules_of(session, tournament_id, "drop")}


def locks(session: Session, tournament_id: str) -> dict[str, str]:
    """Locked players and their table."""
    return {rule.players[0]: rule.table_id for rule in rules_of(session, tournament_id, "lock")
            if rule.table_id}


def forbidden(session: Session, tournament_id: str) -> list[list[str]]:
    """Groups of players never seated together."""
    return [list(rule.players) for rule in rules_of(session, tournament_id, "forbid")]


def pairing_rules(session: Session, tournament_id: str) -> dict[str, Any]:
    return {"dropped": dropped(session, tournament_id), "locks": locks(session, tournament_id),
            "forbidden": forbidden(session, tournament_id)}
