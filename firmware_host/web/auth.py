"""The director's login: a users file of scrypt hashes, sessions that expire, a CSRF token per session.
Throttling and where the hashing runs: ``web.throttle``.

Users file: one ``name:scrypt$<n>$<r>$<p>$<salt hex>$<hash hex>`` per line; ``#`` lines are comments.
``cardtable club adduser --users FILE NAME`` writes it. The clock is injected.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

USER_NAME = re.compile(r"^[A-Za-z0-9_.@-]{1,64}$")
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1


# a path on this server a login may send the browser back to: one "/", then letters, digits and - _ . ~ % /
BACK = re.compile(r"/(?![/\\])[A-Za-z0-9_.~%/-]{0,255}")


def back_to(path: object) -> str:
    """Where a login sends the browser once it succeeds: the page that sent it to the login (``/login?next=
    /euchre``), so a director whose login was lost (a restarted dashboard keeps none) is back on the page he
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
    """

    def __init__(self, users: dict[str, str], ttl: float = 8 * 3600,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.users = users
        self.ttl = ttl
        self.clock = clock
        self._sessions: dict[str, Session] = {}
        self._dummy = hash_password(secrets.token_hex(8))

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
        self._sessions[token] = Session(name, self.clock() + self.ttl, secrets.token_urlsafe(24))
        log.info("director %s logged in", name)
        return token

    def get(self, token: str | None) -> Session | None:
        """The live session for ``token``; an expired one is dropped (and logged)."""
        if not token:
            return None
        s = self._sessions.get(token)
        if s is None:
            return None
        if self.clock() >= s.expires:
            del self._sessions[token]
            log.info("session of %s expired", s.user)
            return None
        return s

    def logout(self, token: str | None) -> None:
        """End a session."""
        if token:
            self._sessions.pop(token, None)

    def check_csrf(self, session: Session, token: str | None) -> bool:
        """True when ``token`` is the session's CSRF token."""
        # as bytes: compare_digest refuses str with non-ASCII characters (a header of b"\xe9" was a 500)
        return bool(token) and hmac.compare_digest(session.csrf.encode(), str(token).encode("utf-8", "surrogatepass"))
