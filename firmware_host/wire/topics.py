"""Every MQTT topic of the club's link, in one object (``docs/mqtt.md``, "Topic tree" and "Duplicate").

A ``Topics`` is the tree under one prefix: ``TOPICS`` is the club's own (``cardtable``); a federation
that carries several clubs puts each under a prefix of its own (``Topics("fed/club-7/cardtable")``) and
every producer, consumer and the broker's ACL (:meth:`Topics.acl`) follow from that one value. Nothing
else in the house writes a topic string (``tests/wire/test_one_wire.py`` fails if one does).

Topics are data: :meth:`Topics.parse` names what a topic is (``TopicName``), or returns None for one that
is not ours.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
# What a table publishes under its own id (``pack`` has its pack's name below it).
TABLE_KINDS = ("status", "event", "ruling", "deal", "heartbeat", "online", "pack", "board", "players", "hand",
               "play")
ORDERED_KINDS = ("event", "ruling", "deal", "board", "players", "hand")  # what the dashboard orders (not play)
# ``play``: each committed call, card, claim and result with its card identities (never hidden), for the
# club's broadcast service alone: the ACL lets only the broadcast login read it (the dashboard is denied).
PLAY = "play"
SESSION = "session"   # the duplicate session's own level: no table may have this id
SPECTATE = "spectate"  # what the broadcast released for spectators (docs/broadcast.md): no table may have this id
BROADCAST_USER = "broadcast"   # the club's broadcast service: reads every table's play, writes spectate/
SPECTATOR_USER = "spectator"   # spectators' pages: read spectate/ only
# ids no table may have: a topic level of ours, or a login with rights of its own
RESERVED_IDS = ("dashboard", SESSION, SPECTATE, BROADCAST_USER, SPECTATOR_USER)


@dataclass(frozen=True)
class TopicName:
    """What a topic is: ``family`` ``table`` (a table's own message: ``kind`` one of ``TABLE_KINDS``,
    ``sub`` the pack's name), ``command`` (to a table: ``kind`` the command), ``round`` (the round the
    director called) or ``seating`` (a table's seating; ``table`` whose)."""

    family: str
    table: str = ""
    kind: str = ""
    sub: str = ""


@dataclass(frozen=True)
class Topics:
    """The topic tree under ``prefix`` (one or more topic levels, no wildcard)."""

    prefix: str = "cardtable"

    def __post_init__(self) -> None:
        levels = self.prefix.split("/")
        if not self.prefix or any(not lv or "+" in lv or "#" in lv for lv in levels):
            raise ValueError(f"topic prefix {self.prefix!r} must be topic levels without wildcards")

    # -- a table's own --------------------------------------------------------------------------

    def table(self, table: str, kind: str, sub: str = "") -> str:
        """``<prefix>/<table>/<kind>`` (``pack`` with its pack: ``.../pack/<sub>``)."""
        return "/".join((self.prefix, table, kind, *((sub,) if sub else ())))

    def command(self, table: str, kind: str) -> str:
        """``<prefix>/<table>/command/<kind>``: the dashboard's command to a table (``+``: all of them)."""
        return f"{self.prefix}/{table}/command/{kind}"

    def board(self, table: str) -> str:
        """``<prefix>/<table>/board``: a duplicate table's confirmed result (``+``: every table's)."""
        return self.table(table, "board")

    # -- the session's ---------------------------------------------------------------------------

    @property
    def session_root(self) -> str:
        """``<prefix>/session/``: what every session topic starts with."""
        return f"{self.prefix}/{SESSION}/"

    @property
    def round(self) -> str:
        """``<prefix>/session/round`` (retained): the round the director called."""
        return f"{self.session_root}round"

    def seating(self, table: str) -> str:
        """``<prefix>/session/table/<table>`` (retained): a table's seating and its answers."""
        return f"{self.session_root}table/{table}"

    # -- the broadcast (docs/broadcast.md) ------------------------------------------------------

    def play(self, table: str) -> str:
        """``<prefix>/<table>/play``: a table's committed play, cards and all (``+``: every table's);
        read by the broadcast login only."""
        return self.table(table, PLAY)

    @property
    def spectate_root(self) -> str:
        """``<prefix>/spectate/``: what every released topic starts with."""
        return f"{self.prefix}/{SPECTATE}/"

    def spectate_board(self, table: int, board: int) -> str:
        """``<prefix>/spectate/table/<t>/board/<b>`` (retained): what is released of board ``b`` at table
        ``t`` (numbers, as the movement has them)."""
        return f"{self.spectate_root}table/{table}/board/{board}"

    @property
    def spectate_event(self) -> str:
        """``<prefix>/spectate/event`` (retained): the event's title, rule and tables."""
        return f"{self.spectate_root}event"

    @property
    def spectate_all(self) -> str:
        """``<prefix>/spectate/#``: what a spectator's page reads."""
        return f"{self.spectate_root}#"

    # -- subscriptions ---------------------------------------------------------------------------

    @property
    def everything(self) -> str:
        """``<prefix>/#``: what the dashboard reads."""
        return f"{self.prefix}/#"

    @property
    def boards(self) -> str:
        """``<prefix>/+/board``: what the session reads."""
        return self.board("+")

    @property
    def hands(self) -> str:
        """``<prefix>/+/hand``: every euchre table's played hands (what the euchre night reads)."""
        return self.table("+", "hand")

    @property
    def players(self) -> str:
        """``<prefix>/+/players``: who sits at each table (the session reads it too)."""
        return self.table("+", "players")

    # -- reading a topic -------------------------------------------------------------------------

    def parse(self, topic: str) -> TopicName | None:
        """What ``topic`` is, or None when it is not one of ours (another prefix, a level that is not a
        table id, a kind we do not use)."""
        head = self.prefix + "/"
        if not topic.startswith(head):
            return None
        levels = topic[len(head):].split("/")
        if levels[0] == SPECTATE:
            return TopicName("spectate", sub="/".join(levels[1:])) if len(levels) > 1 else None
        if levels[0] == SESSION:
            if levels[1:] == ["round"]:
                return TopicName("round")
            if len(levels) == 3 and levels[1] == "table" and TABLE_ID.match(levels[2]):
                return TopicName("seating", table=levels[2])
            return None
        if not levels or not TABLE_ID.match(levels[0]) or len(levels) < 2 or levels[0] in RESERVED_IDS:
            return None
        table, kind, rest = levels[0], levels[1], levels[2:]
        if kind == "command":
            return TopicName("command", table, rest[0]) if len(rest) == 1 and TABLE_ID.match(rest[0]) else None
        if kind not in TABLE_KINDS or (kind == "pack") != (len(rest) == 1) or len(rest) > 1:
            return None
        if rest and not TABLE_ID.match(rest[0]):
            return None
        return TopicName("table", table, kind, rest[0] if rest else "")

    # -- the broker's ACL ------------------------------------------------------------------------

    def acl(self, dashboards: tuple[str, ...] = ("dashboard",), broadcasters: tuple[str, ...] = (BROADCAST_USER,),
            spectators: tuple[str, ...] = (SPECTATOR_USER,)) -> str:
        """The broker's ACL (mosquitto's ``acl_file``) for this tree: each dashboard login reads everything
        but the tables' play (denied: card identities of open deals) and the released topics (denied: the
        broadcast's alone to write), and writes commands and the session's topics; the broadcast login reads the tables' play and writes the released topics; a spectator
        login reads the released topics only; a table (its login is its id, ``%u``) writes its own topics
        and reads its own commands, the round and its own seating. Anonymous clients (when the broker
        allows them) get nothing."""
        lines: list[str] = []
        for user in dashboards:
            # ``command('+', '+')`` matches ``<prefix>/spectate/command/<x>`` too: denied, so that only the
            # broadcast login writes what spectators read (a deny goes before every grant, read and write)
            lines += [f"user {user}", f"topic deny {self.play('+')}", f"topic deny {self.spectate_all}",
                      f"topic read {self.everything}", f"topic write {self.command('+', '+')}",
                      f"topic write {self.session_root}#", ""]
        # A login that is not a table must not write as a table named after it (the patterns below
        # give every login its own ``<prefix>/%u/...``): denied, and the readers ignore reserved ids.
        for user in broadcasters:
            lines += [f"user {user}", f"topic deny {self.prefix}/{user}/#", f"topic read {self.play('+')}",
                      f"topic readwrite {self.spectate_all}", ""]
        for user in spectators:
            # (the patterns' round is no spectator's business either)
            lines += [f"user {user}", f"topic deny {self.prefix}/{user}/#", f"topic deny {self.session_root}#",
                      f"topic read {self.spectate_all}", ""]
        lines += [f"pattern write {self.table('%u', kind, '+' if kind == 'pack' else '')}" for kind in TABLE_KINDS]
        lines.append(f"pattern read {self.command('%u', '+')}")
        lines += [f"pattern read {self.round}", f"pattern read {self.seating('%u')}"]
        return "\n".join(lines) + "\n"


TOPICS = Topics()
