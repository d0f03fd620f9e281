"""Processes of their own for the broadcast's run: the spectators' page's server (as on the club's
machine, apart from the tables) and the server-sent-event readers (as spectators' devices are).

``python -m firmware_host.bench.broadcast_procs service BROKER_PORT CONFIG`` (the ``broadcast`` login's
password in ``CT_BROADCAST_PASSWORD``; CONFIG a JSON file: ``rule``, ``delay``, ``tables``, ``plays``,
``names``, ``rooms``, ``other_room``, ``lin_dir``, ``title``) runs the broadcast service, says ``ready``
once logged in, and on SIGTERM prints one JSON line of its counts.
``python -m firmware_host.bench.broadcast_procs page BROKER_PORT HTTP_PORT`` (the ``spectator``
login's password in ``CT_SPECTATOR_PASSWORD``, a private event's in ``CT_PRIVATE_PASSWORD``) serves the
page until SIGTERM. ``... sse URL COUNT`` opens COUNT streams on URL and, on SIGTERM, prints one JSON
line: the messages each stream received.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys


def _service(broker_port: int, config: str) -> int:
    import threading
    from pathlib import Path

    from firmware_host.broadcast.live import Releaser
    from firmware_host.broadcast.service import BroadcastService
    from firmware_host.wire.reader import read_json
    from laws.broadcast.release import Release, Rule

    c = read_json(Path(config).read_text(encoding="utf-8"), max_bytes=None).value
    releaser = Releaser(Release(Rule(c["rule"]), c["delay"]), c["tables"],
                        {int(b): frozenset(t) for b, t in c["plays"].items()},
                        rooms={int(t): r for t, r in c["rooms"].items()},
                        other_room={int(t): o for t, o in c["other_room"].items()},
                        names={k: (v[0], v[1]) for k, v in c["names"].items()}, lin_dir=Path(c["lin_dir"]),
                        title=c["title"])
    service = BroadcastService(releaser, "127.0.0.1", broker_port, os.environ["CT_BROADCAST_PASSWORD"])
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *a: stop.set())
    service.start()
    if service.connected.wait(30):
        print("ready", flush=True)
    stop.wait()
    service.stop()
    print(json.dumps({"taken": releaser.taken, "refused": releaser.refused, "lin_failed": releaser.lin_failed,
                      "published": service.published,
                      "released": sum(len(v) for v in releaser.released_items().values())}), flush=True)
    return 0


def _page(broker_port: int, http_port: int) -> int:
    from firmware_host.broadcast.page import SpectatorPage, serve

    page = SpectatorPage("127.0.0.1", broker_port, os.environ["CT_SPECTATOR_PASSWORD"], title="Club pairs, live",
                         password=os.environ.get("CT_PRIVATE_PASSWORD") or None)
    serve(page, "127.0.0.1", http_port).run()
    return 0


async def _readers(url: str, count: int) -> list[int]:
    """COUNT streams read as cheaply as a test can (raw sockets, the bytes counted, never parsed): the
    readers stand for spectators' own devices, and must not take the machine's CPU from the browsers."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    host, port, path = parts.hostname or "127.0.0.1", parts.port or 80, parts.path or "/"
    counts = [0] * count
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)

    async def one(k: int) -> None:
        while not stop.is_set():
            try:
                reader, writer = await asyncio.open_connection(host, port)
                writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n".encode())
                await writer.drain()
                tail = b""    # too short to hold a whole "\ndata: ": nothing is counted twice
                while chunk := await reader.read(65536):
                    data = tail + chunk
                    counts[k] += data.count(b"\ndata: ")
                    tail = data[-6:]
                writer.close()
            except OSError:
                await asyncio.sleep(0.2)

    tasks = [asyncio.create_task(one(k)) for k in range(count)]
    await stop.wait()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return counts


def main(argv: list[str]) -> int:
    if argv[:1] == ["service"]:
        return _service(int(argv[1]), argv[2])
    if argv[:1] == ["page"]:
        return _page(int(argv[1]), int(argv[2]))
    if argv[:1] == ["sse"]:
        print(json.dumps(asyncio.run(_readers(argv[1], int(argv[2])))), flush=True)
        return 0
    print("usage: service BROKER_PORT CONFIG | page BROKER_PORT HTTP_PORT | sse URL COUNT", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
