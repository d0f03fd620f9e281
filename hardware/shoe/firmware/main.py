"""Board entry point: MicroPython runs this file at power-up. Copy ``main.py`` and the ``shoefw``
folder to the Pico (e.g. ``mpremote cp -r shoefw : && mpremote cp main.py :``)."""

import os
import time

from shoefw.rp2040 import Rp2040Hal, UartPort
from shoefw.shoe import Shoe


def run():
    boot_id = int.from_bytes(os.urandom(4), "big")
    shoe = Shoe(Rp2040Hal(), UartPort(), boot_id)
    while True:
        shoe.poll()
        time.sleep_ms(1)


run()
