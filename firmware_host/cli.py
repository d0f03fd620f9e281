"""The ``cardtable`` command. Each subcommand lives in ``firmware_host/commands/<name>.py`` with a
``register(subparsers)`` function; modules there import their heavy dependencies inside the handler so
that ``cardtable --help`` stays fast. Nothing imports this module.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys

# Subcommand modules, in the order `--help` lists them.
COMMANDS = (
    "replay",
    "demo",
    "run",
    "bench",
    "check_config",
    "journal",
    "export",
    "shoe_sim",
    "scan",
    "labels",
    "calibrate",
    "camera_check",
    "club",
    "config_init",
    "install_files",
    "doctor",
    "soak",
    "boards",
)


class _StderrHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to whatever ``sys.stderr`` is at the time, so a live display that redirects it keeps
    log lines above its panel instead of tearing it."""

    @property  # type: ignore[override]
    def stream(self) -> object:
        return sys.stderr

    @stream.setter
    def stream(self, value: object) -> None:
        pass


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cardtable", description="A card table that knows the laws.")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more log output (-vv for debug)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMANDS:
        importlib.import_module(f"firmware_host.commands.{name}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    level = logging.WARNING - 10 * min(args.verbose, 2)
    handler = _StderrHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=level, handlers=[handler])
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
