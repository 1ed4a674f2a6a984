"""The exceptions the rules engines raise."""


class RulesError(Exception):
    """Base class of every error raised by :mod:`rules`."""


class IllegalAction(RulesError):
    """An action the rules do not allow in the current state.

    ``reason`` is a sentence a player can read, e.g. ``"the supply has no card 7"``.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class GameOver(IllegalAction):
    """An action was applied to a game that has already ended."""

    def __init__(self) -> None:
        super().__init__("the game is over")


class UnknownGame(RulesError):
    """No game is registered under that name."""
