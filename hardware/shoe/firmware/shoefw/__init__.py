"""Reference firmware of the cardtable dealing shoe (protocol 1.2, see ../../PROTOCOL.md).

Written in the subset of Python that MicroPython on the RP2040 and CPython 3.11 both run: no
dataclasses, no typing, no enum, no f-string format specs beyond the basics. On the board ``main.py``
wires ``Shoe`` to the real pins (``rp2040.py``); on a PC the host's virtual shoe wires the very same
``Shoe`` to simulated hardware, so the tests exercise this code and not a second copy of it.
"""

FIRMWARE_VERSION = "1.2.0"
