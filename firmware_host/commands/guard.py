"""How a command's expected failures reach the user: one line on standard error and exit status 2, never
a traceback (the house rule for bad input: a file that cannot be used, a refused option, a folder that
cannot be written). Standard output closed by its reader (``| head``) is not a failure: the command
ends quietly (``cli.main``)."""

from __future__ import annotations

import argparse
import select
import sys
from collections.abc import Callable


def stdout_gone() -> bool:
    """Whether standard output is a pipe nobody reads any more (``cardtable ... | head`` once head has
    ended): polling it reports an error or a hang-up. False where it cannot be polled (a test's capture)."""
    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
        return any(events & (select.POLLERR | select.POLLHUP) for _, events in poller.poll(0))
    except (AttributeError, ValueError, OSError):     # no poll (Windows), or no descriptor (io.UnsupportedOperation)
        return False


def cannot_listen(host: str, port: int) -> str:
    """Why a server cannot listen on ``host:port`` ("" when it can): checked before a command announces
    its address, since uvicorn would only log the port it cannot take ("ERROR: [Errno 98] ...") after
    the address was printed, and exit 1. The socket is closed at once; the server binds it again."""
    import os
    import socket

    try:
        with socket.create_server((host, port)):
            return ""
    except OSError as exc:   # create_server adds the address to strerror: the errno's own words suffice
        return f"cannot listen on {host}:{port} ({os.strerror(exc.errno) if exc.errno else exc})"


def cannot_write(path: str) -> str:
    """Why the file ``path`` cannot be written ("" when it can), found before a command's long work by
    opening it to append (a file that was not there is removed again; one that was is left as it was).
    Asking the folder's permissions is not enough: they say yes to root, and ``/proc/x`` or a read-only
    mount is found only by writing."""
    import os

    existed = os.path.lexists(path)
    try:
        with open(path, "ab"):
            pass
    except OSError as exc:
        return f"cannot be written ({exc.strerror or exc})"
    if not existed:
        os.unlink(path)
    return ""


class Refused(Exception):
    """A command's own refusal; its message is the one line the user reads."""


def guarded(prefix: Callable[[argparse.Namespace], str],
            errors: Callable[[], tuple[type[BaseException], ...]] = tuple) -> Callable[..., Callable[..., int]]:
    """Wrap a command's handler: ``Refused``, ``ValueError``, ``OSError``, ``RuntimeError``,
    ``TimeoutError`` and the classes ``errors()`` names (imported only when the command runs, so ``--help``
    stays fast) become ``"PREFIX: message"`` on standard error and exit status 2."""
    def deco(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
        def wrapper(args: argparse.Namespace) -> int:
            expected = (Refused, ValueError, OSError, RuntimeError, TimeoutError, *errors())
            try:
                return int(run(args))
            except expected as exc:
                if isinstance(exc, BrokenPipeError) and stdout_gone():
                    raise      # nobody reads the output any more (``| head``): cli.main ends quietly
                print(f"{prefix(args)}: {exc}", file=sys.stderr)
                return 2
        return wrapper
    return deco


def port(text: str) -> int:
    """An ``argparse`` type for a TCP port: 0 to 65535, refused at the command line (``argument --port:
    a port is 0 to 65535, not '70000'``, exit 2) rather than by the socket library's traceback
    ("bind(): port must be 0-65535") once the server is half started."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a port is a whole number from 0 to 65535, not {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, not {text!r}")
    return value


def whole(lo: int, hi: int) -> Callable[[str], int]:
    """An ``argparse`` type for a whole number from ``lo`` to ``hi``, refused at the command line
    (``argument --baud: a whole number from 50 to 4000000, not '0'``, exit 2): a line speed of 0 or a
    negative count was taken and the command then waited for ever."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"a whole number from {lo} to {hi}, not {text[:20]!r}") from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"a whole number from {lo} to {hi}, not {text[:20]!r}")
        return value
    return parse


SECRET_AT_MOST = 4096
"""The largest password or token file read, in bytes: a secret is a line, and a file named by mistake (a
30 MB log) was read whole and sent to the broker as the password."""


def number(lo: float, hi: float, *, above: bool = False) -> Callable[[str], float]:
    """An ``argparse`` type for a finite number from ``lo`` (or, with ``above``, greater than ``lo``) to
    ``hi``, refused at the command line (``argument --gain: a number from 0 to 64, not 'nan'``, exit 2):
    ``float`` takes "nan" and "inf", which no comparison refuses afterwards (``nan < 0`` is false), and
    ``euchre demo --timeout nan`` or ``camera-check --gain inf`` ran on them."""
    import math

    words = f"a number above {lo:g}, at most {hi:g}" if above else f"a number from {lo:g} to {hi:g}"

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{words}, not {text[:20]!r}") from None
        if not math.isfinite(value) or not (lo < value if above else lo <= value) or value > hi:
            raise argparse.ArgumentTypeError(f"{words}, not {text[:20]!r}")
        return value
    return parse


def line_of_text(most: int, *, empty: bool = False) -> Callable[[str], str]:
    """An ``argparse`` type for a name written into results files and pages (``--name``, ``--club``,
    ``--section``): at most ``most`` printable characters, no line break or other control character
    (``duplicate open --name $'Mon\\nday'`` was taken, and its PBN export's ``[Event "Mon`` tag ended at
    the line break, the rest of the name a line of its own), and not empty unless ``empty``."""
    def parse(text: str) -> str:
        if (not text and not empty) or not text.isprintable() or len(text) > most:
            shown = text[:40] + ("..." if len(text) > 40 else "")
            raise argparse.ArgumentTypeError(f"{'0' if empty else '1'} to {most} printable characters (no line "
                                             f"break or other control character), not {shown!r}")
        return text
    return parse


def iso_date(text: str) -> str:
    """An ``argparse`` type for ``--date YYYY-MM-DD`` ("" for today): ``--date yesterday`` was taken and
    written as the PBN ``[Date]`` and USEBIO ``<DATE>``, which hold a date."""
    import datetime
    import re

    if text and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        raise argparse.ArgumentTypeError(f"a date is YYYY-MM-DD (2026-12-02), not {text[:20]!r}")
    if text:
        try:
            datetime.date.fromisoformat(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(f"{text!r} is no date ({exc})") from None
    return text


FIRST = whole(1, 999_999_999)
"""``--first K`` of a file without numbers: a board number, at most the 9 digits a PBN ``[Board]`` holds
(``boards check --first 99999999999999999999`` printed boards of 21 digits no file can hold, exit 0)."""


def read_secret(path: str, option: str) -> str:
    """The password or token in the file ``option`` names, stripped.

    Raises:
        Refused: the file cannot be read, is larger than ``SECRET_AT_MOST`` bytes, is not UTF-8 text, or
            holds nothing; the message names the option and the file (a codec's "'utf-8' codec can't
            decode byte 0x82 in position 2" named neither).
    """
    try:
        with open(path, "rb") as f:
            raw = f.read(SECRET_AT_MOST + 1)     # never more: the file may be a log named by mistake
    except OSError as exc:
        raise Refused(f"{option} {path}: cannot be read ({exc.strerror or exc})") from None
    if len(raw) > SECRET_AT_MOST:
        raise Refused(f"{option} {path}: over {SECRET_AT_MOST} bytes, too big for a password file")
    try:
        text = raw.decode("utf-8").strip()
    except UnicodeDecodeError as exc:
        raise Refused(f"{option} {path}: not UTF-8 text (byte {exc.start + 1})") from None
    if not text:
        raise Refused(f"{option} {path}: the file is empty")
    return text
