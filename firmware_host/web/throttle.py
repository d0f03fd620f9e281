"""The director's login gate: growing delays for guessers, never a lock-out of a name; scrypt off the event loop.

Three rules:

- **Growing delays, per client address and per user name** (``Throttle``). Every attempt counts as a
  failure until it succeeds; past ``FREE`` failures a key must wait ``BASE * 2**k`` seconds (capped at
  ``CAP``) before its next attempt is even checked, so guessing slows to one try a minute at most. A
  success clears the keys; a key forgets its failures ``FORGET`` seconds after the last one.
- **No lock-out of the director**: a browser that has logged in as a name before carries a signed
  *known-device* cookie for it (``Devices``); its attempts count against that device alone, so a flood of
  bad logins for the name from elsewhere never slows it. A new device waits at most ``CAP`` seconds.
- **Bounded memory that volume cannot flush**: the keys of addresses and names are hashed with a secret
  into a fixed table of ``BUCKETS`` slots. Nothing is ever evicted, so a flood of made-up names cannot
  push the director's name out; an attacker cannot aim at a slot (keyed hash). Sharing a slot only ever
  slows a guesser (or a new device, at most ``CAP`` seconds).
- **Known devices apart**: a known device's key (``device:<id>``) is counted exactly, in a table of its
  own (``DEVICES`` entries at most), never in the shared slots: a flood of made-up names from new
  addresses fills every shared slot with failures, and a device counted there would wait with them (up
  to a minute) though it never failed. A device id comes only from a signed cookie the dashboard gave
  after a right password, so a flood cannot make new ones.

Hashing (``HashPool``): scrypt runs on ``HASHERS`` worker threads (OpenSSL's scrypt releases the GIL; the
workers run at a lower scheduling priority than the event loop), never on the event loop; at most
``HASH_WAITING`` checks wait at once (beyond that: "busy, try again"). Known devices have a lane of their
own (one worker at the ordinary priority, ``TRUSTED_EXTRA`` waiting): their check never queues behind a
flood's. The clock is injected.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import os
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

BUCKETS = 4096
FREE = 3           # failures a key may have without waiting
BASE = 1.0         # seconds of the first wait, doubled with each further failure ...
CAP = 60.0         # ... up to this
FORGET = 900.0     # seconds after its last failure a key starts afresh
HASHERS = max(1, (os.cpu_count() or 2) - 1)  # leave a core to the event loop
HASH_WAITING = 6
TRUSTED_EXTRA = 2
DEVICE_DAYS = 180
DEVICES = 4096     # known devices whose failures are counted exactly (the oldest forgotten first)


class Throttle:
    """Growing delays per key in a fixed table (see the module's rules)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, buckets: int = BUCKETS,
                 secret: bytes | None = None) -> None:
        self.clock = clock
        self._secret = secret or secrets.token_bytes(32)
        self._fails = [0] * buckets
        self._last = [0.0] * buckets
        self._until = [0.0] * buckets
        self._devices: OrderedDict[str, list[float]] = OrderedDict()  # key -> [fails, last, until]

    def __len__(self) -> int:
        return len(self._fails)

    def _slot(self, key: str) -> int:
        digest = hmac.new(self._secret, key.encode("utf-8", "replace"), hashlib.sha256).digest()
        return int.from_bytes(digest[:8], "big") % len(self._fails)

    def _row(self, key: str) -> list[float] | int:
        """A known device's own counters, or the shared slot of any other key."""
        if not key.startswith("device:"):
            return self._slot(key)
        row = self._devices.get(key)
        if row is None:
            row = self._devices[key] = [0.0, 0.0, 0.0]
            while len(self._devices) > DEVICES:
                self._devices.popitem(last=False)
        self._devices.move_to_end(key)
        return row

    def wait(self, keys: list[str]) -> float:
        """Seconds before ``keys`` may try again (0: now)."""
        now = self.clock()
        waits = [0.0]
        for k in keys:
            row = self._row(k)
            waits.append((row[2] if isinstance(row, list) else self._until[row]) - now)
        return max(waits)

    def attempt(self, keys: list[str]) -> None:
        """An attempt begins: counted as a failure until ``succeeded`` says otherwise (so that many
        attempts in parallel cannot all slip through before the first one fails)."""
        now = self.clock()
        for k in keys:
            row = self._row(k)
            if isinstance(row, list):
                row[:] = self._count(int(row[0]), row[1], row[2], now)
            else:
                fails, last, until = self._count(self._fails[row], self._last[row], self._until[row], now)
                self._fails[row], self._last[row], self._until[row] = int(fails), last, until

    @staticmethod
    def _count(fails: int, last: float, until: float, now: float) -> list[float]:
        if now - last > FORGET:
            fails = 0
        fails += 1
        over = fails - FREE
        if over > 0:
            until = max(until, now + min(CAP, BASE * 2 ** min(over - 1, 30)))
        return [float(fails), now, until]

    def succeeded(self, keys: list[str]) -> None:
        """The attempt was right: the keys start afresh."""
        for k in keys:
            row = self._row(k)
            if isinstance(row, list):
                row[:] = [0.0, row[1], 0.0]
            else:
                self._fails[row], self._until[row] = 0, 0.0


class Devices:
    """Signed known-device cookies: ``<name>.<random>.<mac>``; valid for the name they were made for."""

    def __init__(self, secret: bytes | None = None) -> None:
        self._secret = secret or secrets.token_bytes(32)

    def _mac(self, name: str, nonce: str) -> str:
        return hmac.new(self._secret, f"{name}\x00{nonce}".encode(), hashlib.sha256).hexdigest()[:32]

    def derived(self, label: str) -> bytes:
        """A secret for ``label`` made from this one (kept across restarts when this one is)."""
        return hmac.new(self._secret, f"derived\x00{label}".encode(), hashlib.sha256).digest()

    def make(self, name: str) -> str:
        nonce = secrets.token_urlsafe(12)
        return f"{name}.{nonce}.{self._mac(name, nonce)}"

    def check(self, cookie: str | None, name: str) -> str | None:
        """The device id (its random part) when ``cookie`` was made for ``name``; else None."""
        if not cookie or cookie.count(".") < 2:
            return None
        rest, nonce, mac = cookie.rsplit(".", 2)
        if rest != name or not hmac.compare_digest(mac.encode("utf-8", "surrogatepass"), self._mac(name, nonce).encode()):
            return None
        return nonce


def _lower_priority() -> None:
    """A hashing thread yields the CPU to the event loop (Linux: a thread's own nice value)."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)
    except (AttributeError, OSError):
        pass


class Busy(RuntimeError):
    """Too many password checks are waiting; the caller says "try again in a moment"."""


class HashPool:
    """Runs password checks on worker threads, a bounded number at a time; known devices (``trusted``) in
    a lane of their own, so that a flood of checks never delays theirs."""

    def __init__(self, workers: int = HASHERS, waiting: int = HASH_WAITING, trusted_extra: int = TRUSTED_EXTRA) -> None:
        self.workers = workers
        self._pools: dict[bool, ThreadPoolExecutor] = {}
        self._waiting = {False: waiting, True: trusted_extra}
        self._in_flight = {False: 0, True: 0}

    @property
    def in_flight(self) -> int:
        return sum(self._in_flight.values())

    async def run(self, fn: Callable[[], bool], *, trusted: bool = False) -> bool:
        """``fn()`` on a worker thread. Raises ``Busy`` when too many checks of its lane wait already."""
        if self._in_flight[trusted] >= self._waiting[trusted]:
            raise Busy(f"{self._in_flight[trusted]} password checks are waiting")
        pool = self._pools.get(trusted)
        if pool is None:
            pool = self._pools[trusted] = ThreadPoolExecutor(  # a known device's check is not lowered
                max_workers=1 if trusted else self.workers, initializer=None if trusted else _lower_priority,
                thread_name_prefix="password-check-known" if trusted else "password-check")
        self._in_flight[trusted] += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, fn)
        finally:
            self._in_flight[trusted] -= 1

    def close(self) -> None:
        """Stop the workers (a later ``run`` starts new ones)."""
        for pool in self._pools.values():
            pool.shutdown(wait=False, cancel_futures=True)
        self._pools = {}
