"""A stand-in for MicroPython's ``machine`` module on the RP2040, for running the board layer
(``shoefw/rp2040.py``, ``main.py``) under MicroPython's WebAssembly port. Pins, UARTs and the I2C
bus are plain objects the test script drives through ``BOARD``. Each poll of the shoe asks UART 0 (the
host link) for bytes first: that call runs ``BOARD["on_poll"]``, the script's world step (raising
KeyboardInterrupt there ends ``main.py``'s loop, like Ctrl-C). ``WDT.feed`` counts in ``feeds``."""

BOARD = {"pins": {}, "uarts": {}, "i2c": None, "feeds": 0, "on_poll": None, "wdt": None}


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1

    def __init__(self, pin, mode=0, pull=None, value=None):
        self.id = pin
        old = BOARD["pins"].get(pin)
        self.v = old.v if old is not None else (1 if pull == Pin.PULL_UP else 0)
        if value is not None:
            self.v = value
        BOARD["pins"][pin] = self

    def value(self, v=None):
        if v is None:
            return self.v
        self.v = v
        return None


class UART:
    def __init__(self, uart_id, baudrate=115200, tx=None, rx=None, rxbuf=256):
        self.id = uart_id
        self.rx = bytearray()
        self.tx = bytearray()
        BOARD["uarts"][uart_id] = self

    def any(self):
        if self.id == 0 and BOARD["on_poll"] is not None:
            BOARD["on_poll"]()
        return len(self.rx)

    def read(self, n=None):
        if not self.rx:
            return None
        n = len(self.rx) if n is None else n
        data = bytes(self.rx[:n])
        self.rx = self.rx[n:]
        return data

    def write(self, data):
        self.tx.extend(data)
        return len(data)

    def feed(self, data):
        """The far end sends ``data`` (test side)."""
        self.rx.extend(data)


class I2C:
    """A TCS34725 colour sensor at 0x29; ``clear`` is its clear-channel count; ``fail`` makes reads
    raise OSError as a loose sensor cable does (an exception put in ``fail`` is raised as it is)."""

    def __init__(self, bus, sda=None, scl=None, freq=400000):
        self.clear = 100
        self.fail = False
        BOARD["i2c"] = self

    def scan(self):
        return [0x29]

    def writeto_mem(self, addr, reg, data):
        pass

    def readfrom_mem(self, addr, reg, n):
        if isinstance(self.fail, Exception):
            raise self.fail
        if self.fail:
            raise OSError(5)
        return bytes([self.clear & 0xFF, (self.clear >> 8) & 0xFF])


class WDT:
    def __init__(self, timeout=5000):
        self.timeout = timeout
        BOARD["wdt"] = self

    def feed(self):
        BOARD["feeds"] += 1
