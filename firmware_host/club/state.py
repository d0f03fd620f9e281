"""What the dashboard knows about the club: every table's latest state, the rulings feed, pack health.

Pure (no I/O): ``ClubState.ingest(topic, payload, now)`` takes one MQTT message and returns what changed,
or refuses it with a logged reason. Checks, in order: the topic is one of ours; the payload is not too
large, is a JSON object, names the same table as the topic (a table publishing under another's id is
refused here too, not only by the broker's ACL) and the same kind; then repeats of an ordered message
(same table, kind and seq: QoS 1 may deliver twice, and a table resends after an outage) are dropped.
"""

from __future__ import annotations

import json
import logging
import re
from collections import deque
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)

MAX_PAYLOAD = 65536
TOPIC = re.compile(r"^cardtable/([A-Za-z0-9_-]{1,64})/(status|event|ruling|deal|heartbeat|online|pack)"
                   r"(?:/([A-Za-z0-9_-]{1,64}))?$")
COMMAND = re.compile(r"^cardtable/[A-Za-z0-9_-]{1,64}/command/[A-Za-z0-9_-]{1,64}$")
ORDERED = ("event", "ruling", "deal")
FEED_SIZE = 200
SEEN_SIZE = 20000
RETIRE_AT = 3  # unreadable + damaged cards across deals at which a pack should be retired
IRREGULAR = frozenset({"new_shuffle_and_cut", "new_cut", "redeal", "misdeal", "replace_pack", "restore_pack",
                       "deemed_to_belong", "defective_trick", "claim_option", "deal_stands", "cut_again",
                       "penalty", "lose_deal", "reshuffle", "attention"})


class Refused(ValueError):
    """A message the dashboard will not show; the text says why."""


@dataclass
class TableView:
    """One table as the director sees it (counts and rulings, never hands)."""

    table: str
    online: bool = False
    phase: str = "?"
    game: str = ""
    deal: int = 0
    dealer: str = ""
    lamps: dict[str, bool] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    shoe_online: bool | None = None
    camera_online: bool | None = None
    ruling: dict[str, Any] | None = None
    ruling_seq: int = 0
    needs_ack: bool = False
    acked_by: str = ""
    events: int = 0
    last_event: str = ""
    status_seq: int = -1
    last_seen: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


@dataclass
class PackView:
    table: str
    pack: str
    unreadable: int = 0
    damaged: int = 0
    deals: int = 0

    @property
    def retire(self) -> bool:
        return self.unreadable + self.damaged >= RETIRE_AT

    def to_dict(self) -> dict[str, Any]:
        return {"table": self.table, "pack": self.pack, "unreadable": self.unreadable,
                "damaged": self.damaged, "deals": self.deals, "retire": self.retire}


def _int(v: Any, name: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise Refused(f"{name} must be a whole number >= 0, got {v!r}")
    return v


def _text(v: Any, limit: int = 2000) -> str:
    return v[:limit] if isinstance(v, str) else ""


def _ruling_view(body: dict[str, Any]) -> dict[str, Any]:
    return {k: _text(body.get(k)) for k in ("remedy", "law", "clause", "reason", "seat", "pack", "dealer")}


class ClubState:
    """The club as seen through the broker."""

    def __init__(self) -> None:
        self.tables: dict[str, TableView] = {}
        self.packs: dict[tuple[str, str], PackView] = {}
        self.feed: deque[dict[str, Any]] = deque(maxlen=FEED_SIZE)
        self.refused = 0
        self._seen: dict[str, set[tuple[str, int]]] = {}
        self._seen_order: dict[str, deque[tuple[str, int]]] = {}

    def snapshot(self) -> dict[str, Any]:
        """Everything, for a browser that has just connected."""
        return {"type": "snapshot", "tables": [t.to_dict() for t in self.tables.values()],
                "feed": list(self.feed), "packs": [p.to_dict() for p in self.packs.values()]}

    def ingest(self, topic: str, payload: bytes, now: float) -> list[dict[str, Any]]:
        """Apply one MQTT message. Returns the updates for the browsers ([] for a repeat or a refusal)."""
        try:
            return self._ingest(topic, payload, now)
        except Refused as exc:
            self.refused += 1
            log.warning("refused MQTT message on %r: %s", topic[:200], exc)
            return []

    def _ingest(self, topic: str, payload: bytes, now: float) -> list[dict[str, Any]]:
        m = TOPIC.match(topic)
        if not m:
            if COMMAND.match(topic):
                return []  # our own commands to the tables, seen through the '#' subscription
            raise Refused("unknown topic")
        table, kind, sub = m.group(1), m.group(2), m.group(3)
        if (kind == "pack") != (sub is not None):
            raise Refused("unknown topic")
        if len(payload) > MAX_PAYLOAD:
            raise Refused(f"payload of {len(payload)} bytes is over the {MAX_PAYLOAD}-byte limit")
        try:
            msg = json.loads(payload)
        except (UnicodeDecodeError, ValueError) as exc:
            raise Refused(f"payload is not JSON ({exc})") from None
        if not isinstance(msg, dict):
            raise Refused("payload is not a JSON object")
        if msg.get("table") != table:
            raise Refused(f"payload names table {str(msg.get('table'))[:80]!r} on table {table!r}'s topic")
        view = self.tables.get(table)
        if kind == "online":
            view = view or self.tables.setdefault(table, TableView(table))
            view.online = bool(msg.get("online"))
            view.last_seen = now
            return [{"type": "table", "table": view.to_dict()}]
        if kind == "heartbeat":
            view = view or self.tables.setdefault(table, TableView(table))
            view.last_seen, view.online = now, True
            return []
        if msg.get("kind") != kind:
            raise Refused(f"payload kind {str(msg.get('kind'))[:40]!r} on a {kind} topic")
        seq = _int(msg.get("seq"), "seq")
        t = msg.get("t")
        if not isinstance(t, (int, float)) or isinstance(t, bool):
            raise Refused(f"t must be a number, got {t!r}")
        body = msg.get("body")
        if not isinstance(body, dict):
            raise Refused("body must be a JSON object")
        if kind in ORDERED and self._repeat(table, kind, seq):
            return []
        view = view or self.tables.setdefault(table, TableView(table))
        view.last_seen = now
        handler = {"status": self._on_status, "event": self._on_event, "ruling": self._on_ruling,
                   "deal": self._on_deal, "pack": self._on_pack}[kind]
        return handler(view, msg, body, seq, float(t))

    def _repeat(self, table: str, kind: str, seq: int) -> bool:
        seen = self._seen.setdefault(table, set())
        order = self._seen_order.setdefault(table, deque())
        if (kind, seq) in seen:
            return True
        seen.add((kind, seq))
        order.append((kind, seq))
        if len(order) > SEEN_SIZE:
            seen.discard(order.popleft())
        return False

    def _on_status(self, v: TableView, msg: dict[str, Any], body: dict[str, Any], seq: int,
                   t: float) -> list[dict[str, Any]]:
        if seq < v.status_seq:
            return []  # an older retained status arriving late
        v.status_seq = seq
        v.phase, v.game, v.dealer = _text(body.get("phase"), 40), _text(body.get("game"), 40), \
            _text(body.get("dealer"), 4)
        v.deal = body["deal"] if isinstance(body.get("deal"), int) else v.deal
        lamps = body.get("lamps")
        if isinstance(lamps, dict):
            v.lamps = {str(k)[:40]: bool(x) for k, x in list(lamps.items())[:20]}
            v.needs_ack = any(v.lamps.values())
        counts = body.get("counts")
        if isinstance(counts, dict):
            v.counts = {str(k)[:4]: x for k, x in list(counts.items())[:4] if isinstance(x, int)}
        for key in ("shoe_online", "camera_online"):
            if isinstance(body.get(key), bool):
                setattr(v, key, body[key])
        v.online = True
        return [{"type": "table", "table": v.to_dict(), "t": t}]

    def _on_event(self, v: TableView, msg: dict[str, Any], body: dict[str, Any], seq: int,
                  t: float) -> list[dict[str, Any]]:
        v.events += 1
        etype, seat = _text(body.get("type"), 40), _text(body.get("seat"), 4)
        v.last_event = f"{etype} {seat}".strip()  # the type and seat only: never a card
        return [{"type": "table", "table": v.to_dict(), "t": t}]

    def _on_ruling(self, v: TableView, msg: dict[str, Any], body: dict[str, Any], seq: int,
                   t: float) -> list[dict[str, Any]]:
        r = _ruling_view(body)
        v.ruling, v.ruling_seq, v.acked_by = r, seq, ""
        if r["remedy"] in IRREGULAR:
            v.needs_ack = True
        entry = {"table": v.table, "seq": seq, "deal": msg.get("deal") if isinstance(msg.get("deal"), int)
                 else 0, "t": t, **r}
        self.feed.appendleft(entry)
        return [{"type": "table", "table": v.to_dict(), "t": t}, {"type": "ruling", "ruling": entry}]

    def _on_deal(self, v: TableView, msg: dict[str, Any], body: dict[str, Any], seq: int,
                 t: float) -> list[dict[str, Any]]:
        return [{"type": "table", "table": v.to_dict(), "t": t}]

    def _on_pack(self, v: TableView, msg: dict[str, Any], body: dict[str, Any], seq: int,
                 t: float) -> list[dict[str, Any]]:
        name = _text(body.get("pack"), 64)
        if not name:
            raise Refused("pack health without a pack name")
        p = self.packs.setdefault((v.table, name), PackView(v.table, name))
        p.unreadable = _int(body.get("unreadable"), "unreadable")
        p.damaged = _int(body.get("damaged"), "damaged")
        p.deals = _int(body.get("deals"), "deals")
        return [{"type": "pack", "pack": p.to_dict()}]

    def acknowledged(self, table: str, by: str) -> list[dict[str, Any]]:
        """The director acknowledged ``table``'s ruling (the table will clear its lamps and say so)."""
        v = self.tables[table]
        v.acked_by, v.needs_ack = by, False
        entry = {"table": table, "seq": v.ruling_seq, "deal": v.deal, "t": 0.0, "remedy": "acknowledged",
                 "law": "", "clause": "", "reason": f"acknowledged by {by}", "seat": "", "pack": "",
                 "dealer": ""}
        self.feed.appendleft(entry)
        return [{"type": "table", "table": v.to_dict()}, {"type": "ruling", "ruling": entry}]
