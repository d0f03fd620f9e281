"""The host's side of the protocol as a sans-I/O state machine (PROTOCOL.md sections 5-6).

``ShoeSession`` takes bytes and the time, and returns ``(events, bytes to write)``. It performs the
handshake, checks versions, delivers numbered messages exactly once and in order (anything ahead of a
gap is kept aside and one RESEND asked for per gap), notices silence and re-sends commands the shoe has
not answered (on a timer, protocol 1.1). It acknowledges nothing by itself: the host calls
``acknowledge(upto)`` once what it was given is committed to its journal (``firmware_host.table.ordering``), so
the shoe keeps every message until then. It has no thread, no port and no clock of its own: ``now`` is
passed in.

It applies the REPLY rule of PROTOCOL.md section 6.3 and marks what it delivers accordingly (fields not
on the wire): a ``Reply`` numbered before its command was first sent is ``stale``; a ``DealBegan`` or
``BoardBegan`` ``answers`` the id of this run's START_DEAL / DEAL_BOARD it answers (0: an earlier run's
deal), and its ``DealFinished`` / ``BoardFinished`` the same; a ``CardOut`` placed for a board carries
the board's number in ``board``. A HELLO with a new ``boot_id`` after another is passed on as
``ShoeRestarted`` (the shoe is dealing nothing any more), before any message of the new boot. Numbers
the shoe's ring no longer holds when the host asks for them are passed on, in their place, as one
``MessagesLost``, so the host journals what it never got.
"""

from __future__ import annotations

import logging
import random
from collections import Counter
from dataclasses import replace
from enum import Enum
from typing import Any

from firmware_host.shoe import codec
from firmware_host.shoe import messages as m

log = logging.getLogger(__name__)

Result = tuple[list[m.ShoeEvent], bytes]
# a deal's (board's) start -> the command it answers; and the messages that end one
STARTS: dict[type, type] = {m.DealBegan: m.StartDeal, m.BoardBegan: m.DealBoard}
ENDS: tuple[type, ...] = (m.DealFinished, m.BoardFinished)


class LinkPhase(Enum):
    """Where the link with the shoe stands (the deal's phase is ``laws.state.Phase``)."""
    DISCONNECTED = "disconnected"
    HANDSHAKE = "handshake"     # HOST_HELLO sent, waiting for HELLO
    ONLINE = "online"
    REFUSED = "refused"         # the shoe speaks another major version


class ShoeSession:
    """Reliable delivery of the shoe's messages.

    Args:
        offline_after: seconds without a valid frame before the link is reported offline.
        hello_every: seconds between HOST_HELLOs while waiting for the shoe.
        resend_every: seconds without progress before an outstanding RESEND is repeated.
        command_every: seconds before a numbered command without its REPLY is sent again (shoes of
            protocol 1.1 and later; a 1.0 shoe gets it again on each HELLO only).
        session_id: this host run's id in HOST_HELLO (random when None).
    """

    FOREIGN_BEFORE_REFUSAL = 5    # frames of another major version tolerated while waiting for its HELLO
    EARLY_MAX = 512     # how far ahead of a gap messages are kept (the shoe's ring is smaller)
    IN_FLIGHT = 8       # numbered commands sent and awaiting their REPLY (PROTOCOL.md section 6.3)

    def __init__(self, *, offline_after: float = 1.5, hello_every: float = 0.5,
                 resend_every: float = 0.3, command_every: float = 0.5,
                 session_id: int | None = None) -> None:
        self.offline_after = offline_after
        self.hello_every = hello_every
        self.resend_every = resend_every
        self.command_every = command_every
        self.session_id = random.getrandbits(32) if session_id is None else session_id
        self.phase = LinkPhase.DISCONNECTED
        self.online = False
        self.shoe: m.Hello | None = None
        self.boot_id: int | None = None
        self.expected = 1               # next sequence number to deliver
        self.acked = 0                  # highest number the host has committed and acknowledged
        self.stats: Counter[str] = Counter()
        self._refusal: codec.VersionMismatch | None = None
        self.decoder = codec.Decoder(on_version=self._version)
        self._last_rx = 0.0
        self._last_hello = -1e9
        self._resend_at: float | None = None    # an outstanding RESEND: when asked, or last progress
        self._known_last = 0                    # the highest number the shoe is known to have used
        self._catch_to = 0                      # the shoe's last number at the latest handshake
        self._next_cmd = 1
        self._pending: dict[int, m.Command] = {}        # waiting for their REPLY, oldest first
        self._sent_at: dict[int, float] = {}             # those in flight: when last sent
        self._sent_after: dict[int, int] = {}            # the shoe's last number when first sent
        self._early: dict[int, m.ShoeMessage] = {}     # arrived ahead of a gap, waiting for it
        self._began: set[int] = set()                   # pending commands a deal's start has answered
        self._deal_of = 0                               # the command the deal being delivered answers
        self._board_now = 0                             # the board being delivered (its cards' ``board``)

    # --- connection events ----------------------------------------------------------------------

    def connection_made(self, now: float) -> bytes:
        """The port is open: say hello and wait for the shoe's HELLO."""
        self.decoder.reset()
        self.phase = LinkPhase.HANDSHAKE
        self._last_rx = now
        self._last_hello = now
        self._resend_at = None
        self._sent_at.clear()
        return self._host_hello()

    def connection_lost(self, now: float, reason: str) -> list[m.ShoeEvent]:
        """The port failed or was closed."""
        self.phase = LinkPhase.DISCONNECTED
        self.decoder.reset()
        return self._go_offline(reason)

    def _go_offline(self, reason: str) -> list[m.ShoeEvent]:
        if not self.online:
            return []
        self.online = False
        log.info("shoe offline: %s", reason)  # the LinkStatus is said by its owner (controller, CLI)
        return [m.LinkStatus(False, reason, self.shoe)]

    def _version(self, exc: codec.VersionMismatch) -> None:
        # A HELLO names the full version; other frames only the major. Wait a little for the HELLO
        # (our HOST_HELLO asks for one) so that the refusal can name both numbers.
        self.stats["foreign_frames"] += 1
        if exc.minor is not None or self.stats["foreign_frames"] >= self.FOREIGN_BEFORE_REFUSAL:
            self._refusal = exc

    # --- commands --------------------------------------------------------------------------------

    def command(self, cmd: m.Command, now: float) -> tuple[m.Command, bytes]:
        """Number a command (when it is one that gets a REPLY) and encode it.

        Returns the numbered command and the bytes to write now (empty while not online: numbered
        commands are kept and sent once the handshake completes; link commands are dropped).

        Raises:
            ValueError: a command that does not fit a frame (a pack name too long); it is not kept.
        """
        if isinstance(cmd, m.NUMBERED_COMMANDS):
            cmd = replace(cmd, cmd=self._next_cmd)
            codec.encode(cmd)           # one that cannot be framed raises here, before it is kept to repeat
            self._next_cmd += 1
            self._pending[cmd.cmd] = cmd
            return cmd, self._send_commands(now) if self.phase is LinkPhase.ONLINE else b""
        if self.phase is not LinkPhase.ONLINE:
            return cmd, b""
        return cmd, codec.encode(cmd)

    def _host_hello(self) -> bytes:
        first = min(self._pending, default=self._next_cmd)
        return codec.encode(m.HostHello(self.session_id, next_cmd=first))

    def _send_commands(self, now: float, *, again: bool = False) -> bytes:
        """The first ``IN_FLIGHT`` pending commands, in order: those never sent, or (``again``) all."""
        out = []
        for n, cmd in list(self._pending.items())[:self.IN_FLIGHT]:
            if again or n not in self._sent_at:
                self._sent_at[n] = now
                self._sent_after.setdefault(n, self._known_last)
                out.append(codec.encode(cmd))
        if again and out:
            self.stats["commands_resent"] += len(out)
        return b"".join(out)

    def _commands_due(self, now: float) -> bool:
        """A command in flight has waited ``command_every`` for its REPLY (shoes of 1.1 and later)."""
        if self.shoe is None or self.shoe.minor < 1:
            return False
        return any(now - t >= self.command_every for t in self._sent_at.values())

    # --- bytes in ---------------------------------------------------------------------------------

    def receive(self, data: bytes, now: float) -> Result:
        """Feed bytes read from the port."""
        events: list[m.ShoeEvent] = []
        out: list[bytes] = []
        delivered = False
        for msg in self.decoder.feed(data):
            self._last_rx = now
            if isinstance(msg, m.ShoeMessage) and msg.seq > self._known_last and self.phase is LinkPhase.ONLINE:
                self._known_last = msg.seq
            if isinstance(msg, m.Hello):
                self._hello(msg, now, events, out)
            elif self.phase is not LinkPhase.ONLINE:
                self.stats["before_handshake"] += 1
                if self.phase is LinkPhase.HANDSHAKE and now - self._last_hello >= self.hello_every:
                    self._last_hello = now          # a frame is a tick too, but never a faster pace
                    out.append(self._host_hello())
            elif isinstance(msg, (m.Heartbeat, m.Pong)):
                self._came_back(events)
                if isinstance(msg, m.Pong):
                    events.append(msg)      # unnumbered: passed on as it comes (for round trips)
                if msg.seq >= self.expected:
                    self._ask_resend(now, out, f"heartbeat says {msg.seq} was sent")
            elif not isinstance(msg, m.ShoeMessage):
                self.stats["host_frames"] += 1      # our own commands echoed back: not for us
            elif msg.seq < self.expected:
                self.stats["duplicates"] += 1
            elif msg.seq > self.expected:
                self.stats["out_of_order"] += 1
                if msg.seq - self.expected < self.EARLY_MAX:
                    self._early[msg.seq] = msg
                self._ask_resend(now, out, f"got {msg.seq}")
            else:
                self._came_back(events)
                delivered = True
                self._accept(msg, events)
                self._progress(now)
        if self._refusal is not None:
            self._refuse(self._refusal, events)
            self._refusal = None
        if self._early and self.phase is LinkPhase.ONLINE:
            self._ask_resend(now, out, "a gap remains")
        if delivered and self.phase is LinkPhase.ONLINE:
            out.append(self._send_commands(now))    # REPLYs may have made room for waiting ones
        return events, b"".join(out)

    @property
    def caught_up(self) -> bool:
        """Online, and every message the shoe had sent when the latest handshake was made has been
        delivered. A host that starts a deal only when caught up never commands a shoe whose past (a
        deal it dealt while the host was down, still in its ring) the host has not seen yet."""
        return self.phase is LinkPhase.ONLINE and self.online and self.expected > self._catch_to

    def acknowledge(self, upto: int) -> bytes:
        """The host has committed every message numbered ``upto`` or lower: the ACK to write (empty when
        there is nothing new to acknowledge or the shoe is not online; the next handshake repeats it)."""
        upto = min(upto, self.expected - 1)
        if upto <= self.acked:
            return b""
        self.acked = upto
        return codec.encode(m.Ack(upto)) if self.phase is LinkPhase.ONLINE else b""

    def resume(self, boot_id: int, committed: int) -> None:
        """After a host restart: the journal holds every message of shoe boot ``boot_id`` up to
        ``committed``; deliver from the next one (the shoe resends what it still holds) and acknowledge
        those at the handshake."""
        self.boot_id = boot_id
        self.expected = committed + 1
        self.acked = committed

    def _progress(self, now: float) -> None:
        """Something was delivered: an outstanding RESEND ends when its gap is filled, else its
        timer starts again (the requested messages are still streaming in)."""
        if self._resend_at is None:
            return
        if self.expected > self._known_last and not self._early:
            self._resend_at = None
        else:
            self._resend_at = now

    def _accept(self, msg: m.ShoeMessage | None, events: list[m.ShoeEvent]) -> None:
        """Deliver ``msg`` (numbered ``expected``) and whatever waited behind it."""
        while msg is not None:
            self.expected += 1
            if isinstance(msg, m.Reply):
                if self._reply(msg):
                    msg = replace(msg, stale=True)
            elif isinstance(msg, m.CardOut):
                if self._board_now and msg.index:
                    msg = replace(msg, board=self._board_now)
            elif isinstance(msg, (*STARTS, *ENDS)):
                msg = self._deal_answers(msg)
            if isinstance(msg, m.Skipped):
                self.stats["skipped"] += 1
                # counted; said by the one it is passed to (the table's journaled note, a warning;
                # shoe-listen prints it): a type of a newer minor version is normal (PROTOCOL.md 5, 9)
                log.debug("shoe link: message %d (type 0x%02x) could not be read (%s); skipped",
                          msg.seq, msg.mtype, msg.reason)
            events.append(msg)          # a Skipped too: the host journals that its number was used up
            msg = self._early.pop(self.expected, None)

    def _deal_answers(self, msg: Any) -> Any:
        """The REPLY rule for deals (PROTOCOL.md section 6.3): a deal's start answers the oldest START_DEAL
        in flight that no start has answered yet, if the shoe numbered it after that command was first
        sent; otherwise it is an earlier run's deal (``answers`` 0). A deal's end belongs to the deal of
        the last start before it."""
        if isinstance(msg, (m.DealFinished, m.BoardFinished)):
            n, self._deal_of, self._board_now = self._deal_of, 0, 0
            return replace(msg, answers=n) if n else msg
        kind = STARTS[type(msg)]
        self._deal_of = 0
        self._board_now = msg.board if isinstance(msg, m.BoardBegan) else 0
        for n, cmd in self._pending.items():
            if isinstance(cmd, kind) and n not in self._began and msg.seq > self._sent_after.get(n, msg.seq):
                self._began.add(n)
                self._deal_of = n
                return replace(msg, answers=n)
        self.stats["stale_deals"] += 1
        return msg

    def _reply(self, msg: m.Reply) -> bool:
        """A REPLY answers our command only if the shoe numbered it after the command was first sent:
        one numbered before is a previous host run's, replayed from the ring (ids restart per session).
        True when it is such a stale one."""
        if msg.cmd not in self._pending:
            return False
        if msg.seq <= self._sent_after.get(msg.cmd, msg.seq):
            self.stats["stale_replies"] += 1
            return True
        del self._pending[msg.cmd]
        self._sent_at.pop(msg.cmd, None)
        self._sent_after.pop(msg.cmd, None)
        self._began.discard(msg.cmd)
        return False

    def _came_back(self, events: list[m.ShoeEvent]) -> None:
        if not self.online:
            self.online = True
            events.append(m.LinkStatus(True, "shoe answering again", self.shoe))

    def _refuse(self, exc: codec.VersionMismatch, events: list[m.ShoeEvent]) -> None:
        if self.phase is LinkPhase.REFUSED:
            return
        self.phase = LinkPhase.REFUSED
        self.online = False
        reason = f"refusing the shoe: {exc}; update the {'host' if exc.major > m.PROTO_MAJOR else 'shoe'} software"
        log.info("%s", reason)         # the LinkStatus carries it to whoever shows it, once
        events.append(m.LinkStatus(False, reason, self.shoe, refused=True))

    def _hello(self, hello: m.Hello, now: float, events: list[m.ShoeEvent], out: list[bytes]) -> None:
        if hello.major != m.PROTO_MAJOR:
            self._refuse(codec.VersionMismatch(hello.major, hello.minor), events)
            return
        self.stats["hellos"] += 1
        last = hello.seq
        self._catch_to = last
        restarted: m.ShoeRestarted | None = None
        if hello.boot_id != self.boot_id:
            if self.boot_id is not None:
                log.warning("shoe %s restarted (boot %08x -> %08x)", hello.shoe_id, self.boot_id, hello.boot_id)
                restarted = m.ShoeRestarted(self.boot_id, hello.boot_id, hello)
            self.boot_id = hello.boot_id
            self.expected = hello.oldest_held or last + 1
            self.acked = self.expected - 1      # a new boot: nothing before its oldest message is ours
            self._early.clear()
            self._sent_after = dict.fromkeys(self._sent_after, 0)     # a new boot numbers from 1
            self._deal_of = self._board_now = 0     # a restarted shoe is dealing nothing
        else:
            resume = hello.oldest_held or last + 1      # the first number the shoe can still send
            if resume > self.expected:
                self.stats["lost"] += resume - self.expected
                log.error("shoe link: messages %d-%d were gone from the shoe before the host got them",
                          self.expected, resume - 1)
                events.append(m.MessagesLost(hello.boot_id, self.expected, resume - 1))   # for the journal
                self.expected = resume
                self._early = {k: v for k, v in self._early.items() if k >= resume}
        self.shoe = hello
        self.phase = LinkPhase.ONLINE
        self._resend_at = None
        self._known_last = last
        if not self.online:
            self.online = True
            events.append(m.LinkStatus(True, f"shoe {hello.shoe_id} firmware {hello.firmware} "
                                             f"protocol {hello.major}.{hello.minor}", hello))
        if restarted is not None:
            events.append(restarted)        # before any message of the new boot
        self._accept(self._early.pop(self.expected, None), events)
        if restarted is not None:
            # The port stayed open, so the restarted shoe has heard no HOST_HELLO since its power-up: it
            # knows neither our session nor our minor, and would do the commands repeated below by the
            # 1.0 rules, out of order if one is lost (PROTOCOL.md 6.1). It hears our session first.
            self._last_hello = now
            out.append(self._host_hello())
        if last >= self.expected:
            self._ask_resend(now, out, "handshake")
        if self.acked:
            out.append(codec.encode(m.Ack(self.acked)))
        # Every HELLO, not only one after an outage (PROTOCOL.md 6.1 step 3): a 1.0 shoe has no repeat timer,
        # so a command the line lost is got again only here (a HELLO that answers a HOST_HELLO repeated
        # while the host waited arrives while it is online). The shoe does each id once.
        out.append(self._send_commands(now, again=True))

    def _ask_resend(self, now: float, out: list[bytes], why: str) -> None:
        """One outstanding RESEND per gap: a new one only when none is outstanding or the last one
        brought nothing for ``resend_every`` seconds (PROTOCOL.md section 5)."""
        if self._resend_at is not None and now - self._resend_at < self.resend_every:
            return
        self._resend_at = now
        self.stats["resend_requests"] += 1
        last = self._known_last                 # the highest number still missing
        while last in self._early:
            last -= 1
        log.debug("shoe link: asking for resend of %d-%d (%s)", self.expected, last, why)
        out.append(codec.encode(m.Resend(self.expected, last if last >= self.expected else 0)))

    # --- time -------------------------------------------------------------------------------------

    def tick(self, now: float) -> Result:
        """Call regularly (a few times a second at least): silence and retry timers."""
        events: list[m.ShoeEvent] = []
        out = b""
        if self.phase is LinkPhase.DISCONNECTED:
            return events, out
        if now - self._last_rx > self.offline_after:
            silent = now - self._last_rx
            events += self._go_offline(f"no word from the shoe for {silent:.1f} s")
            if self.phase is LinkPhase.ONLINE:
                self.phase = LinkPhase.HANDSHAKE
        if self.phase in (LinkPhase.HANDSHAKE, LinkPhase.REFUSED) and now - self._last_hello >= self.hello_every:
            self._last_hello = now
            out = self._host_hello()
        elif self.phase is LinkPhase.ONLINE:
            buf: list[bytes] = []
            if self._resend_at is not None and now - self._resend_at >= self.resend_every:
                if self.expected > self._known_last and not self._early:
                    self._resend_at = None      # the gap closed
                else:
                    self._ask_resend(now, buf, "retry")
            if self._commands_due(now):
                buf.append(self._send_commands(now, again=True))
            out = b"".join(buf)
        return events, out

    def counters(self) -> dict[str, Any]:
        """Everything counted so far: codec drops plus session drops."""
        return dict(self.decoder.stats + self.stats)
