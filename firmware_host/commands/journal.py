"""``cardtable journal verify|head``: check the journal's hash chain (exit 0 intact, 1 tampered, 2
unreadable), and print its head (``ROW:HASH``) to keep elsewhere. Both open the journal read-only."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_data_dir_arguments(p: argparse.ArgumentParser) -> None:
    """``--data-dir`` and ``--config``: where the journal is (default: the configuration's data_dir)."""
    p.add_argument("--data-dir", metavar="DIR", help="the table's data directory (or a journal file)")
    p.add_argument("--config", metavar="FILE", help="take the data directory from this configuration")


def data_dir_from_args(args: argparse.Namespace) -> Path:
    """The data directory named by ``--data-dir``, else by the configuration (file, environment)."""
    if args.data_dir:
        return Path(args.data_dir)
    from firmware_host.config import load_config

    return load_config(args.config, check_devices=False).table.data_dir


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("journal", help="the table's journal: verify its hash chain, print its head")
    jsub = p.add_subparsers(dest="journal_command", metavar="ACTION")
    jsub.required = True
    v = jsub.add_parser("verify", help="check the journal's hash chain (exit 0 intact, 1 tampered, 2 unreadable)")
    add_data_dir_arguments(v)
    v.add_argument("--head", metavar="ROW:HASH",
                   help="also prove the journal still holds this head (as `cardtable journal head` printed it)")
    v.set_defaults(func=_verify)
    h = jsub.add_parser("head", help="print the journal's last row and its hash as ROW:HASH (keep it elsewhere)")
    add_data_dir_arguments(h)
    h.set_defaults(func=_head)


def _head(args: argparse.Namespace) -> int:
    from firmware_host.config import ConfigError
    from firmware_host.records.journal import Journal, JournalError

    try:
        with Journal.open_readonly(data_dir_from_args(args)) as journal:
            seq, h = journal.head()
    except (ConfigError, JournalError) as exc:
        print(f"cardtable: {exc}", file=sys.stderr)
        return 2
    print(f"{seq}:{h}")
    return 0


def _verify(args: argparse.Namespace) -> int:
    from firmware_host.config import ConfigError
    from firmware_host.records.journal import Journal, JournalError, parse_head

    try:
        head = parse_head(args.head) if args.head else None
        with Journal.open_readonly(data_dir_from_args(args)) as journal:
            result = journal.verify(head)
    except (ConfigError, JournalError, ValueError) as exc:
        print(f"cardtable: {exc}", file=sys.stderr)
        return 2
    if result.ok:
        print(result.message())
        if head is not None:
            print(f"holds head {head[0]}:{head[1]}")
        print(f"head {result.rows}:{result.head} (keep a copy elsewhere: `--head` proves it is still held)")
        return 0
    print(f"cardtable: TAMPERED: {result.message()}", file=sys.stderr)
    return 1
