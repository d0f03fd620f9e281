"""``cardtable duplicate open|show|export|demo``: a duplicate session on the club's machine.

* ``open --dir DIR --hand-records FILE --pairs N (--movement mitchell|howell|barometer [--tables T]
  --boards-per-round B [--arrow-switch ROUNDS] | --asc FILE --boards-per-round B) [--method M]
  [--name --date --club --section] [--roster ROSTER.csv] [--players FILE]``: make the session (its journal ``DIR/session.sqlite3``; the
  roster copied to ``DIR/roster.csv``, each pair named in ``--players`` journaled); prints the movement,
  the session's commitment to the boards it plays and, when the file holds more boards, the file's, each
  labelled (either may be published; a table may pin either), and each club table's page address. Then run it live with
  ``cardtable club dashboard --session DIR``. A file whose boards' hashes would make a table's seating
  too big for the club broker's packet is refused (``_check_seating_fits``).
* ``show --session DIR``: the session as it stands (progress, then every traveller and the ranking).
* ``export --session DIR (--format pbn|usebio|html --out FILE | --site DIR) [--force] [--club-id N]``: the
  results as one file, or the folder a club puts on its website; an existing file is replaced only with
  ``--force``.
* ``demo --tables N --boards M --movement mitchell|howell|barometer --out DIR [--foul K] [--seed S]``: a
  whole simulated session through a local broker and real duplicate tables with simulated people
  (``firmware_host.evening``), leaving ``DIR/results.pbn``, ``DIR/results.xml`` and ``DIR/results.html``,
  the hand records ``DIR/boards.pbn`` and every table's journal in ``DIR/tables/<id>/``. It prints where
  each misboarded board was found; exit status 1 when the tables' fouls do not check out.

Anything that cannot be done gives one line on standard error naming what and where, and exit status 2;
no traceback.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from firmware_host.commands.guard import FIRST, cannot_write, guarded, iso_date, line_of_text, whole
from firmware_host.commands.guard import Refused as _Refused

if TYPE_CHECKING:
    from laws.duplicate.deal import Board
    from laws.session.duplicate.spec import SessionSetup

METHODS = ("matchpoints", "matchpoints-half", "butler", "cross-imps")


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("duplicate", help="a duplicate session: open, show, export its results, demo")
    verbs = p.add_subparsers(dest="verb", metavar="VERB")
    verbs.required = True

    o = verbs.add_parser("open", help="make a session from a movement and hand records")
    o.add_argument("--dir", required=True, help="the session's folder")
    o.add_argument("--hand-records", required=True, metavar="FILE", help=".pbn, .bri or .dup")
    o.add_argument("--first", type=FIRST, help="number of the first board of a file without numbers (BRI, or DUP "
                   "whose duplication control is blank or says 1; default 1)")
    o.add_argument("--pairs", type=int, required=True, help="how many pairs play")
    o.add_argument("--movement", choices=("mitchell", "howell", "barometer"), help="a built-in movement")
    o.add_argument("--tables", type=whole(1, 500), help="tables of a Howell or barometer (a Mitchell's follow from --pairs)")
    o.add_argument("--asc", metavar="FILE", help="a movement file (.ASC) instead of --movement")
    o.add_argument("--boards-per-round", type=int, required=True)
    o.add_argument("--even", choices=("skip", "relay"), help="an even Mitchell's way round (default skip)")
    o.add_argument("--arrow-switch", metavar="ROUNDS", help="a Mitchell's rounds in which every pair plays the "
                   "boards from the other direction, joined by '+' (5, or 6+7): the session is then one field")
    o.add_argument("--method", choices=METHODS, default="matchpoints")
    o.add_argument("--name", default="Pairs", type=line_of_text(80), help="the event's name")
    o.add_argument("--date", default="", type=iso_date, help="YYYY-MM-DD (default today)")
    o.add_argument("--club", default="", type=line_of_text(80, empty=True), help="the club's name")
    o.add_argument("--section", default="A", type=line_of_text(80))
    o.add_argument("--roster", metavar="FILE", help="the club's roster: a CSV 'member number,name[,federation number]'")
    o.add_argument("--players", metavar="FILE", help="each pair's players: a CSV 'pair,player,player' (member "
                   "numbers from --roster, or a visitor's name)")
    o.set_defaults(func=_guarded(_open))

    s = verbs.add_parser("show", help="print the session as it stands")
    s.add_argument("--session", required=True, metavar="DIR")
    s.set_defaults(func=_guarded(_show))

    e = verbs.add_parser("export", help="write the session's results")
    e.add_argument("--session", required=True, metavar="DIR")
    e.add_argument("--format", choices=("pbn", "usebio", "html"))
    e.add_argument("--out", metavar="FILE")
    e.add_argument("--site", metavar="DIR", help="write the folder of pages a club puts on its website")
    e.add_argument("--force", action="store_true", help="replace files that are there already")
    e.add_argument("--club-id", default="", metavar="N", help="the club's number with its federation (USEBIO)")
    e.set_defaults(func=_guarded(_export))

    d = verbs.add_parser("demo", help="a simulated session of real tables through a local broker, with its results")
    d.add_argument("--tables", type=int, required=True)
    d.add_argument("--boards", type=int, required=True)
    d.add_argument("--movement", choices=("mitchell", "howell", "barometer"), default="mitchell")
    d.add_argument("--out", required=True, metavar="DIR")
    d.add_argument("--foul", type=int, default=0, help="misboard this many boards")
    d.add_argument("--seed", type=int, help="repeat a run: the deals and every choice of the simulation")
    d.add_argument("--method", choices=METHODS, default="matchpoints")
    d.set_defaults(func=_guarded(_demo))


def _errors() -> tuple[type[BaseException], ...]:
    from firmware_host.duplicate.handrecords.handfiles import HandRecordError
    from firmware_host.duplicate.results.export import ExportError
    from firmware_host.session.duplicate_session import SessionFileError
    from firmware_host.session.roster import RosterError
    from laws.session.duplicate.spec import SetupError

    return (HandRecordError, SetupError, SessionFileError, ExportError, RosterError)


_guarded = guarded(lambda args: f"cardtable duplicate {args.verb}", _errors)


def _movement_spec(args: argparse.Namespace) -> dict[str, Any]:
    from pathlib import Path

    from laws.session.duplicate.spec import mitchell_for

    if bool(args.asc) == bool(args.movement):
        raise _Refused("give either --movement or --asc")
    switched = _switched(args)
    if args.even is not None and args.movement != "mitchell":   # taken and left unused, without a word
        raise _Refused(f"--even {args.even}: only a Mitchell goes round by a skip or a relay; leave --even out")
    if args.tables and args.asc:
        raise _Refused(f"--tables {args.tables}: the movement file gives the tables; leave --tables out")
    if args.tables and args.movement == "mitchell" and args.tables != (args.pairs + 1) // 2:
        raise _Refused(f"--tables {args.tables}: a Mitchell's tables follow from --pairs ({args.pairs} pairs: "
                       f"{(args.pairs + 1) // 2} tables); leave --tables out")
    if args.asc:
        try:
            text = Path(args.asc).read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            raise _Refused(f"{args.asc}: cannot be read ({exc.strerror or exc})") from None
        return {"kind": "asc", "text": text, "boards_per_round": args.boards_per_round, "file": Path(args.asc).name}
    if args.movement == "mitchell":
        return mitchell_for(args.pairs, args.boards_per_round, even=args.even or "skip",
                            **({"arrow_switch_rounds": switched} if switched else {}))
    tables = args.tables or (args.pairs + 1) // 2
    return {"kind": args.movement, "tables": tables, "boards_per_round": args.boards_per_round}


def _switched(args: argparse.Namespace) -> list[int]:
    """The rounds of ``--arrow-switch`` (``5``, ``6+7``), as ``cardtable event open --sections A:7:mitchell:6+7``
    takes them; whether they are among the movement's rounds the Mitchell's builder says. Only a
    Mitchell's pairs switch: a Howell's sit both ways already, a barometer's and an .ASC file's are not
    offered (as in an event's sections, ``laws.competition.event_spec.section_movement``)."""
    if args.arrow_switch is None:
        return []
    words = args.arrow_switch.split("+")
    if not all(w.isascii() and w.isdigit() for w in words):
        raise _Refused(f"--arrow-switch {args.arrow_switch!r}: the rounds to switch are whole numbers joined by "
                       "'+' (5, or 6+7)")
    if args.movement != "mitchell":
        why = ("a Howell's pairs sit both ways already" if args.movement == "howell" else
               "not offered for an .ASC movement" if args.asc else
               "not offered for a barometer: every table plays the round's boards already")
        raise _Refused(f"--arrow-switch {args.arrow_switch}: only a Mitchell's pairs switch arrows ({why})")
    return sorted({int(w) for w in words})


def _open(args: argparse.Namespace) -> int:
    import secrets
    from pathlib import Path

    from firmware_host.commands.boards import commitment_lines
    from firmware_host.duplicate.handrecords.handfiles import read_hand_records
    from firmware_host.session.duplicate_session import Session, SessionDesk
    from firmware_host.session.roster import ROSTER_FILE, read_players, read_roster
    from laws.duplicate.deal import file_part
    from laws.duplicate.movement import records_problem
    from laws.scoring import Method
    from laws.session.duplicate.spec import (
        SessionSetup,
        SetupError,
        build_movement,
        check_setup,
        default_tables,
        label,
        pair_of_label,
    )

    spec = _movement_spec(args)
    try:
        movement = build_movement(spec)
    except SetupError as exc:   # a round the Mitchell does not have: say which option asked for it
        if args.arrow_switch and str(exc).startswith("arrow switch"):
            raise _Refused(f"--arrow-switch {args.arrow_switch}: {exc}") from None
        raise
    if args.first is not None and args.first < 1:
        raise _Refused(f"--first {args.first}: a board number is a whole number from 1")
    boards = read_hand_records(args.hand_records, args.first)
    roster = read_roster(args.roster) if args.roster else None       # refused before anything is made
    named = read_players(args.players, roster, [label(p) for p in movement.pairs()],
                         lambda text: label(pair_of_label(text))) if args.players else []
    date = args.date or datetime.now(UTC).date().isoformat()
    played = tuple(b for b in boards if b.number in set(movement.boards()))
    setup = SessionSetup(args.name, date, args.club, spec, args.pairs, played, Method(args.method),
                         args.section, default_tables(movement.tables), {}, secrets.token_hex(16),
                         file_part(played, boards) if played else None)
    if not played:   # the file holds none of them: say which boards it holds (a set numbered 16-30 or 17-32)
        try:
            check_setup(setup)
        except SetupError as exc:
            if str(exc) != records_problem((), movement.boards(), movement.name):
                raise
            raise SetupError(records_problem((b.number for b in boards), movement.boards(), movement.name)) from None
    _check_seating_fits(args.hand_records, boards, setup)
    session = Session.create(args.dir, setup, analyse=False)
    desk = SessionDesk(session)
    if roster is not None:
        (session.journal.path.parent / ROSTER_FILE).write_bytes(Path(args.roster).read_bytes())
    outcomes = session.submit([{**rec, "by": "director", "t": session.clock()} for rec in named])
    refused = [o.why for o in outcomes if o.status == "refused"]
    print(movement.text(), end="")
    if args.roster or named:
        print(f"players: {sum(o.taken for o in outcomes)} pairs named"
              + (f" (roster of {len(roster)} members kept in {ROSTER_FILE})" if roster is not None else "")
              + "".join(f"; refused: {why}" for why in refused))
    for line in commitment_lines(args.hand_records, boards, setup.boards, args.first):
        print(line)
    for tid in setup.tables:
        print(f"{tid}: table {setup.tables[tid]}, page /duplicate/table/{tid}?key={desk.table_key(tid)}")
    # the options the dashboard cannot start without, named (a bare "..." sent the director to --help; the
    # broker's address only where it is not this machine's 1883, as docs/session.md's commands say)
    print(f"session in {session.journal.path}; run it live with: cardtable club dashboard --users USERS "
          f"--mqtt-password-file FILE --session {args.dir} (USERS: the directors' logins, `cardtable club adduser`; "
          "FILE: the dashboard's broker password; --broker-host/--broker-port where the broker is not this "
          "machine's port 1883)")
    session.close()
    return 0


def _check_seating_fits(file: str, in_file: Sequence[Board], setup: SessionSetup) -> None:
    """Refuse a session whose seatings a club broker could not carry: each carries a hash of every board
    of the hand records file (so a table pinned to the file's commitment can check its records), and a
    seating over the broker's packet limit is refused by it, so the tables would never get their records
    (``docs/mqtt.md``, "Hand records sent to the tables"). Nothing is made."""
    from dataclasses import replace

    from firmware_host.session.duplicate_session import largest_seating
    from firmware_host.wire.duplicate import SEATING_MOST, SEATING_REST
    from laws.session.duplicate.state import SessionState

    room = SEATING_MOST - SEATING_REST
    most = largest_seating(SessionState.start(setup))
    if most <= room:
        return
    limit = (f"the largest would be {most + SEATING_REST:,} bytes ({SEATING_REST:,} of them kept for its answers "
             f"and players), over the {SEATING_MOST:,} a club broker's 64 KiB packet lets the session send a table "
             "(docs/mqtt.md)")
    played = len(setup.boards)
    if setup.file is None or largest_seating(SessionState.start(replace(setup, file=None))) > room:
        raise _Refused(f"--hand-records {file}: the {played} boards the session plays are too many for a table's "
                       f"seating, which carries a hash of each and the records of its round: {limit}; play fewer "
                       "boards a round or fewer rounds")
    # each board left out of the file takes its index entry ('[12,"<64 hex>"],') out of every seating
    entry = len(f'[{min(b.number for b in in_file)},"{"0" * 64}"],')
    fits = len(in_file) - -(-(most - room) // entry)
    raise _Refused(f"--hand-records {file}: {len(in_file)} boards are too many to send the tables (the session "
                   f"plays {played}): each table's seating carries a hash of every board of the file: {limit}; "
                   f"give a file of at most {fits} boards (those the session plays and fewer others)")


SHOW_REFUSALS = 10   # refusals ``duplicate show`` prints, the latest


def _show(args: argparse.Namespace) -> int:
    from firmware_host.duplicate.results.results_data import entered_by_hand
    from firmware_host.duplicate.views import who
    from firmware_host.session.duplicate_session import REFUSALS_KEPT, Session
    from laws.scoring import render_session
    from laws.session.duplicate.spec import label
    from laws.session.duplicate.state import progress

    session = Session.open(args.session, analyse=False, readonly=True)
    p = progress(session.state)
    print(f"{session.state.movement.name}: round {p.called} of {p.rounds} called")
    for t in p.tables:
        state = "slow" if t["slow"] else "finished" if not t["left"] else f"to play {t['left']}"
        names = [f" ({who(session, t[side])})" if t[side] and who(session, t[side]) else "" for side in ("ns", "ew")]
        print(f"  table {t['table']}: round {t['round']}, {t['ns'] or '-'}{names[0]} v {t['ew'] or '-'}{names[1]}, {state}")
        for mark, words in (("replay", "to be replayed"), ("director", "for the director to score")):
            if t["taken_off"][mark]:
                print(f"    taken off, {words}: board {', '.join(map(str, t['taken_off'][mark]))}")
    for key in session.state.conflicts:
        print(f"  two results for line {key}: entered by hand, and the table's own (keep one on /duplicate)")
    shown = session.refusals[-SHOW_REFUSALS:]
    if session.refusals_seen > len(shown):   # the latest only: say so, and where the others are
        print(f"  refusals: the latest {len(shown)} of {session.refusals_seen} ({session.refusals_seen - len(shown)} "
              f"earlier not shown: the director's page lists the latest {REFUSALS_KEPT}, the session's journal every one)")
    for r in shown:
        print(f"  refused: {r['why']}")
    hand = {(e.board, label(e.ns), label(e.ew)): "entered by hand" for e in session.state.entries.values()
            if entered_by_hand(e)}
    print(render_session(session.scored(), hand), end="")
    print(f"session journal head {session.journal.read_head()} (the club keeps it; publish it beside the "
          "hand records' commitment)")
    session.close()
    return 0


def _export(args: argparse.Namespace) -> int:
    from firmware_host.duplicate.results.export import check_out, check_site, export_site, write_export
    from firmware_host.session.duplicate_session import Session

    if not args.club_id.isprintable() or len(args.club_id) > 32:
        raise _Refused(f"--club-id {args.club_id!r}: a club's number is at most 32 printable characters")
    if bool(args.site) == bool(args.out or args.format):
        raise _Refused("give either --format and --out, or --site")
    if not args.site and not (args.out and args.format):
        raise _Refused("--out needs --format (pbn, usebio or html)" if args.out else "--format needs --out FILE")
    if args.site:   # the file or folder checked before the session is read (and its boards analysed)
        check_site(args.site, force=args.force)
    else:
        check_out(args.out, overwrite=args.force)
        why = cannot_write(args.out)     # found now, not after the boards' analysis (16 s for 32 boards)
        if why:
            raise _Refused(f"--out {args.out}: {why}")
    session = Session.open(args.session, readonly=True)
    try:
        head = session.journal.read_head()
        if args.site:
            sizes = export_site(session, args.site, force=args.force, club_id=args.club_id)
            print(f"{args.site}: {', '.join(sizes)} ({sum(sizes.values())} bytes)")
        else:
            size = write_export(session, args.format, args.out, overwrite=args.force, club_id=args.club_id)
            print(f"{args.out}: {size} bytes ({args.format})")
        print(f"session journal head {head} (publish it beside the hand records' commitment)")
    finally:
        session.close()
    return 0


def _demo(args: argparse.Namespace) -> int:
    from firmware_host.evening.duplicate_evening import DuplicateDemo
    from laws.scoring import Method

    demo = DuplicateDemo(args.out, args.tables, args.boards, args.movement, foul=args.foul, seed=args.seed,
                         method=Method(args.method))
    how = "each table's shoe deals its copy" if demo.deal == "shoe" else "physical boards"
    print(f"{demo.movement.name}: {len(demo.movement.boards())} boards, {demo.movement.rounds} rounds; seed {demo.seed}; "
          f"{demo.movement.tables} real tables ({how})", flush=True)
    result = demo.run()
    print(f"{result.results} records taken, {result.refused} refused, in {result.seconds:.1f} s "
          f"({result.inputs} inputs from the people at the tables)")
    print("  " + ", ".join(f"{name} {secs:.1f} s" for name, secs in result.phases.items()))
    for m in result.misboardings:
        print(f"misboarded: {m.words()}")
    for f in result.found:
        print(f"foul ruled: {f.words()}")
    for problem in result.problems:
        print(f"problem: {problem}")
    if not result.problems:
        print(f"fouls: {len(result.found)} ruled, each at its first card against the record; no false alarm")
    for fmt, path in result.files.items():
        print(f"{fmt}: {path}")
    print(f"tables' journals: {result.out / 'tables'}; hand records: {result.out / 'boards.pbn'}")
    return 1 if result.problems else 0
