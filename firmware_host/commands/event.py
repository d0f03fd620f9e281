"""``cardtable event open|run|export``: an event beyond one pairs field (teams of four, Swiss, individual).

* ``open FOLDER --kind K --entrants N --rounds R --boards B --tables T1,T2,... [--scale FILE] [--bye-vp V]
  [--name TEXT] [--individual balanced|published] [--records FILE] [--roster ROSTER.csv] [--names FILE]``: a
  new event (its journal, round 1 drawn, each competitor of ``--names`` journaled as a ``names`` record; the
  roster kept as ``roster.csv`` in the folder; the hand records, when given, in the journal's opening row
  with their commitment: each seated table is sent its round's records); prints round 1's draw. An event
  whose largest message to a table would not fit the club broker's packet is refused (``_too_big``).
* ``run FOLDER --broker HOST:PORT --user U --password-file F [--http HOST:PORT]``: the event on the broker
  and its pages on the director's server (``club/event_screens.py``, behind its login) until Ctrl-C.
* ``export FOLDER --site OUT [--force] [--club NAME] [--club-id N]``: the published folder (index.html,
  results.pbn, results.xml) of the complete rounds.

Anything that cannot be done gives one line on standard error naming what and where, and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from laws.session.event.event_kind import EventSetup

KINDS = ("teams-round-robin", "teams-knockout", "swiss-teams", "swiss-pairs", "individual", "pairs-sections")


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("event", help="teams of four, Swiss, individual and sections events: open, run, export")
    verbs = p.add_subparsers(dest="verb", required=True)
    o = verbs.add_parser("open", help="a new event in a folder, round 1 drawn")
    o.add_argument("folder")
    o.add_argument("--kind", required=True, choices=KINDS)
    o.add_argument("--entrants", required=True, type=int, help="teams, pairs or players (numbered from 1)")
    o.add_argument("--rounds", required=True, type=int)
    o.add_argument("--boards", required=True, type=int, help="boards a round")
    o.add_argument("--tables", required=True, help="the club's table ids, comma-separated, event table 1 first")
    o.add_argument("--scale", metavar="FILE", help="a discrete VP scale file (default: the WBF continuous scale)")
    o.add_argument("--bye-vp", help="a bye's VPs (default 12; teams round robins and Swiss only)")
    o.add_argument("--name", default="Event")
    o.add_argument("--sections", metavar="NAME:TABLES:MOVEMENT[:ROUNDS],...",
                   help="pairs-sections: each section, e.g. A:5:mitchell,B:4:howell; a Mitchell's "
                        "arrow-switched rounds after a fourth ':', joined by '+' (A:5:mitchell:5)")
    o.add_argument("--across", action="store_true", help="pairs-sections: matchpoint across the field")
    o.add_argument("--asc", action="append", default=[], metavar="SECTION=FILE",
                   help="pairs-sections: the .ASC movement file of a section whose movement is asc (A:8:asc)")
    o.add_argument("--individual", choices=("balanced", "published"),
                   help="individual: the balanced movement (every two players partners once, opponents equally "
                        "often: the default) or the published table for the number (docs/movements.md)")
    o.add_argument("--records", metavar="FILE", help="the club's hand records (.pbn, .bri or .dup): sent to each "
                   "table with its round, so the tables need no records file; every board the event plays")
    o.add_argument("--roster", metavar="FILE", help="the club's roster: a CSV 'member number,name[,federation number]'")
    o.add_argument("--names", metavar="FILE", help="who plays: a CSV 'number,[team name,]player,...' (players: "
                   "member numbers from --roster, or visitors' names)")
    o.set_defaults(func=_open)
    r = verbs.add_parser("run", help="the event on the broker, with its pages")
    r.add_argument("folder")
    r.add_argument("--broker", default="127.0.0.1:1883", metavar="HOST:PORT")
    r.add_argument("--user", default="dashboard")
    r.add_argument("--password-file", required=True, metavar="FILE")
    r.add_argument("--http", default="127.0.0.1:8090", metavar="HOST:PORT")
    r.add_argument("--users", required=True, metavar="FILE",
                   help="the director's logins (cardtable club adduser): the pages are behind this login, as "
                        "on the director's server")
    r.set_defaults(func=_run)
    e = verbs.add_parser("export", help="the published folder of the complete rounds")
    e.add_argument("folder")
    e.add_argument("--site", required=True, metavar="OUT")
    e.add_argument("--force", action="store_true")
    e.add_argument("--club", default="")
    e.add_argument("--club-id", default="")
    e.set_defaults(func=_export)


def _fail(message: str) -> int:
    print(f"cardtable event: {message}", file=sys.stderr)
    return 2


def _open(args: argparse.Namespace) -> int:
    from fractions import Fraction

    from firmware_host.events.session import EventFileError, EventSession
    from laws.competition.event_spec import EventError, EventKind, EventSpec, SectionSpec
    from laws.competition.vp import ScaleError, read_discrete
    from laws.session.event.event_kind import EventSetup

    if args.kind in ("individual", "pairs-sections") and (args.scale or args.bye_vp is not None):
        return _fail(f"--scale and --bye-vp are for events scored in VPs (teams and Swiss), not {args.kind}")
    if args.kind == "teams-knockout" and args.bye_vp is not None:
        return _fail("--bye-vp: a knock-out's bye scores no VPs, it just goes through")
    if args.across and args.kind != "pairs-sections":
        return _fail(f"--across is for pairs-sections (matchpoints across the sections), not {args.kind}")
    if args.individual is not None and args.kind != "individual":   # taken and left unused, without a word
        return _fail(f"--individual {args.individual} is for an individual's movement, not {args.kind}")
    scale = None
    if args.scale:
        try:
            scale = read_discrete(Path(args.scale).read_text(encoding="utf-8"), args.scale)
        except OSError as exc:
            return _fail(f"{args.scale}: cannot read ({exc.strerror or exc})")
        except UnicodeDecodeError:
            return _fail(f"{args.scale}: the scale is not UTF-8 text")
        except ScaleError as exc:
            return _fail(str(exc))
    try:
        bye = Fraction(args.bye_vp if args.bye_vp is not None else 12)
    except (ValueError, ZeroDivisionError):
        return _fail(f"--bye-vp is a number, got {args.bye_vp!r}")
    sections = []
    for part in (args.sections or "").split(","):
        if not part.strip():
            continue
        words = part.strip().split(":")
        switched = words[3].split("+") if len(words) == 4 else []
        if len(words) not in (3, 4) or not words[1].isdigit() or not all(r.isdigit() for r in switched):
            return _fail(f"--sections: each section is NAME:TABLES:MOVEMENT[:SWITCHED ROUNDS] (rounds joined by "
                         f"'+'), got {part.strip()!r}")
        sections.append(SectionSpec(words[0], int(words[1]), words[2], tuple(int(r) for r in switched)))
    files = {}
    for given in args.asc:
        name, eq, path = given.partition("=")
        if not eq or not name or not path:
            return _fail(f"--asc: give SECTION=FILE, got {given!r}")
        try:
            files[name] = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            return _fail(f"--asc {given}: cannot read ({getattr(exc, 'strerror', None) or exc})")
    unused = set(files) - {sec.name for sec in sections if sec.movement == "asc"}
    if unused:
        return _fail(f"--asc: no section {sorted(unused)[0]!r} with the movement asc in --sections")
    sections = [replace(sec, asc=files.get(sec.name, "")) if sec.movement == "asc" else sec for sec in sections]
    from firmware_host.duplicate.handrecords.handfiles import HandRecordError, read_hand_records
    from firmware_host.events.names import read_names
    from firmware_host.session.roster import ROSTER_FILE, RosterError, read_roster

    try:
        boards = tuple(read_hand_records(args.records)) if args.records else ()
    except HandRecordError as exc:
        return _fail(str(exc))

    try:
        spec = EventSpec(EventKind(args.kind), args.entrants, args.rounds, args.boards, scale, bye, args.name,
                         tuple(sections), args.across, args.individual or "balanced")
        roster = read_roster(args.roster) if args.roster else None      # refused before anything is made
        named = read_names(args.names, spec, roster) if args.names else []
        tables = [t.strip() for t in args.tables.split(",") if t.strip()]
        too_big = _too_big(args.records, EventSetup(spec, tuple(tables), boards))   # before anything is made
        if too_big:
            return _fail(too_big)
        session = EventSession.create(args.folder, spec, tables, boards=boards)
    except (EventError, EventFileError, RosterError) as exc:   # an event's folder is called so, not a session's
        return _fail(str(exc).replace("cannot be the session's folder", "cannot be the event's folder"))
    except OSError as exc:    # the folder is a file, or lies under one; it cannot be made
        return _fail(f"{args.folder}: cannot be the event's folder ({exc.strerror or exc})")
    if roster is not None:
        (session.journal.path.parent / ROSTER_FILE).write_bytes(Path(args.roster).read_bytes())
    for rec in named:
        outcome = session.take(rec)
        if outcome.status != "taken":   # checked above as the event checks it: not expected
            session.close()
            return _fail(f"{args.names}: competitor {rec['competitor']}: {outcome.why}")
    d = session.event.draws[1]
    print(f"{spec.name}: round 1, boards {d.boards[0]}-{d.boards[-1]}")
    for name, movement in spec.movements().items() if spec.sections else ():
        print(f"  section {name}: {movement.name}")
    for t in d.tables:
        print(f"  {session.table_id(t.table)}: N {t.north.number} S {t.south.number} E {t.east.number} "
              f"W {t.west.number}"
              + (f" ({t.room} room)" if t.room else "")
              + (f" (section {t.section}, N-S {t.pairs[0]}, E-W {t.pairs[1]}, boards {t.boards[0]}-{t.boards[-1]})"
                 if t.section else ""))
    for b in d.byes:
        print(f"  {b.number}: bye")
    if boards:
        from firmware_host.commands.boards import commitment_lines

        setup = session.state.setup
        for line in commitment_lines(args.records, setup.boards, setup.played):
            print(f"  {line}")
    if named:
        print(f"  {len(named)} named from {args.names}"
              + (f" (roster of {len(roster)} members kept in {ROSTER_FILE})" if roster is not None else ""))
    session.close()
    return 0


def _too_big(records: str | None, setup: EventSetup) -> str:
    """Why the event's messages to its tables would not fit a club broker's packet ("" when they fit): each
    carries the hash of every board of the hand records, the records of its round and its competitors'
    names, and the broker refuses a packet over its limit by dropping the desk's client, so no table would
    be told its round (``docs/competitions.md``, "The answer and the table's seating")."""
    from firmware_host.events.desk import largest_table_message
    from firmware_host.wire.duplicate import SEATING_MOST, SEATING_REST

    most = largest_table_message(setup) + SEATING_REST
    if most <= SEATING_MOST:
        return ""
    spec = setup.spec
    where, fewer = ((f"--records {records}: ", " or give a file of fewer boards") if records else ("", ""))
    carries = (f"a hash of each of the file's {len(setup.boards)} boards, the records of its round's "
               f"{spec.boards_per_round} boards" if records else f"its round's {spec.boards_per_round} boards")
    return (f"{where}the event's messages to its tables would be too big: the largest would be {most:,} bytes "
            f"({SEATING_REST:,} of them kept for its answers), over the {SEATING_MOST:,} a club broker's 64 KiB "
            f"packet lets the event send a table; each carries {carries} and its competitors' names at their "
            f"longest (docs/competitions.md); play fewer boards a round{fewer}")


def _hostport(text: str, what: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit() or not 0 <= int(port) < 65536:
        raise ValueError(f"{what} is HOST:PORT, got {text!r}")
    return host, int(port)


def _run(args: argparse.Namespace) -> int:
    """The event on the broker, its pages served by the director's server (``club/dashboard.py``) with
    the event's desk and nothing else of a club night: the same login (``web/auth.py``), the same guard on
    every request that changes something (``web/guard.py``), a table's page opened by its key."""
    import signal

    from firmware_host.club.dashboard import Dashboard, serve
    from firmware_host.commands.club import _device_key
    from firmware_host.commands.guard import Refused, cannot_listen, read_secret
    from firmware_host.events.desk import EventDesk
    from firmware_host.events.session import EventFileError, EventSession
    from firmware_host.web.auth import UsersError, load_users

    try:
        host, port = _hostport(args.broker, "--broker")
        http_host, http_port = _hostport(args.http, "--http")
        password = read_secret(args.password_file, "--password-file")
    except (ValueError, Refused) as exc:
        return _fail(str(exc))
    try:
        users = load_users(args.users)
    except UsersError as exc:
        return _fail(f"--users: {exc}")
    if not users:
        return _fail(f"--users: {args.users} has no login (add one with `cardtable club adduser`)")
    try:  # the same key as `club dashboard`'s: a table's page keeps its key (and its link) across restarts
        device_key = _device_key(Path(args.users))
    except OSError as exc:
        return _fail(f"--users: cannot keep the known-device key beside {args.users}: {exc}")
    try:
        session = EventSession.open(args.folder)
    except EventFileError as exc:
        return _fail(str(exc))
    busy = cannot_listen(http_host, http_port)   # uvicorn would only log it and exit 1: say so here, exit 2
    if busy:
        session.close()
        return _fail(f"--http {args.http}: {busy}")
    dash = Dashboard(host, port, args.user, password, users, device_key=device_key, event=EventDesk(session))
    server = serve(dash, http_host, http_port)
    print(f"event {session.event.spec.name}: director's page http://{http_host}:{http_port}/event "
          "(the director's login)", flush=True)
    # uvicorn stops on SIGTERM as on SIGINT (its own handlers), then raises the signal again under the
    # handler it found: one that does nothing lets the event's journal close and the command exit 0
    signal.signal(signal.SIGTERM, lambda *a: None)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        session.close()
    return 0


def _export(args: argparse.Namespace) -> int:
    from firmware_host.events.files import SiteError, event_date, render, write_site
    from firmware_host.events.session import EventFileError, EventSession

    for name, value in (("--club-id", args.club_id), ("--club", args.club)):
        if len(value) > 64 or not value.isprintable():
            return _fail(f"{name} is at most 64 printable characters")
    try:
        session = EventSession.open(args.folder)
    except EventFileError as exc:
        return _fail(str(exc))
    try:
        deals = {b.number: b.deal.pbn() for b in session.state.setup.boards}
        files = render(session.event, event_date(session), club=args.club, club_id=args.club_id, deals=deals)
        written = write_site(args.site, files, force=args.force)
    except SiteError as exc:
        return _fail(str(exc))
    finally:
        session.close()
    for path in written:
        print(path)
    return 0
