"""What the table controller tells the outside world (the club's MQTT publisher, a dashboard, tests).

The controller calls an observer from its single consumer thread, after the journal has committed the
row concerned, so an observer never sees something that could be lost. Observers must return quickly
(queue work of their own); an exception in an observer is logged and never stops the table.

Hands stay secret: ``event`` bodies may name cards (``card_dealt``, ``card_played`` ...). An observer
that publishes off the table must hold card identities of a deal back until ``deal_over(deal)`` for that
deal has been called, unless the club opts in (``firmware_host.tablelink.secrecy`` does the filtering).
"""

from __future__ import annotations

from typing import Any, Protocol


class TableObserver(Protocol):
    """Receives the table's life as JSON-ready dicts.

    ``status`` snapshot keys: ``table`` (id), ``game``, ``phase``, ``deal`` (number), ``dealer``,
    ``next_dealer``, ``lamps`` (name -> bool), ``shoe_online``, ``camera_online``, ``journal_fault`` (None,
    or why the journal cannot be written), ``held`` (inputs waiting for it), ``counts`` (seat -> cards
    dealt this deal), ``score`` (the game's snapshot), ``ruling`` (the last ruling dict or None),
    ``seq`` (journal sequence of the latest row), ``t``, ``new_pack`` (``table.lamps.new_pack``).
    """

    def status(self, snapshot: dict[str, Any]) -> None: ...

    def event(self, event: dict[str, Any], deal: int, seq: int) -> None: ...

    def ruling(self, ruling: dict[str, Any], deal: int, seq: int) -> None: ...

    def deal_over(self, deal: int) -> None: ...

    def pack_health(self, pack: str, unreadable: int, damaged: int, deals: int) -> None: ...
