"""The ``cardtable`` command. Each subcommand lives in ``firmware_host/commands/<name>.py`` with a
``register(subparsers)`` function; modules there import their heavy dependencies inside the handler so
that ``cardtable --help`` stays fast. Nothing imports this module.
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import logging
import sys
from importlib.metadata import PackageNotFoundError, version
from typing import Any

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
    "duplicate",
    "event",
    "broadcast",
    "federation",
    "euchre",
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


class Parser(argparse.ArgumentParser):
    """Every parser of the command line: no abbreviated flags (``--table`` is not ``--tables``: a typo
    must not run something else), and a mistyped flag answered with the one meant, as configuration keys
    are ("unrecognized arguments: --skp; did you mean --skip?"). Subcommands' parsers are of this class
    too (argparse makes them of the parent's class)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        parsed, extras = super().parse_known_args(args, namespace)
        flags = [a for a in extras if a.startswith("--")]
        if flags:
            options = [o for a in self._actions for o in a.option_strings if o.startswith("--")]
            near = difflib.get_close_matches(flags[0].split("=")[0], options, n=1, cutoff=0.6)
            if near:
                self.error(f"unrecognized arguments: {' '.join(extras)}; did you mean {near[0]}?")
        return parsed, extras


def _version() -> str:
    try:
        return version("cardtable")
    except PackageNotFoundError:  # a source tree that was never installed
        return "unknown (not installed)"


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="cardtable", description="A card table that knows the laws.")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more log output (-vv for debug)")
    parser.add_argument("--version", action="version", version=f"cardtable {_version()}",
                        help="print the program's version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMANDS:
        importlib.import_module(f"firmware_host.commands.{name}").register(sub)
    return parser


def _not_utf8(argv: list[str]) -> str | None:
    """The message for the first argument that is not UTF-8 text (the operating system gives its bytes
    as lone surrogates), naming its option; None when every argument is text."""
    for i, arg in enumerate(argv):
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            shown = arg.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")[:60]
            if arg.startswith("--") and "=" in arg:
                name, shown = arg.split("=", 1)[0], shown.split("=", 1)[1]
            elif i and argv[i - 1].startswith("-"):
                name = argv[i - 1]
            else:
                name = f"argument {i + 1}"
            return (f"cardtable: {name} {shown!r} is not UTF-8 text: every argument must be UTF-8 (a file "
                    "name too: rename the file)")
    return None


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    problem = _not_utf8(list(sys.argv[1:] if argv is None else argv))
    if problem:
        print(problem, file=sys.stderr)
        return 2
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
