"""The station's exceptions."""


class StationError(Exception):
    """Base class of the station's errors."""


class InputError(StationError):
    """Bad input from a user: the message names the place, e.g. ``$.players[1].total: ...``.

    The command line prints it as one line on stderr and exits with status 2.
    """
