"""``packref serve`` (the station) and ``packref demo`` (the station fed by recordings).

Both print one JSON line on stdout once the server has started: its ``url``, the data
directory, and — on a first start at a terminal only — the organiser's ``token``.

The token is shown only when stdout is a terminal: under systemd, or into a pipe or a
file, it would be kept in a journal or a log that others read. A station started so
without a token makes none, and says on stderr how to issue one (``packref token --new``
at the station's own terminal). A first token's hash is written only once the server
has started (:func:`station.tokens.store_first_token`), so a start that fails (port
taken, bad database) leaves no hash whose token nobody saw.
"""

from __future__ import annotations

import argparse
import logging
import shutil
import socket
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from station.cli._addresses import WILDCARDS, network_addresses, url_of
from station.cli._data import data_folder, data_help, say_data_folder, say_pending
from station.errors import InputError
from station.output import emit
from station.private import private_file

if TYPE_CHECKING:
    from station.config import Settings
    from station.live.plan import StationPlan, TablePlan

ORDER = 60


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    serve = subparsers.add_parser(
        "serve", help="run the station: live tables, dashboard, tournaments",
        description="Run the station's dashboard and API. Data (database, logs) lives under "
        "--data; SQLite by default, or any SQLAlchemy URL with --db (PostgreSQL included). "
        "At the first start on a terminal the organiser's token is printed once; "
        "elsewhere (systemd, a pipe) run 'packref token --new' at the station's terminal.")
    serve.add_argument("--host", default=None,
                       help="address to listen on (default 127.0.0.1: this machine only; "
                       "0.0.0.0 for the local network)")
    serve.add_argument("--port", type=int, default=None,
                       help="port (default 8000; 0: any free)")
    serve.add_argument("--data", metavar="DIR", help=data_help())
    serve.add_argument("--config", metavar="FILE",
                       help="the station's settings: cameras, boards, host, port (default "
                       "DATA/station.toml when there is one; the command line wins)")
    serve.add_argument("--db", help="database URL, e.g. postgresql://user@hub/packref")
    serve.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                       help="let pages of ORIGIN (scheme://host[:port]) open the live sockets "
                       "too, besides the station's own (e.g. behind a proxy); repeatable")
    serve.add_argument("--drone", action="append", default=[], metavar="TABLE=PORT",
                       help="drive TABLE (created if missing) from its Pick 'n Packers drone on "
                       "serial PORT (e.g. /dev/ttyACM0, or replay://capture.bin); repeatable")
    serve.add_argument("--drone-positions", action="append", default=[], metavar="TABLE=FILE",
                       help="the drone's positions for TABLE, JSON Lines of {\"t\", \"card\"} "
                       "in the drone's clock (until the camera reports them)")
    serve.add_argument("--camera", action="append", default=[], metavar="TABLE=SOURCE",
                       help="drive TABLE (created if missing) from its overhead camera: SOURCE "
                       "is a camera number (0 = first) or a replay (a folder of images or a "
                       "video); the mats are those of the game started at the table; "
                       "repeatable")
    serve.add_argument("--gpio-buttons", action="store_true",
                       help="read the referee's start/foul/undo buttons on this Pi's GPIO "
                       "(gpiozero) for the --drone table (one --drone only)")
    serve.add_argument("--calibration", default=None,
                       help="drone calibration file (default "
                       "~/.config/packref/drone-calibration.json)")
    serve.add_argument("--camera-calibration", default=None, metavar="FILE",
                       help="the cameras' calibration (packref vision calibrate): intrinsics "
                       "and lens distortion; without it a radial distortion is estimated")
    serve.add_argument("--catalogue", action="append", default=[], metavar="GAME=FILE",
                       help="play GAME with your copy's catalogue at every table (default: "
                       "DATA/catalogues/GAME.json where there is one); repeatable")
    serve.add_argument("--win-chances", choices=("on", "off"), default=None,
                       help="every player's chance to win on the table and projector pages, "
                       "worked out by a worker process after each action (default on)")
    serve.add_argument("--advice-seconds", type=float, default=None, metavar="S",
                       help="the advisor's time budget per position, for every game (default: "
                       "each game's own, 0.5 to 2 s: docs/advisor.md)")
    serve.set_defaults(run=run_serve)

    demo = subparsers.add_parser(
        "demo", help="the station fed by recorded games, over and over",
        description="Run the station with every game's recording replayed through the live "
        "loop (translator, engine, store, dashboard), again and again until Ctrl-C.")
    demo.add_argument("--host", default="127.0.0.1", help="address to listen on")
    demo.add_argument("--port", type=int, default=8000, help="port (default 8000; 0: any free)")
    demo.add_argument("--data", metavar="DIR",
                      help="data folder (default: a temporary one, removed at exit)")
    demo.add_argument("--speed", type=float, default=1.0, help="replay speed factor (default 1)")
    demo.add_argument("--once", action="store_true", help="play each recording once, then exit")
    demo.set_defaults(run=run_demo)


def _listen(host: str, port: int) -> socket.socket:
    if not 0 <= port <= 65535:
        raise InputError(f"--port: must be 0..65535, not {port}")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
    except OSError as error:
        listener.close()
        raise InputError(f"--port: cannot listen on {host}:{port} ({error.strerror})") from None
    listener.listen(128)
    return listener


def _urls(listener: socket.socket, host: str) -> list[str]:
    """Where the station can be opened: for a wildcard ``host`` (``0.0.0.0``, ``::``) every
    address of this machine another one can reach (none found: this machine's own only);
    else ``host`` itself. The first is the JSON line's ``url``."""
    port = listener.getsockname()[1]
    if host not in WILDCARDS:
        return [url_of(host, port)]
    found = network_addresses(host)
    if not found:
        print("packref: no network address found: only this machine can open the station",
              file=sys.stderr)
    return [url_of(address, port) for address in found] or [url_of("127.0.0.1", port)]


def _run_server(app: Any, listener: socket.socket) -> Any:
    import uvicorn

    from station.api.serving import server_config

    server = uvicorn.Server(server_config(app, log_level="warning"))
    app.state.server = server
    server.run(sockets=[listener])
    return server


def _log_to_file(settings: Any) -> None:
    """Warnings and errors of the server (and the start of each run) go to ``logs/station.log``."""
    path = settings.logs_dir / "station.log"
    try:
        private_file(path)  # appended to, keeping its mode
        handler = logging.FileHandler(path, encoding="utf-8")
    except OSError as error:
        raise InputError(_unwritable(path, error)) from None
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    for name in ("packref", "uvicorn.error"):
        logger = logging.getLogger(name)
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)


def _unwritable(path: Path, error: OSError) -> str:
    """The start-up line for a file the station cannot write: which, why, what to do."""
    from station.faults import disk_full_words, is_disk_full

    if is_disk_full(error):
        return (f"cannot write {path}: {disk_full_words(path.parent)}: make room (old logs, "
                "the game archive) and start again")
    return (f"cannot write {path} ({error.strerror}): let the station's user write its "
            "data folder (chown/chmod), or give another with --data")


def interactive() -> bool:
    """Whether stdout is a terminal, a person's (a seam: tests pretend it is)."""
    return sys.stdout.isatty()


def _first_token(settings: Any) -> str | None:
    """A new token for a station that has none, made only when it can be shown to a
    person (stdout is a terminal); its hash is kept once the server has started."""
    from station.tokens import make_token

    return make_token() if not settings.token.issued and interactive() else None


def _keep_first(token: str, settings: Any) -> bool:
    """Keep ``token``'s hash now that the server has started (False: not kept, and why is
    said on stderr, so the token is not shown)."""
    from station.appliance.units import token_command
    from station.tokens import store_first_token

    try:
        if store_first_token(settings.data_dir, token):
            return True
        print("packref: a token was issued while the station started: it stands",
              file=sys.stderr)
    except OSError as error:
        print(f"packref: cannot keep the organiser's token ({error.strerror}): writes are "
              f"refused until '{token_command(settings.data_dir)}'", file=sys.stderr)
    return False


def _token_words(token: str | None, settings: Any) -> tuple[dict[str, Any], str | None]:
    """The token for the JSON line (a first start at a terminal, once kept), and what
    stderr says about it after the line; never the token itself on stderr, which may be
    a log."""
    from station.appliance.units import token_command

    if token is not None and _keep_first(token, settings):
        return {"token": token}, ("packref: the organiser's token is the \"token\" above: "
                                  "keep it, it is shown only this once")
    if not settings.token.issued:
        return {}, ("packref: no organiser's token yet, so every write is refused: issue one "
                    f"at this station's own terminal with '{token_command(settings.data_dir)}'")
    return {}, None


def _announce(url: str, settings: Any, extra: dict[str, Any] | None = None,
              token: str | None = None) -> None:
    """The started station's JSON line (and, for a first ``token``, its hash kept)."""
    fields, words = _token_words(token, settings)
    document: dict[str, Any] = {"url": url, "data": str(settings.data_dir), **fields}
    document.update(extra or {})
    logging.getLogger("packref").info("station listening at %s", url)
    say_pending()  # the data folder, before the line
    emit(document)
    if words:
        print(words, file=sys.stderr)
    print(f"packref: dashboard at {url} (Ctrl-C stops)", file=sys.stderr)


def _pairs(values: list[str], option: str) -> dict[str, str]:
    """``TABLE=VALUE`` options as a dict (a mistake is an InputError naming the option)."""
    pairs: dict[str, str] = {}
    for value in values:
        table, sep, rest = value.partition("=")
        if not sep or not table or not rest:
            raise InputError(f"{option}: write TABLE=VALUE, not {value!r}")
        if table in pairs:
            raise InputError(f"{option}: table {table!r} is given twice")
        pairs[table] = rest
    return pairs


def _drone_plan(arguments: argparse.Namespace) -> dict[str, dict[str, Any]]:
    """Each --drone table: its port and positions, checked before the server starts."""
    ports = _pairs(arguments.drone, "--drone")
    position_files = _pairs(arguments.drone_positions, "--drone-positions")
    for table in position_files:
        if table not in ports:
            raise InputError(f"--drone-positions: table {table!r} has no --drone")
    if arguments.gpio_buttons and len(ports) != 1:
        raise InputError("--gpio-buttons: give exactly one --drone table for the buttons")
    return {table: {"port": port, "positions": _positions(position_files.get(table))}
            for table, port in ports.items()}


def _positions(path: str | None) -> list[dict[str, Any]]:
    """The drone positions in ``path`` (none without a file; the drone's source is imported
    only for a file, so a station without one starts sooner)."""
    if path is None:
        return []
    from station.live.drone import read_positions

    try:
        return read_positions(Path(path))
    except (OSError, ValueError) as error:
        raise InputError(f"--drone-positions: {error}") from None


def _catalogues(arguments: argparse.Namespace, settings: Any) -> dict[str, Any]:
    """The copies' catalogues of ``--catalogue GAME=FILE`` and of DATA/catalogues, checked."""
    from station.copies import station_catalogues

    return station_catalogues(settings.data_dir / "catalogues",
                              _pairs(arguments.catalogue, "--catalogue"))


def _camera_plan(arguments: argparse.Namespace, data_dir: Path | None = None) -> dict[str, str]:
    """Each --camera table and its source, opened once to check it before the server starts.

    Each camera device is owned by this process first (``station/appliance/ownership.py``):
    one owned by another station stops the command, naming the owner.
    """
    from station.appliance.ownership import own_cameras

    sources = _pairs(arguments.camera, "--camera")
    arguments.camera_owners = own_cameras(sources, f"packref serve (data {data_dir})", data_dir)
    if sources:  # the camera's source (and OpenCV) imported only for a station with cameras
        _open_each(sources)
    return sources


def _open_each(sources: dict[str, str]) -> None:
    """Open each camera source once, and close it: a mistake stops the command here."""
    from station.live.camera import CameraError, open_frames

    for table, where in sources.items():
        try:
            open_frames(where).close()
        except CameraError as error:
            raise InputError(f"--camera: table {table!r}: {error}") from None


def _allowed_origins(arguments: argparse.Namespace) -> tuple[str, ...]:
    """``--allow-origin`` and the station file's ``allowed_origins``, each checked."""
    from station.api.origin import canonical_origin

    for origin in arguments.allow_origin:
        if canonical_origin(origin) is None:
            raise InputError(f"--allow-origin (or allowed_origins): {origin!r} is not an "
                             "origin: write scheme://host[:port], e.g. http://packref.local")
    return tuple(arguments.allow_origin)


def _advice_settings(arguments: argparse.Namespace) -> Any:
    """``--win-chances`` and ``--advice-seconds`` (after the station file filled them in)."""
    from station.config import MAX_ADVICE_SECONDS, MIN_ADVICE_SECONDS, AdviceSettings

    seconds = arguments.advice_seconds  # None: each game's own budget
    if seconds is not None and not MIN_ADVICE_SECONDS <= seconds <= MAX_ADVICE_SECONDS:
        raise InputError(f"--advice-seconds: must be {MIN_ADVICE_SECONDS:g} to "
                         f"{MAX_ADVICE_SECONDS:g}, not {seconds:g}")
    return AdviceSettings(win_chances=arguments.win_chances != "off", seconds=seconds)


def _table_plans(arguments: argparse.Namespace, data_dir: Path) -> tuple[TablePlan, ...]:
    """Each table's drone and camera (``TablePlan``), checked before the server starts:
    the drones first, in their options' order, then the tables with only a camera."""
    from station.cli.vision import load_camera_calibration
    from station.live.plan import TablePlan

    drones = _drone_plan(arguments)
    cameras = _camera_plan(arguments, data_dir)
    lens = load_camera_calibration(arguments.camera_calibration)
    return tuple(
        TablePlan(table, camera=cameras.get(table), lens=lens if table in cameras else None,
                  drone=drones[table]["port"] if table in drones else None,
                  drone_positions=tuple(drones.get(table, {}).get("positions", ())))
        for table in dict.fromkeys([*drones, *cameras]))


def run_serve(arguments: argparse.Namespace) -> int:
    """``packref serve``: its options and the station file made into a plan, then served."""
    from station.appliance.config import STATION_FILE
    from station.appliance.setup import archive_dir
    from station.appliance.station_file import apply_station_file
    from station.config import load_settings
    from station.live.plan import StationPlan

    data_dir = data_folder(arguments)
    apply_station_file(arguments, data_dir, STATION_FILE)
    tables = _table_plans(arguments, data_dir)
    advice = _advice_settings(arguments)
    settings = load_settings(data_dir, arguments.db, advice, _allowed_origins(arguments))
    plan = StationPlan(
        host=arguments.host, port=arguments.port, data=settings.data_dir,
        database=settings.database_url, catalogues=_catalogues(arguments, settings),
        advice=advice, drone_calibration=arguments.calibration,
        gpio_buttons=next(table.table_id for table in tables if table.drone is not None)
        if arguments.gpio_buttons else None,
        archive=archive_dir(settings.data_dir), tables=tables)
    return serve(plan, settings)


def serve(plan: StationPlan, settings: Settings | None = None) -> int:
    """Serve the station of ``plan`` (a :class:`station.live.plan.StationPlan`) until
    Ctrl-C or SIGTERM: the dashboard on its host and port, its tables' drones and cameras
    in the background (:mod:`station.live.runner`), the JSON line on stdout once it has
    started (with a first token, at a terminal: see the module). ``settings``: the plan's,
    already loaded (else loaded here from the plan).
    Nothing in the plan is checked again here (``packref serve`` checks its options)."""
    from station.api import create_app
    from station.appliance.setup import StationDevices
    from station.config import load_settings

    settings = settings or load_settings(plan.data, plan.database, plan.advice)
    token = _first_token(settings)
    listener, services = _open(plan, settings)
    extra: dict[str, Any] = {
        "database": services.database.engine.url.render_as_string(hide_password=True)}
    if plan.drones():
        extra["drones"] = plan.drones()
    if plan.cameras():
        extra["cameras"] = plan.cameras()
    urls = _urls(listener, plan.host)
    if plan.host in WILDCARDS:
        extra["urls"] = urls  # every address a phone on the network may use
    app = create_app(services, _live_tables(plan),
                     ready=lambda: _announce(urls[0], settings, extra, token))
    app.state.station_devices = StationDevices(  # what its health checks
        plan.cameras(), plan.drones(), plan.gpio_buttons is not None)
    try:
        _run_server(app, listener)
    finally:
        services.database.close()
    return 0


def _open(plan: StationPlan, settings: Settings) -> tuple[socket.socket, Any]:
    """The start every station shares: its log file, its listening socket, then its
    services (the station given the plan's catalogues)."""
    from station.api import build_services

    _log_to_file(settings)
    listener = _listen(plan.host, plan.port)
    services = build_services(settings, catalogues=plan.catalogues)
    if services.database.schema is not None:  # which revision it found, which it leaves
        print(f"packref: {services.database.schema.words()}", file=sys.stderr)
    return listener, services


def _live_tables(plan: StationPlan) -> Any:
    """The app's background task: the plan's drones and cameras (None: it has none)."""
    if not plan.tables:
        return None
    from station.live.runner import run

    async def background(services: Any) -> None:
        services.bindings.note_plan(plan)  # the set-up page shows them, and leaves them be
        await run(plan, services.station)

    return background


def _demo_loop(recordings: list[Any], arguments: argparse.Namespace, played: list[int],
               stop: Any) -> Any:
    """The demo's background task: play the recordings (``stop()`` the server after ``--once``)."""
    from station.demo.demo import run_demo as play

    async def background(services: Any) -> None:
        try:
            played.append(await play(services.station, recordings, arguments.speed,
                                     arguments.once))
        except Exception:
            logging.getLogger("packref").exception("the demo loop stopped")
            print("packref: the demo loop stopped (see logs/station.log)", file=sys.stderr)
            raise
        finally:
            if arguments.once:
                stop()

    return background


def run_demo(arguments: argparse.Namespace) -> int:
    from station.api import create_app
    from station.appliance.archive import keep_demo_frames
    from station.appliance.setup import StationDevices, archive_dir
    from station.config import load_settings
    from station.demo.demo import prepare_tables
    from station.demo.recordings import MissingRecording, demo_recordings
    from station.live.plan import StationPlan

    if arguments.speed <= 0:
        raise InputError("--speed: must be more than 0")
    data = arguments.data or tempfile.mkdtemp(prefix="packref-demo-")
    services = None
    played: list[int] = []
    try:  # from here on, a stop at any moment (Ctrl-C, SIGTERM) removes the demo's folder
        settings = load_settings(data)
        say_data_folder(settings.data_dir)
        try:
            recordings = demo_recordings(data_dir=Path(settings.data_dir))
        except MissingRecording as error:  # never a quietly made-up game instead
            raise InputError(f"packref demo: {error}") from error
        if not recordings:
            raise InputError("no game is registered, so there is nothing to replay")
        plan = StationPlan(host=arguments.host, port=arguments.port, data=settings.data_dir,
                           database=settings.database_url,
                           archive=archive_dir(Path(settings.data_dir)))
        token = _first_token(settings)
        listener, services = _open(plan, settings)
        tables = prepare_tables(services.station, recordings)
        keep_demo_frames(services.station, recordings, plan.archive)
        urls = _urls(listener, arguments.host)
        url = urls[0]
        background = _demo_loop(recordings, arguments, played,
                                stop=lambda: setattr(app.state.server, "should_exit", True))
        shown: dict[str, Any] = {"tables": [f"{url}tables/{t}" for t in tables]}
        if arguments.host in WILDCARDS:
            shown["urls"] = urls
        app = create_app(services, background,
                         ready=lambda: _announce(url, settings, shown, token))
        app.state.station_devices = StationDevices()  # recordings only: no device to check
        _run_server(app, listener)
        if arguments.once:
            emit({"games": sum(played), "tables": tables,
                  "events": services.store.count_events(tables)})
    finally:
        if services is not None:
            services.database.close()
        if not arguments.data:  # the demo's own temporary directory
            shutil.rmtree(data, ignore_errors=True)
    return 0 if not arguments.once or played else 1

