"""The shoe's logic: watch the card exit, number and buffer every message, answer the host.

``Shoe.poll()`` is called in a loop (on the board every millisecond or so; in the virtual shoe whenever
something may have happened). It never blocks. ``port`` is anything with ``read()`` returning bytes or
None and ``write(data)``; ``hal`` is a hardware layer (see ``hal.py``).

Protocol 1.1 (PROTOCOL.md section 14): a RESEND moves a resend cursor that ``poll`` walks a few frames
at a time (repeated requests are coalesced, never queued); a numbered command is done once per id and a
repeated id gets the very same REPLY frame again; a 1.1 host's commands are done in id order.
Protocol 1.2: DEAL_BOARD deals a board from a hand record (``board.py``): each card read goes to the
pocket the record names, or to the reject exit, and the board ends only when all 52 are placed.
"""

from shoefw import FIRMWARE_VERSION, wire
from shoefw.board import REJECT, Board, check_record
from shoefw.hal import ALPHABET, parse_payload
from shoefw.ring import Ring


REPLY_MEMORY = 16      # REPLY frames kept for repeated command ids (a host keeps at most 8 in flight)
RESEND_BURST = 4       # frames of a resend pass written per poll
FAULT_REPORT_MS = 10000


def fault_text(exc):
    """An exception as ERROR 5 names it: its type and arguments, ``OSError: 5, Input/output error``.

    Not ``repr(exc)``: MicroPython writes ``OSError(5,)`` and escapes every character outside ASCII
    (``'d\\xe9branch\\xe9'``) where CPython writes ``OSError(5)`` and ``'débranché'``, so the same
    failure would reach the host as a different sentence on each runtime (PROTOCOL.md section 4.2).
    ``str`` of each argument is the same on both."""
    text = ", ".join([str(a) for a in exc.args])
    name = type(exc).__name__
    return name + ": " + text if text else name


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
        # PROTOCOL.md section 2: shoe_id and firmware share 229 bytes of HELLO; a longer HELLO would be
        # dropped by every host, so such a shoe could never be heard: refused when it is built
        if len(shoe_id.encode()) + len(FIRMWARE_VERSION.encode()) > 229:
            raise ValueError("shoe_id and the firmware version must fit 229 bytes together")
        self.shoe_id = shoe_id
        self.major = major
        self.minor = minor
        self.ring = Ring(ring_size)
        self.deframer = wire.Deframer()
        self.heartbeat_ms = heartbeat_ms
        self.jam_ms = jam_ms
        self.seq = 0                  # last sequence number used
        self.host_session = None
        self.host_minor = 0           # minor version of the host's last HOST_HELLO
        self.strict_order = False     # a 1.1 host: its commands are done in id order
        self.last_cmd = 0
        self.replies = []             # (command id, REPLY frame), newest last
        self.resend_next = 0          # next number a resend pass sends (0: no pass)
        self.resend_start = 0
        self.resend_upto = 0
        self.resent_frames = 0
        self.resent_bytes = 0
        self.coalesced_resends = 0
        self.repeated_commands = 0
        self.early_commands = 0
        self.overflowing = False
        self.faults = 0
        self.last_fault_report = None
        self.dealing = False          # a deal or a board is in progress
        self.paused = False
        self.board = None             # the board being dealt (a ``Board``), None during a deal
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
        self.late_codes = 0           # readings that came after the gate had sent the card on (boards)
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
        lost = self.ring.push(self.seq, data)
        self._write(data)
        if lost and not self.overflowing:
            # Once per overflow: the ring was full and a message the host never acknowledged is gone.
            # The ERROR takes a slot too: in a full ring it overwrites the oldest, which it counts.
            self.overflowing = True
            gone = self.ring.oldest_seq() - 1
            if self.ring.count == self.ring.size:
                gone += 1
            self._send_numbered(wire.ERROR, wire.error_body(
                wire.ERR_RING_OVERFLOW, "ring full: messages up to %d overwritten" % gone))
        return data

    def _send_link(self, mtype, body):
        self._write(wire.frame(mtype, self.seq, body, self.major))

    def send_hello(self):
        caps = self.hal.capabilities()
        if self.minor < 2:
            caps &= ~wire.CAP_BOARDS        # a 1.1 shoe knows no such bit
        body = wire.hello_body(self.boot_id, self.ring.oldest_seq(), caps,
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
        self._pump_resend()
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
                self._route()
            face = self.hal.back_shows_face()
            if face:
                self.slot_face = True
            elif face is not None and self.slot_face is None:
                self.slot_face = False
            code = self.hal.read_code()
            if code is not None:
                self.slot_code = code
                self._route()
            if not self.jammed and now - self.slot_since >= self.jam_ms:
                self.jammed = True
                self._send_numbered(wire.JAM, wire.jam_body(self._next_index(), False))
        elif self.in_slot:
            self.in_slot = False
            code = self.hal.read_code()
            if code is not None:
                if self.board is None:
                    self.slot_code = code   # a deal has no gate: the last reading names the card
                else:
                    self.late_codes += 1    # the gate sent it on already: the board reports where it went
                    # (PROTOCOL.md 7.1: a late reading is dropped; the card is a CARD_REJECTED, reason 1)
            if self.jammed:
                self.jammed = False
                self._send_numbered(wire.JAM, wire.jam_body(self._next_index(), True))
            self._card_out()

    def _next_index(self):
        """The index the card in the exit will get: its number in the deal (a board: among its placed
        cards, if it is placed), 0 outside a deal."""
        if self.board is not None:
            return self.board.count + 1
        return self.dealt + 1 if self.dealing and self.dealt < 255 else 0

    def _read(self):
        """(card or None, pack, quality) of the card in the exit, as its code was read."""
        pack, card, quality = "", None, 0
        if self.slot_code is not None:
            text, quality = self.slot_code
            pack, card = parse_payload(text)
            if card is None:
                quality = 0
        return card, pack, quality

    def _route(self):
        """During a board, send the card in the exit where the record wants it now (the reject exit
        until its code is read): the last reading before it leaves decides (PROTOCOL.md section 7.1)."""
        if self.board is not None:
            card, pack, _q = self._read()
            self.hal.route(self.board.judge(card, pack)[0])

    def _card_out(self):
        card, pack, quality = self._read()
        if card is None and pack:
            orientation = wire.FACE_UP      # a back mark: the face-side reader saw the card's back
        elif self.slot_face is None:
            orientation = wire.FACE_UNKNOWN
        else:
            orientation = wire.FACE_UP if self.slot_face else wire.FACE_DOWN
        if self.board is not None:
            self._board_card(card, pack, quality, orientation)
            return
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

    def _board_card(self, card, pack, quality, orientation):
        b = self.board
        seat, reason = b.judge(card, pack)
        if reason:
            b.reject()
            self._send_numbered(wire.CARD_REJECTED, wire.card_rejected_body(
                b.rejected, reason, card, orientation, quality, pack))
        else:
            b.place(card, pack)
            self._send_numbered(wire.CARD_OUT, wire.card_out_body(b.count, seat, card, orientation, quality, pack))
        if b.complete():
            self._finish(wire.END_COMPLETE)
        elif not self.hal.pack_present():
            self._send_numbered(wire.EMPTY, wire.empty_body(b.count))
            self._finish(wire.END_EMPTY)

    def _finish(self, reason):
        self.dealing = False
        self.paused = False
        b, self.board = self.board, None
        if b is not None:
            if self.in_slot:
                self.hal.route(REJECT)     # a card in the exit when the board ends is outside it
            self._send_numbered(wire.BOARD_FINISHED, wire.board_finished_body(
                b.number, b.board_id, reason, b.rejected, self.hal.pack_present(), b.missing(), b.pack))
            return
        self._send_numbered(wire.DEAL_FINISHED,
                            wire.deal_finished_body(reason, self.dealt, self.hal.pack_present()))

    def report_fault(self, text):
        """The board's loop caught an exception: count it; tell the host (ERROR 5) at most every 10 s."""
        self.faults += 1
        now = self.hal.ticks_ms()
        if self.last_fault_report is None or now - self.last_fault_report >= FAULT_REPORT_MS:
            self.last_fault_report = now
            self._send_numbered(wire.ERROR, wire.error_body(
                wire.ERR_HARDWARE, "firmware fault %d: %s" % (self.faults, text)))

    # --- commands from the host -----------------------------------------------------------------

    def _on_frame(self, raw):
        ver, mtype, cmd = wire.header(raw)
        if mtype == wire.HOST_HELLO:
            self._host_hello(raw)
            return
        if ver != self.major or mtype < wire.HOST_HELLO:
            self.bad_commands += 1     # another major, or a shoe's own message echoed back: not a command
            return
        if mtype in wire.LINK_COMMANDS or (cmd == 0 and mtype not in wire.NUMBERED_COMMANDS):
            self._link_command(raw, mtype)
            return
        # A numbered command (or one of a newer minor version carrying an id): exactly one REPLY per id.
        if cmd != 0 and not self._fresh(cmd):
            return
        unsupported = self._unsupported(mtype)
        if unsupported is not None:
            self.unknown_commands += 1
            status, detail = wire.UNSUPPORTED, unsupported
        else:
            try:
                _t, _c, f = wire.parse_command(raw)
            except ValueError as exc:
                self.bad_commands += 1
                status, detail = wire.BAD_ARGS, str(exc) or "malformed command"
            else:
                status, detail = self._command(mtype, f)
        data = self._send_numbered(wire.REPLY, wire.reply_body(cmd, status, detail))
        if cmd != 0:
            self.replies.append((cmd, data))
            if len(self.replies) > REPLY_MEMORY:
                self.replies.pop(0)

    def _unsupported(self, mtype):
        """Why this shoe does not do commands of type ``mtype`` (status 4, before anything is read), or
        None. A shoe claiming minor 1 acts as a 1.1 shoe: DEAL_BOARD is a type it does not know."""
        if mtype not in wire.NUMBERED_COMMANDS or (mtype == wire.DEAL_BOARD and self.minor < 2):
            return "command type 0x%02x is not supported" % mtype
        if mtype == wire.DEAL_BOARD and not self.hal.capabilities() & wire.CAP_BOARDS:
            return "this shoe cannot deal boards (it has no reject exit)"
        return None

    def _fresh(self, cmd):
        """True when command ``cmd`` is to be done now; a repeat gets its REPLY frame again."""
        if cmd <= self.last_cmd:
            self.repeated_commands += 1
            for done, data in self.replies:
                if done == cmd:
                    self._write(data)
            return False
        if self.strict_order and cmd != self.last_cmd + 1:
            self.early_commands += 1      # one before it was lost: the host sends both again, in order
            return False
        self.last_cmd = cmd
        return True

    def _host_hello(self, raw):
        try:
            f = wire.parse_command(raw)[2]
        except ValueError as exc:
            self.bad_commands += 1
            self._send_numbered(wire.ERROR, wire.error_body(wire.ERR_BAD_COMMAND, str(exc)))
            return
        if f["major"] != self.major:
            self._send_numbered(wire.ERROR, wire.error_body(
                wire.ERR_VERSION, "host speaks protocol %d.%d, shoe speaks %d.%d"
                % (f["major"], f["minor"], self.major, self.minor)))
        elif f["session"] != self.host_session:
            self.host_session = f["session"]
            self.replies = []
            self.host_minor = f["minor"]
            next_cmd = f.get("next_cmd", 0)
            self.strict_order = f["minor"] >= 1 and "next_cmd" in f
            self.last_cmd = next_cmd - 1 if next_cmd else 0
        self.send_hello()

    def _link_command(self, raw, mtype):
        try:
            f = wire.parse_command(raw)[2]
        except ValueError as exc:
            self.bad_commands += 1
            self._send_numbered(wire.ERROR, wire.error_body(wire.ERR_BAD_COMMAND, str(exc)))
            return
        if mtype == wire.ACK:
            self.ring.ack(f["upto"])
            if self.ring.count < self.ring.size:
                self.overflowing = False
        elif mtype == wire.RESEND:
            self._resend(f["first"], f.get("last", 0))
        elif mtype == wire.PING:
            self._send_link(wire.PONG, wire.pong_body(f["token"]))
        else:
            self.unknown_commands += 1
            self._send_numbered(wire.ERROR, wire.error_body(
                wire.ERR_UNKNOWN_COMMAND, "unknown command type 0x%02x" % mtype))

    def _resend(self, first, last=0):
        """Move the resend cursor (PROTOCOL.md section 5): requests are coalesced, never queued.
        ``last`` (1.1) is the highest number the host misses; 0: up to the newest."""
        if first > self.seq:
            return                         # nothing numbered that high was sent yet
        oldest = self.ring.oldest_seq()
        if oldest == 0 or first < oldest:
            # Some of what the host asks for is gone: HELLO's "oldest held" tells it where to go on.
            self.send_hello()
            if oldest == 0:
                return
            first = oldest
        upto = min(last, self.seq) if last else self.seq
        if self.resend_next == 0:
            self.resend_start = first      # a new pass
            self.resend_next = first
            self.resend_upto = upto
            return
        if first < self.resend_start:
            self.resend_start = first      # reaching further back: the pass starts again from there
            self.resend_next = first
        elif first <= self.resend_next:
            self.coalesced_resends += 1    # those frames are already on their way
        else:
            self.resend_next = first       # the host has more than the pass sent so far
        self.resend_upto = max(self.resend_upto, upto)

    def _pump_resend(self):
        sent = 0
        while self.resend_next and sent < RESEND_BURST:
            if self.resend_next > self.resend_upto:
                self.resend_next = 0
                break
            data = self.ring.get(self.resend_next)
            if data is None:
                oldest = self.ring.oldest_seq()
                if oldest > self.resend_next:
                    self.resend_next = oldest      # acknowledged meanwhile
                    continue
                self.resend_next = 0
                break
            self._write(data)
            self.resent_frames += 1
            self.resent_bytes += len(data)
            self.resend_next += 1
            sent += 1
        if self.resend_next > self.resend_upto:
            self.resend_next = 0           # the pass is over: the next RESEND starts a new one

    def _command(self, mtype, f):
        if mtype == wire.START_DEAL:
            return self._start(f)
        if mtype == wire.DEAL_BOARD:
            return self._start_board(f)
        if mtype == wire.SET_LAMP:
            if f["lamp"] > 4:
                return wire.BAD_ARGS, "lamp %d does not exist" % f["lamp"]
            if f["mode"] >= wire.LAMP_MODES or f["colour"] >= wire.LAMP_COLOURS:
                return wire.UNSUPPORTED, "lamp mode %d colour %d is not supported" % (f["mode"], f["colour"])
            self.hal.set_lamp(f["lamp"], f["mode"], f["colour"])
            return wire.OK, ""
        if mtype == wire.ABORT and self.dealing:
            # A card that left the exit before this ABORT was read belongs to the deal (or board): it
            # is reported first, and may even have ended it (then the ABORT finds no deal).
            self._watch_slot(self.hal.ticks_ms())
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
        sizes = f["sizes"]
        total = 4 * sum(sizes) + f["turn_up"]
        if f["dealer"] > 3 or not sizes or 0 in sizes or total > 255:
            return wire.BAD_ARGS, "dealer %d, sizes %s, turn-up %d is not a deal" % (
                f["dealer"], sizes, f["turn_up"])
        if self.dealing:
            return wire.BUSY, "a deal is in progress"
        if not self.hal.pack_present():
            return wire.BAD_STATE, "no pack in the shoe"
        self.dealing = True
        self.paused = False
        self.dealer = f["dealer"]
        self.pattern = sizes
        self.turn_up = f["turn_up"]
        self.pack = f["pack"]
        self.total = total
        self.dealt = 0
        self._send_numbered(wire.DEAL_STARTED,
                            wire.deal_started_body(self.dealer, self.turn_up, sizes, self.pack))
        return wire.OK, ""

    def _start_board(self, f):
        """DEAL_BOARD (PROTOCOL.md section 4.3): statuses in the documented order."""
        if f["board"] == 0:
            return wire.BAD_ARGS, "board 0 does not exist (boards are numbered from 1)"
        wrong = check_record(f["seats"])
        if wrong is not None:
            return wire.BAD_ARGS, wrong
        if len(f["placed"]) == 52:
            return wire.BAD_ARGS, "every card of the board is placed already"
        pack = f["pack"]
        if pack and (len(pack) != 2 or pack[0] not in ALPHABET or pack[1] not in ALPHABET):
            return wire.BAD_ARGS, "pack '%s' is not a card code's pack id (two of 0-9, A-Z)" % pack
        if self.dealing:
            return wire.BUSY, "a deal is in progress"
        if not self.hal.pack_present():
            return wire.BAD_STATE, "no pack in the shoe"
        self.board = Board(f["board"], f["board_id"], f["seats"], f["placed"], pack)
        self.dealing = True
        self.paused = False
        self.dealt = 0
        self._send_numbered(wire.BOARD_STARTED, wire.board_started_body(
            f["board"], f["board_id"], f["seats"], f["placed"], pack))
        if self.in_slot:
            self._route()
        return wire.OK, ""
