"""The duplicate soak's session as a club runs it, and the session's faults (issue 28).

``ClubProcess`` is ``cardtable club dashboard --session DIR`` in a process of its own, on the soak's
broker; the soak plays the director through its web API (log in, read ``/api/duplicate/state``, call
each round with ``POST /api/duplicate/round``), as the director's page does. The faults
(``SESSION_FAULTS``, each selectable):

In this order, so that one does not undo another (a restart would revive a hub a message stopped):

* ``kill``: SIGKILL to the session's process right after a table sent a result the session has not
  journaled yet, once a quarter of the results are in; started again at once (its journal rebuilds it);
* ``hostile``: once round 2 is called, from a table's own broker login, messages no table sends: JSON nested 1,100 deep on
  ``board`` and 2,000 deep on ``status``, bytes that are not JSON, an envelope cut short, a result under a
  message number the table already used with other tricks, and last a payload over the 64 KiB limit
  (the broker drops the login's connection). What was sent is kept in ``hostile.json``: the session
  may refuse those messages (a note each), and nothing else;
* ``stall``: another process holds the session journal's write lock for ``STALL_SECONDS`` (past SQLite's
  10 s busy timeout, so its commits fail) once three quarters of the results are in.

Whatever happens, the evening must end with every confirmed result taken exactly once (``dup_judge``) and
no secret shown: neither the session's secret nor a login's password in anything the session's process
wrote or the director's state showed (``secrets_shown``).
"""

from __future__ import annotations

import http.cookiejar
import json
import logging
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from firmware_host.soak.rig import ROOT
from firmware_host.wire.subscribed import stop_loop
from firmware_host.wire.topics import TOPICS

log = logging.getLogger(__name__)
SESSION_FAULTS = ("kill", "stall", "hostile")
STALL_SECONDS = 12.0
DIRECTOR = "director"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ClubProcess:
    """The club's dashboard with the session, in a process of its own; the director's web client.

    Args:
        folder: where its users file, heads and logs go.
        session: the session's folder (made by ``Session.create``).
        broker_port: the soak's broker; ``password_file`` the dashboard's broker password.
    """

    def __init__(self, folder: Path, session: Path, broker_port: int, password_file: Path) -> None:
        from firmware_host.web.auth import add_user

        self.folder, self.session, self.broker_port, self.password_file = folder, session, broker_port, password_file
        self.users = folder / "users"
        self.password = os.urandom(12).hex()
        add_user(self.users, DIRECTOR, self.password)
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.kills = 0
        self.opener: urllib.request.OpenerDirector | None = None
        self.csrf = ""

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 120.0) -> None:
        self.starts += 1
        out = open(self.folder / f"dashboard-{self.starts}.log", "wb")  # noqa: SIM115 - the child keeps it
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "firmware_host.cli", "club", "dashboard", "--broker-host", "127.0.0.1",
             "--broker-port", str(self.broker_port), "--mqtt-password-file", str(self.password_file),
             "--users", str(self.users), "--port", str(self.port), "--session", str(self.session)],
            stdout=out, stderr=subprocess.STDOUT, cwd=ROOT)
        out.close()
        end = time.monotonic() + timeout
        while time.monotonic() < end:                 # up when its login page answers
            if self.proc.poll() is not None:
                raise RuntimeError(f"the club's dashboard exited {self.proc.returncode}; see "
                                   f"{self.folder}/dashboard-{self.starts}.log")
            try:
                urllib.request.urlopen(f"{self.base}/login", timeout=5).read()
                break
            except (OSError, urllib.error.URLError):
                time.sleep(0.1)
        else:
            raise RuntimeError(f"the club's dashboard did not answer within {timeout:.0f} s")
        self._login(max(10.0, end - time.monotonic()))

    def _login(self, timeout: float) -> None:
        """One login (a password check is slow on purpose: never retried in a loop, which the dashboard
        would take for guessing)."""
        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        data = urllib.parse.urlencode({"username": DIRECTOR, "password": self.password}).encode()
        opener.open(f"{self.base}/login", data, timeout=timeout).read()
        page = opener.open(f"{self.base}/duplicate", timeout=timeout).read().decode("utf-8", "replace")
        m = re.search(r'name="csrf-token" content="([^"]+)"', page)
        if m is None:
            raise RuntimeError("the director's page carries no CSRF token (the login failed)")
        self.opener, self.csrf = opener, m.group(1)

    def state(self) -> dict[str, Any]:
        assert self.opener is not None
        return dict(json.loads(self.opener.open(f"{self.base}/api/duplicate/state", timeout=30).read()))

    def call(self, round_: int) -> tuple[bool, str]:
        """Move for round ``round_``: (taken, why not). A call the dashboard did not answer (being started
        again, or slow while its journal is stalled) is not taken, as the director's page would say; the
        soak calls again."""
        assert self.opener is not None
        req = urllib.request.Request(f"{self.base}/api/duplicate/round", json.dumps({"round": round_}).encode(),
                                     {"Content-Type": "application/json", "X-CSRF-Token": self.csrf})
        try:
            self.opener.open(req, timeout=30).read()
            return True, ""
        except urllib.error.HTTPError as exc:
            return False, exc.read().decode("utf-8", "replace")[:300]
        except OSError as exc:      # no answer (refused, reset, timed out): not a traceback out of the soak
            return False, f"the dashboard did not answer the call of round {round_} ({exc})"

    def kill(self) -> None:
        """SIGKILL, and started again at once (as systemd would)."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        self.kills += 1
        self.start()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def logs(self) -> str:
        return "".join((self.folder / f"dashboard-{n}.log").read_text("utf-8", "replace")
                       for n in range(1, self.starts + 1) if (self.folder / f"dashboard-{n}.log").exists())


def stall(db: Path, seconds: float = STALL_SECONDS) -> threading.Thread:
    """The session journal's write lock held by another process for ``seconds`` (in a thread)."""
    from firmware_host.soak import faults as fx

    t = threading.Thread(target=fx.hold_write_lock, args=(db, seconds, threading.Event()), name="session-stall",
                         daemon=True)
    t.start()
    return t


def hostile_messages(table: str, taken: dict[str, Any] | None) -> list[tuple[str, bytes]]:
    """(topic, payload) no table sends, from ``table``'s login; ``taken``: a result the session took from
    it (its record), resent under the same number with other tricks."""
    def nested(kind: str, depth: int) -> str:
        return json.dumps({"table": table, "kind": kind, "seq": 1, "t": 1.0})[:-1] + ', "body": ' + \
            "[" * depth + "]" * depth + "}"

    deep_board, deep_status = nested("board", 1100), nested("status", 2000)
    out = [(TOPICS.board(table), deep_board.encode()), (TOPICS.table(table, "status"), deep_status.encode()),
           (TOPICS.board(table), b"\xff\xfe not JSON at all"),
           (TOPICS.board(table), json.dumps({"table": table, "kind": "board", "seq": 3}).encode()[:-1])]
    if taken is not None:
        seq = int(str(taken["source"]).rsplit(":", 1)[1])
        body = {k: v for k, v in taken.items() if k not in ("type", "table", "source", "t")}
        body["tricks"] = (int(body.get("tricks") or 0) + 1) % 14
        out.append((TOPICS.board(table), json.dumps({"table": table, "kind": "board", "seq": seq,
                                                            "prev": seq - 1, "t": taken.get("t", 1.0),
                                                            "body": body}).encode()))
    # last: over the broker's packet limit (65536 bytes), so the broker drops this connection
    out.append((TOPICS.board(table), json.dumps({"table": table, "kind": "board", "body": "x" * 70_000}).encode()))
    return out


def send_hostile(port: int, table: str, password: str, messages: Iterable[tuple[str, bytes]]) -> int:
    """Publish ``messages`` with ``table``'s login (QoS 1, each waited for); how many the broker took."""
    import paho.mqtt.client as mqtt

    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"{table}-hostile", protocol=mqtt.MQTTv5)
    c.username_pw_set(table, password)
    c.connect("127.0.0.1", port)
    c.loop_start()
    sent = 0
    try:
        for topic, payload in messages:
            info = c.publish(topic, payload, qos=1)
            try:
                info.wait_for_publish(5)
                sent += info.is_published()
            except (RuntimeError, ValueError):
                log.info("the broker would not take a hostile message on %s (%d bytes)", topic, len(payload))
    finally:
        stop_loop(c)
        c.disconnect()
    return sent


def secrets_shown(secrets: Mapping[str, str], texts: Iterable[str]) -> list[str]:
    """The names of the ``secrets`` (name -> value: the session's secret, each login's password) whose
    value appears in any of ``texts`` (the names only: a report never shows a secret itself)."""
    body = "\n".join(texts)
    return [name for name, value in secrets.items() if value and value in body]
