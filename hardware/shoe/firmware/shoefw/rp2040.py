"""The hardware layer on a Raspberry Pi Pico (RP2040) running MicroPython. Wiring: ../WIRING.md.

Wiring note (GPIO numbers):
  GP2  card-exit sensor (Omron EE-SX1041, phototransistor to GND, pull-up): 1 = beam broken
  GP3  pack sensor (Vishay TCRT5000 looking up into the well, pull-up): 0 = a card reflects = present
  GP4/GP5  UART1 TX/RX to the face-side scan engine (Honeywell N3680-SR, 9600 8N1, CR suffix)
  GP6  scan engine trigger, active low
  GP8/GP9  I2C0 SDA/SCL to the back-side colour sensor (ams TCS34725, address 0x29)
  GP10-GP13  seat buttons N, E, S, W (to GND, internal pull-ups); N held at power-up: maintenance
  GP16  WS2812B lamp chain: lamp 0 = shoe, 1-4 = seats N, E, S, W
This module runs on the board; the tests run it under MicroPython's WebAssembly port with stand-in
``machine`` and ``neopixel`` modules (``tests/shoe/mpy/stand_ins``).
"""

import time

import machine
import neopixel

from shoefw import wire
from shoefw.hal import BUTTON_CALL, BUTTON_CONFIRM, BUTTON_DEMAND, decode_line

LONG_PRESS_MS = 800
DOUBLE_GAP_MS = 300
DEBOUNCE_MS = 20
COLOURS = {0: (60, 60, 60), 1: (80, 0, 0), 2: (0, 80, 0), 3: (80, 40, 0), 4: (0, 0, 80)}


class _Button:
    def __init__(self, pin):
        self.pin = machine.Pin(pin, machine.Pin.IN, machine.Pin.PULL_UP)
        self.down_at = None
        self.last_change = 0
        self.released_at = None

    def poll(self, now):
        """A kind when a press completed, else None."""
        down = self.pin.value() == 0
        if time.ticks_diff(now, self.last_change) < DEBOUNCE_MS:
            return None
        if down and self.down_at is None:
            self.down_at = now
            self.last_change = now
        elif not down and self.down_at is not None:
            held = time.ticks_diff(now, self.down_at)
            self.down_at = None
            self.last_change = now
            if held >= LONG_PRESS_MS:
                return BUTTON_DEMAND
            if self.released_at is not None and time.ticks_diff(now, self.released_at) < DOUBLE_GAP_MS:
                self.released_at = None
                return BUTTON_CONFIRM
            self.released_at = now
        elif (not down and self.released_at is not None
              and time.ticks_diff(now, self.released_at) >= DOUBLE_GAP_MS):
            self.released_at = None
            return BUTTON_CALL
        return None


class Rp2040Hal:
    """Real sensors and lamps. ``face_threshold`` is the clear-channel count above which the colour
    sensor is looking at a white card face rather than the pack's coloured back (calibrate per pack)."""

    def __init__(self, face_threshold=1800):
        self.exit = machine.Pin(2, machine.Pin.IN, machine.Pin.PULL_UP)
        self.well = machine.Pin(3, machine.Pin.IN, machine.Pin.PULL_UP)
        self.reader = machine.UART(1, baudrate=9600, tx=machine.Pin(4), rx=machine.Pin(5))
        self.trigger = machine.Pin(6, machine.Pin.OUT, value=1)
        self.i2c = machine.I2C(0, sda=machine.Pin(8), scl=machine.Pin(9), freq=400000)
        self.buttons = [_Button(p) for p in (10, 11, 12, 13)]
        self.lamps = neopixel.NeoPixel(machine.Pin(16), 5)
        self.modes = [(0, COLOURS[0])] * 5
        self.last_show = 0
        self.face_threshold = face_threshold
        self.ms = 0
        self.last_tick = time.ticks_ms()
        self.line = bytearray()
        self.code = None
        self.has_colour = 0x29 in self.i2c.scan()
        if self.has_colour:
            self.i2c.writeto_mem(0x29, 0x80 | 0x01, b"\xf6")   # integration time 24 ms
            self.i2c.writeto_mem(0x29, 0x80 | 0x00, b"\x03")   # power on, RGBC enable

    def maintenance(self):
        """True when seat button N is held at power-up: ``main.py`` then starts neither the loop nor
        the watchdog, so ``mpremote`` can copy new firmware."""
        return self.buttons[0].pin.value() == 0

    def ticks_ms(self):
        # time.ticks_ms() wraps after about 12 days; the shoe logic wants a clock that does not.
        t = time.ticks_ms()
        self.ms += time.ticks_diff(t, self.last_tick)
        self.last_tick = t
        return self.ms

    def exit_blocked(self):
        blocked = self.exit.value() == 1
        self.trigger.value(0 if blocked else 1)
        return blocked

    def read_code(self):
        while self.reader.any():
            b = self.reader.read(1)[0]
            if b in (10, 13):
                if self.line:
                    text = decode_line(self.line)
                    # A garbled line (not UTF-8) is an unreadable card, never a reason to stop.
                    self.code = (text, 100) if text is not None else ("", 0)
                self.line = bytearray()
            elif len(self.line) < 64:
                self.line.append(b)
        code, self.code = self.code, None
        return code

    def back_shows_face(self):
        if not self.has_colour:
            return None
        data = self.i2c.readfrom_mem(0x29, 0x80 | 0x20 | 0x14, 2)   # clear channel, auto-increment
        return (data[0] | data[1] << 8) >= self.face_threshold

    def pack_present(self):
        return self.well.value() == 0

    def take_buttons(self):
        now = time.ticks_ms()
        if any(mode >= 2 for mode, _ in self.modes) and time.ticks_diff(now, self.last_show) >= 20:
            self.last_show = now
            self._show(now)     # called every loop: keeps blinking lamps blinking
        out = []
        for seat, button in enumerate(self.buttons):
            kind = button.poll(now)
            if kind is not None:
                out.append((seat, kind))
        return out

    def set_lamp(self, lamp, mode, colour):
        self.modes[lamp] = (mode, COLOURS.get(colour, COLOURS[0]))
        self._show(time.ticks_ms())

    def _show(self, now):
        """Drive the LEDs: mode 0 off, 1 on, 2 blink at 1 Hz, 3 blink at 4 Hz."""
        for lamp, (mode, rgb) in enumerate(self.modes):
            lit = mode == 1 or (mode == 2 and now % 1000 < 500) or (mode == 3 and now % 250 < 125)
            self.lamps[lamp] = rgb if lit else (0, 0, 0)
        self.lamps.write()

    def capabilities(self):
        caps = wire.CAP_CODE_READER | wire.CAP_BUTTONS | wire.CAP_LAMPS | wire.CAP_JAM_DETECT
        caps |= wire.CAP_PACK_SENSOR
        if self.has_colour:
            caps |= wire.CAP_FACE_DETECT
        return caps


class UartPort:
    """The link to the host: UART0 on GP0 (TX) / GP1 (RX) through a 3.3 V USB-serial cable."""

    def __init__(self, baudrate=115200):
        self.uart = machine.UART(0, baudrate=baudrate, tx=machine.Pin(0), rx=machine.Pin(1), rxbuf=1024)

    def read(self):
        n = self.uart.any()
        return self.uart.read(n) if n else None

    def write(self, data):
        self.uart.write(data)
