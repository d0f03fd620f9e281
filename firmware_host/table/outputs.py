"""Everything the controller tells the world once a commit is in (``firmware_host.table.ordering``): the pins,
the display at the table and the observers (the club's publisher). Nothing here may stop the table: an
observer or a display that fails is logged (never with the cards it was given) and passed over."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from firmware_host.table.observer import TableObserver
from laws.rulings import Ruling

log = logging.getLogger(__name__)


def safe(fn: Callable[..., None], *args: Any) -> None:
    """Call ``fn``; an exception is logged by kind only (its text may name a card of an open deal)."""
    try:
        fn(*args)
    except Exception as exc:  # an observer or a display never stops the table
        log.error("%s failed: %s", getattr(fn, "__qualname__", fn), type(exc).__name__)


class TableOutputs:
    """The panel, the display and the observers of one table.

    Args:
        panel: lamps, buzzer and buttons, or None.
        display: the table's display, or None.
        observers: the list the controller shares (others append to it).
    """

    def __init__(self, panel: Any | None, display: Any | None, observers: list[TableObserver]) -> None:
        self.panel = panel
        self.display = display
        self.observers = observers
        self._told_over: set[int] = set()  # deals whose end the observers know (secrecy release)

    def lamps(self, lamps: dict[str, bool]) -> None:
        if self.panel is not None:
            self.panel.set_lamps(lamps)

    def buzz(self) -> None:
        if self.panel is not None:
            self.panel.buzz(0.3)

    def event(self, body: dict[str, Any], deal: int, seq: int) -> None:
        for obs in self.observers:
            safe(obs.event, body, deal, seq)

    def ruling(self, r: Ruling, body: dict[str, Any], deal: int, seq: int) -> None:
        for obs in self.observers:
            safe(obs.ruling, body, deal, seq)
        if self.display is not None:
            safe(self.display.ruling, r, deal)

    def deal_over(self, deal: int) -> None:
        """Tell the observers, once, that the cards of ``deal`` may now leave the table."""
        if deal and deal not in self._told_over:
            self._told_over.add(deal)
            for obs in self.observers:
                safe(obs.deal_over, deal)

    def pack_health(self, pack: str, counts: dict[str, int]) -> None:
        for obs in self.observers:
            safe(obs.pack_health, pack, counts["unreadable"], counts["damaged"], counts["deals"])

    def status(self, snap: dict[str, Any]) -> None:
        for obs in self.observers:
            safe(obs.status, snap)
        if self.display is not None:
            safe(self.display.status, snap)

    def note(self, text: str) -> None:
        if self.display is not None:
            safe(self.display.note, text)

    def device(self, name: str, online: bool, reason: str) -> None:
        if self.display is not None:
            safe(self.display.device, name, online, reason)
