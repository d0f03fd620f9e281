"""A director's command taken while the journal stalls, then ``kill -9`` of the table (issue 20, item 3): a
real ``cardtable run`` with a real Mosquitto. The table acknowledges a command to the broker only once
it is committed, so the broker delivers it again to the restarted table, which journals it once. On main
it was acknowledged on arrival: lost, and shown pending on the page for ever."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from firmware_host.club.broker import LocalBroker
from firmware_host.records.journal import Journal
from tests.club.conftest import PASSWORDS, Watcher

ROOT = Path(__file__).resolve().parents[2]


def _config(tmp: Path, port: int) -> Path:
    pw = tmp / "pw"
    pw.write_text(PASSWORDS["t1"] + "\n")
    text = (f'[table]\nid = "t1"\ngame = "contract-bridge"\ndata_dir = "{tmp / "data"}"\n'
            '[shoe]\ndriver = "none"\n[camera]\nsource = "none"\n[pins]\nfactory = "mock"\n'
            f'[mqtt]\nhost = "127.0.0.1"\nport = {port}\nusername = "t1"\npassword_file = "{pw}"\n')
    path = tmp / "t1.toml"
    path.write_text(text)
    return path


class Run:
    """``cardtable -v run`` as a process, its log lines collected as they come."""

    def __init__(self, cfg: Path) -> None:
        self.lines: list[str] = []
        self.proc = subprocess.Popen([sys.executable, "-m", "firmware_host.cli", "-v", "run", "--config",
                                      str(cfg), "--no-display"], cwd=ROOT, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, text=True)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.append(line)

    def said(self, words: str) -> bool:
        return any(words in line for line in self.lines)


def _until(what: Any, timeout: float = 30.0, why: str = "") -> None:
    """Poll another process's progress (its log, its journal) until ``what()``."""
    deadline = time.monotonic() + timeout
    while not what():
        assert time.monotonic() < deadline, f"timed out: {why}"
        time.sleep(0.02)


def _with_id(data: Path, cid: str) -> list[dict[str, Any]]:
    if not (data / "journal.sqlite3").exists():
        return []
    with Journal.open_readonly(data) as j:
        return [r.body for r in j.rows() if isinstance(r.body.get("command"), dict)
                and r.body["command"].get("id") == cid]


def test_a_command_taken_during_a_stall_survives_kill_9(tmp_path: Path, broker: LocalBroker,
                                                        watcher: Watcher) -> None:
    cfg = _config(tmp_path, broker.port)
    data = tmp_path / "data"
    table = Run(cfg)
    try:
        # "connected" is logged before the table subscribes; its "online" goes out after: a command sent
        # before the broker took the subscription would reach nobody (a director's page waits for it too)
        _until(lambda: any(t == "cardtable/t1/online" and json.loads(p).get("online") is True
                           for t, p in list(watcher.messages)), why="the table never came online")
        locker = subprocess.Popen([sys.executable, "-m", "tests.table.journal_locker",
                                   str(data / "journal.sqlite3"), "told"], cwd=ROOT, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        assert locker.stdin is not None and locker.stdout is not None
        try:
            assert locker.stdout.readline().strip() == "locked"
            watcher.client.publish("cardtable/t1/command/ack", json.dumps(
                {"table": "t1", "by": "alice", "seq": 1, "t": time.time(), "id": "k1"}), qos=1)
            _until(lambda: table.said("command ack from alice"), why="the table never got the command")
            os.kill(table.proc.pid, signal.SIGKILL)  # while its commit waits for the lock
            table.proc.wait(timeout=10)
        finally:  # the lock is let go once the table is dead, not after a time a loaded machine may outrun
            locker.stdin.close()
        assert locker.stdout.readline().strip() == "released"
        locker.wait(timeout=10)
        locker.stdout.close()
        assert _with_id(data, "k1") == []  # it had not been journaled
        table = Run(cfg)  # the broker delivers it again: it was never acknowledged
        _until(lambda: _with_id(data, "k1"), why="the command was lost with the killed table")
        done = [json.loads(p) for t, p in watcher.messages if t == "cardtable/t1/status"]
        _until(lambda: any("k1" in json.loads(p).get("done", []) for t, p in list(watcher.messages)
                           if t == "cardtable/t1/status"), why=f"never done: {done[-1:] if done else None}")
    finally:
        table.proc.send_signal(signal.SIGTERM)
        table.proc.wait(timeout=20)
    assert table.proc.returncode == 0, "".join(table.lines[-20:])
    assert len(_with_id(data, "k1")) == 1
