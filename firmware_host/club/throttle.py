"""The director's login gate: growing delays for guessers, never a lock-out of a name; scrypt off the event loop.

Three rules:

- **Growing delays, per client address and per user name** (``Throttle``). Every attempt counts as a
  failure until it succeeds; past ``FREE`` failures a key must wait ``BASE * 2**k`` seconds (capped at
  ``CAP``) before its next attempt is even checked, so guessing slows to one try a minute at most. A
  success clears the keys; a key forgets its failures ``FORGET`` seconds after the last one.
- **No lock-out of the director**: a browser that has logged in as a name before carries a signed
  *known-device* cookie for it (``Devices``); its attempts count against that device alone, so a flood of
  bad logins for the name from elsewhere never slows it. A new device waits at most ``CAP`` seconds.
- **Bounded memory that volume cannot flush**: the keys are hashed with a secret into a fixed table of
  ``BUCKETS`` slots. Nothing is ever evicted, so a flood of made-up names cannot push the director's
  name out; an attacker cannot aim at a slot (keyed hash). Sharing a slot only ever slows a guesser.

Hashing (``HashPool``): scrypt runs on ``HASHERS`` worker threads (OpenSSL's scrypt releases the GIL; the
workers run at a lower scheduling priority than the event loop), never on the event loop; at most ``HASH_WAITING`` checks wait at once (beyond that: "busy, try again"), with
``TRUSTED_EXTRA`` more kept for known devices. The clock is injected.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import os
import secrets
import threading
import time
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


class Throttle:
    """Growing delays per key in a fixed table (see the module's rules)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, buckets: int = BUCKETS,
                 secret: bytes | None = None) -> None:
        self.clock = clock
        self._secret = secret or secrets.token_bytes(32)
        self._fails = [0] * buckets
        self._last = [0.0] * buckets
        self._until = [0.0] * buckets

    def __len__(self) -> int:
        return len(self._fails)

    def _slot(self, key: str) -> int:
        digest = hmac.new(self._secret, key.encode("utf-8", "replace"), hashlib.sha256).digest()
        return int.from_bytes(digest[:8], "big") % len(self._fails)

    def wait(self, keys: list[str]) -> float:
        """Seconds before ``keys`` may try again (0: now)."""
        now = self.clock()
        return max([0.0, *(self._until[self._slot(k)] - now for k in keys)])

    def attempt(self, keys: list[str]) -> None:
        """An attempt begins: counted as a failure until ``succeeded`` says otherwise (so that many
        attempts in parallel cannot all slip through before the first one fails)."""
        now = self.clock()
        for k in keys:
            i = self._slot(k)
            if now - self._last[i] > FORGET:
                self._fails[i] = 0
            self._fails[i] += 1
            self._last[i] = now
            over = self._fails[i] - FREE
            if over > 0:
                self._until[i] = max(self._until[i], now + min(CAP, BASE * 2 ** min(over - 1, 30)))

    def succeeded(self, keys: list[str]) -> None:
        """The attempt was right: the keys start afresh."""
        for k in keys:
            i = self._slot(k)
            self._fails[i], self._until[i] = 0, 0.0


class Devices:
    """Signed known-device cookies: ``<name>.<random>.<mac>``; valid for the name they were made for."""

    def __init__(self, secret: bytes | None = None) -> None:
        self._secret = secret or secrets.token_bytes(32)

    def _mac(self, name: str, nonce: str) -> str:
        return hmac.new(self._secret, f"{name}\x00{nonce}".encode(), hashlib.sha256).hexdigest()[:32]

    def make(self, name: str) -> str:
        nonce = secrets.token_urlsafe(12)
        return f"{name}.{nonce}.{self._mac(name, nonce)}"

    def check(self, cookie: str | None, name: str) -> str | None:
        """The device id (its random part) when ``cookie`` was made for ``name``; else None."""
        if not cookie or cookie.count(".") < 2:
            return None
        rest, nonce, mac = cookie.rsplit(".", 2)
        if rest != name or not hmac.compare_digest(mac, self._mac(name, nonce)):
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
    """Runs password checks on worker threads, a bounded number at a time."""

    def __init__(self, workers: int = HASHERS, waiting: int = HASH_WAITING, trusted_extra: int = TRUSTED_EXTRA) -> None:
        self.workers = workers
        self._pool: ThreadPoolExecutor | None = None
        self._waiting = waiting
        self._extra = trusted_extra
        self.in_flight = 0

    async def run(self, fn: Callable[[], bool], *, trusted: bool = False) -> bool:
        """``fn()`` on a worker thread. Raises ``Busy`` when too many checks wait already."""
        limit = self._waiting + (self._extra if trusted else 0)
        if self.in_flight >= limit:
            raise Busy(f"{self.in_flight} password checks are waiting")
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="password-check",
                                            initializer=_lower_priority)
        self.in_flight += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, fn)
        finally:
            self.in_flight -= 1

    def close(self) -> None:
        """Stop the workers (a later ``run`` starts new ones)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
