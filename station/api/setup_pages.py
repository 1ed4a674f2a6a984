"""The organiser's pages: ``/sign-in`` (the token, kept for the browser session) and
``/setup`` (tables, their games, cameras and drones; tournaments and their players).

Both are plain pages anyone may open: what they do goes through the API with the token
the browser keeps, so the API decides (and says) what is refused.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from rules import game_names, get_game
from station.api.pages import TEMPLATES, game_words
from station.api.tournaments import TournamentIn
from station.tournament.service import game_tie_breakers
from station.tournament.standings import TIE_BREAKERS

router = APIRouter(include_in_schema=False)


def setup_games() -> list[dict[str, Any]]:
    """Each game the station referees: its engine name, title, players allowed and the
    tie-breakers a tournament of it uses unless told."""
    words = game_words()
    games = []
    for name in game_names():
        engine = get_game(name)
        games.append({"name": name, "title": words.get(name, {}).get("title", name),
                      "min_players": engine.min_players, "max_players": engine.max_players,
                      "tie_breakers": list(game_tie_breakers(name))})
    return games


@router.get("/sign-in", response_class=HTMLResponse)
def sign_in_page(request: Request, next: str = "/setup") -> HTMLResponse:
    """Where the organiser types the token once; ``next``: the page to go back to (a path
    of this station only)."""
    back = next if next.startswith("/") and not next.startswith("//") else "/setup"
    return TEMPLATES.TemplateResponse(request, "sign_in.html", {"next": back})


@router.get("/setup", response_class=HTMLResponse)
def setup_page(request: Request) -> HTMLResponse:
    """New tables (with their first game, camera and drone), new games at a table, new
    tournaments and their players."""
    fields = TournamentIn.model_fields
    return TEMPLATES.TemplateResponse(request, "setup.html", {
        "setup_games": setup_games(), "tie_breakers": TIE_BREAKERS,
        "tournament_rounds": "rounds" in fields, "tournament_game": "game" in fields})
