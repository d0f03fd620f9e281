"""``cardtable club ...``: the club installation (broker, dashboard, director logins, a simulated club).

See docs/mqtt.md.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

from firmware_host.commands.guard import port

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from firmware_host.federation.bridgefile import ClubBridge


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
    b.set_defaults(func=_broker)

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
    d.add_argument("--session-minutes", type=float, default=480.0)
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


def _exit_on_sigterm() -> None:
    """SIGTERM (systemd, a timeout, a test) as Ctrl-C: ``finally`` stops the child processes."""
    from firmware_host.commands.stopping import exit_on_sigterm

    exit_on_sigterm()


def _broker(args: argparse.Namespace) -> int:
    import secrets
    from pathlib import Path

    from firmware_host.club.broker import DASHBOARD_USER, BrokerError, acl_text
    from firmware_host.club.club_demo import table_ids
    from firmware_host.federation.brokers import EventBroker
    from firmware_host.tablelink.checks import TABLE_ID
    from firmware_host.wire.topics import BROADCAST_USER, RESERVED_IDS, SPECTATOR_USER, TOPICS

    if args.tables is not None and not 1 <= args.tables <= 500:   # 0 was "none given"; 99999999999 made a password file a table, for ever
        print(f"club broker: --tables {args.tables}: 1 to 500 tables named table-01 ... (or name each with "
              "--table ID)", file=sys.stderr)
        return 2
    ids = list(args.table) + (table_ids(args.tables) if args.tables else [])
    if not ids:
        print("club broker: name the tables (--table ID ... or --tables N)", file=sys.stderr)
        return 2
    for tid in ids:
        if not TABLE_ID.match(tid) or tid in RESERVED_IDS:
            print(f"club broker: table id {tid!r} is not allowed (letters, digits, - or _; not "
                  f"{', '.join(repr(r) for r in RESERVED_IDS)})", file=sys.stderr)
            return 2
    for name in args.viewer:   # one login is one connection: a viewer on 'spectator' knocks the page off
        if not TABLE_ID.match(name) or name in RESERVED_IDS or name in ids or name == DASHBOARD_USER:
            print(f"club broker: --viewer {name!r} is not allowed (letters, digits, - or _; not a table's id, "
                  f"not {', '.join(repr(r) for r in RESERVED_IDS)})", file=sys.stderr)
            return 2
    viewers = list(dict.fromkeys(args.viewer))
    bridges = _bridges(args.federation, [DASHBOARD_USER, *RESERVED_IDS, *ids, *viewers])
    if isinstance(bridges, str):
        print(f"club broker: {bridges}", file=sys.stderr)
        return 2
    uplinks = [b.uplink_user for _path, b in bridges]
    tls = None
    if args.certfile or args.keyfile:
        for opt, f in (("--certfile", args.certfile), ("--keyfile", args.keyfile)):
            if not f or not Path(f).is_file():
                print(f"club broker: TLS needs {opt} naming an existing PEM file (got {f!r})", file=sys.stderr)
                return 2
        tls = (Path(args.certfile).resolve(), Path(args.keyfile).resolve())
    workdir = Path(args.dir)
    pwdir = workdir / "passwords"
    users = {}
    f = pwdir
    try:   # a --dir under a file, a password file that is a folder or not text: one line naming it
        pwdir.mkdir(parents=True, exist_ok=True)
        # the broadcast's logins too (docs/broadcast.md): its service's, and the spectators' page's
        for name in [DASHBOARD_USER, BROADCAST_USER, SPECTATOR_USER, *viewers, *ids, *uplinks]:
            f = pwdir / f"{name}.password"
            if not f.exists():
                f.write_text(secrets.token_urlsafe(16) + "\n", encoding="utf-8")
                f.chmod(0o600)
            users[name] = f.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as exc:
        why = getattr(exc, "strerror", None) or ("not UTF-8 text" if isinstance(exc, UnicodeDecodeError) else exc)
        print(f"club broker: {f}: cannot be used ({why})", file=sys.stderr)
        return 2

    def show(line: str) -> None:  # mosquitto's own log (logins, refusals, takeovers) at normal verbosity
        print(f"mosquitto: {line}", file=sys.stderr, flush=True)

    spectators = (SPECTATOR_USER, *viewers)
    # the federation's part (docs/federation.md): each bridge after the broker's own settings, each
    # uplink's lines after the club's ACL, written at every start with the rest. An uplink is no table:
    # the club's tree is denied to it, or the patterns would let it write as a table named after it
    uplink_acl = [b.acl(deny=(TOPICS.everything,)) for _p, b in bridges]
    broker = EventBroker(workdir, users, "\n".join([acl_text(spectators=spectators), *uplink_acl]),
                         extra="".join(f"\n# {path}\n{b.section()}" for path, b in bridges),
                         port=args.port, bind=args.bind, tls=tls, on_line=show, spectators=spectators)
    try:
        broker.write_files()
    except OSError as exc:
        print(f"club broker: --dir {workdir}: the broker's files cannot be written ({exc.strerror or exc})",
              file=sys.stderr)
        return 2
    _exit_on_sigterm()
    try:  # from here on a SIGTERM (SystemExit) or Ctrl-C at any line stops mosquitto in ``finally``
        try:
            broker.start()
        except BrokerError as exc:
            print(f"club broker: {exc}", file=sys.stderr)
            return 1
        print(f"mosquitto listening on {args.bind}:{broker.port}{' with TLS' if tls else ''} "
              f"(config {broker.conf_path})", flush=True)
        print(f"each table's password is in {pwdir}/<table>.password: copy it to the table and set "
              "[mqtt] username and password_file in its table.toml", flush=True)
        for name in viewers:
            print(f"viewer {name}: reads the broadcast as a spectator does, password in {pwdir}/{name}.password",
                  flush=True)
        for path, b in bridges:
            print(f"bridge {b.connection} to {b.host}:{b.port}{' with TLS' if b.cafile else ''} ({path}): event "
                  f"{b.event}, club {b.club}; its uplink's login {b.uplink_user}, password in "
                  f"{pwdir}/{b.uplink_user}.password (`club records`, `club uplink`)", flush=True)
        assert broker.proc is not None
        rc = broker.proc.wait()
        # mosquitto stopped by itself (kill -9, the OOM killer, a crash): say so, and fail, so that the
        # unit starts the broker again; a SIGTERM or Ctrl-C to this command never reaches this line
        how = f"killed by signal {-rc}" if rc < 0 else f"exit status {rc}"
        print(f"club broker: mosquitto stopped ({how}); the tables keep what they would send in their "
              "outboxes and send it once a broker runs again: start this command again", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
    finally:
        broker.stop()


def _bridges(paths: Sequence[str], taken: Sequence[str]) -> list[tuple[Path, ClubBridge]] | str:
    """The bridges ``--federation`` names (each PATH a file ``club federate`` wrote, or a folder of them:
    every file in it whose name does not begin with a dot, in name order; an empty folder is no bridge),
    or what is wrong, in one line naming the file: a path missing or unreadable, a file that is not what
    ``club federate`` writes or whose name holds a line end or another control character, a bridge's TLS
    CA missing, an uplink login that is a table's, a viewer's or
    one the club's broker keeps (``taken``), or that two files name (one login is one connection: two
    uplinks on it knock each other off), or two files bridging the same event and club."""
    from pathlib import Path

    from firmware_host.federation.bridgefile import BridgeFileError, read_bridge

    files: list[Path] = []
    for given in paths:
        path = Path(given)
        if path.is_dir():
            try:
                files += sorted(f for f in path.iterdir() if not f.name.startswith("."))
            except OSError as exc:
                return f"--federation {path}: cannot be read ({exc.strerror or exc})"
        elif path.exists():
            files.append(path)
        else:
            return f"--federation {path}: no such file or folder (the file `cardtable club federate --out` wrote)"
    out: list[tuple[Path, ClubBridge]] = []
    for f in files:
        # the path is written into mosquitto.conf as a comment above its section: a line end in a file's
        # name would start a line Mosquitto reads as a setting of its own (a listener, allow_anonymous)
        if any(ord(c) < 32 or ord(c) == 127 for c in str(f)):
            return (f"--federation {str(f)!r}: a file name holding a line end or another control character "
                    "cannot name a bridge (it would write lines of its own into the broker's mosquitto.conf): "
                    "rename it")
        try:
            bridge = read_bridge(f.read_text(encoding="utf-8"))
        except UnicodeDecodeError:
            return f"--federation {f}: not UTF-8 text, not a bridge `cardtable club federate` writes"
        except OSError as exc:
            return f"--federation {f}: cannot be read ({exc.strerror or exc})"
        except BridgeFileError as exc:
            return f"--federation {f}: {exc}"
        if bridge.cafile is not None and not bridge.cafile.is_file():
            return f"--federation {f}: its bridge_cafile {bridge.cafile} is not there (the federation's CA)"
        if bridge.uplink_user in taken:
            return (f"--federation {f}: its uplink's login {bridge.uplink_user!r} is a table's, a viewer's or one the "
                    "club's broker keeps: write the bridge again with `club federate --uplink-user NAME`")
        for other, seen in out:
            if seen.uplink_user == bridge.uplink_user:
                return (f"--federation {f}: its uplink's login {bridge.uplink_user!r} is {other}'s too (one login "
                        "is one connection): write one of them again with `club federate --uplink-user NAME`")
            if seen.connection == bridge.connection:
                return (f"--federation {f}: bridges event {bridge.event} for club {bridge.club}, as {other} does: "
                        "keep one")
        out.append((f, bridge))
    return out


def _certs(args: argparse.Namespace) -> int:
    from firmware_host.club.certs import CertError, make_broker_cert, make_club_ca

    if not args.host:   # refused before the CA is made: a refused command leaves nothing behind
        print("club certs: name at least one host name or address the tables use to reach the broker "
              "(--host NAME, repeatable)", file=sys.stderr)
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
                     event=event)
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
