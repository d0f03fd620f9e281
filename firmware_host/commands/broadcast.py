"""``cardtable broadcast export --journals DIR... --out DIR [--title T] [--force] [--session DIR | --event DIR]``:
after a session, every table's boards as LIN records and the replay pages a club publishes beside its
travellers (``firmware_host.broadcast.archive``; the session's or event's names in the LIN, and an event's
closed rooms). Each journal's hash chain is verified first; a broken one is
refused (exit 1). Exit 2 for a journal that cannot be read, a folder of no duplicate board, or an
``--out`` that is a file or a folder that is not empty (``--force`` writes over it).

``cardtable broadcast live --session DIR | --event DIR | --euchre-night DIR | --euchre-tables ID,... --out DIR --password-file F
--spectator-password-file F [...]``: during a session, on the club's machine, the live broadcast (``firmware_host.broadcast.service``) and the
spectators' page (``firmware_host.broadcast.page``) until Ctrl-C or SIGTERM (``docs/broadcast.md``).
Exit 2 for a session or event folder, password file, rule or ``--teams`` that cannot be used (named). An event
(``--event``) is broadcast with no operator: its tables, the tables that play each board, a teams match's
rooms and the names at each side come from the event (``laws/broadcast/event_field.py``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from firmware_host.commands.guard import port


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("broadcast", help="export: a session's boards as LIN records and replay pages; "
                       "live: its play for spectators as it is played")
    verbs = p.add_subparsers(dest="verb", required=True, metavar="VERB")
    e = verbs.add_parser("export", help="write LIN records (lin/) and replay pages (replay/) from the "
                                        "tables' journals")
    e.add_argument("--journals", nargs="+", required=True, metavar="DIR",
                   help="the tables' data directories or journal files (a duplicate demo's OUT/tables/*)")
    e.add_argument("--out", required=True, metavar="DIR", help="the folder to write (empty, or --force)")
    e.add_argument("--title", default="", help="the session's name on the pages")
    e.add_argument("--force", action="store_true", help="write into a folder that is not empty")
    named = e.add_mutually_exclusive_group()
    named.add_argument("--session", default="", metavar="DIR",
                       help="the duplicate session's folder: the LIN names the players as its names stand")
    named.add_argument("--event", default="", metavar="DIR",
                       help="the event's folder: the LIN names the players, and a teams match's closed room is c")
    e.set_defaults(func=_export)
    v = verbs.add_parser("live", help="broadcast the session live: release rule, LIN, the spectators' page")
    v.add_argument("--session", default="", metavar="DIR", help="the duplicate session's folder (its tables, movement, "
                   "names)")
    v.add_argument("--event", default="", metavar="DIR",
                   help="a teams, Swiss, individual or sections event's folder (cardtable event open): its tables, "
                        "the tables that play each board, a teams match's rooms and the names, from the event")
    v.add_argument("--euchre-tables", default="", metavar="ID,...",
                   help="instead of --session: a euchre evening's tables (their ids, numbered 1, 2, ... in order)")
    v.add_argument("--euchre-night", default="", metavar="DIR",
                   help="instead of --session: a euchre night's folder (read only): its tables, as the night numbers "
                        "them, its name, and the players' names at each table round by round")
    v.add_argument("--out", default="", metavar="DIR",
                   help="with --euchre-night or --euchre-tables: the folder for the hands' JSON records (euchre/ in it)")
    v.add_argument("--host", default="127.0.0.1", help="the club's broker (default 127.0.0.1)")
    v.add_argument("--port", type=port, default=1883, help="the broker's port (default 1883)")
    v.add_argument("--password-file", required=True, metavar="F", help="the broker login 'broadcast's password")
    v.add_argument("--spectator-password-file", required=True, metavar="F",
                   help="the broker login 'spectator's password (the page's own login)")
    v.add_argument("--rule", choices=("after-field", "delay", "teams"), default="after-field",
                   help="the director's release rule for the evening (default after-field)")
    v.add_argument("--delay", type=float, default=0.0, metavar="S", help="with --rule delay: seconds (0-86400)")
    v.add_argument("--teams", default="", metavar="O:C,...",
                   help="with --rule teams: each match's open-room and closed-room tables, e.g. 1:2,3:4")
    v.add_argument("--lin", default="", metavar="DIR", help="the LIN folder (default SESSION/lin)")
    v.add_argument("--state", default="", metavar="FILE",
                   help="what the service has taken, kept across its restarts (default "
                        "~/.local/state/cardtable/broadcast-<the session's digest>.jsonl)")
    v.add_argument("--listen", default="127.0.0.1:8090", metavar="HOST:PORT", help="the page's address")
    v.add_argument("--private-password-file", default="", metavar="F",
                   help="a private event: the spectators' password (no file: a public event, no login)")
    v.add_argument("--title", default="", help="the event's name on the page (default the session's)")
    v.set_defaults(func=_live)


def _journal(where: str) -> Path:
    path = Path(where)
    return path / "journal.sqlite3" if path.is_dir() else path


def _export(args: argparse.Namespace) -> int:
    from firmware_host.broadcast.archive import ArchiveError, write_archive

    paths = [_journal(w) for w in args.journals]
    seen: dict[Path, Path] = {}
    for path in paths:
        if not path.is_file():
            print(f"cardtable broadcast export: {path}: no journal there", file=sys.stderr)
            return 2
        first = seen.setdefault(path.resolve(), path)
        if first is not path:   # each of its boards would be written twice, as two plays of one table
            print(f"cardtable broadcast export: {path}: named twice (as {first} too); name each table's journal "
                  "once", file=sys.stderr)
            return 2
    sides: dict[str, tuple[str, str]] = {}
    rooms: dict[int, str] = {}
    if args.session or args.event:
        from firmware_host.broadcast.bridge_names import EventNames, EventNamesError, SessionNames
        from laws.broadcast.event_field import event_rooms

        try:
            folder = EventNames(args.event) if args.event else SessionNames(args.session)
        except EventNamesError as exc:
            print(f"cardtable broadcast export: {exc}", file=sys.stderr)
            return 2
        try:
            sides = dict(folder.sides())
            if isinstance(folder, EventNames):
                rooms = event_rooms(folder.spec)[0]
        finally:
            folder.close()
    try:
        archive = write_archive(paths, args.out, title=args.title, force=args.force, sides=sides, rooms=rooms)
    except ArchiveError as exc:
        text = str(exc)
        print(f"cardtable broadcast export: {text}", file=sys.stderr)
        return 1 if text.startswith("TAMPERED") else 2
    plays = sum(len(p) for p in archive.boards.values())
    print(f"{len(archive.boards)} boards, {plays} tables' plays: LIN in {Path(args.out) / 'lin'}, "
          f"replay in {Path(args.out) / 'replay' / 'index.html'}")
    return 0


def _secret(path: str, what: str) -> str:
    """The password in the file ``what`` names (``guard.read_secret``: at most 4 KiB, UTF-8, not empty),
    its refusal as the ``ValueError`` this command's one-line report catches."""
    from firmware_host.commands.guard import Refused, read_secret

    try:
        return read_secret(path, what)
    except Refused as exc:
        raise ValueError(str(exc)) from None


def _live(args: argparse.Namespace) -> int:
    import logging
    import threading

    from firmware_host.broadcast.bridge_names import EventNames, EventNamesError, SessionNames
    from firmware_host.broadcast.live import Releaser, plays_of, session_id, teams_rooms
    from firmware_host.broadcast.page import SpectatorPage, serve
    from firmware_host.broadcast.received import Received, StateFileError, default_path
    from firmware_host.broadcast.service import BroadcastService
    from firmware_host.commands.guard import cannot_listen
    from firmware_host.session.duplicate_session import Session
    from firmware_host.session.journalled import SessionFileError
    from firmware_host.wire.topics import RESERVED_IDS, TABLE_ID
    from laws.broadcast.event_field import board_tables, event_rooms
    from laws.broadcast.release import Release, ReleaseError, Rule
    from laws.session.duplicate.spec import build_movement

    name = "cardtable broadcast live"
    night = None
    bridge: EventNames | SessionNames | None = None   # the bridge names' reader (an event's or a pairs session's)
    try:
        broadcast_pw = _secret(args.password_file, "--password-file")
        spectator_pw = _secret(args.spectator_password_file, "--spectator-password-file")
        private = _secret(args.private_password_file, "--private-password-file") if args.private_password_file else None
        if args.rule == "delay" and args.delay == 0:
            raise ValueError("--rule delay needs --delay S, the seconds behind the tables (above 0, at most 86400): "
                             "without it every card would be shown as it is played")
        if args.delay and args.rule != "delay":
            raise ValueError(f"--delay goes with --rule delay; the rule is {args.rule}")
        if args.teams and args.rule != "teams" and not args.event:   # with --event: refused below, for that
            raise ValueError(f"--teams goes with --rule teams; the rule is {args.rule}")
        release = Release(Rule(args.rule), args.delay)
        euchre = bool(args.euchre_tables or args.euchre_night)   # teams refused for euchre below, for that reason
        given = args.teams or (args.rule == "teams" and not args.event and not euchre)
        rooms, other = teams_rooms(args.teams) if given else ({}, {})
        host, sep, port_text = args.listen.rpartition(":")
        if not sep or not port_text.isdigit() or not 0 < int(port_text) < 65536:
            raise ValueError(f"--listen {args.listen!r}: HOST:PORT, e.g. 0.0.0.0:8090")
        if sum(map(bool, (args.session, args.event, args.euchre_tables, args.euchre_night))) != 1:
            raise ValueError("name the duplicate session (--session DIR), the event (--event DIR), the euchre night "
                             "(--euchre-night DIR) or the euchre tables (--euchre-tables ID,...), one of them")
        if args.event and args.teams:
            raise ValueError("--teams is not given with --event: the event's matches say which tables are rooms")
        if args.euchre_night:
            from firmware_host.broadcast.euchre_names import NightNames

            night = NightNames(args.euchre_night)
            ids = list(night.tables)
        elif args.euchre_tables:
            ids = [t.strip() for t in args.euchre_tables.split(",") if t.strip()]
            bad = [t for t in ids if not TABLE_ID.match(t) or t in RESERVED_IDS]
            if bad or len(set(ids)) != len(ids) or not ids:
                raise ValueError(f"--euchre-tables {args.euchre_tables!r}: table ids, each once (letters, digits, "
                                 "- or _; not a reserved id)")
        if args.euchre_tables or args.euchre_night:
            if not args.out:
                raise ValueError("--euchre-night and --euchre-tables need --out DIR for the hands' JSON records")
            if args.rule == "teams":
                raise ValueError("--rule teams is for bridge matches; a euchre evening takes after-field or delay")
            session = None
        elif args.event:
            session = None
            bridge = EventNames(args.event)
        else:
            session = Session.open(args.session, readonly=True, analyse=False)
            bridge = SessionNames(args.session)     # the pairs' names, read again as each board starts
        # before anything reaches the broker: a run that cannot serve its page must not clear the boards
        # another run (the one holding the port) has on the spectators' topics
        busy = cannot_listen(host, int(port_text))
        if busy:
            raise ValueError(f"--listen {args.listen}: {busy}")
    except (ValueError, ReleaseError, SessionFileError, EventNamesError) as exc:
        for reader in (night, bridge):
            if reader is not None:
                reader.close()
        print(f"{name}: {exc}", file=sys.stderr)
        return 2
    if isinstance(bridge, EventNames):
        spec = bridge.spec
        room, other = event_rooms(spec)
        if args.rule == "teams" and not room:
            bridge.close()
            print(f"{name}: --rule teams is for a teams event; {spec.name} is {spec.kind.value}", file=sys.stderr)
            return 2
        lin = Path(args.lin) if args.lin else Path(args.event) / "lin"
        title = args.title or spec.name
        releaser = Releaser(release, {tid: k for k, tid in enumerate(bridge.tables, 1)}, board_tables(spec),
                            rooms=room, other_room=other, lin_dir=lin, title=title, names_now=bridge.sides,
                            session=session_id(Path(args.event)))
    elif session is None:
        tables = {tid: k for k, tid in enumerate(ids, 1)}
        title = args.title or (night.night.setup.name if night is not None else "Euchre")
        releaser = Releaser(release, tables, {}, games=dict.fromkeys(tables, "euchre"),
                            records_dir=Path(args.out) / "euchre", title=title,
                            euchre_names=night.seats if night is not None else None,
                            session=session_id(Path(args.euchre_night)) if args.euchre_night else "")
    else:
        setup = session.state.setup
        session.close()
        movement = build_movement(setup.movement)
        unknown = sorted(set(rooms) - set(setup.tables.values()))
        if unknown:
            print(f"{name}: --teams names table {unknown[0]}, which is not in the session", file=sys.stderr)
            if bridge is not None:
                bridge.close()
            return 2
        lin = Path(args.lin) if args.lin else Path(args.session) / "lin"
        title = args.title or setup.name
        assert bridge is not None
        releaser = Releaser(release, dict(setup.tables), plays_of(movement), rooms=rooms, other_room=other,
                            lin_dir=lin, title=title, names_now=bridge.sides, session=session_id(Path(args.session)))
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    digest = releaser.session or session_id(Path(args.out))
    state = Path(args.state) if args.state else default_path(digest)
    for folder in (releaser.lin_dir, releaser.records_dir):   # both are published as they are written
        if folder is not None and state.resolve().is_relative_to(folder.resolve()):
            print(f"{name}: --state {state} is in {folder}, which is published as it is written, and the state "
                  "holds cards not yet released: keep it elsewhere (by default it is under ~/.local/state)",
                  file=sys.stderr)
            for reader in (night, bridge):
                if reader is not None:
                    reader.close()
            return 2
    try:
        received = Received(state, digest)
    except (OSError, StateFileError) as exc:
        print(f"{name}: --state: {exc}" if isinstance(exc, StateFileError) else
              f"{name}: --state: {exc.filename}: cannot be written ({exc.strerror})", file=sys.stderr)
        for reader in (night, bridge):
            if reader is not None:
                reader.close()
        return 2
    service = BroadcastService(releaser, args.host, args.port, broadcast_pw, received=received,
                               session_word=bridge.done if bridge is not None else None)
    service.start()
    service.wait_ready(10)
    if service.login_refused:
        service.stop()
        for reader in (night, bridge):
            if reader is not None:
                reader.close()
        print(f"{name}: --password-file {args.password_file}: the broker at {args.host}:{args.port} refused the "
              f"login 'broadcast' ({service.login_refused})", file=sys.stderr)
        return 2
    page = SpectatorPage(args.host, args.port, spectator_pw, title=title, password=private)
    server = serve(page, host, int(port_text))
    where = releaser.lin_dir or releaser.records_dir
    print(f"broadcasting {len(releaser.tables)} tables by the rule {release.rule.value}; records in {where}; the "
          f"page on http://{args.listen}/", flush=True)
    try:
        thread = threading.Thread(target=server.run, name="spectator-page", daemon=True)
        thread.start()
        from firmware_host.commands.stopping import stop_event
        stop = stop_event()
        while thread.is_alive() and not stop.wait(0.5):
            pass
        page.end_streams()          # the browsers' streams end first: no task left to cancel, no traceback
        server.should_exit = True
        thread.join(5)
    finally:
        service.stop()
        for reader in (night, bridge):
            if reader is not None:
                reader.close()
    if not server.started and not stop.is_set():
        # the address was free when checked and taken before uvicorn bound it: uvicorn's own ERROR line,
        # then "stopped: ...", exit 0, as if the spectators had had their page
        print(f"{name}: --listen {args.listen}: the page did not start there (the address was taken after it "
              "was checked; uvicorn's line above says why)", file=sys.stderr)
        return 2
    print(f"stopped: {releaser.taken} rows taken, {releaser.refused} refused, {service.published} published, "
          f"{service.cleared} left by an earlier run cleared, {service.recovered} kept from an earlier run of this "
          f"session, {releaser.missed} of boards whose start it never took not shown")
    return 0
