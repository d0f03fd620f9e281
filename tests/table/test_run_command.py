"""`cardtable run` as a club runs it: a real process, a real pty to the virtual shoe, mock pins."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

from firmware_host.records.journal import Journal
from firmware_host.shoe.virtual import VirtualShoe

ROOT = Path(__file__).resolve().parent.parent.parent


def _config(tmp: Path, port: str, game: str = "contract-bridge") -> Path:
    text = (ROOT / "config" / "table.toml").read_text()
    text = text.replace('game = "contract-bridge"', f'game = "{game}"')
    text = text.replace('data_dir = "/var/lib/cardtable"', f'data_dir = "{tmp / "data"}"')
    text = text.replace('port = "/dev/cardtable-shoe"', f'port = "{port}"')
    text = text.replace('source = "picamera2" ', 'source = "none" ')
    text = text.replace('factory = "auto"', 'factory = "mock"')
    path = tmp / "table.toml"
    path.write_text(text)
    return path


def _card_count(data: Path) -> int:
    if not (data / "journal.sqlite3").exists():
        return 0
    with Journal.open(data) as j:
        return sum(1 for e in j.events() if e["type"] == "card_dealt")


def test_run_deals_a_whole_pack_from_the_shoe_and_stops_on_sigterm(tmp_path: Path) -> None:
    with VirtualShoe("contract-bridge", seed=4) as shoe:
        cfg = _config(tmp_path, shoe.path)
        proc = subprocess.Popen([sys.executable, "-m", "firmware_host.cli", "run", "--config", str(cfg),
                                 "--no-display"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and _card_count(tmp_path / "data") < 52:
            time.sleep(0.1)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    with Journal.open(tmp_path / "data") as j:
        assert j.verify().ok
        events = list(j.events())
    kinds = [e["type"] for e in events]
    assert kinds[:5] == ["game", "shuffle", "shuffle", "cut", "deal_start"]
    assert kinds.count("card_dealt") == 52 and "deal_end" in kinds


def test_run_with_a_bad_config_exits_2_with_one_message(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[table]\ngame = "whist"\n')
    p = subprocess.run([sys.executable, "-m", "firmware_host.cli", "run", "--config", str(bad), "--no-display"],
                       cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "table.game" in p.stderr and "Traceback" not in p.stderr
