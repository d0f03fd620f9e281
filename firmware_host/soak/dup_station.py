"""The duplicate soak's dealing station: a real ``cardtable boards deal`` process fills every board of the
evening from its hand records against the virtual shoe, while the soak plays the operator (puts each board
in, puts found cards back in the well and finishes a board left short) and the world fails (cards
missing from the pack, a card of another pack, an unreadable card, the shoe unplugged mid-board, the
station killed with SIGKILL mid-board and started again).

What physically happened is the soak's own record: the pockets of each board as the virtual shoe holds
them when the station says it is dealt, and every fault applied. ``dup_check.check_station`` compares
the station's journal with it.
"""

from __future__ import annotations

import logging
import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from firmware_host.duplicate.handrecords.handfiles import write_hand_records
from firmware_host.shoe.simhw import PhysCard
from firmware_host.shoe.virtual import VirtualShoe
from firmware_host.soak.rig import ROOT
from laws.duplicate.deal import Board

log = logging.getLogger(__name__)
SHOE_FAULTS = ("missing", "stray", "unreadable")
WORLD_FAULTS = ("kill", "unplug")
REJECT = 5


@dataclass
class StationRecord:
    """What the soak saw happen at the station."""

    pockets: dict[int, dict[int, list[str]]] = field(default_factory=dict)   # board -> dest -> cards
    faults: dict[str, int] = field(default_factory=dict)
    starts: int = 0
    finished: int = 0          # boards the operator finished after putting cards back
    lines: list[str] = field(default_factory=list)
    exit: int | None = None


class StationRun:
    """One dealing station's evening.

    Args:
        boards: the hand records to deal.
        workdir: its folder (records, journal, report, logs).
        seed: the faults and the shoe's shuffles.
        shoe_faults: share of boards whose pack has a fault (a card missing, one of another pack, one
            unreadable).
        world_faults: how many kills and unplugs, mid-board, spread over the boards.
    """

    def __init__(self, boards: list[Board], workdir: Path, seed: int, shoe_faults: float = 0.4,
                 world_faults: int = 2) -> None:
        self.boards = boards
        self.dir = workdir
        self.dir.mkdir(parents=True, exist_ok=True)
        self.records = self.dir / "boards.pbn"
        write_hand_records(self.records, boards, overwrite=True)
        self.journal = self.dir / "station.sqlite3"
        self.report = self.dir / "report.csv"
        self.rng = random.Random(f"station:{seed}")
        self.shoe = VirtualShoe("contract-bridge", seed, directory=str(self.dir), pass_ms=2, gap_ms=3, down_ms=300)
        self.record = StationRecord()
        self.faults_at: dict[int, str] = {}
        for i in range(1, len(boards) + 1):
            if self.rng.random() < shoe_faults:
                kind = self.rng.choice(SHOE_FAULTS)
                self.shoe.inject(f"{kind}@{self.rng.randint(1, 52)}", deal=i)
                self.record.faults[kind] = self.record.faults.get(kind, 0) + 1
        picks = self.rng.sample(range(1, len(boards) + 1), min(world_faults, len(boards)))
        for i, n in enumerate(picks):
            self.faults_at[n] = WORLD_FAULTS[i % len(WORLD_FAULTS)]
        self.proc: subprocess.Popen[str] | None = None
        self.out: queue.Queue[str | None] = queue.Queue()

    def _start(self, path: str) -> None:
        self.record.starts += 1
        err = open(self.dir / f"station-{self.record.starts}.log", "w")  # noqa: SIM115 - the child keeps it
        self.proc = subprocess.Popen([sys.executable, "-m", "firmware_host.cli", "boards", "deal", "--records",
                                      str(self.records), "--shoe", path, "--journal", str(self.journal),
                                      "--report", str(self.report)],
                                     cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, text=True,
                                     bufsize=1)
        err.close()
        proc = self.proc

        def read() -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                self.out.put(line.rstrip("\n"))
            self.out.put(None)

        threading.Thread(target=read, daemon=True).start()

    def _say(self, text: str) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        try:
            self.proc.stdin.write(text + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    def run(self, timeout: float = 300.0) -> StationRecord:
        path = self.shoe.open()
        self._start(path)
        end = time.monotonic() + timeout
        current = 0            # the board being dealt
        try:
            while time.monotonic() < end:
                try:
                    line = self.out.get(timeout=0.1)
                except queue.Empty:
                    line = ""
                if line is None:            # the process ended
                    assert self.proc is not None
                    self.record.exit = self.proc.wait()
                    if self.record.exit == -signal.SIGKILL:
                        self._start(path)
                        continue
                    break
                if not line:
                    continue
                self.record.lines.append(line)
                if "put board" in line and "in the station and press Enter" in line:
                    current = int(line.split("put board ")[1].split()[0])
                    self._say("")
                elif line.startswith(f"board {current}: dealing") and current in self.faults_at:
                    self._world_fault(self.faults_at.pop(current))
                elif f"board {current} dealt (every card checked" in line:
                    self.record.pockets[current] = {d: [p.card.code for p in cards]
                                                    for d, cards in self.shoe.pockets.items()}
                elif "is NOT whole" in line:
                    self._put_back(current)
        finally:
            if self.proc is not None and self.proc.poll() is None:
                self.proc.send_signal(signal.SIGTERM)
                try:
                    self.proc.wait(20)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
            self.shoe.close()
        return self.record

    def _world_fault(self, kind: str) -> None:
        """Mid-board: after a few cards, the cable pulled for a while, or the station killed."""
        self.record.faults[kind] = self.record.faults.get(kind, 0) + 1
        time.sleep(self.rng.uniform(0.02, 0.15))     # some cards into the pockets first (the shoe runs on)
        if kind == "unplug":
            self.shoe.drop()
        elif self.proc is not None:
            os.kill(self.proc.pid, signal.SIGKILL)

    def _put_back(self, board: int) -> None:
        """The operator finds the cards not in the pockets (the pack's missing card, a rejected one) and
        puts them in the well, then finishes the board."""
        from firmware_host.duplicate.station.station_log import fold_journal
        from firmware_host.records.journal import Journal

        with Journal.open_readonly(self.journal) as j:
            log_ = fold_journal(j)
        a = log_.board(board).last
        if a is None:
            return
        pack = a.pack or "A1"
        try:
            self.shoe.put([PhysCard(c, pack) for c in a.missing])
        except RuntimeError:
            return
        self.record.finished += 1
        self._say("finish")          # before the shoe has seen them: the station waits for its pack


def pockets_follow(pockets: dict[int, list[str]], board: Board) -> bool:
    """Every card in a seat's pocket is the record's for that seat, and all 52 are there."""
    from laws.cards import SEATS, Card

    placed = [(dest, c) for dest, cards in pockets.items() if dest != REJECT for c in cards]
    return len(placed) == 52 and len({c for _, c in placed}) == 52 and all(
        board.deal.holder(Card.parse(c)) is SEATS[dest] for dest, c in placed)

