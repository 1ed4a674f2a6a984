"""Pick 'n Packers' drawing view: the drone challenge, the card reached, the rounds played."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from rules import State
from rules.games.pick_n_packers import PickNPackersState

LEGEND = ("Nine shop cards, 0/9 then 1 to 8 · yellow card (and “card reached”): where the "
          "drone got to · speculation cards stay face down until the round is scored")
PHASE_WORDS = {"speculation": "bets being laid", "challenge": "the drone in the air"}
ENDING_WORDS = {"home": "back home", "wrong-landing": "landed on the wrong card",
                "touch": "a foul (touched)", "fall": "a present fell"}


def view(state: State) -> dict[str, Any]:
    """The drone challenge: shop cards 0-9, the card reached, past rounds with their bets,
    and who has laid a speculation card this round (face down: not which card)."""
    game = cast(PickNPackersState, state)  # this presenter is Pick 'n Packers' record's
    face_down = list(game.laid_speculations())
    played = game.played_rounds()
    phase, pilots = game.phase, game.round_pilots()
    # the present under each loaded shop card; None: not yet seen
    loaded = [game.present_on_card(number) or f"card {number}'s present"
              for number in game.loaded_cards()]
    now = ("The game is over" if phase == "over" else
           f"Round {len(played) + 1}, {PHASE_WORDS.get(phase, phase)}: "
           f"{' and '.join(pilots) or 'nobody'} flying")
    lines = [now, f"On the drone: {', '.join(loaded) or 'nothing'}"]
    if face_down:
        lines.append(f"Speculation cards face down: {', '.join(face_down)}")
    for index, result in enumerate(played, start=1):
        lines.append(f"Round {index}: {' and '.join(result.pilots)} reached shop card "
                     f"{result.reached}, {ENDING_WORDS.get(result.ending, result.ending)}"
                     f"{_bets(result.speculations)}")
    return {"boards": [], "lines": lines,
            "drone": {"reached": game.reached, "face_down": face_down, "pilots": list(pilots)}}


def _bets(speculations: Mapping[str, Any]) -> str:
    """A scored round's speculation cards, turned up: "; bets: Cas on 4, Dee on 6"."""
    if not speculations:
        return ""
    return "; bets: " + ", ".join(f"{player} on {card}" for player, card in speculations.items())
