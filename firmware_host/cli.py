"""The ``cardtable`` command. Each subcommand lives in ``firmware_host/commands/<name>.py`` with a
``register(subparsers)`` function; modules there import their heavy dependencies inside the handler so
that ``cardtable --help`` stays fast, and a command named on the line registers only its own module
(``OWNERS``): ``cardtable replay`` starts without the doctor's checks, the configuration's loader or the
package's metadata. Nothing imports this module.
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import logging
import os
import sys
from typing import Any, NoReturn

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

# The module that registers each command (``test_cli_words`` checks it against a full registration).
OWNERS: dict[str, str] = {
    "replay": "replay", "demo": "demo", "run": "run", "bench": "bench", "check-config": "check_config",
    "journal": "journal", "export": "export", "shoe-sim": "shoe_sim", "shoe-listen": "shoe_sim",
    "scan": "scan", "labels": "labels", "calibrate": "calibrate", "camera-check": "camera_check",
    "club": "club", "config": "config_init", "install-files": "install_files", "doctor": "doctor",
    "soak": "soak", "boards": "boards", "duplicate": "duplicate", "event": "event", "broadcast": "broadcast",
    "federation": "federation", "euchre": "euchre",
}


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

    def error(self, message: str) -> NoReturn:
        """A usage error in one line, naming the command and what is wrong, and exit 2 (argparse printed
        the whole usage first: a second line a user had to read past to find the fault)."""
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("cardtable")
    except PackageNotFoundError:  # a source tree that was never installed
        return "unknown (not installed)"


class _Version(argparse.Action):
    """``--version``: the installed package's version, looked up only when asked for."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, help: str | None = None) -> None:  # noqa: A002
        super().__init__(option_strings, dest=dest, default=argparse.SUPPRESS, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: Any, values: Any,
                 option_string: str | None = None) -> None:
        print(f"cardtable {_version()}")
        parser.exit()


def _named(argv: list[str]) -> str | None:
    """The command the line names, when it is one and nothing before it asks for the whole help: the
    options before a command take no value, so the first word that is not an option is the command."""
    for arg in argv:
        if not arg.startswith("-"):
            return arg if arg in OWNERS else None
        if arg in ("-h", "--help"):
            return None
    return None


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line, or (``only``, a command of ``OWNERS``) just that command's: its help and
    its errors are the same either way; a line naming no known command gets the whole parser (so an
    unknown command is answered with every command there is)."""
    parser = Parser(prog="cardtable", description="A card table that knows the laws.")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more log output (-vv for debug)")
    parser.add_argument("--version", action=_Version, help="print the program's version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMANDS if only is None else (OWNERS[only],):
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
            return (f"cardtable: {name} '{shown}' is not UTF-8 text: every argument must be UTF-8 (a file "
                    "name too: rename the file)")
    return None


def main(argv: list[str] | None = None) -> int:
    line = list(sys.argv[1:] if argv is None else argv)
    problem = _not_utf8(line)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    parser = build_parser(_named(line))
    args = parser.parse_args(argv)
    level = logging.WARNING - 10 * min(args.verbose, 2)
    handler = _StderrHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=level, handlers=[handler])
    try:
        status = int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:      # the output's reader has gone (``| head``): end quietly
        _stdout_to_devnull()
        return 0
    try:
        sys.stdout.flush()       # here, not at the interpreter's exit (where it would print a traceback)
    except BrokenPipeError:
        _stdout_to_devnull()
    return status


def _stdout_to_devnull() -> None:
    """Point standard output's descriptor at the null device, so what is left in its buffer goes nowhere
    at exit instead of failing again (Python's own advice for SIGPIPE). What was written stands."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (AttributeError, ValueError, OSError):    # no descriptor (a test's capture)
        pass


if __name__ == "__main__":
    sys.exit(main())
