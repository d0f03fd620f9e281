"""``cardtable boards deal`` and ``cardtable boards report``: the dealing station (``duplicate.station``).

* ``deal --records FILE [--shoe URL] [--first N] [--report FILE] [--journal FILE] [--auto]``: fill the
  boards of FILE one after another with the shoe at URL (a serial port or pyserial URL; ``virtual`` runs
  the virtual shoe in this process). The operator's lines come from standard input (``help`` lists
  them); ``--auto`` puts each board in as it is asked for (a feeder, a test). What the station says goes to
  standard output, one line at a time. Exit 0 once every board is dealt and verified card by card, 1
  when stopped before (``quit``, end of input without ``--auto``, SIGTERM), 2 for bad input (the records,
  a journal of other records, a shoe that cannot deal boards with ``--auto``). The journal (default
  ``FILE.dealing.sqlite3`` beside the records) keeps everything: run the same command again to go on.
* ``report --journal FILE [--csv]``: the duplication report of a station's journal.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from firmware_host.commands.guard import FIRST, cannot_write, whole


def register(verbs: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    deal = verbs.add_parser("deal", help="fill physical boards from the hand records with a shoe that deals "
                                         "boards (protocol 1.2), every card checked")
    deal.add_argument("--records", required=True, metavar="FILE", help="the hand records: .pbn, .bri or .dup")
    deal.add_argument("--shoe", default="/dev/cardtable-shoe", metavar="URL",
                      help="the shoe's serial port or pyserial URL; 'virtual' for the virtual shoe "
                           "(default /dev/cardtable-shoe)")
    deal.add_argument("--first", type=FIRST, help="number of the first board of a file without numbers (BRI, or DUP "
                      "whose duplication control is blank or says 1; default 1)")
    deal.add_argument("--report", metavar="FILE", help="write the duplication report here at the end "
                                                       "(.csv for CSV, else text)")
    deal.add_argument("--journal", metavar="FILE", help="the station's journal (default FILE.dealing.sqlite3 "
                                                        "beside the records)")
    deal.add_argument("--baud", type=whole(50, 4000000), default=115200, help="line speed (default 115200)")
    deal.add_argument("--auto", action="store_true", help="put each board in as it is asked for")
    deal.set_defaults(func=_deal)

    report = verbs.add_parser("report", help="print the duplication report of a dealing station's journal")
    report.add_argument("--journal", required=True, metavar="FILE", help="the station's journal")
    report.add_argument("--csv", action="store_true", help="CSV, one line a board")
    report.set_defaults(func=_report)


def _fail(text: str) -> int:
    print(f"cardtable boards: {text}", file=sys.stderr)
    return 2


def _journal_path(args: argparse.Namespace) -> Path:
    if args.journal:
        return Path(args.journal)
    rec = Path(args.records)
    return rec.with_name(rec.name + ".dealing.sqlite3")


def _deal(args: argparse.Namespace) -> int:
    import queue
    import signal
    import threading
    import time

    from firmware_host.duplicate.handrecords.handfiles import HandRecordError, read_hand_records
    from firmware_host.duplicate.station.dealing import DealingStation, StationError, StationState
    from firmware_host.records.journal import Journal, JournalError
    from firmware_host.shoe.link import ShoeLink

    if args.first is not None and args.first < 1:
        return _fail(f"--first {args.first}: a board number is a whole number from 1")
    try:
        boards = read_hand_records(args.records, args.first)
    except (HandRecordError, OSError, ValueError) as exc:
        return _fail(str(exc))
    if args.report:  # found out now, not after the last board (the report would only reach the terminal)
        target = Path(args.report)
        if target.is_dir():
            return _fail(f"--report {args.report}: is a directory; name a file")
        if not target.absolute().parent.is_dir():
            return _fail(f"--report {args.report}: the folder {target.parent} does not exist")
        why = cannot_write(args.report)   # root passes any permission check: /proc/x was found at the end
        if why:
            return _fail(f"--report {args.report}: {why}")
    path = _journal_path(args)
    if not path.parent.is_dir():
        return _fail(f"--journal {path}: the folder {path.parent} does not exist")
    if path.is_dir():
        return _fail(f"--journal {path}: is a folder; give the station journal's file")
    try:
        journal = Journal.open(path)
    except JournalError as exc:
        return _fail(str(exc))
    inbox: queue.Queue[tuple[str, object]] = queue.Queue()
    shoe = None
    url = args.shoe
    if url == "virtual":
        from firmware_host.shoe.virtual import VirtualShoe

        shoe = VirtualShoe("contract-bridge", 0)
        url = shoe.open()
    link = ShoeLink(url, lambda ev: inbox.put(("shoe", ev)), baudrate=args.baud, auto_ack=False)
    try:
        station = DealingStation(boards, journal, link, time.time, file=Path(args.records).name,
                                 auto=args.auto)
    except StationError as exc:
        journal.close()
        if shoe is not None:
            shoe.close()
        return _fail(str(exc))
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())

    def operator() -> None:
        for line in sys.stdin:
            inbox.put(("operator", line))
        inbox.put(("eof", ""))

    threading.Thread(target=operator, name="operator", daemon=True).start()
    station.resume_link()
    link.start()
    say = _printer()
    say([f"dealing {len(boards)} boards from {Path(args.records).name} (commitment {station.commitment}); "
         "type 'help' for the commands", station.status()])
    code = 1
    carry: tuple[str, object] | None = None
    try:
        while not stop.is_set():
            if carry is not None:
                (kind, item), carry = carry, None
            else:
                try:
                    kind, item = inbox.get(timeout=0.1)
                except queue.Empty:
                    kind, item = "tick", None
            if kind == "shoe":
                batch = [item]
                while len(batch) < 64:            # what queued meanwhile goes in the same commit
                    try:
                        more = inbox.get_nowait()
                    except queue.Empty:
                        break
                    if more[0] != "shoe":
                        carry = more              # handled next, in its turn
                        break
                    batch.append(more[1])
                say(station.feed_many(batch))
            elif kind == "operator":
                if str(item).strip().lower() in ("quit", "exit", "q"):
                    break
                say(station.command(str(item)))
            elif kind == "eof" and not args.auto:
                break
            say(station.tick())
            if args.auto and station.state is StationState.INSERT:
                say(station.command(""))
            if station.state is StationState.DONE:
                code = 0
                break
            if args.auto and station.state is StationState.CANNOT:
                say([station.status()])
                code = 2
                break
    except KeyboardInterrupt:
        pass
    finally:
        link.stop()
        if shoe is not None:
            shoe.close()
        _write_report(args.report, station, say)
        journal.close()
    say([station.status()] if code else [])
    return code


def _printer():  # type: ignore[no-untyped-def]
    def say(lines: list[str]) -> None:
        for line in lines:
            print(line, flush=True)
    return say


def _write_report(target: str | None, station, say) -> None:  # type: ignore[no-untyped-def]
    from firmware_host.duplicate.station.station_log import report_csv, report_text

    if not target:
        return
    text = report_csv(station.log) if target.lower().endswith(".csv") else report_text(station.log)
    try:
        Path(target).write_text(text, encoding="utf-8")
    except OSError as exc:
        print(f"cardtable boards: --report {target}: {exc.strerror or exc}; the report is:", file=sys.stderr)
        sys.stderr.write(text)
        return
    say([f"report written to {target}"])


def _report(args: argparse.Namespace) -> int:
    from firmware_host.duplicate.station.station_log import fold_journal, report_csv, report_text
    from firmware_host.records.journal import Journal, JournalError

    if Path(args.journal).is_dir():
        return _fail(f"--journal {args.journal}: is a folder; give the station journal's file")
    try:
        journal = Journal.open_readonly(args.journal)
    except JournalError as exc:
        return _fail(str(exc))
    try:
        log = fold_journal(journal)
    finally:
        journal.close()
    if not log.commitment:
        return _fail(f"{args.journal}: not a dealing station's journal (no hand records in it)")
    sys.stdout.write(report_csv(log) if args.csv else report_text(log))
    return 0
