"""What producers give the controller (``TableController.submit``): law events, button presses, device
statuses and notes, packs loaded, and the points where the shoe may be acknowledged (``AckPoint``)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
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
    note: str | None = None  # a device note journaled in the event's own commit, just before it


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
    """Something a device reported that is not a law event (a jam, an empty shoe, an error). ``level`` is
    what the table logs it at: a fault or a refusal is a warning; an ordinary note the session sends (who
    plays here, the round is over) is ``logging.INFO``, so an evening that goes right prints no warnings.
    The journal and the display get ``text``; the log gets ``logged`` when given, since no log line may
    name a card of an open deal (docs/ordering.md)."""

    device: str
    text: str
    mark: Mark | None = None
    level: int = logging.WARNING
    logged: str | None = None   # what the log says instead, when ``text`` names a card of an open deal


@dataclass(frozen=True)
class PackLoaded:
    """The shoe reports a pack loaded (``pack`` its id, "" when the shoe cannot tell before a card)."""

    pack: str
    mark: Mark | None = None


@dataclass(frozen=True)
class ShoeRestart:
    """The shoe restarted (boot ``old_boot`` -> ``boot_id``): it is dealing nothing now
    (hardware/shoe/PROTOCOL.md 6.3). Journaled as a note; a deal it was dealing is ended there."""

    old_boot: int
    boot_id: int


@dataclass(frozen=True)
class ShoeLost:
    """Shoe messages ``first``-``last`` were gone from the shoe's ring before the host got them
    (hardware/shoe/PROTOCOL.md 5, ERROR 4); ``mark`` is the last one's (their numbers are used up). The
    controller journals them and, when the journal has a deal or board under way, ends it as lost."""

    first: int
    last: int
    mark: Mark


@dataclass(frozen=True)
class DirectorCommand:
    """A command from the director's dashboard (``command/<kind>`` on the broker), done at most once per
    ``cid`` however often it is delivered (the ids are in the journal, so across restarts too):
    ``ack`` (the director's acknowledgement), ``result`` (a hand's result, already checked into
    ``event``), and those the table checks against its own state before they become a law event
    (``firmware_host.table.choices``): ``choose`` (take an option of an open claim), ``search`` (the
    outcome of the missing-card search), ``bid`` or ``discard`` (euchre), ``call`` (bridge); ``correct`` (a
    result corrected, journaled as a correction). ``by`` is the director, ``body``
    the command as sent; ``refused`` a reason the command was refused where it entered (its result does
    not check out); ``ack`` is called once the command's rows are committed (the broker is told then,
    and not before: a command lost with the process is delivered again)."""

    kind: str
    cid: str
    by: str
    body: dict[str, Any]
    event: Event | None = None
    refused: str = ""
    ack: Callable[[], None] | None = field(default=None, compare=False)


@dataclass(frozen=True)
class SessionInput:
    """A duplicate table: what the club's session told it (its seating: section, table number, round,
    pairs and boards with their records; ``docs/mqtt.md``), journaled as a note before the table acts on it."""

    message: dict[str, Any]


@dataclass(frozen=True)
class MemberSeen:
    """A duplicate table: the camera read a club member's card at a seat (``vision/CARD_CODES.md``, "Member
    cards"), journaled as a note before the table acts on it (``docs/session.md``, "Players")."""

    seat: str
    member: str


@dataclass(frozen=True)
class CommandAck:
    """Every row of the command before it in line is committed: tell the broker (``ack``)."""

    ack: Callable[[], None]


Input = (LawInput | ButtonInput | DeviceStatus | DeviceNote | PackLoaded | DirectorCommand | CommandAck | AckPoint
         | SessionInput | MemberSeen | ShoeRestart | ShoeLost)
BUTTON_DEMANDS = {"attention": "attention", "new_shuffle": "new_shuffle", "restore_pack": "restore_pack",
                  "demand": "new_shuffle"}  # the shoe's long press: ``choices.shoe_demand``
