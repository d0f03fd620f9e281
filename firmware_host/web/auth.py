"""The director's login: a users file of scrypt hashes, sessions that expire, a CSRF token per session.
Throttling and where the hashing runs: ``web.throttle``.

Users file: one ``name:scrypt$<n>$<r>$<p>$<salt hex>$<hash hex>`` per line; ``#`` lines are comments.
``cardtable club adduser --users FILE NAME`` writes it. The clock is injected.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import math
import os
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from firmware_host.records.lines import LineRefused, loads

log = logging.getLogger(__name__)

USER_NAME = re.compile(r"^[A-Za-z0-9_.@-]{1,64}$")
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1


# a path on this server a login may send the browser back to: one "/", then letters, digits and - _ . ~ % /
BACK = re.compile(r"/(?![/\\])[A-Za-z0-9_.~%/-]{0,255}")


def back_to(path: object) -> str:
    """Where a login sends the browser once it succeeds: the page that sent it to the login (``/login?next=
    /euchre``), so a director whose login was lost (it ended, or a dashboard kept no logins) is back on the page he
    was on, not on the dashboard's page hunting for it. Only a path of this server is followed: anything else
    (``//evil.example``, ``/\\evil``, ``https://...``, text that is no path, the login itself) gives ``/``, so
    the login can never be made to send a browser to another site; nor an ``/api/`` path, which is no page
    (a director would land on JSON)."""
    if not isinstance(path, str) or not BACK.fullmatch(path) or path in ("/login", "/logout") \
            or path.startswith("/api/"):
        return "/"
    return path


class UsersError(ValueError):
    """The users file is unreadable or a line is malformed; the message names the file and line."""


def hash_password(password: str, *, salt: bytes | None = None) -> str:
    """An scrypt hash of ``password`` in the users-file format."""
    salt = salt or secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P, dklen=32)
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${salt.hex()}${digest.hex()}"


def check_password(password: str, stored: str) -> bool:
    """True when ``password`` matches ``stored`` (constant-time comparison)."""
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        got = hashlib.scrypt(password.encode("utf-8"), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p),
                             dklen=len(bytes.fromhex(digest)))
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got.hex(), digest)


def load_users(path: str | Path) -> dict[str, str]:
    """Read a users file: name -> stored hash."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:  # the first start, before any director: say how to make one
        raise UsersError(f"{p}: cannot read the users file (there is none); add a director with "
                         f"`cardtable club adduser --users {p} NAME`") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsersError(f"{p}: cannot read the users file ({exc})") from None
    users: dict[str, str] = {}
    for n, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, sep, stored = line.partition(":")
        if not sep or not USER_NAME.match(name) or not stored.startswith("scrypt$"):
            raise UsersError(f"{p}: line {n}: want NAME:scrypt$..., as written by `cardtable club adduser`")
        users[name] = stored
    return users


def add_user(path: str | Path, name: str, password: str) -> None:
    """Add or replace ``name`` in the users file (created if missing, mode 0600)."""
    if not USER_NAME.match(name):
        raise UsersError(f"user name {name!r}: use 1-64 letters, digits, '_', '.', '@' or '-'")
    if len(password) < 8:
        raise UsersError("the password must have at least 8 characters")
    p = Path(path)
    users = load_users(p) if p.exists() else {}
    users[name] = hash_password(password)
    p.write_text("".join(f"{u}:{h}\n" for u, h in users.items()), encoding="utf-8")
    p.chmod(0o600)


@dataclass
class Session:
    user: str
    expires: float
    csrf: str


class Sessions:
    """Logged-in directors. Tokens are random; a session ends ``ttl`` seconds after login.

    Args:
        users: name -> stored hash.
        ttl: session lifetime in seconds.
        clock: seconds (``time.monotonic``).
        store: a file that keeps the logins across a restart of the server (``club dashboard`` keeps it
            beside the users file, ``<users>.logins``, mode 0600), or None to keep them in memory only. It
            holds each login's token hashed (SHA-256: the file alone opens no session), its director, its
            CSRF token and when it ends, in wall-clock seconds; a login whose director is no longer in the
            users file, or that has ended, is not taken back. A file that cannot be read is logged and left
            aside (the directors log in again, as before there was one); one that cannot be written is
            logged once, and the logins go on in memory.
        wall: wall-clock seconds (``time.time``), for the store's times.
    """

    def __init__(self, users: dict[str, str], ttl: float = 8 * 3600,
                 clock: Callable[[], float] = time.monotonic, store: str | Path | None = None,
                 wall: Callable[[], float] = time.time) -> None:
        self.users = users
        self.ttl = ttl
        self.clock = clock
        self.wall = wall
        self.store = Path(store) if store is not None else None
        self._sessions: dict[str, Session] = {}   # by the token's SHA-256 (hex)
        self._dummy = hash_password(secrets.token_hex(8))
        self._store_failed = False
        if self.store is not None:
            self._load()

    @staticmethod
    def _key(token: str) -> str:
        return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()

    def _load(self) -> None:
        assert self.store is not None
        try:
            raw = self.store.read_bytes()
        except FileNotFoundError:
            return
        except OSError as exc:
            log.warning("%s: the logins kept cannot be read (%s); the directors log in again", self.store,
                        exc.strerror or exc)
            return
        try:
            data = loads(raw)
            rows = data["logins"]
            now, wall = self.clock(), self.wall()
            for row in rows:
                key, user, ends, csrf = row["token_sha256"], row["user"], float(row["ends"]), row["csrf"]
                if not (isinstance(key, str) and isinstance(user, str) and isinstance(csrf, str)) \
                        or not math.isfinite(ends):
                    raise ValueError("a login of the wrong shape")
                if user in self.users and ends > wall:
                    self._sessions[key] = Session(user, now + min(ends - wall, self.ttl), csrf)
        except (LineRefused, ValueError, KeyError, TypeError, AttributeError) as exc:
            self._sessions.clear()
            log.warning("%s: not the logins this server keeps (%s); the directors log in again", self.store, exc)
            return
        if self._sessions:
            log.info("%d login(s) kept from before the restart: %s", len(self._sessions),
                     ", ".join(sorted({s.user for s in self._sessions.values()})))

    def _save(self) -> None:
        """Write the logins to the store (a new file moved over the old one: never half written)."""
        if self.store is None:
            return
        now, wall = self.clock(), self.wall()
        rows = [{"token_sha256": k, "user": s.user, "ends": round(wall + (s.expires - now), 3), "csrf": s.csrf}
                for k, s in self._sessions.items() if s.expires > now]
        tmp = self.store.with_name(self.store.name + ".new")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump({"logins": rows}, f)
            os.replace(tmp, self.store)
            self._store_failed = False
        except OSError as exc:
            if not self._store_failed:
                log.warning("%s: the logins cannot be kept (%s); they go on in memory, and a restart of the "
                            "server asks the directors to log in again", self.store, exc.strerror or exc)
            self._store_failed = True

    def verify(self, name: str, password: str) -> bool:
        """True when ``password`` is ``name``'s (scrypt: run it off the event loop, ``throttle.HashPool``).
        An unknown name costs the same work as a known one; a refusal is logged."""
        stored = self.users.get(name)
        ok = check_password(password, stored or self._dummy)
        if stored is None or not ok:
            log.warning("login refused for user %r: %s", name[:64], "unknown user" if stored is None
                        else "wrong password")
            return False
        return True

    def open(self, name: str) -> str:
        """A new session for ``name`` (whose password was verified): its token."""
        token = secrets.token_urlsafe(32)
        self._sessions[self._key(token)] = Session(name, self.clock() + self.ttl, secrets.token_urlsafe(24))
        log.info("director %s logged in", name)
        self._save()
        return token

    def get(self, token: str | None) -> Session | None:
        """The live session for ``token``; an expired one is dropped (and logged)."""
        if not token:
            return None
        key = self._key(token)
        s = self._sessions.get(key)
        if s is None:
            return None
        if self.clock() >= s.expires:
            del self._sessions[key]
            log.info("session of %s expired", s.user)
            self._save()
            return None
        return s

    def logout(self, token: str | None) -> None:
        """End a session."""
        if token and self._sessions.pop(self._key(token), None) is not None:
            self._save()

    def check_csrf(self, session: Session, token: str | None) -> bool:
        """True when ``token`` is the session's CSRF token."""
        # as bytes: compare_digest refuses str with non-ASCII characters (a header of b"\xe9" was a 500)
        return bool(token) and hmac.compare_digest(session.csrf.encode(), str(token).encode("utf-8", "surrogatepass"))
