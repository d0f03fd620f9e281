"""``cardtable journal verify``: check the journal's hash chain (exit 0 intact, 1 tampered, 2 unreadable)."""

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
    p = sub.add_parser("journal", help="inspect the table's journal")
    jsub = p.add_subparsers(dest="journal_command", metavar="ACTION")
    jsub.required = True
    v = jsub.add_parser("verify", help="check the journal's hash chain (exit 0 intact, 1 tampered, 2 unreadable)")
    add_data_dir_arguments(v)
    v.set_defaults(func=_verify)


def _verify(args: argparse.Namespace) -> int:
    from firmware_host.config import ConfigError
    from firmware_host.journal import Journal, JournalError

    try:
        journal = Journal.open(data_dir_from_args(args), create=False)
        try:
            result = journal.verify()
        finally:
            journal.close()
    except (ConfigError, JournalError) as exc:
        print(f"cardtable: {exc}", file=sys.stderr)
        return 2
    if result.ok:
        print(result.message())
        print(f"head hash {result.head} (keep a copy elsewhere to notice rows cut off the end)")
        return 0
    print(f"cardtable: TAMPERED: {result.message()}", file=sys.stderr)
    return 1
