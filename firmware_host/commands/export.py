"""``cardtable export jsonl|pbn``: write the journal's history as law-engine events or PBN boards."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from firmware_host.commands.journal import add_data_dir_arguments, data_dir_from_args


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("export", help="write the journal's history as JSON Lines events or PBN")
    p.add_argument("format", choices=("jsonl", "pbn"),
                   help="jsonl: the law engine's event format (for `cardtable replay`); pbn: bridge deals")
    add_data_dir_arguments(p)
    p.add_argument("--out", metavar="FILE", help="output file (default: standard output)")
    p.add_argument("--game", choices=("contract-bridge", "euchre"),
                   help="game for the first line when the journal does not start with one (default: config)")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from firmware_host.config import ConfigError, load_config
    from firmware_host.journal import Journal, JournalError
    from firmware_host.pbn import deals_from_events, pbn_record

    try:
        journal = Journal.open(data_dir_from_args(args), create=False)
        try:
            events = list(journal.events())
        finally:
            journal.close()
        cfg = load_config(args.config, check_devices=False)
    except (ConfigError, JournalError) as exc:
        print(f"cardtable: {exc}", file=sys.stderr)
        return 2
    if args.format == "jsonl":
        if not events or events[0].get("type") != "game":
            first: dict[str, Any] = {"type": "game", "game": args.game or cfg.table.game}
            events.insert(0, first)
        text = "".join(json.dumps(e, separators=(",", ":")) + "\n" for e in events)
        count = len(events)
    else:
        deals = deals_from_events(events, event=f"{cfg.table.name} rubber bridge", site=cfg.table.name)
        text = "% PBN 2.1\n% EXPORT\n\n" + "\n".join(pbn_record(d) for d in deals)
        count = len(deals)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fp:
            fp.write(text)
        print(f"wrote {count} {'events' if args.format == 'jsonl' else 'boards'} to {args.out}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0
