"""``cardtable config init [PATH]``: write a starting ``table.toml`` (the shipped template)."""

from __future__ import annotations

import argparse
import re
import sys

DEFAULT_PATH = "/etc/cardtable/table.toml"


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("config", help="init: write a starting table configuration")
    csub = p.add_subparsers(dest="config_command", metavar="ACTION")
    csub.required = True
    i = csub.add_parser("init", help="write the configuration template, ready to edit and check")
    i.add_argument("path", nargs="?", default=DEFAULT_PATH, help=f"where to write it (default {DEFAULT_PATH})")
    i.add_argument("--id", help="the table's id (its broker user name too), e.g. table-03")
    i.add_argument("--name", help="the table's name on the display, e.g. 'Table 3'")
    i.add_argument("--force", action="store_true", help="replace a file that exists")
    i.set_defaults(func=_init)


def starting_config(table_id: str | None = None, name: str | None = None) -> str:
    """The template's text with the table's id (in ``[table]`` and the broker user name) and name."""
    from firmware_host.resources import resource

    text = resource("config", "table.toml").read_text(encoding="utf-8")
    if table_id is not None:
        text = re.sub(r'^(id = )"[^"]*"', lambda m: f'{m.group(1)}"{table_id}"', text, count=1, flags=re.M)
        text = re.sub(r'^(# username = )"[^"]*"', lambda m: f'{m.group(1)}"{table_id}"', text, count=1,
                      flags=re.M)
    if name is not None:
        escaped = name.replace("\\", "\\\\").replace('"', '\\"')
        text = re.sub(r'^(name = )"[^"]*"', lambda m: f'{m.group(1)}"{escaped}"', text, count=1, flags=re.M)
    return text


def _init(args: argparse.Namespace) -> int:
    from pathlib import Path

    from firmware_host.config import ConfigError, load_config
    from firmware_host.tablelink.checks import TABLE_ID
    from firmware_host.wire.topics import RESERVED_IDS

    if args.id is not None and (not TABLE_ID.match(args.id) or args.id in RESERVED_IDS):
        # a reserved id is a login and topic level of its own (`spectate` is what spectators read)
        print(f"cardtable config init: table id {args.id!r}: use letters, digits, - or _, and not "
              f"{', '.join(RESERVED_IDS)}", file=sys.stderr)
        return 2
    from firmware_host.config.load import TABLE_NAME_AT_MOST

    if args.name is not None and (not args.name or not args.name.isprintable() or len(args.name) > TABLE_NAME_AT_MOST):
        # a line break was "cannot write t.toml: t.toml.new: TOML syntax error: Illegal character '\n'",
        # naming a file the user never gave and not the option
        print(f"cardtable config init: --name {args.name[:40]!r}: a table's name is 1 to {TABLE_NAME_AT_MOST} "
              "printable characters, no line break or other control character", file=sys.stderr)
        return 2
    path = Path(args.path)
    if path.exists() and not args.force:
        print(f"cardtable config init: {path} exists; edit it, or add --force to start again", file=sys.stderr)
        return 2
    tmp = path.with_name(path.name + ".new")
    try:
        text = starting_config(args.id, args.name)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(text, encoding="utf-8")
        load_config(tmp, env={}, check_devices=False)  # the file written must be one the table accepts
        tmp.replace(path)
    except (OSError, ConfigError) as exc:
        try:
            tmp.unlink(missing_ok=True)  # a refused template leaves nothing behind beside the path
        except OSError:                  # no folder to leave it in (a path under a file): nothing is there
            pass
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        hint = " (run it with sudo, or give a path you can write)" if isinstance(exc, PermissionError) else ""
        print(f"cardtable config init: cannot write {path}: {why}{hint}", file=sys.stderr)
        return 2
    # the program by its path: the venv's bin (/opt/cardtable/venv/bin) is not on the admin's PATH, so a
    # bare `cardtable` copied from here was "command not found" (install-files names it the same way)
    from firmware_host.resources import this_program

    print(f"wrote {path}: edit it (table id and name, game, camera, pins), then check it with")
    print(f"  {this_program()} check-config --config {path}")
    return 0
