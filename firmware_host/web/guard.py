"""The one guard every request that changes something passes, on every page the director's server
mounts (the dashboard's and the duplicate session's): a live login (the session cookie), our own origin,
the login's CSRF token, and a body read by the one checked reader of text from outside
(``records.lines.loads``) within a size limit. The caller decides what a body that is not the object it
wants means (the dashboard answers "unknown table"; the session journals the refusal).
"""

from __future__ import annotations

import logging
import urllib.parse
from dataclasses import dataclass
from typing import Any

from firmware_host.records.lines import LineRefused, loads

log = logging.getLogger(__name__)

COOKIE = "ct_session"       # the login's cookie (HttpOnly, SameSite=Strict)
DEVICE_COOKIE = "ct_device"  # a known device's signed cookie (``throttle.Devices``)
MAX_BODY = 4096


@dataclass(frozen=True)
class Refused:
    """A request the guard stops: the HTTP status and the error the page is told."""

    status: int
    error: str


@dataclass(frozen=True)
class Passed:
    """A request that passed: the login, the body as sent, and what it reads as.

    ``data`` is None when the body is over ``MAX_BODY`` bytes or not JSON; ``refused`` is the reader's
    refusal when there was one.
    """

    login: Any
    body: bytes
    data: Any
    refused: LineRefused | None
    max_body: int = MAX_BODY

    @property
    def too_big(self) -> bool:
        return len(self.body) > self.max_body

    @property
    def not_an_object(self) -> str:
        return not_an_object(self.body, self.data, self.refused, self.max_body)


def not_an_object(body: bytes, data: Any, refused: LineRefused | None, max_body: int = MAX_BODY) -> str:
    """Why a body (as :func:`read_body` read it) is no JSON object (``""``: it is one): the reason every
    command's and form's 400 gives. Over ``max_body`` bytes, refused by the reader (bad JSON, not UTF-8,
    a lone surrogate), or JSON of another kind (a list, a number)."""
    if len(body) > max_body:
        return f"the request is over {max_body} bytes"
    if refused is not None:
        return f"the request is refused: {refused}"
    return "" if isinstance(data, dict) else "the request is not a JSON object"


def login_of(request: Any, sessions: Any) -> Any:
    """The live login of ``request`` (``auth.Sessions``), or None."""
    return sessions.get(request.cookies.get(COOKIE))


def token_of(request: Any) -> str | None:
    """The session cookie's token as sent (a stream checks it is still live as it runs)."""
    token = request.cookies.get(COOKIE)
    return token if isinstance(token, str) else None


async def guard(request: Any, sessions: Any, what: str, max_body: int = MAX_BODY) -> Passed | Refused:
    """Check a request that changes something (``what`` names it in the log).

    Returns:
        ``Refused(401)`` without a live login, ``Refused(403)`` from another origin or without the
        login's CSRF token, else ``Passed`` with the body read (or not) by the checked reader.
    """
    s = login_of(request, sessions)
    if s is None:
        log.warning("%s refused: no live session", what)
        return Refused(401, "login required")
    if not same_origin(request):
        log.warning("%s by %s refused: cross-origin request from %r", what, s.user,
                    str(request.headers.get("origin"))[:200])
        return Refused(403, "cross-origin request")
    if not sessions.check_csrf(s, request.headers.get("x-csrf-token")):
        log.warning("%s by %s refused: missing or wrong CSRF token", what, s.user)
        return Refused(403, "bad CSRF token")
    body, data, refused = await read_body(request, max_body)
    return Passed(s, body, data, refused, max_body)


def same_origin(request: Any) -> bool:
    """True unless the request names an ``Origin`` other than the host it was sent to (a director's
    request also needs the login's CSRF token, which another site cannot read)."""
    origin = request.headers.get("origin")
    return origin is None or urllib.parse.urlsplit(origin).netloc == request.headers.get("host", "")


def own_origin(request: Any) -> bool:
    """True only when the request says it comes from the host it was sent to: its ``Origin`` is that
    host, or, with no ``Origin`` (browsers send one with every POST), its ``Referer`` is a page of it. A
    table's page has no CSRF token to add (its key is in the address), so a request that names neither
    is refused."""
    host = request.headers.get("host", "")
    origin = request.headers.get("origin")
    if origin is not None:
        return bool(host) and urllib.parse.urlsplit(origin).netloc == host
    referer = request.headers.get("referer")
    return bool(host) and referer is not None and urllib.parse.urlsplit(referer).netloc == host


async def read_body(request: Any, max_body: int = MAX_BODY) -> tuple[bytes, Any, LineRefused | None]:
    """The body as sent, what it reads as (None when over ``max_body`` or refused) and the refusal."""
    body = await request.body()
    if len(body) > max_body:
        return body, None, None
    try:
        return body, loads(body), None  # checked where it enters (``records.lines``)
    except LineRefused as exc:
        return body, None, exc
