"""``cardtable euchre``: a euchre night on the club's machine (``docs/euchre.md``).

* ``open --dir DIR --players FILE [--roster FILE] --format F --rounds R [--hands H] [--tables N] ...``
* ``serve --session DIR --broker-port P --password-file F [--port P] [--token-file F]``: the night on the
  club's broker, with its pages.
* ``show --session DIR``: the standings as text.
* ``export --session DIR --out DIR [--force]``: ``standings.json``, ``hands.json``, ``sheet.html``; files
  already in ``DIR`` are replaced only with ``--force``.
* ``demo --tables N --rounds R``: a whole night through real euchre tables on a local Mosquitto.

Bad input: one line naming what and where, exit 2, nothing made.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
import time
from pathlib import Path

from firmware_host.commands.guard import Refused, iso_date, line_of_text, number, port, read_secret


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("euchre", help="a euchre night: open, serve, show, export, demo")
    verbs = p.add_subparsers(dest="verb", required=True, metavar="VERB")

    o = verbs.add_parser("open", help="open a euchre night in a folder")
    o.add_argument("--dir", required=True, help="the night's folder (its journal: DIR/session.sqlite3)")
    o.add_argument("--players", required=True, metavar="FILE",
                   help="one player a line: a member number (looked up in --roster) or a visitor's name")
    o.add_argument("--roster", metavar="FILE", help="the club's roster CSV (as for duplicate open)")
    _night_args(o)
    o.add_argument("--tables", type=int, help="club tables table-01 ... (default: as many as the format needs)")
    o.add_argument("--name", default="Euchre night", type=line_of_text(80))
    o.add_argument("--club", default="", type=line_of_text(80, empty=True))
    o.add_argument("--date", default="", type=iso_date)
    o.set_defaults(func=_open)

    s = verbs.add_parser("serve", help="run the night on the club's broker, with its pages")
    s.add_argument("--session", required=True, metavar="DIR")
    s.add_argument("--broker-host", default="127.0.0.1")
    s.add_argument("--broker-port", type=port, default=1883)
    s.add_argument("--username", default="dashboard", help="the broker login with the dashboard's rights")
    s.add_argument("--password-file", required=True, metavar="FILE")
    s.add_argument("--host", default="127.0.0.1", help="the pages' address")
    s.add_argument("--port", type=port, default=8090, help="the pages' port")
    s.add_argument("--token-file", metavar="FILE", help="the director's token for calling a round "
                                                        "(default: a new one, printed)")
    s.set_defaults(func=_serve)

    sh = verbs.add_parser("show", help="the night's standings as text")
    sh.add_argument("--session", required=True, metavar="DIR")
    sh.set_defaults(func=_show)

    e = verbs.add_parser("export", help="write standings.json, hands.json and sheet.html")
    e.add_argument("--session", required=True, metavar="DIR")
    e.add_argument("--out", required=True, metavar="DIR")
    e.add_argument("--force", action="store_true", help="replace the files an earlier export left in --out")
    e.set_defaults(func=_export)

    d = verbs.add_parser("demo", help="a whole night through real euchre tables on a local Mosquitto")
    d.add_argument("--tables", type=int, required=True)
    d.add_argument("--rounds", type=int, required=True)
    d.add_argument("--hands", type=int, default=4)
    d.add_argument("--format", default="progressive", choices=("progressive", "rotating", "round-robin", "swiss"))
    d.add_argument("--players", type=int, help="default: four a table")
    d.add_argument("--seed", type=int, default=1)
    d.add_argument("--out", metavar="DIR", help="default: a new folder under the system's temporary folder")
    d.add_argument("--timeout", type=number(0, 86400, above=True), default=900.0,
                   help="seconds the night may take (above 0, at most 86400; default 900)")
    d.set_defaults(func=_demo)


def _night_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--format", required=True, choices=("progressive", "rotating", "round-robin", "swiss"))
    p.add_argument("--rounds", type=int, required=True)
    p.add_argument("--hands", type=int, default=8, help="hands a round (default 8)")
    p.add_argument("--scoring", default="somerset", choices=("somerset", "house"))
    p.add_argument("--loner", type=int, default=None, help="house rules: a loner's march scores 4 or 5 (default 4)")
    p.add_argument("--loner-partner", type=int, default=None, help="house rules: his partner's share (default: the same)")
    p.add_argument("--euchred", type=int, default=None,
                   help="house rules: a euchre scores 2 (to 4) to the defenders (default 2)")


TABLES_AT_MOST = 500
"""A club's tables, at most (as ``club broker`` and ``club demo`` take them)."""


def _fail(text: str) -> int:
    print(f"cardtable euchre: {text}", file=sys.stderr)
    return 2


def _read_players(path: str, roster_path: str | None) -> list[dict[str, str]]:
    from firmware_host.session.roster import Roster, RosterError, read_roster

    roster = read_roster(roster_path) if roster_path else Roster([], source="no --roster was given")
    p = Path(path)
    try:
        text = p.read_bytes().decode("utf-8-sig")
    except OSError as exc:
        raise RosterError(f"{p}: cannot be read ({exc.strerror or exc})") from None
    except UnicodeDecodeError as exc:
        raise RosterError(f"{p}: not UTF-8 text (byte {exc.start + 1})") from None
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        entry = line.strip()
        if not entry or entry.startswith("#"):
            continue
        try:
            out.append(roster.player(entry))
        except RosterError as exc:
            raise RosterError(f"{p}: line {n}: {exc}") from None
    return out


def _open(args: argparse.Namespace) -> int:
    from firmware_host.euchre_night.session import NightError, NightSession, SessionFileError
    from firmware_host.session.roster import RosterError
    from laws.euchre_night.formats import FormatError
    from laws.euchre_night.night import Format, NightSetup, Player, tables_needed
    from laws.euchre_night.scoring import HandError, Rules, Scoring

    try:
        house = [f for f, v in (("--loner", args.loner), ("--loner-partner", args.loner_partner),
                                ("--euchred", args.euchred)) if v is not None]
        if house and args.scoring != "house":   # stored and ignored before: the Somerset code's points applied
            raise HandError(f"{', '.join(house)}: house rules, given with --scoring house (the Somerset code scores "
                            "a loner's march 4 and a euchre 2 by its laws 2-3)")
        if args.tables is not None and not 1 <= args.tables <= TABLES_AT_MOST:   # a huge one hung naming them; 0 was taken as none given
            raise HandError(f"--tables {args.tables}: 1 to {TABLES_AT_MOST} club tables (default: as many as the "
                            "format needs)")
        players = _read_players(args.players, args.roster)
        rules = Rules(Scoring(args.scoring), 4 if args.loner is None else args.loner, args.loner_partner,
                      2 if args.euchred is None else args.euchred)
        fmt = Format(args.format)
        tables = args.tables or max(1, tables_needed(fmt, len(players)))
        setup = NightSetup(args.name, tuple(Player(i + 1, p["name"], p["member"]) for i, p in enumerate(players)),
                           fmt, args.rounds, args.hands, tuple(f"table-{k:02d}" for k in range(1, tables + 1)),
                           rules, args.date or time.strftime("%Y-%m-%d"), args.club)
        session = NightSession.create(args.dir, setup)
    except (RosterError, FormatError, HandError, NightError, SessionFileError, ValueError) as exc:
        return _fail(str(exc))
    try:
        night = session.night
        print(f"{setup.name}: {len(players)} players, {fmt.value}, {setup.rounds} rounds of {setup.hands} hands, "
              f"tables {', '.join(setup.tables)}")
        _print_round(night, 1)
    finally:
        session.close()
    return 0


def _print_round(night: object, rnd: int) -> None:
    from laws.euchre_night.night import Night

    assert isinstance(night, Night)
    r = night.round(rnd)
    names = {p.number: night.name_in(p.number, rnd) for p in night.setup.players}   # a substitute from his round
    print(f"round {rnd}:")
    for k, t in enumerate(r.tables, 1):
        print(f"  {night.setup.tables[k - 1]}: " + ", ".join(f"{s} {names[p]}" for s, p in zip("NSEW", t)))
    if r.out:
        print("  sitting out: " + ", ".join(names[p] for p in r.out))


def _show(args: argparse.Namespace) -> int:
    from firmware_host.euchre_night.session import NightError, NightSession, SessionFileError
    from firmware_host.euchre_night.views import standing_rows

    try:
        session = NightSession.open(args.session)
    except (NightError, SessionFileError) as exc:
        return _fail(str(exc))
    try:
        n = session.night
        status = "final" if n.finished else f"round {n.current} of {n.setup.rounds} in play"
        print(f"{n.setup.name}: {status}; {len(n.hands)} hands; session journal head {session.head()}")
        for r in standing_rows(n):
            print(f"{r['place']:>4} {r['shown']:<24} {r['points_shown']:>8} {r['hands_won']:>3} won {r['loners']:>2} loners")
        if not n.finished:
            _print_round(n, n.current)
    finally:
        session.close()
    return 0


EXPORTS = ("standings.json", "hands.json", "sheet.html")


def _export(args: argparse.Namespace) -> int:
    """Write the three exports into ``--out``: a folder that already holds any of them (an earlier
    export, the demo's or the night's own folder) is refused without ``--force``, and a folder that
    cannot be made or written is one line, exit 2, as ``duplicate export`` does."""
    from firmware_host.euchre_night.session import NightError, NightSession, SessionFileError
    from firmware_host.euchre_night.views import hands_export, sheet_html, standings_export

    out = Path(args.out)
    if out.exists() and not out.is_dir():
        return _fail(f"--out {out}: a file is there, not a folder")
    there = [name for name in EXPORTS if (out / name).exists()]
    if there and not args.force:
        return _fail(f"--out {out}: already holds {', '.join(there)}; not replaced (--force replaces them)")
    try:
        session = NightSession.open(args.session)
    except (NightError, SessionFileError) as exc:
        return _fail(str(exc))
    try:
        head = session.head()
        files = dict(zip(EXPORTS, (json.dumps(standings_export(session.night, head), indent=1) + "\n",
                                   json.dumps(hands_export(session.night, head), indent=1) + "\n",
                                   sheet_html(session.night, head))))
    finally:
        session.close()
    try:
        out.mkdir(parents=True, exist_ok=True)
        for name, text in files.items():
            (out / name).write_text(text, "utf-8")
    except OSError as exc:
        return _fail(f"--out {out}: cannot be written ({exc.strerror or exc})")
    print(f"{', '.join(EXPORTS)} in {out}")
    return 0


def _serve(args: argparse.Namespace) -> int:
    from firmware_host.euchre_night.pages import NightPages
    from firmware_host.euchre_night.service import NightService
    from firmware_host.euchre_night.session import NightError, NightSession, SessionFileError

    try:
        password = read_secret(args.password_file, "--password-file")
        token = read_secret(args.token_file, "--token-file") if args.token_file else secrets.token_urlsafe(12)
    except Refused as exc:
        return _fail(str(exc))
    try:
        session = NightSession.open(args.session)
    except (NightError, SessionFileError) as exc:
        return _fail(str(exc))
    service = NightService(session, args.broker_host, args.broker_port, args.username, password)
    try:
        pages = NightPages(service, args.host, args.port, token)
    except OSError as exc:
        session.close()
        return _fail(f"--port {args.port}: {exc.strerror or exc}")
    service.page = pages.address
    pages.start()
    service.start()
    from firmware_host.commands.stopping import stop_event

    stopping = stop_event()   # SIGTERM as Ctrl-C: the journal is closed either way
    print(f"the director's page: {pages.address}/  (token to call a round: {token})", flush=True)
    try:
        while not stopping.wait(1):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        pages.stop()
        service.stop()
        session.close()
    return 0


def _demo(args: argparse.Namespace) -> int:
    import tempfile

    from firmware_host.euchre_night.night_demo import EuchreDemo
    from firmware_host.session.journalled import SessionFileError
    from laws.euchre_night.formats import FormatError

    if args.tables < 1 or args.rounds < 1 or not 1 <= args.hands <= 99:
        return _fail("--tables and --rounds are whole numbers from 1, --hands 1 to 99")
    # each says the number given and its own range (audit m28: "--players 3" was answered with both options'
    # limits and "a huge number named its players for ever"); a huge --players named its players for ever
    if args.tables > TABLES_AT_MOST:
        return _fail(f"--tables {args.tables}: 1 to {TABLES_AT_MOST} club tables")
    if args.players is not None and not 4 <= args.players <= 4 * TABLES_AT_MOST:
        return _fail(f"--players {str(args.players)[:24]}: 4 to {4 * TABLES_AT_MOST} players")
    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="euchre-demo-"))
    try:
        result = EuchreDemo(out, args.tables, args.rounds, hands=args.hands, fmt=args.format, players=args.players,
                            seed=args.seed).run(timeout=args.timeout)
    except (FormatError, FileExistsError, SessionFileError) as exc:  # --out cannot hold the night: bad input
        return _fail(str(exc))
    except (RuntimeError, TimeoutError) as exc:
        print(f"cardtable euchre demo: {exc}", file=sys.stderr)
        return 1
    made = ", ".join(f"{k} {v}" for k, v in sorted(result.made.items())) or "none"
    print(f"{result.hands} hands in {result.seconds:.1f} s; irregularities made: {made}; reneges in the record "
          f"{result.reneges}, penalties {result.penalties}")
    for name, path in result.files.items():
        print(f"{name}: {path}")
    return 0
