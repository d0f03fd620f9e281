"""The soak's driver: a real ``cardtable run`` process, the virtual shoe it deals from, the people at the
table, and the faults.

The driver sees the table only as anyone outside could: it reads the journal (a second SQLite
connection, reads only) and keeps a replica law engine fed with the journaled events, to know when a
hand is over and what each player holds. It enters the play through ``cardtable run --events`` (a FIFO),
presses seat buttons on the shoe, and records what physically happened (``checker.Record``).

After a ``kill -9`` the driver starts the process again, as systemd would (``world.World``). The shoe's
messages the dead process never committed come again by the shoe protocol's own acknowledgements; the
director's entries it never journaled are entered again (a person at the table sees they did not
register), from the first one missing at the end of the journal — a hole in the middle is never mended,
so the checker sees it. With the club broker, some entries go the dashboard's way instead
(``DASHBOARD_SHARE`` of the bridge results, euchre trumps ordered up and missing-card searches, as
``command/result``, ``command/bid``, ``command/search``); those the broker delivers again itself.

The record keeps what the soak knows and the table does not decide: each card's seat and each deal's
dealer as the shoe dealt them, the seats each mistake concerns, the result entered for each hand.
"""

from __future__ import annotations

import json
import logging
import os
import random
import subprocess
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_host.soak import faults as fx
from firmware_host.soak.bridge import bridge_hand
from firmware_host.soak.player import euchre_hand
from firmware_host.soak.record import DealRecord, Dealt, Record, bad_line_note
from firmware_host.soak.rig import (
    ROOT,
    JournalWatch,
    RunProcess,
    SoakShoe,
    all_rows,
    table_config,
    table_id,
    tracebacks_in,
)
from firmware_host.soak.schedule import DRAW, PLAY_KINDS, SHOE_KINDS, Schedule
from firmware_host.soak.world import World
from laws.cards import Seat
from laws.engine import LawEngine
from laws.events import event_from_dict
from laws.games.bridge_hand import scored_from_cards
from laws.state import Phase

log = logging.getLogger(__name__)
DASHBOARD_SHARE = 0.3  # of the entries that can go the dashboard's way, with a broker


@dataclass(frozen=True)
class Options:
    """How the evening runs."""

    pass_ms: int = 2             # how long a card blocks the shoe's exit
    gap_ms: int = 3              # pause between cards
    idle_timeout: float = 30.0   # no journal progress this long: the table is stuck, the game ends
    disk: bool = True            # try a tmpfs of its own for the data folder (full-disk faults)
    broker: bool = False         # a real Mosquitto, and a subscriber standing for the dashboard
    camera: bool = True          # the synthetic camera's picture as an HTTP stream (camera faults)
    rubbers: int = 0             # stop a game once this many rubbers are won (0: play every deal)


class GameRun(World):
    """One game's evening: ``run()`` plays the schedule and returns the driver's record."""

    def __init__(self, schedule: Schedule, workdir: Path, opts: Options = Options()) -> None:
        from firmware_host.shoe.games import deal_plan

        self.s = schedule
        self.opts = opts
        self.dir = workdir / ("bridge" if schedule.game == "contract-bridge" else "euchre")
        self.dir.mkdir(parents=True, exist_ok=True)
        self.data = self.dir / "data"
        plan = deal_plan(schedule.game)
        self.complete = plan.cards_dealt - plan.turn_up
        self.record = Record(schedule.game, self.complete)
        self.rng = random.Random(f"play:{schedule.game}:{schedule.seed}")
        self.replica = LawEngine(schedule.game)
        self.deal_index = 0
        self.director_seen = 0
        self.presses_seen = 0
        self.cards_seen = 0
        self.bad_seen = 0                        # malformed lines the journal has a note for
        self.acted: set[int] = set()
        self.applied: dict[int, list[str]] = {}
        self.facts: dict[int, dict[str, str]] = {}   # deal -> the seats its mistake concerns
        self.results: dict[int, dict[str, Any]] = {}  # deal -> the result entered for its hand
        self.by_command: set[int] = set()        # indices of ``record.director`` sent as dashboard commands
        self.steps: deque[tuple[str, Any]] = deque()
        self.waiting: Any = None
        self.stop = threading.Event()
        self.club: Any = None
        self.cam: Any = None
        self.ruling_seqs: set[int] = set()
        self.new_packs: set[int] = set()   # replace_pack rulings the director has answered (their seqs)
        self.online: dict[str, bool] = {}  # devices as the journal last said
        self.rubbers = 0
        self.own_errors: list[str] = []    # tracebacks of the soak's own threads
        self._world_init()

    # -- the evening ------------------------------------------------------------------------------

    def run(self) -> Record:
        kinds = {f.kind for f in self.s.faults}
        if "disk_full" in kinds and self.opts.disk:
            why = self.disk.mount()
            self.disk_ok = why is None
            if why:
                self.record.notes.append(why)
        self.data.mkdir(parents=True, exist_ok=True)
        hook = threading.excepthook

        def own(args: threading.ExceptHookArgs) -> None:  # the soak's own threads: a traceback counts
            import traceback

            self.own_errors.append("".join(traceback.format_exception(args.exc_type, args.exc_value,
                                                                      args.exc_traceback)))
            hook(args)

        # Everything from the shoe on is set up inside ``try``: a SIGTERM (the ``soak`` command's SystemExit)
        # at any line of it still closes the shoe (its link to the pseudo-terminal goes) and stops the table
        # process, where the setting up before did neither when the signal came before the loop began.
        self.shoe: SoakShoe | None = None
        self.fifo: int | None = None
        self.proc: RunProcess | None = None
        self.watch: JournalWatch | None = None
        try:
            self._set_up()
            threading.excepthook = own
            assert self.proc is not None
            self.proc.start()
            # the players draw for the table first; then the dealer puts the first pack in the shoe
            self.steps += [("send", [{"type": "draw", "cuts": DRAW[self.s.game]}]), ("first_pack", None)]
            self._loop()
        finally:
            threading.excepthook = hook
            if self.proc is not None and self.proc.proc is not None:
                self._finish()
            else:
                self._abandon()
        return self.record

    def _set_up(self) -> None:
        """The shoe, the director's fifo, the camera and the club when asked for, and the table process (not yet
        started), each kept in ``self`` as soon as it exists."""
        self.shoe = SoakShoe(self.s.game, self.s.seed, self.s.deals, pass_ms=self.opts.pass_ms,
                             gap_ms=self.opts.gap_ms, directory=str(self.dir))
        self._inject()
        fifo = self.dir / "director.fifo"
        if fifo.exists():
            fifo.unlink()
        os.mkfifo(fifo)
        self.fifo = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)  # never blocks, and outlives every reader
        port = self.shoe.open()
        camera = "none"
        if self.opts.camera:
            from firmware_host.soak.camera import StreamCamera

            self.cam = StreamCamera()
            self.cam.start()
            self.cam_outage = fx.Outage(self.cam.stop, self.cam.start, self.physical)
            camera = self.cam.url
        config = table_config(self.dir, self.data, port, self.s.game, camera)
        if self.opts.broker:
            from firmware_host.soak.club import Club

            self.club = Club(self.dir, table_id(self.s.game))
            self.club.start()
            self.broker_outage = fx.Outage(self._broker_off, self._broker_on, self.physical)
            config.write_text(config.read_text() + self.club.config())
        self.proc = RunProcess(config, fifo, self.dir)
        self.watch = JournalWatch(self.data / "journal.sqlite3")

    def _abandon(self) -> None:
        """Undo a setting up cut short (a SIGTERM before the table process started): close what was made."""
        self.stop.set()
        made = ((self.proc, "stop"), (self.watch, "close"), (self.shoe, "close"), (self.cam, "stop"), (self.club, "close"))
        for thing, undo in made:
            if thing is not None:
                getattr(thing, undo)()
        if self.fifo is not None:
            os.close(self.fifo)
        if self.disk.mounted:
            self.disk.unmount()

    def _broker_off(self) -> None:
        self.broker_down = True
        self.club.broker.stop()

    def _broker_on(self) -> None:
        self.club.broker.start()
        self.broker_down = False

    def _loop(self) -> None:
        last = time.monotonic()
        while True:
            now = time.monotonic()
            rows = self.watch.new_rows()
            for row in rows:
                self._row(*row)
            if rows:
                last = now
            if not self.proc.alive():
                self._exited()
            self._faults(now)
            self._step()
            if self._done():
                return
            if self._busy():
                last = now
            elif now - last > self.opts.idle_timeout:
                d = self.replica.state.deal
                self.record.notes.append(
                    f"stuck: no journal progress for {self.opts.idle_timeout:.0f} s at shoe deal "
                    f"{self.shoe.deals}/{self.s.deals}, phase {self.replica.state.phase.value}, "
                    f"deal {d.number if d else 0} ({d.cards_dealt if d else 0} cards), "
                    f"{len(self.steps)} steps left")
                return
            self.stop.wait(0.005)

    def _row(self, seq: int, kind: str, body: dict[str, Any]) -> None:
        if kind == "ruling":
            self.ruling_seqs.add(seq)
            if body.get("remedy") == "replace_pack" and body.get("dealer") and seq not in self.new_packs:
                # the deal stopped for a replacement pack: the table deals nothing until the director has
                # brought one and acknowledged (``live.ShoeProcedure.new_pack_owed``); the shoe's dealer
                # has put a fresh pack in already
                self.new_packs.add(seq)
                self.steps.append(("new_pack", seq))
            if body.get("remedy") == "rubber_won":
                self.rubbers += 1
                if self.opts.rubbers and self.rubbers >= self.opts.rubbers:
                    self.shoe.last_deal = min(self.shoe.last_deal, self.shoe.deals)  # no more packs
        if kind == "note" and isinstance(body.get("device"), str) and "online" in body:
            self.online[body["device"]] = bool(body["online"])
        if kind == "note" and bad_line_note(body):
            self.bad_seen += 1
        if kind != "event" or body.get("type") == "game":
            return
        typ, src = body.get("type"), body.get("src")
        if typ == "deal_start":
            self.deal_index += 1
        if src == "director":
            self.director_seen += 1
        if src == "button" and typ == "demand":
            self.presses_seen += 1
        if src == "shoe" and (typ in ("card_dealt", "trump_turned") or
                              typ == "damaged_card" and body.get("card") is None):
            self.cards_seen += 1
        try:
            self.replica.feed(event_from_dict(body))
        except ValueError:
            pass

    # -- the people ---------------------------------------------------------------------------------

    def _plan(self) -> None:
        st = self.replica.state
        d = st.deal
        k = self.deal_index
        if d is None or d.void or not d.ended or st.phase != Phase.AUCTION or k in self.acted:
            return
        if self.s.game == "euchre" and d.trump_card is None:
            return
        self.acted.add(k)
        mistake = self.s.mistakes.get(k)
        seat = self.rng.choice(list(Seat))
        if mistake == "late_demand" and self.s.game == "contract-bridge":
            # In a bridge auction two presses of a seat's button are that seat's pass (docs/mqtt.md), so the
            # late demand for a new shuffle reaches the table as the director enters it for the player.
            self.steps.append(("mark", (mistake, {"at": seat.value})))
            self.steps.append(("send", [{"type": "demand", "seat": seat.value, "what": "new_shuffle"}]))
        elif mistake in ("attention", "late_demand"):
            self.steps.append(("mark", (mistake, {"at": seat.value})))
            self.steps.append(("press", (seat, 1 if mistake == "attention" else 2)))
        elif mistake == "miscount":
            other = self.rng.choice([s for s in Seat if s != seat])
            self.steps.append(("mark", (mistake, {"at": seat.value, "other": other.value})))
            self.steps.append(("send", [{"type": "hand_count", "seat": seat.value, "count": 14},
                                        {"type": "hand_count", "seat": other.value, "count": 12}]))
        extra = []
        if mistake == "wrong_count":
            self.steps.append(("mark", (mistake, {"at": seat.value})))
            extra = [{"type": "hand_count", "seat": seat.value, "count": 4}]
        self.steps.append(("play", (d.number, extra, mistake if mistake in PLAY_KINDS else None)))

    def _step(self) -> None:
        if self.waiting is not None:
            if not self.waiting():
                return
            self.waiting = None
        if not self.steps:
            self._plan()
            return
        what, arg = self.steps.popleft()
        if what == "mark":
            kind, facts = arg
            self.applied.setdefault(self.deal_index, []).append(kind)
            self.facts.setdefault(self.deal_index, {}).update(facts)
        elif what == "press":
            self.shoe.press(*arg)
            self.record.presses += 1
            want = self.record.presses
            self.waiting = lambda: self.presses_seen >= want
        elif what == "send":
            self._send(arg)
        elif what == "command":
            self._by_dashboard(*arg)
        elif what == "new_pack":
            cid = self.club.command("ack", {"seq": arg})   # a broker: ``World._inject`` ran no such mistake
            self.record.commands.append({"kind": "ack", "id": cid, "expect": "ack"})
        elif what == "first_pack":
            self.shoe.load_pack(self.shoe.packs[0])
        elif what == "play":
            self._play(*arg)

    def _play(self, number: int, extra: list[dict[str, Any]], mistake: str | None = None) -> None:
        d = self.replica.state.deal
        if d is None or d.void or d.number != number or self.replica.state.phase != Phase.AUCTION:
            return  # a mistake voided the hand (and the next deal may be under way already)
        if d.search is not None:  # a card missing: the search finds nothing, the director says so
            event = {"type": "missing_card", "card": d.search_card.code if d.search_card else None,
                     "seat": d.search.value, "found": None}
            if self._dashboard():
                self._by_dashboard("search", {"found": None}, event)
            else:
                self._send([event])
            return
        hands = {s: list(cs) for s, cs in d.hands.items()}
        if self.s.game != "euchre":
            self._bridge(bridge_hand(d.dealer, hands, mistake, self.rng))
            return
        assert d.trump_card is not None  # a euchre hand is planned once the trump card is turned (``_plan``)
        events = euchre_hand(hands, d.dealer, d.trump_card, self.rng, extra)
        self.results[self.deal_index] = dict(events[-1])
        first = events[0]
        if first["type"] == "trump_made" and self._dashboard():
            # the eldest orders the turned card up, entered for him on the dashboard's bid form
            bid = {"type": "bid", "seat": first["seat"], "call": "order"}
            self._by_dashboard("bid", {"seat": first["seat"], "call": "order"}, bid)
            events = events[1:]
        if self.waiting is None:
            self._send(events)
        else:
            self.steps.appendleft(("send", events))

    def _bridge(self, hand: Any) -> None:
        """A bridge hand's entries (``soak.bridge``): a real auction and legal play, the mistake made and
        the entries that settle it; the table scores the hand from its cards, so no result is typed (the
        soak keeps its own for the score sheet). With a broker up, a share of the answers go as the
        dashboard's commands (``accept``, ``withdraw``, ``bar``, ``correct_revoke``, ``claim``,
        ``claim_reply``, ``claim_ruled``); the rest through the director's input."""
        k = self.deal_index
        if hand.applied is not None:
            self.applied.setdefault(k, []).append(hand.applied)
        self.facts.setdefault(k, {}).update(hand.facts)
        events = list(hand.events)
        answers = {i: (kind, fields) for i, kind, fields in hand.answers}
        steps: list[tuple[str, Any]] = []
        batch: list[dict[str, Any]] = []
        for i, event in enumerate(events):
            if i in answers and self._dashboard():
                if batch:
                    steps.append(("send", batch))
                    batch = []
                steps.append(("command", (*answers[i], event)))
            else:
                batch.append(event)
        if hand.result is not None:  # the soak's own result: the table scores the cards, nothing is typed
            self.results[k] = dict(hand.result)
        if batch:
            steps.append(("send", batch))
        self.steps.extendleft(reversed(steps))

    def _dashboard(self) -> bool:
        """Whether this entry goes the dashboard's way (with a broker that is up, for a share of them)."""
        return self.club is not None and not self.broker_down and self.rng.random() < DASHBOARD_SHARE

    def _by_dashboard(self, kind: str, fields: dict[str, Any], event: dict[str, Any]) -> None:
        """An entry sent as the dashboard's ``command/<kind>``; ``event`` is what the table must journal."""
        if self.broker_down:  # the director cannot reach it now; he enters it at the table instead
            self._send([event])
            return
        cid = self.club.command(kind, fields)
        self.by_command.add(len(self.record.director))
        self.record.commands.append({"kind": kind, "id": cid, "expect": "event"})
        self.record.director.append(event)
        want = len(self.record.director)
        self.waiting = lambda: self.director_seen >= want

    def _send(self, events: list[dict[str, Any]]) -> None:
        self.record.director += events
        self._write_lines([json.dumps(e) for e in events])
        want = len(self.record.director)
        self.waiting = lambda: self.director_seen >= want

    # -- the end ------------------------------------------------------------------------------------

    def _done(self) -> bool:
        st = self.replica.state
        last = self.shoe.last_deal  # the schedule's last deal, or the deal that won the last rubber
        return (self.shoe.deals >= last and not self.shoe.firmware.dealing and not self.steps
                and self.waiting is None and not [f for f in self.pending if f.deal <= last]
                and not self._busy()
                and (st.phase not in (Phase.DEALING, Phase.AUCTION, Phase.PLAY, Phase.SCORING)
                     or scored_from_cards(st))
                and self.cards_seen >= len(self.shoe.dealt) - len(self.shoe.strays)
                and self.bad_seen >= len(self.record.bad_lines)
                and self.physical.settled()       # the world is back, and the table had time to see it
                and all(self.online.values()))  # every device back that a fault took away

    def _finish(self) -> None:
        self.stop.set()
        for t in self.active:
            t.join(timeout=20)
        self._not_reached()
        if self.club is not None:  # the table's outbox drains while it runs: give it the time to
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline and not self.ruling_seqs <= self.club.received():
                for row in self.watch.new_rows():
                    self._row(*row)
                time.sleep(0.05)
        rc = self.proc.stop()
        self.record.stopped = rc
        if rc not in (0, None):
            self.record.notes.append(f"cardtable run stopped with status {rc} on SIGTERM")
        self.watch.close()
        self.shoe.close()
        if self.cam is not None:
            self.cam.stop()
        if self.club is not None:
            self.record.dashboard = dict(self.club.seqs)
            self.club.close()
        os.close(self.fifo)
        p = subprocess.run([sys.executable, "-m", "firmware_host.cli", "journal", "verify", "--data-dir",
                            str(self.data)], capture_output=True, text=True, cwd=ROOT)
        where = self.proc.tracebacks() + tracebacks_in(p.stdout + p.stderr)
        for text in self.own_errors:
            where += tracebacks_in(text) or {"soak thread": 1}
        self.record.tracebacks = sum(where.values())
        if where:
            self.record.notes.append("tracebacks in the output of the soak's processes, by the line of ours "
                                     "that raised: " + ", ".join(f"{w} x{n}" for w, n in where.most_common(5)))
        self.record.restarts = self.proc.starts - 1
        self.record.strays = len(self.shoe.strays)
        self.record.verified = p.returncode == 0
        lines = (p.stdout + p.stderr).strip().splitlines()
        self.record.verify_message = lines[-1] if lines else f"exit {p.returncode}"
        db = self.data / "journal.sqlite3"
        if db.exists():
            self.record.rows = all_rows(db)
        if self.disk.mounted:  # keep the evidence: the journal leaves the small disk before it goes
            import shutil

            saved = self.dir / "data.saved"
            shutil.copytree(self.data, saved, ignore=shutil.ignore_patterns("filler*.bin"))
            self.disk.unmount()
            shutil.rmtree(self.data, ignore_errors=True)
            saved.rename(self.data)
        for i, cards in enumerate(self.shoe.deal_cards(), start=1):
            dealt = [Dealt(c.card.code, c.pack, c.face_up, c.readable, self.shoe.seat_of(i, n))
                     for n, c in enumerate(cards)]
            mistake = self.s.mistakes.get(i)
            self.record.deals.append(DealRecord(
                i, dealt[:self.complete], dealt[self.complete] if len(dealt) > self.complete else None,
                self.applied.get(i, []), mistake if mistake in SHOE_KINDS and i not in self.not_injected else None,
                self.shoe.sizes[i - 1] if i <= len(self.shoe.sizes) else None, self.shoe.dealer(i),
                self.facts.get(i, {}), self.results.get(i)))


def evening(*, deals: int, faults: int, seed: int, games: tuple[str, ...], workdir: Path,
            mistake_rate: float = 0.3, fault_kinds: tuple[str, ...] | None = None,
            opts: Options = Options()) -> list[Any]:
    """Play ``deals`` shoe deals with ``faults`` faults, shared among ``games`` (one after the other);
    returns each game's ``checker.Findings``."""
    from firmware_host.soak.checker import check
    from firmware_host.soak.schedule import FAULT_KINDS, make_schedule

    kinds = tuple(k for k in (fault_kinds or FAULT_KINDS) if k not in ("broker", "command") or opts.broker)
    out = []
    for i, game in enumerate(games):
        share = deals // len(games) + (i < deals % len(games))
        f_share = faults // len(games) + (i < faults % len(games))
        schedule = make_schedule(game, max(1, share), seed, mistake_rate=mistake_rate, faults=f_share,
                                 fault_kinds=kinds)
        record = GameRun(schedule, workdir, opts).run()
        out.append(check(record, record.rows))
    return out
