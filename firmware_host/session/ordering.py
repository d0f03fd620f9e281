"""What the club's session promises the tables, in one place (``docs/ordering.md``, "The session"): the
table's promises (``firmware_host/table/ordering.py``) kept one level up.

1. **Every message from outside is read by the one checked reader** (``wire.reader`` through
   ``wire.duplicate.parse_result``): a payload too large, not UTF-8, nested too deeply, not JSON or malformed
   becomes a refusal (data), never an exception, and **no message stops the ones after it**.
2. **Answered only once committed.** A table's ``board`` message is answered (``taken``, ``repeat`` or
   ``refused`` in its seating's ``answers``) only after its record, or the note of its refusal, is
   committed in the session's journal. The table sends a result again until it is answered
   (``tablelink/duplicate_results.py``), so a session killed between receiving and committing loses nothing.
3. **A batch whose commit fails is held, not dropped**: it stays first in line, with everything that
   arrives after it, in order; the commit is tried again after 0.25 s, then 0.5, 1, 2, 4, 8, 8 ... s;
   meanwhile nothing is answered and the fault is shown (:attr:`SessionOrdering.fault`). When a commit
   works the held messages are taken exactly as if nothing had happened. At most ``HELD_MOST`` messages
   are held; past that a message is let go **unanswered**, so its table sends it again (memory stays
   bounded, and nothing a table confirmed is lost: it is in the table's journal and resent until answered).
4. **A director's decision stands** over any resend of the same board by the same table, and **a
   reused message number is never a silent drop** (``laws/session/duplicate/state.py``: both are checks of the pure model).
5. **One login cannot make the club's machine write without bound**: every refusal is a note, but each
   table's login has a budget of ``BURST`` notes, given back at one every ``REFILL`` seconds; past it a
   refused message is counted, not written, and the count is journaled as one note
   ``{"refusals_not_written": {table, count, bytes, why}}`` when the budget allows again (at most one such
   note per ``REFILL`` seconds per login). A table's own results are never counted against it unless
   the session refuses them.

6. **A record held is not a refusal**: when the kind's check says ``HOLD`` (``laws/session/kind.py``: a
   euchre hand that came ahead of one still missing at its table) its outcome is ``held``: neither
   journaled nor answered, and never spent from its login's budget, so its table sends it again.

It serves any kind of session (``journalled.JournalledService``; the kind's reader is ``read``, the
duplicate's ``wire.duplicate.parse_result`` by default). It owns no client and no thread: the desk gives it messages (:meth:`offer`, any thread) and calls
:meth:`take` (one thread at a time, the session's lock held) off the asyncio loop, since a commit waits for
the disk.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from firmware_host.session.journalled import JournalledService, Outcome, SessionFileError
from firmware_host.wire.duplicate import LinkError, parse_result
from firmware_host.wire.topics import TOPICS
from laws.session.kind import HOLD, REPEAT

log = logging.getLogger(__name__)

BACKOFF = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0)
BURST = 100          # refusal notes a login may cause at once
REFILL = 6.0         # seconds to give one back (10 a minute)
PAYLOAD_KEPT = 2000  # bytes of a refused payload kept in its note
HELD_MOST = 5000     # messages held while the journal cannot be written (at most 64 KiB each)


@dataclass
class _Budget:
    tokens: float
    at: float
    unwritten: int = 0
    unwritten_bytes: int = 0
    why: str = ""


class SessionOrdering:
    """The session's intake (see the module docstring).

    Args:
        session: the open session.
        clock: monotonic seconds (the retry delays and the budgets).
        read: a message to its record (``wire.duplicate.parse_result``; the desk's reads a table's member cards too),
            raising ``LinkError`` naming what is wrong.
    """

    def __init__(self, session: JournalledService, clock: Callable[[], float] = time.monotonic, *,
                 read: Callable[[str, bytes], dict[str, Any]] = parse_result) -> None:
        self.session = session
        self.clock = clock
        self.read = read
        self.inbox: deque[tuple[str, bytes]] = deque()
        self.held: list[tuple[str, bytes]] = []
        self.fault: str | None = None
        self.failed_commits = 0
        self.let_go = 0      # messages not held (past HELD_MOST): unanswered, so sent again
        self._next_try = 0.0
        self._budgets: dict[str, _Budget] = {}

    def offer(self, topic: str, payload: bytes) -> None:
        """A table's ``board`` (or ``players``) message (any thread)."""
        self.inbox.append((topic, bytes(payload)))

    @property
    def waiting(self) -> int:
        """Messages not yet committed (held after a failed commit, or just arrived)."""
        return len(self.held) + len(self.inbox)

    def take(self) -> list[Outcome] | None:
        """Read, check and commit what has arrived (held messages first). Returns the outcomes, each
        committed (so each may be answered), or None when nothing was committed (nothing came, or the
        journal cannot be written: everything stays held)."""
        now = self.clock()
        if self.held and now < self._next_try:
            while self.inbox:  # in order behind the held ones, up to HELD_MOST
                item = self.inbox.popleft()
                if len(self.held) < HELD_MOST:
                    self.held.append(item)
                else:  # not answered, so its table sends it again: memory stays bounded, nothing is lost
                    self.let_go += 1
                    if self.let_go == 1:
                        log.error("session: %d messages held; more are let go unanswered (their tables send "
                                  "them again)", HELD_MOST)
            return None
        batch = self.held
        while self.inbox:
            batch.append(self.inbox.popleft())
        self.held = []
        if not batch:
            return None
        records = [self._record(topic, payload, now) for topic, payload in batch]
        counts = self._unwritten_notes(now)
        try:
            outcomes = self.session.submit([r for r in records + counts if r.get("type") != "quiet"])
        except SessionFileError as exc:
            for note in counts:  # the counts were not written: they stay to be written next time
                b = self._budgets[note["table"]]
                b.unwritten += note["count"]
                b.unwritten_bytes += note["bytes"]
            self.held = batch
            delay = BACKOFF[min(self.failed_commits, len(BACKOFF) - 1)]
            self.failed_commits += 1
            self._next_try = now + delay
            if self.fault is None:
                log.error("session: %s; %d message(s) held, tried again in %.2f s", exc, len(batch), delay)
            self.fault = self.session.fault = str(exc)
            return None
        if self.fault is not None:
            log.warning("session: the journal is writable again after %d failed commit(s); %d message(s) taken",
                        self.failed_commits, len(batch))
            self.session.journal_recovered(self.failed_commits)
        self.fault, self.failed_commits = None, 0
        self.session.fault = None
        return outcomes + [Outcome("refused", r["why"], r) for r in records if r.get("type") == "quiet"]

    # -- reading one message ------------------------------------------------------------------------

    def _record(self, topic: str, payload: bytes, now: float) -> dict[str, Any]:
        """The record a message makes: a ``result``, a ``message`` refused by the link, or a ``quiet``
        refusal when the login is past its budget and the session would refuse it (counted, not written;
        answered all the same)."""
        try:
            rec = self.read(topic, payload)
        except LinkError as exc:
            name = TOPICS.parse(topic)
            table = name.table if name is not None and name.table else "?"
            rec = {"type": "message", "table": table, "topic": topic[:200],
                   "payload": payload[:PAYLOAD_KEPT].decode("utf-8", "replace"), "why_link": str(exc)}
            why = str(exc)
        else:
            name = TOPICS.parse(topic)
            table = str(rec.get("table") or (name.table if name is not None else "?"))
            why = self.session.state.check(rec)
            if why in ("", REPEAT, HOLD):   # taken, a repeat, or held for later: never a refusal's note
                return rec
        if self._spend(table, now):
            return rec
        b = self._budgets[table]
        b.unwritten += 1
        b.unwritten_bytes += len(payload)
        b.why = why
        return {"type": "quiet", "table": table, "source": rec.get("source", ""), "board": rec.get("board"),
                "why": f"refused and not journaled (this login is past its {BURST} refusal notes): {why}"}

    def _spend(self, table: str, now: float) -> bool:
        b = self._budgets.setdefault(table, _Budget(float(BURST), now))
        b.tokens = min(float(BURST), b.tokens + (now - b.at) / REFILL)
        b.at = now
        if b.tokens >= 1.0:
            b.tokens -= 1.0
            return True
        return False

    def _unwritten_notes(self, now: float) -> list[dict[str, Any]]:
        out = []
        for table, b in self._budgets.items():
            if b.unwritten and self._spend(table, now):
                out.append({"type": "unwritten", "table": table, "count": b.unwritten, "bytes": b.unwritten_bytes,
                            "why": b.why[:300]})
                b.unwritten = b.unwritten_bytes = 0
        return out
