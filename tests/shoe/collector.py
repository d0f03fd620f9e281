"""An ``on_event`` sink tests can wait on (no sleeping: a condition variable says when)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from firmware_host.shoe import messages as m


class Collector:
    def __init__(self) -> None:
        self.events: list[Any] = []
        self._cond = threading.Condition()

    def __call__(self, event: Any) -> None:
        with self._cond:
            self.events.append(event)
            self._cond.notify_all()

    def wait(self, pred: Callable[[list[Any]], bool], timeout: float = 20.0) -> list[Any]:
        with self._cond:
            ok = self._cond.wait_for(lambda: pred(self.events), timeout)
            assert ok, f"timed out; last events: {self.events[-5:]}"
            return list(self.events)

    def of(self, cls: type) -> list[Any]:
        with self._cond:
            return [e for e in self.events if isinstance(e, cls)]

    def count(self, cls: type) -> Callable[[list[Any]], int]:
        return lambda evs: sum(isinstance(e, cls) for e in evs)

    def online_count(self) -> int:
        return sum(isinstance(e, m.LinkStatus) and e.online for e in self.events)

    def finished(self, n: int = 1) -> Callable[[list[Any]], bool]:
        return lambda evs: sum(isinstance(e, m.DealFinished) for e in evs) >= n
