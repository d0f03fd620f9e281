"""The newcomer friction of issue 14 (item 5), one test each where a test can tell."""

from __future__ import annotations

import io
import logging
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rich.console import Console

from firmware_host.cli import main
from firmware_host.devices.display import TerminalDisplay, lamp_text, progress_text, score_text

ROOT = Path(__file__).resolve().parents[2]
FULL = {"deal": 123, "dealer": "N", "cards_dealt": 52, "counts": {"N": 13, "E": 13, "S": 13, "W": 13},
        "phase": "scoring", "score": {"game": 3, "below": {"NS": 120, "EW": 100}, "totals": {"NS": 1230, "EW": 2340},
                                      "games": {"NS": 1, "EW": 1}, "vulnerable": {"NS": True, "EW": True}},
        "lamps": {k: True for k in ("redeal", "shuffle", "replace_pack", "shoe_offline", "camera_offline",
                                    "attention_N", "attention_E", "attention_S", "attention_W")}}


def test_make_demo_says_how_to_run_cardtable() -> None:
    out = subprocess.run(["make", "-n", "demo"], cwd=ROOT, capture_output=True, text=True, timeout=60).stdout
    assert ".venv/bin/cardtable --help" in out and ".venv/bin/activate" in out


def test_template_table_id_is_a_name_club_broker_makes() -> None:
    from firmware_host.club.club_demo import table_ids
    from firmware_host.config import load_config

    cfg = load_config(ROOT / "config" / "table.toml", env={}, check_devices=False)
    assert cfg.table.id == table_ids(12)[0]
    assert f'# username = "{cfg.table.id}"' in (ROOT / "config" / "table.toml").read_text()


def test_refused_login_is_said_once_without_a_tls_hint(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    from paho.mqtt.packettypes import PacketTypes
    from paho.mqtt.reasoncodes import ReasonCode

    from firmware_host.config import MqttConfig
    from firmware_host.records.journal import Journal
    from firmware_host.tablelink.publisher import MqttPublisher

    (tmp_path / "pw").write_text("x\n")
    cfg = MqttConfig(host="127.0.0.1", port=1, username="table-01", password_file=tmp_path / "pw")
    with Journal.open(tmp_path / "data") as journal:
        pub = MqttPublisher(cfg, "table-01", journal, time.time)
        refused = ReasonCode(PacketTypes.CONNACK, "Not authorized")
        with caplog.at_level(logging.WARNING):
            for _ in range(3):  # paho retries; each attempt is refused, then the broker hangs up
                pub._on_connect(pub.client, None, None, refused, None)
                pub._on_disconnect(pub.client, None, None, ReasonCode(PacketTypes.DISCONNECT, "Unspecified error"),
                                   None)
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 1, said
    assert "Not authorized" in said[0] and "password" in said[0] and "TLS" not in said[0]


def test_shoe_sim_link_to_a_missing_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["shoe-sim", "--link", str(tmp_path / "no" / "such")]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "no such folder" in err


def test_a_second_run_says_what_the_table_waits_for(tmp_path: Path) -> None:
    """The first run deals a pack; the second restores a table whose deal awaits its result. It used to
    sit silent ("phase None"); now it says so, also under --no-display."""
    from firmware_host.records.journal import Journal
    from firmware_host.shoe.virtual import VirtualShoe

    cfg = tmp_path / "t.toml"
    with VirtualShoe("contract-bridge", seed=4) as shoe:
        cfg.write_text(f'[table]\ndata_dir = "{tmp_path / "data"}"\n[shoe]\nport = "{shoe.path}"\n'
                       '[camera]\nsource = "none"\n[pins]\nfactory = "mock"\n')
        argv = [sys.executable, "-m", "firmware_host.cli", "run", "--config", str(cfg), "--no-display"]
        first = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 30

        def dealt() -> int:
            if not (tmp_path / "data" / "journal.sqlite3").exists():
                return 0
            with Journal.open(tmp_path / "data") as j:
                return sum(1 for e in j.events() if e["type"] == "deal_end")

        while time.monotonic() < deadline and dealt() < 1:
            time.sleep(0.1)
        first.send_signal(signal.SIGTERM)
        first.communicate(timeout=20)
        second = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert second.stderr is not None
        line = ""
        for _ in range(20):  # the first line that is not some other warning (an unknown env variable...)
            line = second.stderr.readline()
            if "waits for its result" in line or not line:
                break
        second.send_signal(signal.SIGTERM)
        second.communicate(timeout=20)
    assert "deal 1 is dealt and the table waits for its result" in line, line


def test_status_lines_fit_80_columns() -> None:
    assert len(lamp_text(FULL["lamps"]).plain) <= 76
    assert len(lamp_text(FULL["lamps"] | {"journal_fault": True}).plain) <= 76
    assert "NO SHOE CAMERA JOURNAL" in lamp_text(FULL["lamps"] | {"journal_fault": True}).plain
    assert len(progress_text(FULL, 52).plain) <= 76
    assert len(score_text(FULL["score"])) <= 76
    buf = io.StringIO()
    display = TerminalDisplay(Console(file=buf, width=80, force_terminal=False), live=False)
    display.status(FULL)
    lines = buf.getvalue().splitlines()
    assert len(lines) == 2 and all(len(ln) <= 80 for ln in lines), lines
    assert "phase None" not in progress_text({}, 52).plain


def test_logs_go_to_the_log_file_not_through_or_under_the_live_panel(tmp_path: Path) -> None:
    """Warnings never reach the players' screen (issue 30): while the panel is live they go to the log
    file; the device's fault itself is on the panel as its OFFLINE line, from the status."""
    class Tty(io.StringIO):          # stderr on the same terminal as the panel (a journal's is not: it keeps
        def isatty(self) -> bool:    # its lines, tests/devices/test_table_screen.py)
            return True

    buf = io.StringIO()
    stderr = Tty()
    root = logging.getLogger()
    raw = logging.StreamHandler(stderr)
    root.addHandler(raw)
    old = root.level
    root.setLevel(logging.WARNING)
    log_file = tmp_path / "cardtable.log"
    try:
        display = TerminalDisplay(Console(file=buf, width=80, force_terminal=True), live=True,
                                  log_path=str(log_file))
        try:
            display.status(FULL)
            logging.getLogger("firmware_host.shoe.port").warning("no permission to open serial port /dev/x")
            shown = Console(file=io.StringIO(), width=80, record=True)
            shown.print(display._render())
            text = shown.export_text()
        finally:
            display.close()
        logging.getLogger("x").warning("after the display")
    finally:
        root.removeHandler(raw)
        root.setLevel(old)
    assert "no permission" not in stderr.getvalue()          # not printed raw while the panel is up
    assert "after the display" in stderr.getvalue()          # and the handler works again afterwards
    assert "no permission to open serial port" not in text   # nor on the players' screen
    assert "no permission to open serial port /dev/x" in log_file.read_text()   # but in the log
    assert "after the display" not in log_file.read_text()   # the file handler is gone with the panel
    assert all(len(ln) <= 80 for ln in text.splitlines())


def test_device_faults_reach_stderr_at_warning(caplog: pytest.LogCaptureFixture) -> None:
    import tempfile

    from firmware_host.records.journal import Journal
    from firmware_host.table.controller import DeviceStatus, TableController

    with tempfile.TemporaryDirectory() as tmp, Journal.open(Path(tmp)) as journal:
        ctl = TableController(game="contract-bridge", journal=journal, panel=None, clock=time.time)
        with caplog.at_level(logging.WARNING):
            ctl._device(DeviceStatus("shoe", False, "no permission to open serial port /dev/x (add the user "
                                                      "to the 'dialout' group)"))
    msgs = [(r.levelno, r.getMessage()) for r in caplog.records]
    assert any(level == logging.WARNING and "dialout" in msg and "shoe" in msg for level, msg in msgs), msgs
    assert re.search("offline", " ".join(m for _, m in msgs), re.I)


def test_with_the_display_on_a_warning_reaches_stderr_that_is_no_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """``cardtable run 2>FILE`` with the panel on a terminal (audit 70): the live panel took stderr over,
    so the CLI's handler (which writes to whatever ``sys.stderr`` is) printed each warning through the
    panel's console onto the players' screen, and nothing reached the file (docs/ordering.md: "says
    why at WARNING on stderr"). A stderr that is no terminal is left alone."""
    from firmware_host.cli import _StderrHandler

    stderr = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stderr)
    buf = io.StringIO()
    root = logging.getLogger()
    handler = _StderrHandler()
    root.addHandler(handler)
    old = root.level
    root.setLevel(logging.WARNING)
    try:
        display = TerminalDisplay(Console(file=buf, width=80, force_terminal=True), live=True)
        try:
            logging.getLogger("firmware_host.table.inputs").warning("director fifo line 1 is not json")
        finally:
            display.close()
    finally:
        root.removeHandler(handler)
        root.setLevel(old)
    assert "is not json" in stderr.getvalue()
    assert "is not json" not in buf.getvalue()


def test_readme_and_help_say_where_shoe_sim_puts_its_link() -> None:
    """Audit a4, finding 7: README said `--link PATH` puts "its stable symlink there", but PATH must be an
    existing folder and the link is PATH/shoe (test_stopping checks the link is there)."""
    from firmware_host.cli import build_parser

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    assert "[--link DIR]" in readme and "its stable symlink is `DIR/shoe`, in a folder that must exist" in readme
    sim = build_parser()._subparsers._group_actions[0].choices["shoe-sim"]  # type: ignore[union-attr]
    assert "an existing folder for the stable symlink, DIR/shoe" in " ".join(sim.format_help().split())
