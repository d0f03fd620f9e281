"""How a long-running command stops: SIGTERM (systemd, a supervisor, a test) as Ctrl-C (SIGINT).

A shell's background job inherits SIGINT ignored, and Python then leaves it ignored, so Ctrl-C's signal
never arrives there: SIGTERM is the one signal every caller can rely on. Each long-running command
(``run``, ``shoe-sim``, ``club broker|dashboard|demo``, ``soak``) takes SIGTERM the way it takes SIGINT
and cleans up the same way (links and pseudo-terminals removed, journals closed, child processes
stopped). SIGINT keeps whatever the caller gave it: handled when it was not ignored.

Only a process's main thread can take a signal: a command run in another thread (a test drives
``shoe-listen`` so) installs no handler and is stopped as its caller stops it (``stop_event``'s event is
still returned, to be set by that caller).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable


def stop_event(on_stop: Callable[[], None] | None = None) -> threading.Event:
    """An event set by SIGTERM (and by SIGINT, unless the process inherited it ignored); ``on_stop`` is
    called from the handler too. Call from the main thread."""
    stop = threading.Event()

    def handler(signum: int, frame: object) -> None:
        stop.set()
        if on_stop is not None:
            on_stop()

    if not _main_thread():
        return stop
    signal.signal(signal.SIGTERM, handler)
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        signal.signal(signal.SIGINT, handler)
    return stop


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def wait(stop: threading.Event, seconds: float | None = None) -> None:
    """Wait for ``stop`` (at most ``seconds``), in short steps so the signal handler runs at once."""
    import time

    end = None if seconds is None else time.monotonic() + seconds
    while not stop.is_set():
        left = 0.5 if end is None else min(0.5, end - time.monotonic())
        if left <= 0:
            return
        stop.wait(left)


def exit_on_sigterm(code: int = 0) -> None:
    """Turn the first SIGTERM into ``SystemExit(code)`` (as Ctrl-C is ``KeyboardInterrupt``), so that
    ``finally`` blocks stop child processes and close files; a later SIGTERM is taken and does nothing,
    the stop being under way. ``timeout`` and systemd send SIGTERM to the process and again to its group:
    the second one raised ``SystemExit`` again, in the middle of a ``finally`` (its clean-up cut short) or
    in the interpreter's own shutdown ("Exception ignored in: <module 'threading'>", a traceback ending
    ``SystemExit: 143``). A Python handler, not ``SIG_IGN``, so a child started while stopping still
    takes SIGTERM (an ignored signal is inherited across ``exec``). Call from the main thread."""

    def stopping(signum: int, frame: object) -> None:
        """The stop already under way: nothing more to do."""

    def handler(signum: int, frame: object) -> None:
        signal.signal(signal.SIGTERM, stopping)
        raise SystemExit(code)

    if _main_thread():
        signal.signal(signal.SIGTERM, handler)
