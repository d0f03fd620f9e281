"""``cardtable replay FILE.jsonl``: run an event log through the law engine and print the rulings."""

from __future__ import annotations

import argparse
import collections
import json
import sys
from collections.abc import Iterator
from typing import IO, Any


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("replay", help="run an event log (JSON Lines) through the law engine",
                       description="Run an event log (JSON Lines, docs/events.md) through the law engine and "
                                   "print each ruling as it is given.")
    p.add_argument("file", help="event log, or - for standard input")
    p.add_argument("--game", help="contract-bridge, duplicate-bridge or euchre (default: the log's first "
                                  "'game' line)")
    p.add_argument("--format", choices=("json", "text"), default="json",
                   help="json: one ruling per line (default), with \"event\": the index of the event it "
                        "answers (0: the log's first event, its 'game' line; blank lines are not events); "
                        "text: for people, with the line number")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from firmware_host.devices.display_text import ruling_text
    from firmware_host.records.lines import endless_device
    from firmware_host.records.replay import LogError, dropped_result, game_of, read_events
    from laws.engine import LawEngine
    from laws.games import GAMES

    source = "<stdin>" if args.file == "-" else args.file
    try:
        stream: IO[Any] = (getattr(sys.stdin, "buffer", sys.stdin) if args.file == "-"
                           else open(args.file, "rb"))  # noqa: SIM115
    except OSError as exc:
        print(f"{source}: cannot open: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        endless = endless_device(stream.fileno())
    except (AttributeError, OSError, ValueError):   # a stream without a descriptor (a test's stand-in)
        endless = False
    if endless:   # /dev/zero, /dev/urandom: no end and no lines, as `run --events` refuses them
        stream.close()
        print(f"{source}: is a character device, not a terminal or a file of events", file=sys.stderr)
        return 2
    engine = None
    counts: collections.Counter[str] = collections.Counter()
    events = 0
    dropped = 0
    try:
        with stream:
            for item in read_events(_text_lines(stream, source), source):
                if engine is None:
                    game = game_of(item.event, args.game)
                    if game is None:
                        raise LogError(source, item.line, "the log does not start with a 'game' line; "
                                       "give --game")
                    if game not in GAMES:
                        raise LogError(source, item.line, f"unknown game {game!r} (known: "
                                       f"{', '.join(GAMES)})")
                    engine = LawEngine(game)
                events += 1
                ignored = engine.ignored
                try:
                    rulings = engine.feed(item.event)
                except ValueError as exc:
                    raise LogError(source, item.line, str(exc)) from None
                for r in rulings:
                    counts[r.remedy.value] += 1
                    if args.format == "json":
                        print(json.dumps({**r.to_dict(), "event": events - 1}, ensure_ascii=False), flush=False)
                    else:
                        print(ruling_text(r, line=item.line))
                if item.event.TYPE == "result" and engine.ignored > ignored:   # after what the line ruled
                    dropped += 1
                    note = dropped_result(item.line, engine.state.phase.value)
                    print(json.dumps({**note, "event": events - 1}, ensure_ascii=False) if args.format == "json" else
                          f"[line {item.line}] RESULT NOT SCORED\n    {note['reason']}")
    except LogError as exc:
        sys.stdout.flush()
        print(str(exc), file=sys.stderr)
        return 2
    if engine is None:
        print(f"{source}: no events (the log is empty)", file=sys.stderr)
        return 2
    summary = ", ".join(f"{n} {k}" for k, n in sorted(counts.items())) or "no rulings"
    more = f", {dropped} result{'s' if dropped != 1 else ''} not scored" if dropped else ""
    print(f"{source}: {events} events, {sum(counts.values())} rulings ({summary}){more}", file=sys.stderr)
    return 0


def _text_lines(stream: IO[Any], source: str) -> Iterator[str]:
    """The log's lines as text, decoded one at a time so that a line that is not UTF-8 is named by its
    number after the rulings of the lines before it; a byte-order mark before the first line is skipped.
    A line is read at most ``MAX_LINE`` bytes (its newline not counted) and one longer is refused there:
    read whole, a file of one multi-GB line (or ``/dev/zero``) took all the memory it could."""
    from firmware_host.records.lines import MAX_LINE
    from firmware_host.records.replay import LogError

    number = 0
    while True:
        raw = stream.readline(MAX_LINE + 1)
        if not raw:
            return
        number += 1
        if len(raw) > MAX_LINE and raw[-1:] not in ("\n", b"\n"):
            raise LogError(source, number, f"longer than {MAX_LINE} bytes (the event format's longest line); "
                                           "not read")
        if isinstance(raw, str):          # a text stream (already decoded)
            yield raw.removeprefix("\ufeff") if number == 1 else raw
            continue
        if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise LogError(source, number, f"not UTF-8 text ({exc.reason} at byte {exc.start + 1})") from None
