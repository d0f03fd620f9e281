"""The one server-sent event stream every live page of the director's server uses (the dashboard's
feed, the duplicate director's page, each table's page).

A page's queue gets JSON texts; the stream sends each as one ``data:`` event, a comment every
``KEEP_ALIVE`` seconds when nothing comes, ``event: expired`` once ``alive()`` says the login has ended,
and ends on an empty text (the page fell behind: the browser's EventSource reconnects and gets a fresh
snapshot). ``done()`` runs when the stream ends however it ends.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any

KEEP_ALIVE = 15.0


async def events(queue: asyncio.Queue[str], alive: Callable[[], bool],
                 keep_alive: float = KEEP_ALIVE) -> AsyncIterator[str]:
    """The stream's text, event by event (see the module docstring)."""
    while True:
        try:
            text: str | None = await asyncio.wait_for(queue.get(), keep_alive)
        except TimeoutError:
            text = None
        if not alive():
            yield "event: expired\ndata: {}\n\n"
            return
        if text is None:
            yield ": keep-alive\n\n"
        elif text == "":
            return
        else:
            yield f"data: {text}\n\n"


def response(queue: asyncio.Queue[str], alive: Callable[[], bool], done: Callable[[], None],
             headers: Mapping[str, str]) -> Any:
    """A Starlette response streaming ``queue`` (``done`` is called when it ends)."""
    from starlette.responses import StreamingResponse

    async def stream() -> AsyncIterator[str]:
        try:
            async for text in events(queue, alive):
                yield text
        finally:
            done()

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={**headers, "X-Accel-Buffering": "no"})
