"""``cardtable club ...``: the club installation (broker, dashboard, director logins, a simulated club).

See docs/mqtt.md.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

from firmware_host.commands.guard import number, port

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path



class DefaultsShown(argparse.HelpFormatter):
    """Help that shows each option's default after its words, where it has one worth saying (not for a
    switch or an option whose words say what happens without it)."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        shown = action.default is not None and action.default is not False and action.default != argparse.SUPPRESS
        if shown and "%(default)" not in text:
            text += " (default: %(default)s)"
        return text


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("club", help="the club's machine: broker, certs, dashboard, adduser, verify, demo "
                       "(a simulated club); a federation's federate, records, uplink")
    csub = p.add_subparsers(dest="club_command", metavar="WHAT")
    csub.required = True

    b = csub.add_parser("broker", help="run a local Mosquitto for a small club (passwords and ACL made here)")
    b.add_argument("--dir", default="club-broker", help="folder for its config, passwords and ACL")
    b.add_argument("--port", type=port, default=1883)
    b.add_argument("--bind", default="127.0.0.1", help="address to listen on (the club's LAN address)")
    b.add_argument("--table", action="append", default=[], metavar="ID", help="a table id (repeatable)")
    b.add_argument("--tables", type=int, default=None, help="or: N tables named table-01 ...")
    b.add_argument("--viewer", action="append", default=[], metavar="NAME",
                   help="a login of its own with a spectator's rights, for a program that reads the broadcast "
                        "(a vugraph relay, a second page): 'spectator' is the spectators' page's (repeatable)")
    b.add_argument("--certfile", help="TLS: the broker's certificate (PEM, signed by the club's CA)")
    b.add_argument("--keyfile", help="TLS: the broker's private key (PEM)")
    b.add_argument("--federation", action="append", default=[], metavar="PATH",
                   help="a simultaneous across clubs: the file `cardtable club federate --out` wrote, or a folder "
                        "of such files (every file in it not named .*); its bridge, its uplink's login and ACL "
                        "lines are added at every start (repeatable)")
    b.set_defaults(func=_broker)  # commands.club_broker

    c = csub.add_parser("certs", help="make a club CA and the broker's TLS certificate (openssl)")
    c.add_argument("--dir", default="club-certs", help="folder for the CA and the broker's certificate")
    c.add_argument("--host", action="append", default=[], metavar="NAME",
                   help="a name or address the tables use to reach the broker (repeatable)")
    c.set_defaults(func=_certs)

    d = csub.add_parser("dashboard", help="serve the director's dashboard")
    d.add_argument("--broker-host", default="localhost")
    d.add_argument("--broker-port", type=port, default=1883)
    d.add_argument("--mqtt-user", default="dashboard")
    d.add_argument("--mqtt-password-file", required=True, help="file holding the dashboard's broker password")
    d.add_argument("--tls", action="store_true", help="TLS to the broker")
    d.add_argument("--ca-file", help="with --tls: the club CA that signed the broker's certificate")
    d.add_argument("--users", required=True, help="directors' users file (cardtable club adduser)")
    d.add_argument("--host", default="127.0.0.1")
    d.add_argument("--port", type=port, default=8080)
    # a login lasts this long: -1 or nan was taken, and every login then expired at once (a page that logs
    # its director out as he logs in); a week at most
    d.add_argument("--session-minutes", type=number(0, 7 * 24 * 60, above=True), default=480.0,
                   help="how long a director's login lasts (above 0, at most 10080: a week)")
    d.add_argument("--secure-cookie", action="store_true",
                   help="behind an HTTPS proxy that does not say so: mark the cookies Secure anyway")
    d.add_argument("--certfile", help="serve HTTPS: the dashboard's certificate (PEM)")
    d.add_argument("--keyfile", help="serve HTTPS: its private key (PEM)")
    d.add_argument("--forwarded-allow-ips", metavar="ADDR",
                   help="behind a reverse proxy at ADDR: believe its X-Forwarded-For/-Proto headers")
    d.add_argument("--heads", metavar="FILE", help="where the club keeps every table's journal heads, "
                   "append-only (default: USERS.heads.jsonl beside the users file)")
    d.add_argument("--euchre", metavar="DIR",
                   help="run the euchre night in DIR (cardtable euchre open) live: /euchre")
    d.add_argument("--session", metavar="DIR",
                   help="run the duplicate session in DIR (cardtable duplicate open) live: /duplicate")
    d.add_argument("--event", metavar="DIR",
                   help="run the event in DIR (cardtable event open) live: /event (not with --session)")
    d.set_defaults(func=_dashboard)

    v = csub.add_parser("verify", help="check a table's journal against the journal heads the club holds")
    v.add_argument("table", help="the table's id")
    v.add_argument("--heads", required=True, metavar="FILE", help="the dashboard's heads file (--heads)")
    v.add_argument("--journal", required=True, metavar="PATH",
                   help="the table's journal (its data directory or journal file, copied or mounted)")
    v.set_defaults(func=_verify)

    u = csub.add_parser("adduser", help="add or change a director's dashboard login")
    u.add_argument("--users", required=True, help="the users file (created if missing)")
    u.add_argument("name")
    u.add_argument("--password-stdin", action="store_true", help="read the password from standard input")
    u.set_defaults(func=_adduser)

    m = csub.add_parser("demo", help="a simulated club: local broker, N tables and the dashboard",
                        formatter_class=DefaultsShown)
    m.add_argument("--tables", type=int, default=10, help="how many simulated tables (1-500)")
    m.add_argument("--rate", type=float, default=2.0, help="events per second per table")
    m.add_argument("--port", type=port, default=8080, help="the dashboard's port on 127.0.0.1")
    m.add_argument("--dir", default=None,
                   help="working folder for the broker's files and the tables' journals (none: a temporary "
                        "one, removed at the end)")
    m.add_argument("--password", default=None, help="the director's password (none: a random one, printed)")
    m.add_argument("--duration", type=float, default=0.0, help="stop after this many seconds (0: at Ctrl-C)")
    m.add_argument("--reveal-cards", action="store_true",
                   help="let card identities leave the tables live (teaching tables only)")
    m.set_defaults(func=_demo)
    from firmware_host.commands.federation import register_club_verbs

    register_club_verbs(csub)


def _broker(args: argparse.Namespace) -> int:
    from firmware_host.commands.club_broker import run_broker

    return run_broker(args)


def _certs(args: argparse.Namespace) -> int:
    from firmware_host.club.certs import CertError, host_problem, make_broker_cert, make_club_ca

    if not args.host:   # refused before the CA is made: a refused command leaves nothing behind
        print("club certs: name at least one host name or address the tables use to reach the broker "
              "(--host NAME, repeatable)", file=sys.stderr)
        return 2
    for host in args.host:
        if host_problem(host):
            print(f"club certs: --host {host_problem(host)}", file=sys.stderr)
            return 2
    try:
        ca = make_club_ca(args.dir)
        cert, key = make_broker_cert(args.dir, args.host)
    except CertError as exc:
        print(f"club certs: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:   # --dir under a file, or a folder that cannot be made or written
        print(f"club certs: --dir {args.dir}: cannot write the certificates there "
              f"({exc.strerror or exc})", file=sys.stderr)
        return 2
    print(f"club CA: {ca} (copy to each table: [mqtt] tls = true, ca_file; and the dashboard's --ca-file)")
    print(f"broker: cardtable club broker --certfile {cert} --keyfile {key} ...")
    print(f"keep {ca.with_suffix('.key')} off the tables")
    return 0


def shared_tables(night: Sequence[str], other: Sequence[str]) -> str:
    """The club tables a euchre night shares with a session or event on one dashboard, in words ("" when
    none). Both would publish each table's seating, retained, on the one topic a table reads
    (``cardtable/session/table/<table>``), the later overwriting the earlier, and one table (one broker
    login) plays one game at a time: ``docs/euchre.md``, "On the director's server", refuses it at the
    start rather than give the tables a topic each."""
    both = sorted(set(night) & set(other))
    if len(both) > 4:
        return f"{', '.join(both[:3])} and {len(both) - 3} more"
    return ", ".join(both)


def _dashboard(args: argparse.Namespace) -> int:
    from pathlib import Path

    from firmware_host.club.dashboard import Dashboard, serve
    from firmware_host.commands.guard import Refused, cannot_listen, read_secret
    from firmware_host.web.auth import UsersError, load_users

    try:
        users = load_users(args.users)
        password = read_secret(args.mqtt_password_file, "--mqtt-password-file")
    except (UsersError, OSError, Refused) as exc:
        print(f"club dashboard: {exc}", file=sys.stderr)
        return 2
    if not users:
        print(f"club dashboard: {args.users} has no users; add one with `cardtable club adduser`",
              file=sys.stderr)
        return 2
    if args.ca_file and (not args.tls or not Path(args.ca_file).is_file()):
        why = "is for TLS: add --tls" if not args.tls else "does not exist"
        print(f"club dashboard: --ca-file {args.ca_file} {why}", file=sys.stderr)
        return 2
    if bool(args.certfile) != bool(args.keyfile) or any(f and not Path(f).is_file()
                                                          for f in (args.certfile, args.keyfile)):
        print(f"club dashboard: HTTPS needs --certfile and --keyfile naming existing PEM files (got "
              f"{args.certfile!r}, {args.keyfile!r})", file=sys.stderr)
        return 2
    try:
        device_key = _device_key(Path(args.users))
    except OSError as exc:
        print(f"club dashboard: cannot keep the known-device key beside {args.users}: {exc}", file=sys.stderr)
        return 2
    night = None
    if args.euchre:
        from firmware_host.euchre_night.session import NightError, NightSession
        from firmware_host.euchre_night.session import SessionFileError as NightFileError

        try:
            night = NightSession.open(args.euchre)
        except (NightError, NightFileError) as exc:
            print(f"club dashboard: {exc}", file=sys.stderr)
            return 2
    from firmware_host.club.heads import HeadBook

    heads_path = Path(args.heads) if args.heads else Path(args.users).with_name(Path(args.users).name + ".heads.jsonl")
    try:
        heads = HeadBook(heads_path)
    except OSError as exc:
        print(f"club dashboard: cannot keep the journal heads in {heads_path}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    busy = cannot_listen(args.host, args.port)   # before any address is printed: one line, exit 2
    if busy:
        heads.close()
        if night is not None:
            night.close()
        print(f"club dashboard: --port {args.port}: {busy}", file=sys.stderr)
        return 2
    desk = None
    if args.session and args.event:
        heads.close()
        print("club dashboard: --session and --event both take the tables' results: give one", file=sys.stderr)
        return 2
    event = None
    if args.event:
        from firmware_host.events.desk import EventDesk
        from firmware_host.events.session import EventFileError, EventSession

        try:
            event = EventDesk(EventSession.open(args.event))
        except EventFileError as exc:
            heads.close()
            print(f"club dashboard: {exc}", file=sys.stderr)
            return 2
    if args.session:
        import time

        from firmware_host.club.heads import SESSION_HEADS, opening_name
        from firmware_host.records.journal import JournalError
        from firmware_host.session.duplicate_session import Session, SessionDesk, SessionFileError

        try:  # the session's own head is kept beside the tables', under its own name (docs/session.md)
            session = Session.open(args.session)
            name = opening_name(session.journal) or SESSION_HEADS
            desk = SessionDesk(session, keep_head=heads.keeper(name, time.time,
                                                               str(session.journal.path.resolve())))
        except (SessionFileError, JournalError) as exc:
            heads.close()
            print(f"club dashboard: {exc}", file=sys.stderr)
            return 2
        desk.keep_head(desk.session.journal.read_head())  # type: ignore[misc]
    if night is not None:
        other = ("--session", tuple(desk.session.state.number_of)) if desk is not None else (
            ("--event", tuple(event.session.tables)) if event is not None else ("", ()))
        shared = shared_tables(night.night.setup.tables, other[1])
        if shared:
            for close in (night.close, heads.close, *((desk.session.close,) if desk is not None else ()),
                          *((event.session.close,) if event is not None else ())):
                close()
            print(f"club dashboard: --euchre and {other[0]} both seat {shared}: a table plays one game at a time, "
                  f"and each would publish its seating, retained, on cardtable/session/table/<table>: give one",
                  file=sys.stderr)
            return 2
    dash = Dashboard(args.broker_host, args.broker_port, args.mqtt_user, password, users,
                     session_ttl=args.session_minutes * 60, tls=args.tls, ca_file=args.ca_file,
                     secure_cookie=args.secure_cookie, device_key=device_key, heads=heads, duplicate=desk,
                     event=event, logins=Path(args.users).with_name(Path(args.users).name + ".logins"))
    scheme = "https" if args.certfile else "http"
    print(f"dashboard on {scheme}://{args.host}:{args.port}/")
    if night is not None:
        from firmware_host.euchre_night.desk import NightDesk
        from firmware_host.euchre_night.screens import mount

        mount(dash, NightDesk(night))
        print(f"euchre night {night.night.setup.name}: {scheme}://{args.host}:{args.port}/euchre")
    if desk is not None:
        print(f"duplicate session: {scheme}://{args.host}:{args.port}/duplicate")
    if event is not None:
        print(f"event {event.session.event.spec.name}: {scheme}://{args.host}:{args.port}/event")
    try:  # uvicorn stops on SIGTERM as on SIGINT (its own handlers), then the lifespan ends
        serve(dash, args.host, args.port, certfile=args.certfile, keyfile=args.keyfile,
              forwarded_allow_ips=args.forwarded_allow_ips).run()
    finally:
        if night is not None:
            night.close()
        heads.close()
        if event is not None:
            event.session.close()
        if desk is not None:
            desk.session.close()
    return 0


def _verify(args: argparse.Namespace) -> int:
    """Exit 0: the journal holds every head the club kept for the table; 1: it does not (or its chain is
    broken, or the heads kept for a session's journal file are another session's: its opening row was
    rewritten); 2: the journal or the heads cannot be read, or the club holds no head of that table.

    ``session`` checks a duplicate session's journal against the heads kept for that session (the name
    its opening row gives, ``club.heads.session_name``); ``session:ID`` names the session's heads
    outright, as the heads file spells them."""
    from firmware_host.club.heads import SESSION_HEADS, opening_rewritten, read_heads, session_heads, verify
    from firmware_host.records.journal import Journal, JournalError

    table = args.table
    is_session = table == SESSION_HEADS or table.startswith(SESSION_HEADS + ":")
    if not os.path.exists(args.heads):  # read_heads takes a missing file as empty: here it is a typo
        print(f"club verify: {args.heads}: cannot read the heads (no such file)", file=sys.stderr)
        return 2
    try:
        got = read_heads(args.heads, None if is_session else table)
    except OSError as exc:
        print(f"club verify: {args.heads}: cannot read the heads ({exc.strerror or exc})", file=sys.stderr)
        return 2
    if got.not_heads():   # another file named by mistake: one line, not one warning for each of its lines
        print(f"club verify: {got.not_heads()}", file=sys.stderr)
        return 2
    if got.bad:           # a torn last line after a power cut: counted once, the heads still checked
        print(f"club verify: {got.passed_over()}", file=sys.stderr)
    heads = got.heads
    try:
        with Journal.open_readonly(args.journal) as journal:
            if is_session:
                every, heads = heads, session_heads(heads, journal, None if table == SESSION_HEADS else table)
                rewritten = opening_rewritten(every, journal.path) if not heads and table == SESSION_HEADS else ""
                if rewritten:   # this file's session was kept under another opening row: tampered, not unknown
                    print(f"club verify: TAMPERED: table {table}: {rewritten}", file=sys.stderr)
                    return 1
            if not heads:
                what = f"table {table!r}" if not is_session else (
                    "this session (the session named by its journal's opening row; either it never ran under "
                    "this dashboard, or this journal is a copy: name the session as the heads file spells it, "
                    "session:ID, to check it against those heads)" if table == SESSION_HEADS else table)
                print(f"club verify: {args.heads} holds no journal head of {what}", file=sys.stderr)
                return 2
            checked = verify(journal, heads)
    except JournalError as exc:
        print(f"club verify: {exc}", file=sys.stderr)
        return 2
    last = max(heads, key=lambda h: h.row)
    if checked.ok:
        print(f"table {table}: journal intact, {checked.rows} rows; it holds all {checked.heads} heads the "
              f"club kept (the newest: row {last.row})")
        return 0
    for problem in checked.problems:
        print(f"club verify: TAMPERED: table {table}: {problem}", file=sys.stderr)
    return 1


def _device_key(users: Path) -> bytes:
    """The secret that signs the directors' known-device cookies, kept beside the users file (mode 0600)
    so a restarted dashboard still knows their browsers."""
    import os
    import secrets

    path = users.with_name(users.name + ".device-key")
    if not path.exists():
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(secrets.token_hex(32) + "\n")
    try:
        key = bytes.fromhex(path.read_text(encoding="ascii").strip())
    except (UnicodeDecodeError, ValueError):
        key = b""
    if len(key) < 16:
        raise OSError(f"{path} is not a key written by the dashboard (delete it to make a new one)")
    return key


def _adduser(args: argparse.Namespace) -> int:
    import getpass

    from firmware_host.web.auth import UsersError, add_user

    if args.password_stdin:
        password = sys.stdin.readline().rstrip("\n")
    else:
        password = getpass.getpass(f"password for {args.name}: ")
        if getpass.getpass("again: ") != password:
            print("club adduser: the passwords differ", file=sys.stderr)
            return 2
    try:
        add_user(args.users, args.name, password)
    except UsersError as exc:
        print(f"club adduser: {exc}", file=sys.stderr)
        return 2
    print(f"{args.name} can now log in to the dashboard ({args.users})")
    return 0


def _demo(args: argparse.Namespace) -> int:
    import math
    import secrets
    import tempfile

    from firmware_host.club.broker import BrokerError
    from firmware_host.club.club_demo import ClubDemo

    if not 1 <= args.tables <= 500:
        print("club demo: --tables must be 1-500", file=sys.stderr)
        return 2
    # a rate of 0 divided by zero in a table's thread (a traceback, the demo going on without it); a
    # negative, infinite or NaN one, or a negative duration (run for ever), ran as if it made sense
    if not (math.isfinite(args.rate) and 0 < args.rate <= 1000):
        print(f"club demo: --rate {args.rate}: events a second a table, above 0 and at most 1000", file=sys.stderr)
        return 2
    if not (math.isfinite(args.duration) and args.duration >= 0):
        print(f"club demo: --duration {args.duration}: seconds, 0 (until Ctrl-C) or more", file=sys.stderr)
        return 2
    # a --port another program holds, or a --dir that cannot be a folder, was found only once the broker had
    # started: "the dashboard did not start on port P" after uvicorn's own ERROR line, or "[Errno 20] Not a
    # directory: 'notes.txt/broker'", both exit 1
    from firmware_host.commands.guard import cannot_listen

    busy = cannot_listen("127.0.0.1", args.port) if args.port else ""
    if busy:
        print(f"club demo: --port {args.port}: {busy}", file=sys.stderr)
        return 2
    if args.dir is not None:
        from pathlib import Path

        try:
            Path(args.dir).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            why = "a file of that name is there" if isinstance(exc, FileExistsError) else exc.strerror or exc
            print(f"club demo: --dir {args.dir}: cannot be the demo's folder ({why})", file=sys.stderr)
            return 2
    tmp = None
    if args.dir is None:
        tmp = tempfile.TemporaryDirectory(prefix="cardtable-club-")
    workdir = args.dir or tmp.name  # type: ignore[union-attr]
    password = args.password or secrets.token_urlsafe(9)
    demo = ClubDemo(workdir, args.tables, rate=args.rate, http_port=args.port, director=("director", password),
                    reveal_cards=args.reveal_cards)
    from firmware_host.commands.stopping import stop_event, wait

    stop = stop_event()  # SIGTERM as Ctrl-C: the broker, the tables and the dashboard are stopped
    try:
        try:
            demo.start()
        except (BrokerError, FileNotFoundError, OSError) as exc:
            print(f"club demo: {exc}", file=sys.stderr)
            return 1
        if not demo.wait_ready():
            print(f"club demo: the dashboard did not start on port {demo.http_port}", file=sys.stderr)
            return 1
        print(f"{args.tables} simulated tables on mosquitto port {demo.broker.port}")
        print(f"dashboard: {demo.url}  (user 'director', password {password!r})", flush=True)
        wait(stop, args.duration if args.duration > 0 else None)
    finally:
        demo.stop()
        if tmp is not None:
            tmp.cleanup()
    return 0
