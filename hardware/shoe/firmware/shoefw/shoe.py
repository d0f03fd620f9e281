"""The shoe's logic: watch the card exit, number and buffer every message, answer the host.

``Shoe.poll()`` is called in a loop (on the board every millisecond or so; in the virtual shoe whenever
something may have happened). It never blocks. ``port`` is anything with ``read()`` returning bytes or
None and ``write(data)``; ``hal`` is a hardware layer (see ``hal.py``).
"""

from shoefw import FIRMWARE_VERSION, wire
from shoefw.hal import parse_payload
from shoefw.ring import Ring


def seat_for(index, dealer, pattern, turn_up):
    """Seat code of the ``index``-th card (0-based) of a deal, or SEAT_NONE past its end.

    Packets go clockwise starting at the dealer's left; each entry of ``pattern`` is one round in which
    every seat receives that many cards; then ``turn_up`` cards go face up to the table.
    """
    for size in pattern:
        block = 4 * size
        if index < block:
            return (dealer + 1 + index // size) % 4
        index -= block
    if index < turn_up:
        return wire.SEAT_TABLE
    return wire.SEAT_NONE


class Shoe:
    """The reference shoe. ``boot_id`` must differ between power-ups (the board uses random bits)."""

    def __init__(self, hal, port, boot_id, shoe_id="ref-shoe", ring_size=128, heartbeat_ms=500,
                 jam_ms=1500, major=wire.PROTO_MAJOR, minor=wire.PROTO_MINOR):
        self.hal = hal
        self.port = port
        self.boot_id = boot_id & 0xFFFFFFFF
        self.shoe_id = shoe_id
        self.major = major
        self.minor = minor
        self.ring = Ring(ring_size)
        self.deframer = wire.Deframer()
        self.heartbeat_ms = heartbeat_ms
        self.jam_ms = jam_ms
        self.seq = 0                  # last sequence number used
        self.host_session = None
        self.last_cmd = 0
        self.dealing = False
        self.paused = False
        self.dealer = 0
        self.pattern = []
        self.turn_up = 0
        self.pack = ""
        self.total = 0
        self.dealt = 0
        self.loaded = False
        self.in_slot = False
        self.slot_since = 0
        self.slot_face = None
        self.slot_code = None
        self.jammed = False
        self.next_heartbeat = 0
        self.unknown_commands = 0
        self.bad_commands = 0
        self.started = False

    # --- output ---------------------------------------------------------------------------------

    def _write(self, data):
        try:
            self.port.write(data)
        except OSError:
            pass  # cable out: the message stays in the ring when numbered

    def _send_numbered(self, mtype, body):
        self.seq += 1
        data = wire.frame(mtype, self.seq, body, self.major)
        self.ring.push(self.seq, data)
        self._write(data)

    def _send_link(self, mtype, body):
        self._write(wire.frame(mtype, self.seq, body, self.major))

    def send_hello(self):
        body = wire.hello_body(self.boot_id, self.ring.oldest_seq(), self.hal.capabilities(),
                               self.ring.size, self.shoe_id, FIRMWARE_VERSION, self.major, self.minor)
        self._send_link(wire.HELLO, body)

    def state(self):
        if self.jammed:
            return wire.ST_JAMMED
        if self.dealing:
            return wire.ST_PAUSED if self.paused else wire.ST_DEALING
        return wire.ST_LOADED if self.loaded else wire.ST_IDLE

    def _heartbeat(self):
        flags = (1 if self.paused else 0) | (2 if self.loaded else 0)
        self._send_link(wire.HEARTBEAT, wire.heartbeat_body(self.state(), flags, self.ring.count))

    # --- the loop -------------------------------------------------------------------------------

    def poll(self):
        """Do everything that is due; returns quickly."""
        now = self.hal.ticks_ms()
        if not self.started:
            self.started = True
            self._write(bytes([wire.END]))
            self.send_hello()
            self.next_heartbeat = now + self.heartbeat_ms
        self._watch_pack()
        data = self.port.read()
        if data:
            for raw in self.deframer.feed(data):
                self._on_frame(raw)
        self._watch_slot(now)
        for seat, kind in self.hal.take_buttons():
            self._send_numbered(wire.BUTTON, wire.button_body(seat, kind))
        if now >= self.next_heartbeat:
            self._heartbeat()
            self.next_heartbeat = now + self.heartbeat_ms

    def _watch_pack(self):
        present = self.hal.pack_present()
        if present and not self.loaded:
            self.loaded = True
            self._send_numbered(wire.PACK_LOADED, wire.pack_loaded_body(""))
        elif not present and self.loaded and not self.in_slot:
            self.loaded = False

    def _watch_slot(self, now):
        blocked = self.hal.exit_blocked()
        if blocked:
            if not self.in_slot:
                self.in_slot = True
                self.slot_since = now
                self.slot_face = None
                self.slot_code = None
            face = self.hal.back_shows_face()
            if face:
                self.slot_face = True
            elif face is not None and self.slot_face is None:
                self.slot_face = False
            code = self.hal.read_code()
            if code is not None:
                self.slot_code = code
            if not self.jammed and now - self.slot_since >= self.jam_ms:
                self.jammed = True
                self._send_numbered(wire.JAM, wire.jam_body(self.dealt + 1, False))
        elif self.in_slot:
            self.in_slot = False
            code = self.hal.read_code()
            if code is not None:
                self.slot_code = code
            if self.jammed:
                self.jammed = False
                self._send_numbered(wire.JAM, wire.jam_body(self.dealt + 1, True))
            self._card_out()

    def _card_out(self):
        pack, card, quality = "", None, 0
        if self.slot_code is not None:
            text, quality = self.slot_code
            pack, card = parse_payload(text)
            if card is None:
                quality = 0
        if self.slot_face is None:
            orientation = wire.FACE_UNKNOWN
        else:
            orientation = wire.FACE_UP if self.slot_face else wire.FACE_DOWN
        if self.dealing:
            seat = seat_for(self.dealt, self.dealer, self.pattern, self.turn_up)
            self.dealt += 1
            index = self.dealt
        else:
            seat, index = wire.SEAT_NONE, 0
        self._send_numbered(wire.CARD_OUT, wire.card_out_body(index, seat, card, orientation, quality, pack))
        if not self.dealing:
            return
        if self.dealt >= self.total:
            self._finish(wire.END_COMPLETE)
        elif not self.hal.pack_present():
            self._send_numbered(wire.EMPTY, wire.empty_body(self.dealt))
            self._finish(wire.END_EMPTY)

    def _finish(self, reason):
        self.dealing = False
        self.paused = False
        self._send_numbered(wire.DEAL_FINISHED,
                            wire.deal_finished_body(reason, self.dealt, self.hal.pack_present()))

    # --- commands from the host -----------------------------------------------------------------

    def _on_frame(self, raw):
        try:
            mtype, cmd, f = wire.parse_command(raw)
        except ValueError as exc:
            self.bad_commands += 1
            self._send_numbered(wire.ERROR, wire.error_body(wire.ERR_BAD_COMMAND, str(exc)))
            return
        ver = raw[0]
        if mtype == wire.HOST_HELLO:
            if f["major"] != self.major:
                self._send_numbered(wire.ERROR, wire.error_body(
                    wire.ERR_VERSION, "host speaks protocol %d.%d, shoe speaks %d.%d"
                    % (f["major"], f["minor"], self.major, self.minor)))
            if f["session"] != self.host_session:
                self.host_session = f["session"]
                self.last_cmd = 0
            self.send_hello()
            return
        if ver != self.major:
            self.bad_commands += 1
            return
        if mtype == wire.ACK:
            self.ring.ack(f["seq"])
        elif mtype == wire.RESEND:
            self._resend(f["seq"])
        elif mtype == wire.PING:
            self._send_link(wire.PONG, wire.pong_body(f["token"]))
        elif mtype in (wire.START_DEAL, wire.PAUSE, wire.RESUME, wire.ABORT, wire.SET_LAMP):
            if cmd != 0 and cmd <= self.last_cmd:
                return  # a command the host repeated after a reconnect: already done and answered
            self.last_cmd = cmd
            status, detail = self._command(mtype, f)
            self._send_numbered(wire.REPLY, wire.reply_body(cmd, status, detail))
        else:
            self.unknown_commands += 1
            self._send_numbered(wire.ERROR, wire.error_body(
                wire.ERR_UNKNOWN_COMMAND, "unknown command type 0x%02x" % mtype))

    def _resend(self, first):
        oldest = self.ring.oldest_seq()
        if first <= self.seq and (oldest == 0 or first < oldest):
            # Some of what the host asks for is gone: HELLO's "oldest held" tells it where to go on.
            self.send_hello()
        for data in self.ring.since(first):
            self._write(data)

    def _command(self, mtype, f):
        if mtype == wire.START_DEAL:
            return self._start(f)
        if mtype == wire.SET_LAMP:
            if f["lamp"] > 4:
                return wire.BAD_ARGS, "lamp %d does not exist" % f["lamp"]
            self.hal.set_lamp(f["lamp"], f["mode"], f["colour"])
            return wire.OK, ""
        if not self.dealing:
            return wire.BAD_STATE, "no deal in progress"
        if mtype == wire.PAUSE:
            self.paused = True
        elif mtype == wire.RESUME:
            self.paused = False
        else:
            self._finish(wire.END_ABORTED)
        return wire.OK, ""

    def _start(self, f):
        if self.dealing:
            return wire.BUSY, "a deal is in progress"
        pattern = f["pattern"]
        total = 4 * sum(pattern) + f["turn_up"]
        if f["dealer"] > 3 or not pattern or 0 in pattern or total > 255:
            return wire.BAD_ARGS, "dealer %d, pattern %s, turn-up %d is not a deal" % (
                f["dealer"], pattern, f["turn_up"])
        if not self.hal.pack_present():
            return wire.BAD_STATE, "no pack in the shoe"
        self.dealing = True
        self.paused = False
        self.dealer = f["dealer"]
        self.pattern = pattern
        self.turn_up = f["turn_up"]
        self.pack = f["pack"]
        self.total = total
        self.dealt = 0
        self._send_numbered(wire.DEAL_STARTED,
                            wire.deal_started_body(self.dealer, self.turn_up, pattern, self.pack))
        return wire.OK, ""
