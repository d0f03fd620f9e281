"""The night's server for ``cardtable bench euchre``, in a process of its own as on the club's machine
(the tables, the broker and the browser are elsewhere there): ``cardtable euchre serve``'s service and
pages, or (``director``) the club's director's server carrying the night.

Run by the bench as ``python -m firmware_host.bench.euchre_server MODE FOLDER PORT PASSWORD``: it opens
the night in ``FOLDER``, reaches the broker on ``PORT`` with the dashboard's login, prints one JSON line
``{"stream": URL, "cookie": C}`` once it serves, and runs until its standard input closes; it then prints
``{"cpu_s": ..., "hands": ..., "finished": ...}``: the CPU time (user and system, all threads) it spent
from serving to the end, and the night's state.
"""

from __future__ import annotations

import json
import resource
import sys
import time
from typing import Any

from firmware_host.club.broker import DASHBOARD_USER
from firmware_host.euchre_night.session import NightSession


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main(argv: list[str]) -> int:
    mode, folder, port, password = argv[0], argv[1], int(argv[2]), argv[3]
    session = NightSession.open(folder)
    server: Any = None
    if mode == "director":
        from firmware_host.bench.euchre import director_server

        server, stream, cookie = director_server(session, port, password)
    else:
        from firmware_host.euchre_night.pages import NightPages
        from firmware_host.euchre_night.service import NightService

        service = NightService(session, "127.0.0.1", port, DASHBOARD_USER, password)
        pages = NightPages(service)
        pages.start()
        service.start()
        if not service.connected.wait(30):
            print(json.dumps({"error": "the night could not log in"}), flush=True)
            return 1
        stream, cookie = pages.address + "/events", ""
    t0 = _cpu()
    print(json.dumps({"stream": stream, "cookie": cookie}), flush=True)
    sys.stdin.read()               # until the bench closes it
    cpu = _cpu() - t0
    with session.lock:
        hands, finished = len(session.night.hands), session.night.finished
    if server is not None:
        server.should_exit = True
        server.thread.join(10)
    else:
        pages.stop()
        service.stop()
    session.close()
    print(json.dumps({"cpu_s": cpu, "hands": hands, "finished": finished}), flush=True)
    time.sleep(0)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
