"""What producers give the controller (``TableController.submit``): law events, button presses, device
statuses and notes, packs loaded, and the points where the shoe may be acknowledged (``AckPoint``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from firmware_host.table.ordering import AckPoint
from laws.events import Event

Mark = tuple[int | None, int]  # (shoe boot id, message number) an input came from


@dataclass(frozen=True)
class LawInput:
    """A law-engine event and where it came from: ``shoe``, ``camera``, ``button``, ``script`` or
    ``director`` (entered on the club's dashboard)."""

    event: Event
    source: str
    mark: Mark | None = None
    command: tuple[str, str] | None = None  # (id, director) of the dashboard command it came from


@dataclass(frozen=True)
class ButtonInput:
    """A decoded button press: ``who`` a seat letter or ``director``; ``kind`` from the panel."""

    who: str
    kind: str
    mark: Mark | None = None


@dataclass(frozen=True)
class DeviceStatus:
    """A device came online or went offline."""

    device: str
    online: bool
    reason: str = ""


@dataclass(frozen=True)
class DeviceNote:
    """Something a device reported that is not a law event (a jam, an empty shoe, an error)."""

    device: str
    text: str
    mark: Mark | None = None


@dataclass(frozen=True)
class PackLoaded:
    """The shoe reports a pack loaded (``pack`` its id, "" when the shoe cannot tell before a card)."""

    pack: str
    mark: Mark | None = None


@dataclass(frozen=True)
class DirectorCommand:
    """A command from the director's dashboard that the table checks against its own state before it
    becomes a law event (``firmware_host.table.choices``): ``kind`` ``choose`` (take an option of an open
    claim), ``search`` (the outcome of the missing-card search), ``bid`` or ``discard`` (euchre), ``call`` (bridge);
    ``cid`` the command's id, ``by`` the
    director, ``body`` the command as sent."""

    kind: str
    cid: str
    by: str
    body: dict[str, Any]


Input = LawInput | ButtonInput | DeviceStatus | DeviceNote | PackLoaded | DirectorCommand | AckPoint
BUTTON_DEMANDS = {"attention": "attention", "new_shuffle": "new_shuffle", "restore_pack": "restore_pack"}
