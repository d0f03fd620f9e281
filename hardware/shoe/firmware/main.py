"""Board entry point: MicroPython runs this file at power-up. Copy ``main.py`` and the ``shoefw``
folder to the Pico (e.g. ``mpremote cp -r shoefw : && mpremote cp main.py :``; hold seat button N
while plugging in to get a REPL without the loop and the watchdog).

The loop survives anything ``Shoe.poll()`` raises: it prints the exception on the USB console,
counts it and tells the host (ERROR 5, at most every 10 s; named by ``fault_text``, which reads the same
on MicroPython and CPython, where ``repr`` does not), then keeps serving. A hardware watchdog
restarts the board if the loop ever hangs (a new ``boot_id`` tells the host).
"""

import os
import time

import machine

from shoefw.rp2040 import Rp2040Hal, UartPort
from shoefw.shoe import Shoe, fault_text

WATCHDOG_MS = 4000


def run():
    hal = Rp2040Hal()
    if hal.maintenance():
        print("shoe: maintenance mode (seat button N held at power-up): no loop, no watchdog")
        return
    boot_id = int.from_bytes(os.urandom(4), "big")
    shoe = Shoe(hal, UartPort(), boot_id)
    wdt = machine.WDT(timeout=WATCHDOG_MS)
    while True:
        try:
            shoe.poll()
        except Exception as exc:  # noqa: BLE001 - the shoe must keep serving whatever happens
            print("shoe: poll failed:", repr(exc))
            try:
                shoe.report_fault(fault_text(exc))
            except Exception as again:  # noqa: BLE001
                print("shoe: could not report it:", repr(again))
        wdt.feed()
        time.sleep_ms(1)


run()
