"""What the dashboard knows about the club: every table's latest state, the rulings feed, pack health.

Pure (no I/O): ``ClubState.ingest(topic, payload, now)`` takes one MQTT message and returns what changed,
or refuses it with a logged reason. Checks, in order: the topic is one of ours; the payload is not too
large, is a JSON object, names the same table as the topic (a table publishing under another's id is
refused here too, not only by the broker's ACL) and the same kind; then repeats of an ordered message
(same table, kind and seq: QoS 1 may deliver twice, and a table resends after an outage) are dropped.

What the director reads is kept here in words (``club.words``, the table display's own words):
- A **call**: a table that needs the director (``club.calls``: a ruling whose remedy calls the director;
  what the players settle themselves only shows, lit, on the table's card). It opens when a status first
  shows a ruling lamp lit after such a ruling (or, for a dashboard that was away, when the status's own
  latest ruling is one), ``since`` being the dashboard's clock then; it carries the headline, reason and
  law of the latest calling ruling, can be *taken* by a director (who is on the way) and leaves when a
  status shows the ruling lamps out (the table obeyed, or a director's acknowledgement put them out).
- **Lamps with their reasons**: every lit lamp, each with the words of the ruling of this deal that lit
  it, or a device's own reason for being offline (``words.lit_items``).
- The **current ruling** stands until the next deal starts (a ``deal_start`` event or a status of a
  later deal).
- **Pending commands**: what the dashboard sent a table, until a status of that table lists the command's
  id in ``done`` (taken in); a choice or a search outcome (``CHECKED``), until the status lists its id in
  ``answers`` (the table checked it against its own state: entered, or refused with the reason the page
  shows).
- **Open claims and the search** (``club.claims``): the options the laws leave to a player, and the
  missing-card search, as the latest status tells them, in words; a bridge deal's irregular call or card
  waiting for a ruling, its revokes, a bar to judge and its claim, with the answers that settle them
  (``club.bridge_answers``).
- **Gaps**: every ordered message names the seq of the one before it (``prev``); a ``prev`` above the
  last seq seen means messages were lost, and the table is re-read from its retained status (an update of
  type ``resync`` asks the dashboard to do so), at most once every ``RESYNC_EVERY`` seconds a table.
- **Bounds** a table login cannot pass: ``PACKS_SHOWN`` packs a table, one re-read a window, journal heads
  written at most ``HEADS_BURST`` at once and then one every ``HEADS_EVERY`` seconds.
"""

from __future__ import annotations

import logging
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from firmware_host.club import words
from firmware_host.club.bridge_answers import bridge_view
from firmware_host.club.calls import calls_director
from firmware_host.club.claims import claim_words, entries, search_words
from firmware_host.club.results import FIELDS, result_words
from firmware_host.table.bridge_choices import ANSWERS
from firmware_host.table.lamps import RULING_LAMPS, lamps_for
from firmware_host.wire.messages import Envelope, MessageError
from firmware_host.wire.reader import read_json
from firmware_host.wire.topics import ORDERED_KINDS, TOPICS

log = logging.getLogger(__name__)

MAX_PAYLOAD = 65536
ORDERED = ORDERED_KINDS  # board, players: a duplicate table's, for the session; hand: a euchre night's
FEED_SIZE = 200
LOG_FIRST = 20      # refused messages from one table logged each, then one in LOG_EVERY
LOG_EVERY = 100
SEEN_SIZE = 20000
HISTORY = 100       # feed entries kept per table (the table's history on the page)
PENDING_KEPT = 20   # commands a table has not yet confirmed, kept per table
REFUSED_SHOWN = 3   # the latest commands a table refused, shown with their reasons
CHECKED = frozenset({"choose", "search", "bid", "discard", "call", "correct", *ANSWERS})  # commands pending until the table answers, not just takes them in
RESULT_PHASES = frozenset({"auction", "play", "scoring"})  # a table's phases in which a hand awaits its result
UNKNOWN_PACKS = frozenset({"", "unknown"})  # not a pack: a shoe that has not named its pack yet
# One table login must not make the dashboard work or write without bound (docs/mqtt.md, "The dashboard"):
RESYNC_EVERY = 10.0  # s: a table is read again from its retained topics at most once in this window
PACKS_SHOWN = 32     # packs shown a table: a new pack name past them is refused
HEADS_BURST = 12     # journal heads of one table kept at once ...
HEADS_EVERY = 5.0    # ... then one every 5 s (an honest table's heartbeat: never one passed over)


class Refused(ValueError):
    """A message the dashboard will not show; the text says why."""


def _game_lines(body: dict[str, Any]) -> tuple[list[str], dict[str, Any], tuple[str, int] | None]:
    """The game as the table's own screen shows it (``devices.table_view``), from a status that came from
    outside, as lines and in parts (``table_view.game_parts``, for the table's page): anything malformed
    gives no lines, never an exception; each line at most 80 characters."""
    from firmware_host.devices.table_view import game_lines, game_parts, status_line

    dup = body.get("duplicate")
    at = None
    if isinstance(dup, dict) and isinstance(dup.get("table"), int) and not isinstance(dup.get("table"), bool):
        at = (_text(dup.get("section"), 40), int(dup["table"]))
    try:
        lines = [*game_lines(body), status_line(body)]
        parts = game_parts(body)
    except (TypeError, ValueError, KeyError, AttributeError, IndexError):
        return [], {}, at
    parts = {"head": _cut(parts["head"]), "auction": [[str(c)[:12] for c in row[:4]] for row in parts["auction"][:30]],
             "lines": _cut(parts["lines"]), "status": str(parts["status"])[:80]}
    return _cut(lines), parts, at


def _cut(lines: list[Any]) -> list[str]:
    """At most 40 lines of at most 80 characters, empty ones left out."""
    return [str(x)[:80] for x in lines[:40] if x]


@dataclass
class TableView:
    """One table as the director sees it (counts and rulings, never hands)."""

    table: str
    name: str = ""          # as people call it ([table] name); the id until a status says
    online: bool = False
    phase: str = "?"
    game: str = ""
    deal: int = 0
    dealer: str = ""
    lamps: dict[str, bool] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    shoe_online: bool | None = None
    camera_online: bool | None = None
    score: str = ""
    ruling: dict[str, Any] | None = None
    ruling_seq: int = 0
    irregularity: dict[str, Any] | None = None   # the latest irregularity (the words of a call)
    call: dict[str, Any] | None = None
    calling: dict[str, Any] | None = None      # words of the latest ruling that calls the director
    reasons: dict[str, dict[str, Any]] = field(default_factory=dict)  # lamp -> words of what lit it
    offline: dict[str, str] = field(default_factory=dict)  # device -> why, in its own words
    results: list[dict[str, Any]] = field(default_factory=list)  # results and corrections entered, newest last
    pending: list[dict[str, Any]] = field(default_factory=list)
    claims: list[dict[str, Any]] = field(default_factory=list)
    search: dict[str, Any] | None = None
    bridge: dict[str, Any] | None = None  # a bridge deal's irregularities and claim, in words (bridge_answers)
    refused: list[dict[str, Any]] = field(default_factory=list)
    events: int = 0
    last_event: str = ""
    status_seq: int = -1
    last_seen: float = 0.0
    last_ordered: int = -1   # seq of the newest ordered message applied (-1: none yet)
    resyncs: int = 0
    resync_at: float = float("-inf")   # the dashboard's clock at the table's latest re-read
    resync_owed: bool = False  # a gap came inside the window: re-read at the first message after it
    heads_budget: float = HEADS_BURST  # heads that may be kept now (HEADS_BURST, HEADS_EVERY)
    heads_at: float = float("-inf")    # when the budget was last counted
    heads_passed_over: int = 0         # new heads not kept: sent faster than the budget allows
    journal: dict[str, Any] | None = None  # the newest head the club holds: {row, t, problem}
    game_lines: list[str] = field(default_factory=list)  # the game as the table's own screen shows it
    game_parts: dict[str, Any] = field(default_factory=dict)  # the same in parts (``table_view.game_parts``)
    status_ruling: dict[str, Any] | None = None  # the words of the status's own latest ruling
    call_waiting: bool = False  # an irregular call or card waits for a ruling (the status's bridge.waiting)
    board_at: tuple[str, int] | None = None  # a duplicate table's (section, table number), from its status
    set_aside: list[str] = field(default_factory=list)  # events the table could not rule on, in words

    @property
    def needs_ack(self) -> bool:
        """A ruling lamp is lit: the table calls the director."""
        return any(self.lamps.get(name) for name in RULING_LAMPS)

    @property
    def result_due(self) -> bool:
        """A hand waits for its result (between the end of a deal and the next), for a game that has them."""
        return self.phase in RESULT_PHASES and self.game in FIELDS

    def to_dict(self) -> dict[str, Any]:
        """What the page gets: words only (lamps lit, seat names), no code names."""
        return {"table": self.table, "name": self.name or self.table, "online": self.online,
                "phase": self.phase, "game": self.game,
                "deal": self.deal, "dealer": words.seat_name(self.dealer), "lamps": words.lamp_words(self.lamps),
                "lit": words.lit_items(self.lamps, self.reasons, self.offline), "offline": dict(self.offline),
                "counts": self.counts, "shoe_online": self.shoe_online, "camera_online": self.camera_online,
                "score": self.score, "ruling": self.ruling, "call": self.call, "pending": self.pending,
                "claims": self.claims, "search": self.search, "bridge": self.bridge, "refused": self.refused,
                "entries": entries(self.game, self.phase), "events": self.events, "last_event": self.last_event, "result_due": self.result_due,
                "resyncs": self.resyncs, "journal": self.journal, "set_aside": self.set_aside,
                "results": [{k: r[k] for k in ("deal", "by", "words", "taken", "kind", "why")} for r in self.results]}

    def players_ruling(self) -> dict[str, Any] | None:
        """The ruling the table's players read on their page: the one waiting (a ruling lamp lit, or an
        irregular call or card waiting in the status) or the last given in this deal, in the terminal's
        words (headline, reason, law, clause); for a dashboard that was away when it came, the status's
        own latest ruling while something waits. None when there is none."""
        waits = self.needs_ack or self.call_waiting
        said = self.ruling if self.ruling is not None else self.status_ruling if waits else None
        return None if said is None else {k: said.get(k, "") for k in ("headline", "reason", "law", "clause")}

    def entered(self, deal: int) -> dict[str, Any] | None:
        """The latest result (or correction) entered here for ``deal``, with whether the table took it."""
        return next((r for r in reversed(self.results) if r["deal"] == deal), None)


@dataclass
class PackView:
    table: str
    pack: str
    unreadable: int = 0
    damaged: int = 0
    deals: int = 0

    @property
    def retire(self) -> bool:
        return self.unreadable + self.damaged >= words.RETIRE_AT

    def to_dict(self) -> dict[str, Any]:
        return {"table": self.table, "pack": self.pack, "unreadable": self.unreadable,
                "damaged": self.damaged, "deals": self.deals, "retire": self.retire,
                "why": words.pack_why(self.unreadable, self.damaged, self.deals)}


def _int(v: Any, name: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise Refused(f"{name} must be a whole number >= 0, got {v!r}")
    return v


def _text(v: Any, limit: int = 2000) -> str:
    return v[:limit] if isinstance(v, str) else ""


def _ruling_words(body: dict[str, Any]) -> dict[str, Any]:
    return {"headline": words.headline(body), "law": _text(body.get("law"), 200),
            "clause": _text(body.get("clause"), 80), "reason": _text(body.get("reason"))}


class ClubState:
    """The club as seen through the broker."""

    def __init__(self, heads: Any | None = None) -> None:
        self.heads = heads  # a ``club.heads.HeadBook`` that keeps each table's journal heads, or None
        self.tables: dict[str, TableView] = {}
        self.packs: dict[tuple[str, str], PackView] = {}
        self._pack_topics: dict[str, list[str]] = {}   # table -> the topics of its packs shown, in order
        self.feed: deque[dict[str, Any]] = deque(maxlen=FEED_SIZE)
        self.history: dict[str, deque[dict[str, Any]]] = {}
        self.refused = 0
        self._refused_from: dict[str, int] = {}
        self.faults: list[dict[str, Any]] = []  # the dashboard's own faults (``Hub.fault``), newest last
        self._seen: dict[str, set[tuple[str, int]]] = {}
        self._seen_order: dict[str, deque[tuple[str, int]]] = {}

    def snapshot(self, now: float = 0.0) -> dict[str, Any]:
        """Everything, for a browser that has just connected (``now``: the dashboard's clock)."""
        return {"type": "snapshot", "now": now, "tables": [t.to_dict() for t in self.tables.values()],
                "feed": list(self.feed), "packs": [p.to_dict() for p in self.packs.values()],
                "faults": list(self.faults)}

    def table_history(self, table: str) -> list[dict[str, Any]]:
        """A table's feed entries, newest first."""
        return list(self.history.get(table, ()))

    def ingest(self, topic: str, payload: bytes, now: float) -> list[dict[str, Any]]:
        """Apply one MQTT message. Returns the updates for the browsers ([] for a repeat or a refusal)."""
        try:
            return self._ingest(topic, payload, now)
        except Refused as exc:
            self.refused += 1
            # said for the first few from a topic's table, then every LOG_EVERY-th: one login cannot fill
            # the club machine's log
            who = topic.split("/")[1] if topic.count("/") >= 2 else ""
            n = self._refused_from[who] = self._refused_from.get(who, 0) + 1
            if n <= LOG_FIRST or n % LOG_EVERY == 0:
                log.warning("refused MQTT message on %r: %s%s", topic[:200], exc,
                            f" ({n} refused from {who[:64]!r} so far)" if n > LOG_FIRST else "")
            return []

    def _ingest(self, topic: str, payload: bytes, now: float) -> list[dict[str, Any]]:
        name = TOPICS.parse(topic)
        if name is None:
            raise Refused("unknown topic")
        if name.family != "table":
            return []  # the session's messages and our own commands to the tables, seen through the '#' subscription
        table, kind = name.table, name.kind
        read = read_json(payload, max_bytes=MAX_PAYLOAD)  # the one checked reader: size, depth, UTF-8, JSON
        if read.refusal is not None:
            raise Refused(f"payload is not JSON ({read.refusal.why})" if read.refusal.kind in ("json", "utf8")
                          else read.refusal.why)
        msg = read.value
        if not isinstance(msg, dict):
            raise Refused("payload is not a JSON object")
        if msg.get("table") != table:
            raise Refused(f"payload names table {str(msg.get('table'))[:80]!r} on table {table!r}'s topic")
        out = self._ingest_table(self.tables.get(table), table, kind, name.sub, msg, now)
        return out + self._owed(self.tables.get(table), now)

    def _owed(self, view: TableView | None, now: float) -> list[dict[str, Any]]:
        """The re-read a gap inside the window asked for, once the window is over (at the table's first
        message after it: a heartbeat comes every 5 s)."""
        if view is None or not view.resync_owed or now < view.resync_at + RESYNC_EVERY:
            return []
        view.resync_owed, view.resync_at = False, now
        return [{"type": "resync", "table": view.table}]

    def resync_topics(self, table: str) -> list[str]:
        """What a re-read of ``table`` subscribes to again: its retained status and the retained topics of
        the packs shown for it (never ``pack/+``: a table may leave any number of retained pack topics on
        the broker, and each re-read would have them all sent again)."""
        return [TOPICS.table(table, "status"), *self._pack_topics.get(table, ())]

    def _ingest_table(self, view: TableView | None, table: str, kind: str, sub: str, msg: dict[str, Any],
                      now: float) -> list[dict[str, Any]]:
        if kind == "online":
            view = view or self.tables.setdefault(table, TableView(table))
            view.online = bool(msg.get("online"))
            view.last_seen = now
            return [{"type": "table", "table": view.to_dict()}]
        if kind == "heartbeat":
            view = view or self.tables.setdefault(table, TableView(table))
            view.last_seen, view.online = now, True
            return self._on_head(view, msg.get("head"), now)
        if msg.get("kind") != kind:
            raise Refused(f"payload kind {str(msg.get('kind'))[:40]!r} on a {kind} topic")
        try:   # the wire's one checked reader of an envelope: the bounds the session holds too
            envelope = Envelope.from_dict(msg, table=table, kind=kind)
        except MessageError as exc:
            raise Refused(str(exc)) from None
        seq, t, body = envelope.seq, envelope.t, msg["body"]
        if kind in ORDERED and self._repeat(table, kind, seq):
            return []
        view = view or self.tables.setdefault(table, TableView(table))
        view.last_seen = now
        out: list[dict[str, Any]] = []
        if kind in ORDERED:
            out += self._check_gap(view, msg.get("prev"), seq, now)
        if kind == "pack":
            return out + self._on_pack(view, body, sub)
        handler = {"status": self._on_status, "event": self._on_event, "ruling": self._on_ruling,
                   "deal": self._on_deal, "board": self._on_deal,
                   "players": self._on_deal, "hand": self._on_deal}[kind]
        return out + handler(view, msg, body, seq, float(t), now)

    def _on_head(self, v: TableView, text: Any, now: float) -> list[dict[str, Any]]:
        """A heartbeat's journal head: kept by the club (``heads``), and shown as how far the club can
        check the table's journal ("journal verified up to row N, at T")."""
        from firmware_host.club.heads import parse

        head = parse(text)
        if head is None or self.heads is None:
            return []
        last = self.heads.last(v.table)
        if last is None or (last.row, last.hash) != head:   # a new head: written and fsynced, within a budget
            v.heads_budget = min(float(HEADS_BURST), v.heads_budget + max(0.0, now - v.heads_at) / HEADS_EVERY)
            v.heads_at = now
            if v.heads_budget < 1.0:
                v.heads_passed_over += 1
                n = v.heads_passed_over
                if n <= LOG_FIRST or n % LOG_EVERY == 0:
                    log.warning("table %s: journal head %d:%s... not kept: more than one every %g s "
                                "(%d passed over so far)", v.table, head[0], head[1][:12], HEADS_EVERY, n)
                return []
            v.heads_budget -= 1.0
        kept = self.heads.record(v.table, head[0], head[1], now)
        problem = self.heads.problem(v.table)
        said = {"row": kept.row, "t": kept.t, "problem": problem.problem if problem is not None else ""}
        renewed = self._new_journal(v, now) if last is not None and kept.row < last.row else []
        if said == v.journal and not renewed:
            return []
        v.journal = said
        return [{"type": "table", "table": v.to_dict()}, *renewed]

    def _new_journal(self, v: TableView, now: float) -> list[dict[str, Any]]:
        """The table's journal went back (a new card, a journal replaced): its seqs start again from 1.

        Without this, every status below the old journal's newest seq was dropped as older and every event
        or ruling whose seq the old journal had used as a repeat: the page kept the old journal's phase and
        lamps, and a call of the new one never reached the queue. The table's numbers start afresh, and its
        retained status is read again (one the new journal sent before this heartbeat was dropped)."""
        v.status_seq, v.last_ordered = -1, -1
        self._seen.pop(v.table, None)
        self._seen_order.pop(v.table, None)
        v.resync_owed, v.resync_at = False, now
        return [{"type": "resync", "table": v.table}]

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

    def _check_gap(self, v: TableView, prev: Any, seq: int, now: float) -> list[dict[str, Any]]:
        known = v.last_ordered
        v.last_ordered = max(known, seq)
        if known < 0 or isinstance(prev, bool) or not isinstance(prev, int) or prev <= known:
            return []
        v.resyncs += 1
        if now < v.resync_at + RESYNC_EVERY:   # a flood of gaps must not be a flood of re-reads
            v.resync_owed = True
            return []
        v.resync_at = now
        log.warning("table %s: messages after seq %d up to seq %d never arrived; reading its latest status "
                    "again", v.table, known, prev)
        entry = self._entry(v, seq, now, "link", {
            "headline": "MESSAGES MISSED", "law": "", "clause": "",
            "reason": f"Messages from {v.name or v.table} after number {known} up to number {prev} never arrived; "
                      "its state was read again from its latest status."})
        return [{"type": "feed", "entry": entry}, {"type": "resync", "table": v.table}]

    def _entry(self, v: TableView, seq: int, t: float, kind: str, said: dict[str, Any]) -> dict[str, Any]:
        entry = {"id": f"{v.table}:{kind}:{seq}:{len(self.feed)}", "table": v.table, "name": v.name or v.table,
                 "seq": seq, "deal": v.deal,
                 "t": t, "kind": kind, "acked_by": "", **said}
        self.feed.appendleft(entry)
        self.history.setdefault(v.table, deque(maxlen=HISTORY)).appendleft(entry)
        return entry

    def _on_status(self, v: TableView, msg: dict[str, Any], body: dict[str, Any], seq: int,
                   t: float, now: float) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        done = msg.get("done")
        if isinstance(done, list) and v.results:
            taken = {str(x)[:64] for x in done[:64]}
            for r in v.results:
                r["taken"] = r["taken"] or (r["id"] in taken and r["kind"] == "result")
        if isinstance(done, list) and v.pending:
            ids = {str(x)[:64] for x in done[:64]}
            v.pending = [p for p in v.pending if p["id"] not in ids or p["kind"] in CHECKED]
        answers = body.get("answers")
        if isinstance(answers, list) and v.pending:
            said = {str(a.get("id"))[:64]: a for a in answers[:64] if isinstance(a, dict)}
            for r in [r for r in v.results if r["kind"] == "correct" and r["id"] in said]:
                r["taken"], r["why"] = bool(said[r["id"]].get("ok")), _text(said[r["id"]].get("why"), 400)
            for p in [p for p in v.pending if p["kind"] in CHECKED and p["id"] in said]:
                v.pending.remove(p)
                if not said[p["id"]].get("ok"):
                    v.refused = [*v.refused, {"id": p["id"], "kind": p["kind"], "by": p["by"],
                                              "why": _text(said[p["id"]].get("why"), 400)}][-REFUSED_SHOWN:]
        if seq < v.status_seq:
            return [{"type": "table", "table": v.to_dict(), "t": t}]  # an older status: only its ``done``
        v.status_seq = seq
        v.phase, v.game, v.dealer = _text(body.get("phase"), 40), _text(body.get("game"), 40), \
            _text(body.get("dealer"), 4)
        v.game_lines, v.game_parts, v.board_at = _game_lines(body)
        v.name = _text(body.get("name"), 80) or v.name
        offline = body.get("offline")
        if isinstance(offline, dict):
            v.offline = {str(k)[:20]: _text(x, 400) for k, x in list(offline.items())[:8]}
        if isinstance(body.get("deal"), int) and not isinstance(body.get("deal"), bool):
            v.deal = body["deal"]
            if v.ruling is not None and v.deal > v.ruling["deal"]:
                v.ruling = None  # a ruling stands until the next deal starts
        lamps = body.get("lamps")
        if isinstance(lamps, dict):
            v.lamps = {str(k)[:40]: bool(x) for k, x in list(lamps.items())[:20]}
            v.reasons = {k: w for k, w in v.reasons.items() if v.lamps.get(k)}  # only what is still lit
        counts = body.get("counts")
        if isinstance(counts, dict):
            v.counts = {str(k)[:4]: x for k, x in list(counts.items())[:4] if isinstance(x, int)}
        v.score = words.score_line(body.get("score"))
        v.claims, v.search = claim_words(body.get("claims")), search_words(body.get("search"))
        v.bridge = bridge_view(v.game, v.phase, body.get("bridge"))
        raw = body.get("bridge")
        v.call_waiting = isinstance(raw, dict) and isinstance(raw.get("waiting"), dict)
        v.set_aside = words.set_aside_words(body.get("set_aside"))
        for key in ("shoe_online", "camera_online"):
            if isinstance(body.get(key), bool):
                setattr(v, key, body[key])
        v.online = True
        latest = body.get("ruling")
        v.status_ruling = _ruling_words(latest) if isinstance(latest, dict) else None
        if v.needs_ack and v.call is None:
            said = v.calling or (_ruling_words(latest) if isinstance(latest, dict) and calls_director(latest)
                                 else None)
            if said is not None:
                v.call = {"since": now, **said, "taken_by": "", "taken_at": 0.0, "clearing_by": ""}
        elif not v.needs_ack:
            v.calling = None
            if v.call is not None:
                out += self._close_call(v)
        return [{"type": "table", "table": v.to_dict(), "t": t}, *out]

    def _close_call(self, v: TableView) -> list[dict[str, Any]]:
        assert v.call is not None
        by = v.call["clearing_by"] or v.call["taken_by"] or "the table"
        since = v.call["since"]
        v.call, v.irregularity = None, None
        out = []
        for e in self.history.get(v.table, ()):
            if e["kind"] == "irregularity" and e.get("calls") and not e["acked_by"]:
                e["acked_by"] = by
                out.append({"type": "feed", "entry": e})
        log.info("table %s: call of %.0f cleared (%s)", v.table, since, by)
        return out

    def _on_event(self, v: TableView, msg: dict[str, Any], body: dict[str, Any], seq: int,
                  t: float, now: float) -> list[dict[str, Any]]:
        v.events += 1
        etype, seat = _text(body.get("type"), 40), _text(body.get("seat"), 4)
        v.last_event = f"{etype.replace('_', ' ')} {words.seat_name(seat)}".strip()  # never a card
        if etype == "deal_start" and v.ruling is not None and seq > v.ruling["seq"]:
            v.ruling = None
        return [{"type": "table", "table": v.to_dict(), "t": t}]

    def _on_ruling(self, v: TableView, msg: dict[str, Any], body: dict[str, Any], seq: int,
                   t: float, now: float) -> list[dict[str, Any]]:
        said = _ruling_words(body)
        kind = words.kind(body)
        deal = msg.get("deal") if isinstance(msg.get("deal"), int) else 0
        v.ruling, v.ruling_seq = {**said, "seq": seq, "deal": max(deal, v.deal), "t": t}, seq
        if kind == "irregularity":
            v.irregularity = said
        if calls_director(body):
            v.calling = said
            if v.call is not None:  # a further call at a table already calling: its latest words
                v.call.update(said)
            elif v.needs_ack:  # its status (retained, sent apart) came first with the lamps lit
                v.call = {"since": now, **said, "taken_by": "", "taken_at": 0.0, "clearing_by": ""}
        ruling = words.ruling_of(body)
        for lamp in lamps_for(ruling) if ruling is not None else ():
            v.reasons[lamp] = said
        entry = self._entry(v, seq, t, kind, {**said, "calls": calls_director(body)})
        return [{"type": "table", "table": v.to_dict(), "t": t}, {"type": "feed", "entry": entry}]

    def _on_deal(self, v: TableView, msg: dict[str, Any], body: dict[str, Any], seq: int,
                 t: float, now: float) -> list[dict[str, Any]]:
        return [{"type": "table", "table": v.to_dict(), "t": t}]

    def _on_pack(self, v: TableView, body: dict[str, Any], sub: str) -> list[dict[str, Any]]:
        name = _text(body.get("pack"), 64)
        if name in UNKNOWN_PACKS:
            raise Refused(f"pack health for a pack not named yet ({name!r})")
        topics = self._pack_topics.setdefault(v.table, [])
        if (v.table, name) not in self.packs and len([k for k in self.packs if k[0] == v.table]) >= PACKS_SHOWN:
            raise Refused(f"pack health for a new pack {name!r}: {PACKS_SHOWN} of this table's packs are shown "
                          "already, the most a table may have")
        topic = TOPICS.table(v.table, "pack", sub)
        if topic not in topics:
            topics.append(topic)
            del topics[:-PACKS_SHOWN]
        p = self.packs.setdefault((v.table, name), PackView(v.table, name))
        p.unreadable = _int(body.get("unreadable"), "unreadable")
        p.damaged = _int(body.get("damaged"), "damaged")
        p.deals = _int(body.get("deals"), "deals")
        return [{"type": "pack", "pack": p.to_dict()}]

    # -- the director's side --------------------------------------------------------------------------

    def take(self, table: str, by: str, now: float) -> list[dict[str, Any]]:
        """Director ``by`` takes ``table``'s call (is on the way). Raises ``LookupError`` when the table
        has no call, ``PermissionError`` when another director has taken it."""
        v = self.tables[table]
        if v.call is None:
            raise LookupError(f"table {table} has no call waiting")
        if v.call["taken_by"] and v.call["taken_by"] != by:
            raise PermissionError(f"{v.call['taken_by']} has taken table {table}'s call")
        v.call["taken_by"], v.call["taken_at"] = by, now
        return [{"type": "table", "table": v.to_dict()}]

    def sent(self, table: str, cid: str, what: str, by: str, now: float, *, deal: int = 0,
             fields: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """The dashboard sent ``table`` a command (``what``: ``ack``, ``result``, ``correct``, ``choose``,
        ``search``...): pending until the table lists ``cid`` as done (``CHECKED`` kinds: as answered). A
        result or a correction (``fields`` of deal ``deal``) is kept, with whether the table took it."""
        v = self.tables[table]
        if what in ("result", "correct"):
            v.results = [*v.results, {"id": cid, "deal": deal, "by": by, "t": now, "kind": what, "fields": fields,
                                      "words": result_words(v.game, fields), "taken": False, "why": ""}][-8:]
        v.pending = [*v.pending, {"id": cid, "kind": what, "by": by, "t": now}][-PENDING_KEPT:]
        if what == "ack" and v.call is not None:
            v.call["clearing_by"] = by
        return [{"type": "table", "table": v.to_dict()}]
