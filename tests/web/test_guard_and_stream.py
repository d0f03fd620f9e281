"""The club machine's one request guard and one event stream (``firmware_host/web/``, issue 36), on a
real Starlette app: every page that changes something passes the same checks, and every live page gets
the same stream (``data:`` per text, a keep-alive when quiet, ``expired`` once the login ends)."""

from __future__ import annotations

import asyncio
from typing import Any

from firmware_host.web import stream
from firmware_host.web.auth import Sessions, hash_password
from firmware_host.web.guard import COOKIE, Passed, Refused, guard


def _app(sessions: Sessions) -> Any:
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    async def post(request: Any) -> Any:
        checked = await guard(request, sessions, "a test form", max_body=64)
        if isinstance(checked, Refused):
            return JSONResponse({"error": checked.error}, checked.status)
        assert isinstance(checked, Passed)
        return JSONResponse({"user": checked.login.user, "data": checked.data, "too_big": checked.too_big,
                             "refused": None if checked.refused is None else checked.refused.kind})

    return Starlette(routes=[Route("/post", post, methods=["POST"])])


def test_the_guard_stops_what_it_must_and_reads_the_body_through_the_checked_reader() -> None:
    from starlette.testclient import TestClient

    sessions = Sessions({"director": hash_password("pw-123456")})
    token = sessions.open("director")
    csrf = sessions.get(token).csrf  # type: ignore[union-attr]
    with TestClient(_app(sessions), base_url="http://club.test") as c:
        ok = {"X-CSRF-Token": csrf, "Origin": "http://club.test"}
        assert c.post("/post", json={"a": 1}, headers=ok).status_code == 401            # no login
        c.cookies.set(COOKIE, token)
        r = c.post("/post", json={"a": 1}, headers={**ok, "Origin": "http://evil.test"})
        assert (r.status_code, r.json()) == (403, {"error": "cross-origin request"})
        r = c.post("/post", json={"a": 1}, headers={**ok, "X-CSRF-Token": "wrong"})
        assert (r.status_code, r.json()) == (403, {"error": "bad CSRF token"})
        r = c.post("/post", json={"a": 1}, headers=ok)
        assert r.json() == {"user": "director", "data": {"a": 1}, "too_big": False, "refused": None}
        r = c.post("/post", content=b'{"a": "' + b"x" * 100 + b'"}', headers=ok)
        assert r.json()["data"] is None and r.json()["too_big"] is True                 # over the limit: unread
        r = c.post("/post", content=b'{"a": "\xff"}', headers=ok)
        assert r.json()["data"] is None and r.json()["refused"] == "utf8"              # the reader's refusal


def test_the_stream_sends_each_text_keeps_alive_and_ends_when_the_login_does() -> None:
    async def run() -> list[str]:
        q: asyncio.Queue[str] = asyncio.Queue()
        live = [True]
        out: list[str] = []
        q.put_nowait('{"n":1}')
        gen = stream.events(q, lambda: live[0], keep_alive=0.01)
        out.append(await gen.__anext__())            # the text
        out.append(await gen.__anext__())            # nothing came: a keep-alive
        live[0] = False
        q.put_nowait('{"n":2}')
        out.append(await gen.__anext__())            # the login ended: expired, and the stream ends
        out.append("ended" if await _ended(gen) else "went on")
        return out

    async def _ended(gen: Any) -> bool:
        try:
            await gen.__anext__()
        except StopAsyncIteration:
            return True
        return False

    assert asyncio.run(run()) == ['data: {"n":1}\n\n', ": keep-alive\n\n", "event: expired\ndata: {}\n\n", "ended"]


def test_an_empty_text_ends_the_stream_so_the_browser_reconnects() -> None:
    async def run() -> list[str]:
        q: asyncio.Queue[str] = asyncio.Queue()
        q.put_nowait("")
        return [t async for t in stream.events(q, lambda: True, keep_alive=5.0)]

    assert asyncio.run(run()) == []
