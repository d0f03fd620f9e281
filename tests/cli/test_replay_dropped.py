"""`cardtable replay` says so when it drops a result that no hand awaits, in both output formats."""

from __future__ import annotations

import json
import subprocess
import sys

LOG = "\n".join([
    '{"type": "game", "game": "euchre"}',
    '{"type": "shuffle", "seat": "N"}',
    '{"type": "result", "makers": "NS", "tricks": 5}',
]) + "\n"


def replay(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "firmware_host.cli", "replay", "-", *args], input=LOG,
                          capture_output=True, text=True, timeout=60)


def test_replay_json_names_the_dropped_result() -> None:
    p = replay()
    assert p.returncode == 0, p.stderr
    lines = [json.loads(x) for x in p.stdout.splitlines()]
    assert lines == [{"dropped": "result", "line": 3, "phase": "shuffle", "reason": lines[0]["reason"], "event": 2}]
    assert "not scored" in lines[0]["reason"] and "1 result not scored" in p.stderr


def test_replay_text_names_the_dropped_result() -> None:
    p = replay("--format", "text")
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("[line 3] RESULT NOT SCORED\n    No hand awaits a result"), p.stdout
