"""What a table's side of a session shares, whichever session it sits in (a duplicate session's results,
``duplicate_results.py``; a euchre night's hands, ``euchre_night.py``): messages sent until the session
answers them, **on the table's own timer**, and the one place it is put on the link.

* **Until answered.** What the table sent is kept in ``unanswered`` (a key of the kind's choosing -> the
  body and when it was last sent) until a message of the session's answers it (the kind's
  ``on_session``). A small thread looks every ``TIMER_EVERY`` seconds and, when something is unanswered,
  only queues a ``CommandAck`` for the controller: the resend itself (a new journal row, the same body)
  runs in the controller's thread, where every other row is written. The wait before a message is sent
  again starts at ``RESEND_AFTER`` seconds and doubles each time up to ``RESEND_MOST``; which messages go
  again and in what order is the kind's (:meth:`Resending.resend_due`).
* **Wired in one visible place.** :func:`connect` puts a kind's table side on the controller and the
  publisher, before the publisher starts; nothing is wired by side effect.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

from firmware_host.table.inputs import CommandAck, SessionInput

RESEND_AFTER = 3.0
RESEND_MOST = 30.0
TIMER_EVERY = 1.0

K = TypeVar("K", bound=Hashable)


class Resending(Generic[K]):
    """A table's side of a session: what it sent and the session has not answered, and the timer.

    Args:
        ctl: the controller (``submit``, ``journal_note``, ``journal``, ``on_session``).
        publisher: the table's ``MqttPublisher``.
        clock: monotonic seconds, for the resend delay.
        timer: seconds between the timer's looks (None: no timer; a test drives :meth:`resend_due`).
    """

    #: the timer thread's name
    thread_name = "resend"

    def __init__(self, ctl: Any, publisher: Any, clock: Callable[[], float], timer: float | None) -> None:
        self.ctl = ctl
        self.publisher = publisher
        self.clock = clock
        self.unanswered: dict[K, tuple[dict[str, Any], float]] = {}
        self._wait: dict[K, float] = {}   # seconds until the next resend of each
        self.sent = 0
        self.resent = 0
        self.timer = timer
        self._stop = threading.Event()
        self._queued = threading.Event()   # a check is in the controller's queue already

    def start_timer(self) -> None:
        """Start the resend timer's thread (``connect`` does; a test may drive :meth:`resend_due` alone)."""
        if self.timer:
            threading.Thread(target=self._timer, args=(self.timer,), name=self.thread_name, daemon=True).start()

    def close(self) -> None:
        """Stop the timer (the table is stopping)."""
        self._stop.set()

    def _timer(self, every: float) -> None:
        while not self._stop.wait(every):
            if self.unanswered and not self._queued.is_set():
                self._queued.set()
                self.ctl.submit(CommandAck(self._resend))

    def _resend(self) -> None:
        self.resend_due()

    def _due(self, now: float) -> list[K]:
        """Controller thread: the unanswered messages whose wait is over at ``now`` (and the timer may queue a
        check again)."""
        self._queued.clear()
        return [key for key, (_, at) in self.unanswered.items() if now - at > self._wait.get(key, RESEND_AFTER)]

    def _forget(self, key: K) -> None:
        """The session answered it (or it is past): not sent again."""
        del self.unanswered[key]
        self._wait.pop(key, None)

    def resend_due(self) -> int:
        """Controller thread: send again what is due, as the kind sends it; how many were sent."""
        raise NotImplementedError

    def on_session(self, msg: dict[str, Any]) -> None:
        """Controller thread: a session's message, journaled: forget what it answers."""
        raise NotImplementedError

    # -- the observer calls a table side does not use -----------------------------------------------------

    def status(self, snapshot: dict[str, Any]) -> None:
        pass

    def deal_over(self, deal: int) -> None:
        pass

    def pack_health(self, pack: str, unreadable: int, damaged: int, deals: int) -> None:
        pass


S = TypeVar("S", bound=Resending[Any])


def connect(side: S, ctl: Any, publisher: Any, *, on_member: Callable[[str, str], None] | None = None) -> S:
    """Put a table's side of a session on the link, in one visible place (before ``publisher.start()``,
    which subscribes to the session's topics only when someone listens): the session's messages from the
    publisher go into the controller's queue; the controller's journaled session messages (and, given
    ``on_member``, the member cards read at the seats) and observer calls come to ``side``; the resend
    timer starts."""
    publisher.on_session(lambda msg: ctl.submit(SessionInput(msg)))
    ctl.on_session(side.on_session)
    if on_member is not None:
        ctl.on_member(on_member)
    ctl.observers.append(side)
    side.start_timer()
    return side
