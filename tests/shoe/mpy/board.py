"""The board layer (``shoefw/rp2040.py`` and ``main.py``) under MicroPython with stand-in ``machine``
and ``neopixel`` modules. A world step runs at every poll of the shoe: the pack is in the
well, the host starts a deal, a card passes whose reader line is garbled, a good card, a card during
which the colour sensor fails (``poll`` raises), a lamp command; then Ctrl-C. Prints what the host
received (hex), the loop count, the lamp pixels and the faults."""

import os

import machine
import neopixel
from simhal import payload

os.urandom = lambda n: bytes(range(1, n + 1))     # the WebAssembly port has no hardware RNG
machine.Pin(3, machine.Pin.IN, machine.Pin.PULL_UP).value(0)      # cards in the well
STEP = {"n": 0}


def frame(mtype, cmd, body):
    from shoefw import wire

    return wire.frame(mtype, cmd, body)


def world():
    n = STEP["n"]
    STEP["n"] = n + 1
    pins = machine.BOARD["pins"]
    host = machine.BOARD["uarts"][0]
    reader = machine.BOARD["uarts"][1]
    i2c = machine.BOARD["i2c"]
    if n == 2:
        host.feed(frame(0x80, 0, bytes([1, 1, 0, 0, 0, 7, 0, 0, 0, 1]))
                  + frame(0x81, 1, bytes([0, 0, 13] + [1] * 13) + b"\x02A1"))
    elif n in (5, 10, 15):
        pins[2].value(1)                                   # a card breaks the exit beam
    elif n == 6:
        reader.feed(b"\xff\xfe\x80" + payload("A1", "TS").encode() + b"\r")   # garbled line
    elif n == 11:
        reader.feed(payload("A1", "TS").encode() + b"\r\n")
    elif n == 16:
        i2c.fail = True                                    # the colour sensor's cable works loose
    elif n == 19:
        i2c.fail = False
    elif n in (8, 13, 21):
        pins[2].value(0)                                   # the card has left
    elif n == 25:
        host.feed(frame(0x85, 2, bytes([1, 1, 2])))
    elif n == 40:
        raise KeyboardInterrupt


machine.BOARD["on_poll"] = world
try:
    import main  # noqa: F401 - runs the loop until world() says stop
except KeyboardInterrupt:
    pass
print("host", bytes(machine.BOARD["uarts"][0].tx).hex())
print("feeds", machine.BOARD["feeds"], machine.BOARD["wdt"].timeout)
print("pixels", neopixel.INSTANCES[0].shown)
