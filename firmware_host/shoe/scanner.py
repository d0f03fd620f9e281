"""A plain serial barcode scanner as a shoe: the cheapest club installation.

An off-the-shelf scanner in serial mode prints one code per line (CR, LF or CRLF). ``ScannerLink``
reads those lines and produces the same events as ``ShoeLink``: the seat of each card follows the deal
rotation of the START_DEAL the host sent (clockwise from the dealer's left, packets as in the pattern,
then the turn-up); orientation is always unknown. Commands a scanner cannot obey (lamps, pause) get a
``Reply`` with status UNSUPPORTED so the controller can tell.

Lines that are not a card code are counted and reported as ``ShoeError(BAD_CODE)``, never as cards.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from firmware_host.shoe import messages as m
from firmware_host.shoe.port import PortWorker, Result
from laws.cards import Card, Seat

log = logging.getLogger(__name__)
MAX_LINE = 128
WHITE_SPACE = " \t\r\n"     # PROTOCOL.md section 8: the only white space taken off a code's two ends
_SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)
_RANKS = "AKQJT98765432"
_SUITS = "SHDC"


def parse_code(text: str) -> tuple[str, Card | None]:
    """Split a card code's text into ``(pack id, card)``; card None when it is not a card.

    The text is a card code of version 1 (``vision/CARD_CODES.md``, the stickers ``cardtable labels``
    prints): checked by the same reader the camera uses, so a foreign code, another version or a
    wrong check character never becomes a card. Spaces, tabs, CRs and LFs are taken off its two ends
    and ``a-z`` read as ``A-Z``; nothing else is white space or changes case (PROTOCOL.md section 8).
    """
    from vision.codes import CodeRejected, parse_payload

    text = text.strip(WHITE_SPACE)
    if not text.isascii():
        return "", None             # only a-z are upper-cased (PROTOCOL.md section 8): nothing else is
    try:
        code = parse_payload(text.upper())
    except CodeRejected:
        return "", None
    return code.pack, code.card


class ScannerDealer:
    """The sans-I/O half: lines in, shoe messages out, following the deal rotation."""

    def __init__(self) -> None:
        self.seq = 0
        self.deal: m.StartDeal | None = None
        self.dealt = 0
        self.total = 0
        self.partial = b""
        self.dropping = False
        self.stats: Counter[str] = Counter()

    def _next(self) -> int:
        self.seq += 1
        return self.seq

    def _seat(self, index: int) -> tuple[Seat | None, bool]:
        assert self.deal is not None
        i = index
        for size in self.deal.pattern:
            if i < 4 * size:
                return _SEATS[(_SEATS.index(self.deal.dealer) + 1 + i // size) % 4], False
            i -= 4 * size
        return None, i < self.deal.turn_up

    def command(self, cmd: m.Command) -> list[m.ShoeMessage]:
        """Obey what a scanner can: start and abort a deal."""
        if isinstance(cmd, m.StartDeal):
            if self.deal is not None:
                return [m.Reply(self._next(), cmd.cmd, m.Status.BUSY, "a deal is in progress")]
            self.deal, self.dealt = cmd, 0
            self.total = 4 * sum(cmd.pattern) + cmd.turn_up
            return [m.DealBegan(self._next(), cmd.dealer, cmd.turn_up, cmd.pattern, cmd.pack, answers=cmd.cmd),
                    m.Reply(self._next(), cmd.cmd, m.Status.OK, "")]
        if isinstance(cmd, m.Abort):
            if self.deal is None:
                return [m.Reply(self._next(), cmd.cmd, m.Status.BAD_STATE, "no deal in progress")]
            return [*self._finish(m.FinishReason.ABORTED), m.Reply(self._next(), cmd.cmd, m.Status.OK, "")]
        if isinstance(cmd, m.NUMBERED_COMMANDS):
            return [m.Reply(self._next(), cmd.cmd, m.Status.UNSUPPORTED,
                            f"a plain scanner cannot {type(cmd).__name__}")]
        return []

    def _finish(self, reason: m.FinishReason) -> list[m.ShoeMessage]:
        assert self.deal is not None
        msg = m.DealFinished(self._next(), reason, self.dealt, False, answers=self.deal.cmd)
        self.deal = None
        return [msg]

    def feed(self, data: bytes) -> list[m.ShoeMessage]:
        """Bytes from the scanner in, messages out."""
        lines = (self.partial + data).replace(b"\r", b"\n").split(b"\n")
        self.partial = lines.pop()
        if self.dropping and lines:
            lines[0] = b""
            self.dropping = False
        if len(self.partial) > MAX_LINE:
            self.stats["long_lines"] += 1
            log.warning("scanner: dropped %d bytes without a line end", len(self.partial))
            self.partial = b""
            self.dropping = True
        out: list[m.ShoeMessage] = []
        for raw in lines:
            if raw.strip(b" \t"):
                out += self._line(raw)
        return out

    def _line(self, raw: bytes) -> list[m.ShoeMessage]:
        if len(raw) > MAX_LINE:
            self.stats["long_lines"] += 1
            log.warning("scanner: dropped a %d-byte line (no card code is that long)", len(raw))
            return []
        text = raw.decode("ascii", "replace").strip(WHITE_SPACE)
        pack, card = parse_code(text) if text.isprintable() else ("", None)
        if card is None:
            self.stats["bad_codes"] += 1
            level = logging.WARNING if self.stats["bad_codes"] == 1 else logging.DEBUG
            log.log(level, "scanner: a %d-character line is not a card code; %d so far", len(text),
                    self.stats["bad_codes"])  # not its text: a misread code may still name a card
            return [m.ShoeError(self._next(), m.ErrorCode.BAD_CODE, f"not a card code: {text[:40]!r}")]
        self.stats["cards"] += 1
        if self.deal is None:
            return [m.CardOut(self._next(), 0, None, False, card, m.Orientation.UNKNOWN, 100, pack)]
        seat, turn_up = self._seat(self.dealt)
        self.dealt += 1
        out: list[m.ShoeMessage] = [m.CardOut(self._next(), self.dealt, seat, turn_up, card,
                                              m.Orientation.UNKNOWN, 100, pack)]
        if self.dealt >= self.total:
            out += self._finish(m.FinishReason.COMPLETE)
        return out


class ScannerLink(PortWorker):
    """A plain barcode scanner on a serial port, with ``ShoeLink``'s interface.

    Args:
        url: serial port or pyserial URL of the scanner.
        on_event: receives ``ShoeMessage``s and ``LinkStatus``es, from the reader thread.
        baudrate: the scanner's line speed (most ship at 9600).
    """

    name = "scanner"

    def __init__(self, url: str, on_event: Callable[[m.ShoeEvent], None], *,
                 clock: Callable[[], float] = time.monotonic, baudrate: int = 9600, **kwargs: Any) -> None:
        super().__init__(url, on_event, clock=clock, baudrate=baudrate, **kwargs)
        self.dealer = ScannerDealer()
        self._next_cmd = 1
        self._online = False

    @property
    def online(self) -> bool:
        return self._online

    def counters(self) -> dict[str, Any]:
        return {**self.dealer.stats, "opens": self.opens}

    def _opened(self, now: float) -> Result:
        self.dealer.partial = b""
        self._online = True
        return [m.LinkStatus(True, f"scanner on {self.url}")], b""

    def _received(self, data: bytes, now: float) -> Result:
        return list(self.dealer.feed(data)), b""

    def _lost(self, now: float, reason: str) -> list[Any]:
        self._online = False
        return [m.LinkStatus(False, reason)]

    def _command(self, command: m.Command, now: float) -> tuple[m.Command, bytes, list[Any]]:
        if isinstance(command, m.NUMBERED_COMMANDS):
            from dataclasses import replace

            command = replace(command, cmd=self._next_cmd)
            self._next_cmd += 1
        return command, b"", list(self.dealer.command(command))
