"""A player's code for one tournament game: it signs (agrees with, or disputes) that player's
result of that game and nothing else, so the organiser's token never has to be handed to the
phones in the room (docs/station.md, "A player's code").

Codes are made when a game's seats are known (a game added to a round, or a round paired).
They are stored as they are, not hashed: the organiser must be able to show a code again to
a player who lost it, and whoever can read the database file can rewrite any result anyway.
They are read only through the organiser's routes; nothing public carries them.

>>> code = new_code()
>>> len(code), set(code) <= set(ALPHABET)
(8, True)
>>> shown("ABCDEFGH"), normalised(" abcd-efgh ")
('ABCD-EFGH', 'ABCDEFGH')
"""

from __future__ import annotations

import hmac
import secrets

from sqlalchemy import select
from sqlalchemy.orm import Session

from station.store.models import MatchCodeRow, MatchRow

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, no 1/I/L: read aloud, typed on a phone
# 31⁸ ≈ 8.5 × 10¹¹ codes: guessing one over the station's Wi-Fi during a tournament day is
# out of reach (six characters would leave a patient guesser a fraction of a percent).
CODE_LENGTH = 8


class WrongCode(PermissionError):
    """A code that is not this player's for this game (answered 403)."""


def new_code() -> str:
    """A fresh random code (``secrets``: unpredictable, unlike ``random``)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def normalised(text: str) -> str:
    """A code as typed (any case, spaces or dashes) in its stored form."""
    return "".join(text.split()).replace("-", "").upper()


def shown(code: str) -> str:
    """A code as people read it: two groups of four."""
    return f"{code[:4]}-{code[4:]}"


def make_codes(session: Session, match: MatchRow) -> None:
    """Give each player of ``match`` (a stored row) a code, unless they have one."""
    have = set(session.scalars(select(MatchCodeRow.player)
                               .where(MatchCodeRow.match_id == match.id)))
    session.add_all(MatchCodeRow(match_id=match.id, player=player, code=new_code())
                    for player in match.players if player not in have)
    session.flush()


def codes_of(session: Session, match: MatchRow) -> dict[str, str]:
    """Each player's code for ``match``, in seat order, as shown (a game made before codes
    existed gets them now)."""
    make_codes(session, match)
    rows = session.scalars(select(MatchCodeRow).where(MatchCodeRow.match_id == match.id))
    stored = {row.player: row.code for row in rows}
    return {player: shown(stored[player]) for player in match.players}


def check_code(session: Session, match: MatchRow, player: str, code: str) -> None:
    """Refuse (:class:`WrongCode`) unless ``code`` is ``player``'s for ``match``; compared in
    constant time, so the answer's delay tells nothing about how close a guess was."""
    stored = session.get(MatchCodeRow, (match.id, player))
    given = normalised(code).encode()
    if stored is None or not hmac.compare_digest(given, stored.code.encode()):
        raise WrongCode(f"that is not {player}'s code for game {match.id}")
