"""``cardtable club broker``: the club's own Mosquitto, with its configuration, password file and ACL
written from the options at every start (the tables' logins, viewers, TLS, a federation's bridges).

See docs/mqtt.md ("The broker", "Small club") and docs/federation.md ("The club's machine").
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from firmware_host.federation.bridgefile import ClubBridge


def _exit_on_sigterm() -> None:
    """SIGTERM (systemd, a timeout, a test) as Ctrl-C: ``finally`` stops the child processes."""
    from firmware_host.commands.stopping import exit_on_sigterm

    exit_on_sigterm()


def _tls_pair_problem(certfile: Path, keyfile: Path) -> str:
    """Why mosquitto could not serve TLS with this certificate and key ("" when it can): found before it
    starts, since it said "Unable to load server certificate ... PEM routines::no start line" in five
    lines of its own log and exit 1."""
    import ssl

    try:
        ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER).load_cert_chain(str(certfile), str(keyfile))
    except ssl.SSLError as exc:
        return (f"not a PEM certificate and its private key ({exc.reason or exc}); `cardtable club certs` "
                "writes broker.pem and broker.key")
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    return ""


def bridge_line(bridge: ClubBridge, path: Path | str, pwdir: Path | str) -> str:
    """The line ``club broker`` prints for each ``--federation`` bridge it added: the one hardware/SETUP.md
    and docs/federation.md tell the club to look for in the broker's journal, so its own function that a
    test holds those documents to (they had quoted it without its last words)."""
    return (f"bridge {bridge.connection} to {bridge.host}:{bridge.port}{' with TLS' if bridge.cafile else ''} "
            f"({path}): event {bridge.event}, club {bridge.club}; its uplink's login {bridge.uplink_user}, "
            f"password in {pwdir}/{bridge.uplink_user}.password (`club records`, `club uplink`)")


def run_broker(args: argparse.Namespace) -> int:
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
        problem = _tls_pair_problem(*tls)
        if problem:
            print(f"club broker: --certfile {args.certfile} --keyfile {args.keyfile}: {problem}", file=sys.stderr)
            return 2
    if args.port:   # port 0: mosquitto is given a free one
        from firmware_host.commands.guard import cannot_listen

        busy = cannot_listen(args.bind, args.port)   # mosquitto said it in its own lines, exit 1
        if busy:
            print(f"club broker: --port {args.port}: {busy}", file=sys.stderr)
            return 2
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
            print(bridge_line(b, path, pwdir), flush=True)
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
