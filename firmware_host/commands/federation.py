"""``cardtable federation open|serve|show|close|export``: a simultaneous across clubs (``docs/federation.md``).

* ``open --dir DIR --event NAME --hand-records FILE --clubs ID[,ID...] [--method M] [--due ID=N[,ID=N...]]``:
  make the event (its journal ``DIR/federation.sqlite3``): its boards and their commitment, the clubs
  taking part, and with ``--due`` each club's results due per board (a club's entry must then say the
  same); prints the commitment and the broker's ACL (``DIR/mosquitto.acl``).
* ``serve --dir DIR --passwords FILE [--port P] [--broker HOST:PORT] [--web PORT]``: run the
  federation's broker (the passwords file holds ``login:password`` lines, one per club and one for
  ``federation``; ``--broker``: use a broker already running instead) and the service until Ctrl-C or SIGTERM (either stops the broker it started);
  ``--web``: the live page (``firmware_host/federation/page.py``).
* ``close --dir DIR [--wait S]``: close the event: every club may then see every board. While ``serve``
  runs on it, ``serve`` is asked to close it (``DIR/close.request``) and this waits for the ``closed``
  row; ``serve`` then publishes every board and writes ``DIR/field.pbn`` and ``DIR/field.usebio.xml``.
* ``export --dir DIR --format pbn|usebio --out FILE [--force] [--hand-records FILE]``: the closed
  event's field (``firmware_host/federation/files.py``); the deals from the copy of the hand records
  ``open`` kept in DIR, checked against the event's commitment.
* ``show --dir DIR [--all]``: the field's ranking (``--all``: every board, not only those every club has
  finished).

Bad input (a folder with no event or a file there that is not an event's journal, an event there
already, a club id that cannot be a topic level, an unreadable hand-record file, a passwords line without
a colon, a port outside 0-65535, a broker that does not start) is one line on standard error, exit 2.
Each ``serve`` writes its broker's files from its own options (``club.broker.LocalBroker``).

A club's side (``cardtable club ...``, registered by :func:`register_club_verbs`): ``federate`` (the bridge),
``records`` (the event's hand records as the federation sent them over the bridge, checked against their
commitment, written to a file the club's session opens) and ``uplink`` (the session's results).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from firmware_host.commands.guard import number


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("federation", help="a simultaneous across clubs: open, serve, show, close, export")
    verbs = p.add_subparsers(dest="verb", required=True, metavar="VERB")
    o = verbs.add_parser("open", help="make the event: boards, commitment, clubs")
    o.add_argument("--dir", required=True)
    o.add_argument("--event", required=True, help="the event's name (letters, digits, - or _)")
    o.add_argument("--hand-records", required=True, metavar="FILE")
    o.add_argument("--clubs", required=True, help="the clubs' ids, separated by commas")
    o.add_argument("--method", default="matchpoints", choices=("matchpoints", "matchpoints-half", "butler", "cross-imps"))
    o.add_argument("--due", metavar="ID=N[,ID=N...]",
                   help="each club's results due per board (its entry must say the same); every club once")
    o.set_defaults(func=_open)
    s = verbs.add_parser("serve", help="run the federation's broker and service")
    s.add_argument("--dir", required=True)
    s.add_argument("--passwords", required=True, metavar="FILE", help="login:password lines")
    s.add_argument("--port", type=int, default=0)
    s.add_argument("--bind", default="127.0.0.1", metavar="ADDRESS",
                   help="the broker's address for the clubs' bridges (default 127.0.0.1; 0.0.0.0: every interface)")
    s.add_argument("--certfile", metavar="PEM", help="the broker's TLS certificate: the clubs' bridges speak TLS only")
    s.add_argument("--keyfile", metavar="PEM", help="its key (with --certfile)")
    s.add_argument("--broker", metavar="HOST:PORT",
                   help="use this broker (already running, e.g. a cluster) instead of starting Mosquitto")
    s.add_argument("--web", type=int, metavar="PORT", help="serve the live page on PORT (0: any free port)")
    s.add_argument("--web-bind", default="127.0.0.1", metavar="ADDRESS", help="the page's address (default 127.0.0.1)")
    s.set_defaults(func=_serve)
    w = verbs.add_parser("show", help="the field's ranking")
    w.add_argument("--dir", required=True)
    w.add_argument("--all", action="store_true", help="every board, not only those every club finished")
    w.set_defaults(func=_show)
    c = verbs.add_parser("close", help="close the event: every club may then see every board")
    c.add_argument("--dir", required=True)
    c.add_argument("--wait", type=number(0, 3600), default=30.0, metavar="S",
                   help="while `serve` runs: seconds to wait for it to close the event (default 30; 0 to 3600)")
    c.set_defaults(func=_close)
    x = verbs.add_parser("export", help="the closed event's field as PBN or USEBIO")
    x.add_argument("--dir", required=True)
    x.add_argument("--format", required=True, choices=("pbn", "usebio"))
    x.add_argument("--out", required=True, metavar="FILE")
    x.add_argument("--force", action="store_true", help="replace FILE if it is there")
    x.add_argument("--hand-records", metavar="FILE",
                   help="the event's hand records (default: the copy `open` kept in DIR)")
    x.set_defaults(func=_export)


def _fail(words: str) -> int:
    print(f"cardtable federation: {words}", file=sys.stderr)
    return 2


def _open(args: argparse.Namespace) -> int:
    from firmware_host.duplicate.handrecords.handfiles import read_hand_records
    from firmware_host.federation.service import EventSetup, FederationError, create_event
    from firmware_host.federation.topics import EventTopics, TopicError
    from laws.duplicate.deal import commitment
    from laws.scoring.session_values import Method

    clubs = tuple(c.strip() for c in args.clubs.split(",") if c.strip())
    try:
        topics = EventTopics(args.event)
        for c in clubs:
            topics.club(c)
        if not clubs:
            return _fail("--clubs: no club given (the clubs' ids, separated by commas)")
        twice = next((c for i, c in enumerate(clubs) if c in clubs[:i]), None)
        if twice is not None:
            return _fail(f"--clubs: club {twice} is given twice; give each club once")
        due = _due(args.due, clubs) if args.due is not None else {}
        if isinstance(due, str):
            return _fail(due)
        try:
            boards = read_hand_records(args.hand_records)
        except (OSError, ValueError) as exc:
            said = str(exc)   # the reader's words name the file already: "nope.pbn: cannot be read (...)"
            return _fail(f"--hand-records {_os_words(exc)}" if isinstance(exc, OSError)
                         else said if said.startswith(f"{args.hand_records}:") else f"{args.hand_records}: {said}")
        setup = EventSetup(args.event, tuple(b.number for b in boards), clubs, Method(args.method), commitment(boards),
                           due)
        if (Path(args.dir) / "session.sqlite3").exists():   # the event's files were written beside a session's
            return _fail(f"--dir {args.dir}: the folder holds a club's session (session.sqlite3); open the event in "
                         "a folder of its own")
        path = create_event(args.dir, setup)
        (Path(args.dir) / "mosquitto.acl").write_text(topics.acl(clubs), encoding="utf-8")
        kept = Path(args.dir) / ("hand-records" + Path(args.hand_records).suffix.lower())
        kept.write_bytes(Path(args.hand_records).read_bytes())
    except (TopicError, FederationError) as exc:
        return _fail(str(exc))
    except OSError as exc:      # the event's folder: the hand records were read above
        return _fail(f"--dir {_os_words(exc)}")
    print(f"event {args.event}: {len(boards)} boards, commitment {setup.commitment}; clubs {', '.join(clubs)}")
    if due:
        print("results due per board: " + ", ".join(f"{c} {due[c]}" for c in clubs))
    print(f"journal {path}; the broker's ACL {Path(args.dir) / 'mosquitto.acl'}")
    return 0


def _due(text: str, clubs: tuple[str, ...]) -> dict[str, int] | str:
    """``--due c1=3,c2=4``: each club's results due per board, or what is wrong with it."""
    from laws.federation.messages import MAX_DUE

    due: dict[str, int] = {}
    for part in (p.strip() for p in text.split(",") if p.strip()):
        club, _eq, n = part.partition("=")
        club = club.strip()
        if club not in clubs:
            return f"--due: {club!r} is not one of --clubs"
        if club in due:
            return f"--due: {club} is given twice"
        n = n.strip()
        if not (n.isascii() and n.isdigit()) or len(n) > 4 or not 1 <= int(n) <= MAX_DUE:
            # the bound an entry's due is read with: a club given more could never enter
            shown = n if len(n) <= 20 else f"{n[:17]}..."
            return f"--due: {club}'s results due per board is a whole number from 1 to {MAX_DUE}, got {shown!r}"
        due[club] = int(n)
    missing = [c for c in clubs if c not in due]
    if missing:
        return f"--due: give every club's (none for {', '.join(missing)})"
    return due


def _os_words(exc: OSError) -> str:
    """An error of the file system in words: the file, then what is wrong (no errno, no repr)."""
    where = exc.filename if exc.filename is not None else ""
    words = exc.strerror or str(exc)
    return f"{where}: {words[:1].lower()}{words[1:]}" if where else words


def _text(path: str, what: str) -> str:
    """A small text file the user named (``what``: its option), or :class:`ValueError` in words naming it."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{what} {path}: not UTF-8 text (byte {exc.start + 1})") from None
    except OSError as exc:
        raise ValueError(f"{what} {_os_words(exc)}") from None


def _password(path: str) -> str:
    """A password file's one password (its text without the line end); an empty one is refused."""
    password = _text(path, "--password-file").strip()
    if not password:
        raise ValueError(f"--password-file {path}: the file is empty (it holds the login's password)")
    if "\n" in password:
        raise ValueError(f"--password-file {path}: more than one line (it holds the login's password alone)")
    return password


def _passwords(path: str) -> dict[str, str]:
    out = {}
    for n, line in enumerate(_text(path, "--passwords").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        if ":" not in line:
            raise ValueError(f"--passwords {path} line {n}: a line is login:password")
        user, pw = line.split(":", 1)
        out[user.strip()] = pw.strip()
    return out


def _serve(args: argparse.Namespace) -> int:
    from firmware_host.club.broker import BrokerError
    from firmware_host.commands.stopping import exit_on_sigterm
    from firmware_host.federation.brokers import federation_broker
    from firmware_host.federation.service import FederationError, FederationService, hold_event, open_event
    from firmware_host.federation.topics import SERVICE_USER, EventTopics

    for opt, port in (("--port", args.port), ("--web", args.web)):
        if port is not None and not 0 <= port <= 65535:
            return _fail(f"{opt} {port}: a port is 0 to 65535 (0: any free port)")
    try:
        users = _passwords(args.passwords)
        journal, state = open_event(args.dir)
        journal.close()
        remote = _host_port(args.broker) if args.broker else None
    except (OSError, ValueError, FederationError) as exc:
        return _fail(str(exc))
    if SERVICE_USER not in users:
        return _fail(f"{args.passwords}: no line for the service's login {SERVICE_USER!r}")
    tls = None
    if args.certfile or args.keyfile:
        if remote is not None:
            return _fail("--certfile and --keyfile are for the broker serve starts; with --broker, that broker has its own")
        for opt, f in (("--certfile", args.certfile), ("--keyfile", args.keyfile)):
            if not f or not Path(f).is_file():
                return _fail(f"TLS needs {opt} naming an existing PEM file (got {f!r})")
        tls = (Path(args.certfile).resolve(), Path(args.keyfile).resolve())
    try:
        hold_event(args.dir).close()            # said before the broker starts; the service holds it from now
    except FederationError as exc:
        return _fail(str(exc))
    broker = service = page = None
    exit_on_sigterm()   # SIGTERM (systemd, a supervisor) as Ctrl-C: ``finally`` stops the broker it started
    try:  # from here on a SIGTERM (SystemExit) or Ctrl-C at any line stops what was started, in ``finally``
        if remote is None:
            topics = EventTopics(state.setup.event)
            broker = federation_broker(Path(args.dir) / "broker", users, topics.acl(state.setup.clubs),
                                       port=args.port, bind=args.bind, tls=tls)
            try:
                broker.start()
            except BrokerError as exc:
                return _fail(_one_line(exc))
            remote = ("127.0.0.1", broker.local_port)       # the service beside it: loopback, no TLS
        try:
            service = FederationService(args.dir, remote[0], remote[1], users[SERVICE_USER]).start()
        except FederationError as exc:
            return _fail(str(exc))
        if args.web is not None:
            from firmware_host.federation.page import FieldPage

            running = service
            try:
                page = FieldPage(lambda: running.last_view, state.setup.event, args.web_bind, args.web,
                                 club_view=running.club_views.get,
                                 logins={c: users[c] for c in state.setup.clubs if c in users}).start()
            except OSError as exc:
                return _fail(_web_refused(args.web_bind, args.web, exc))
        shown = f"{args.bind}:{broker.port}{' with TLS' if tls else ''}" if broker is not None else f"{remote[0]}:{remote[1]}"
        print(f"federation {state.setup.event}: broker {shown}"
              + (f"; the live page on http://{args.web_bind}:{page.port}/" if page else "") + "; Ctrl-C stops",
              flush=True)
        while True:
            time.sleep(1)
    except KeyboardInterrupt:
        pass
    finally:
        if page is not None:
            page.stop()
        if service is not None:
            service.stop()
        if broker is not None:
            broker.stop()
    return 0


def _one_line(exc: Exception) -> str:
    """A broker that did not start, in one line: what was tried, and Mosquitto's own error (its log's
    ``Error:`` line, the last line else)."""
    import re

    lines = [re.sub(r"^\d+: ", "", ln.strip()) for ln in str(exc).splitlines() if ln.strip()]   # its time stamps
    if len(lines) <= 1:
        return lines[0] if lines else type(exc).__name__
    errors = [ln for ln in lines[1:] if "error" in ln.lower()]
    return f"{lines[0].rstrip(':')}: {(errors or lines[1:])[-1]}"


def _web_refused(bind: str, port: int, exc: OSError) -> str:
    """The live page's server could not start: an address this machine cannot use is ``--web-bind``'s
    fault, a port taken or not allowed is ``--web``'s."""
    import errno
    import socket

    if isinstance(exc, socket.gaierror) or exc.errno in (errno.EADDRNOTAVAIL,):
        return f"--web-bind {bind}: not an address of this machine ({exc.strerror or exc})"
    return f"--web {port} on {bind}: {exc.strerror or exc}"


def _show(args: argparse.Namespace) -> int:
    from firmware_host.federation.service import FederationError, field_view, open_event

    try:
        journal, state = open_event(args.dir)
        journal.close()
    except FederationError as exc:
        return _fail(str(exc))
    for words in state.left_out:        # an old journal's line the field cannot score: the rest is shown
        print(f"cardtable federation: {words}", file=sys.stderr)
    view = field_view(state, public=not args.all)
    print(f"event {state.setup.event}: clubs {', '.join(state.setup.clubs)}; messages taken "
          + ", ".join(f"{c} {n}" for c, n in state.ledger.state().items()))
    if not view["boards"]:
        print("no board finished by every club yet" + ("" if args.all else " (--all shows what is in)"))
        return 0
    print(f"boards {', '.join(map(str, view['boards']))}")
    for name, rows in view["rankings"].items():
        print(name)
        for row in rows:
            pct = "" if row["percent"] is None else f" {row['percent']:.2f}%"
            print(f"  {row['place']:>4} {row['club']} {row['pair']}{pct}")
    return 0


def _close(args: argparse.Namespace) -> int:
    from firmware_host.federation.files import FINAL, close_event
    from firmware_host.federation.service import FederationError

    try:
        how = close_event(args.dir, wait=args.wait)
    except (FederationError, OSError) as exc:
        return _fail(str(exc))
    if how == "closed by serve":
        print(f"event in {args.dir} closed by the running serve: it publishes every board to every club and "
              f"writes {' and '.join(FINAL.values())} in {args.dir}")
    else:
        print(f"event in {args.dir} closed: every club may now see every board; `federation export` writes the field")
    return 0


def _export(args: argparse.Namespace) -> int:
    import os

    from firmware_host.duplicate.handrecords.handfiles import HandRecordError, read_hand_records
    from firmware_host.federation.files import export
    from firmware_host.federation.service import FederationError

    out = Path(args.out)
    if out.exists() and not args.force:
        return _fail(f"--out {out}: there is a file there already (--force replaces it)")
    if args.hand_records:
        records = Path(args.hand_records)
    else:
        kept = sorted(Path(args.dir).glob("hand-records.*"))
        if not kept:
            return _fail(f"{args.dir}: no copy of the hand records (give --hand-records FILE)")
        records = kept[0]
    try:
        boards = read_hand_records(records)
        notes: list[str] = []
        data = export(args.dir, args.format, boards, str(records), notes)
        for words in notes:             # an old journal's line the field cannot score: the rest is written
            print(f"cardtable federation: {words}", file=sys.stderr)
        tmp = out.with_name(out.name + ".part")
        tmp.write_bytes(data)
        os.replace(tmp, out)
    except (FederationError, HandRecordError, OSError, ValueError) as exc:
        return _fail(str(exc))
    print(f"{out}: the field in {args.format.upper()}, {len(data)} bytes")
    return 0


def register_club_verbs(csub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """``cardtable club federate`` and ``cardtable club uplink``: a club's side of a simultaneous."""
    f = csub.add_parser("federate", help="write the Mosquitto bridge to a federation's event (and the uplink's ACL)")
    f.add_argument("--event", required=True)
    f.add_argument("--club", required=True, help="this club's id in the event")
    f.add_argument("--remote", required=True, metavar="HOST:PORT", help="the federation's broker")
    f.add_argument("--password-file", required=True, metavar="FILE", help="the club's password at the federation")
    f.add_argument("--cafile", metavar="FILE", help="the federation's CA: the bridge then speaks TLS")
    f.add_argument("--uplink-user", default="uplink", help="the uplink's login on the club's broker")
    f.add_argument("--out", required=True, metavar="FILE", help="the bridge and the uplink's login: "
                   "`cardtable club broker --federation FILE` (or include it in a mosquitto.conf of your own)")
    f.set_defaults(func=_federate)
    r = csub.add_parser("records", help="the event's hand records, as the federation sent them over the bridge")
    r.add_argument("--event", required=True)
    r.add_argument("--club", required=True)
    r.add_argument("--broker", required=True, metavar="HOST:PORT", help="the club's own broker")
    r.add_argument("--user", default="uplink")
    r.add_argument("--password-file", required=True, metavar="FILE")
    r.add_argument("--commitment", metavar="HEX", help="the commitment the federation announced (checked too)")
    r.add_argument("--out", required=True, metavar="FILE", help="the hand records (.pbn) for `duplicate open`")
    r.add_argument("--timeout", type=float, default=60.0, metavar="S")
    r.set_defaults(func=_records)
    u = csub.add_parser("uplink", help="send this club's session results to a federation's event")
    u.add_argument("--session", required=True, metavar="DIR")
    u.add_argument("--event", required=True)
    u.add_argument("--club", required=True)
    u.add_argument("--broker", required=True, metavar="HOST:PORT", help="the club's own broker")
    u.add_argument("--user", default="uplink")
    u.add_argument("--password-file", required=True, metavar="FILE")
    u.set_defaults(func=_uplink)


def _host_port(text: str, opt: str = "--broker") -> tuple[str, int]:
    """``HOST:PORT`` as given to ``opt``; a ValueError naming the option and what it takes."""
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"{opt} {text[:80]!r}: not HOST:PORT (the broker's name or address, a colon, a port "
                         "1 to 65535)")
    return host, int(port)


def _federate(args: argparse.Namespace) -> int:
    from firmware_host.federation.bridgefile import ClubBridge
    from firmware_host.federation.topics import EventTopics, TopicError
    from firmware_host.wire.topics import RESERVED_IDS, TOPICS

    if args.uplink_user in RESERVED_IDS:   # taken here, it was refused only later, by `club broker --federation`
        return _fail(f"--uplink-user {args.uplink_user!r}: a login the club's broker keeps for itself "
                     f"({', '.join(RESERVED_IDS)}): choose another (the default is uplink)")
    try:
        host, port = _host_port(args.remote, "--remote")
        password = _password(args.password_file)
        EventTopics(args.event)
        cafile = Path(args.cafile).resolve() if args.cafile else None
        if cafile is not None and not cafile.is_file():
            return _fail(f"--cafile {cafile}: no such file")
        bridge = ClubBridge(args.event, args.club, host, port, password, args.uplink_user, cafile)
        bridge.section()
        try:
            # the club's own tree denied: its ACL's patterns would let the login write as a table named after it
            acl = bridge.acl(deny=(TOPICS.everything,))
        except TopicError as exc:
            return _fail(f"--uplink-user: {exc}")
        out = Path(args.out)
        if out.exists():
            # never replaced (it holds the club's password); docs/federation.md sends a club whose bridge
            # file was edited by hand to write it again, so the refusal says how
            return _fail(f"--out {out}: there is a file there already (a bridge is never replaced: remove "
                         "it first to write it again)")
        out.write_text(bridge.text(), encoding="utf-8")
        out.chmod(0o600)
    except (TopicError, ValueError) as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(f"--out {_os_words(exc)}")
    print(f"bridge written to {out}. With `cardtable club broker`: add `--federation {out}` to its options (or put "
          f"the file in the folder its --federation names) and restart it; it adds the bridge to its "
          f"mosquitto.conf, the uplink's login {args.uplink_user!r} to its password file (the password in "
          f"passwords/{args.uplink_user}.password in its --dir, for `club records` and `club uplink`) and these "
          f"lines to its ACL.\nWith a Mosquitto of your own: include the file in its mosquitto.conf, add the "
          f"login {args.uplink_user!r} to its password file and to its ACL:\n{acl}", end="")
    return 0


def _records(args: argparse.Namespace) -> int:
    import math
    import re

    from firmware_host.federation.topics import EventTopics, TopicError
    from firmware_host.federation.uplink import RecordsError, fetch_records

    if not (math.isfinite(args.timeout) and args.timeout > 0):
        return _fail(f"--timeout {args.timeout:g}: seconds to wait, more than 0")
    if args.commitment is not None and not re.fullmatch(r"[0-9a-fA-F]{64}", args.commitment.strip()):
        return _fail(f"--commitment {args.commitment[:80]!r}: the event's commitment is 64 hex digits "
                     "(as `federation open` printed it)")
    try:
        host, port = _host_port(args.broker)
        password = _password(args.password_file)
        topics = EventTopics(args.event)
        topics.club(args.club)
        out = Path(args.out)
        if out.exists():
            return _fail(f"--out {out}: there is a file there already")
        if out.suffix.lower() != ".pbn":
            return _fail(f"--out {out}: the records are written as PBN (name a .pbn file)")
        got = fetch_records(topics, args.club, host, port, args.user, password, commitment=args.commitment,
                            timeout=args.timeout)
        tmp = out.with_name(out.name + ".new")
        tmp.write_text(got.text, encoding="utf-8")
        tmp.replace(out)
    except (TopicError, RecordsError, ValueError) as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(f"--out {_os_words(exc)}")
    print(f"{out}: {len(got.boards)} boards, commitment {got.commitment} (checked); open the club's session "
          f"with `cardtable duplicate open --hand-records {out}`")
    return 0


def _uplink(args: argparse.Namespace) -> int:
    from firmware_host.federation.topics import EventTopics, TopicError
    from firmware_host.federation.uplink import ClubUplink

    try:
        host, port = _host_port(args.broker)
        password = _password(args.password_file)
        topics = EventTopics(args.event)
        topics.club(args.club)
    except (TopicError, ValueError) as exc:
        return _fail(str(exc))
    session = Path(args.session) / "session.sqlite3"
    if not session.is_file():
        return _fail(f"{session}: no session journal there")
    from firmware_host.session.duplicate_session import Session
    from firmware_host.session.journalled import SessionFileError

    try:   # a euchre night's or an event's folder: the uplink warned "cannot be read now" every poll, for ever
        Session.open(args.session, readonly=True, analyse=False).close()
    except SessionFileError as exc:
        return _fail(f"--session {args.session}: {exc}")
    uplink = ClubUplink(args.club, topics, session, host, port, args.user, password).start()
    print(f"club {args.club}: sending {session} to event {args.event} through {host}:{port}; Ctrl-C stops", flush=True)
    try:
        while not uplink.stopped_for:
            time.sleep(1)
    except KeyboardInterrupt:
        return 0
    finally:
        uplink.stop()
    if uplink.stopped_here:
        return _fail(f"the uplink stopped: {uplink.stopped_for}")
    return _fail(f"the federation refused a message: {uplink.stopped_for}")
