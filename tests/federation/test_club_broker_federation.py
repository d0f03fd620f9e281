"""A small club on `cardtable club broker` joins a simultaneous: `--federation` takes what `club federate`
wrote, at every start.

`club broker` writes its mosquitto.conf, password file and ACL from its options at every start, and had no
option for the federation: the bridge section `club federate` printed, and the uplink's login and ACL
lines, could only be added by hand, and the next start of the broker (the unit's restart, a reboot)
threw them away. The club's records never arrived and its uplink could not log in. Here real Mosquitto
processes stand on both sides: the federation's broker and service, and the club's `club broker` as the
unit runs it, restarted in the middle.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from firmware_host.cli import main
from firmware_host.club.broker import free_port
from firmware_host.duplicate.handrecords.handfiles import write_hand_records
from firmware_host.duplicate.handrecords.newdeals import new_boards
from firmware_host.federation.bridgefile import BridgeFileError, ClubBridge, read_bridge
from firmware_host.federation.brokers import EventBroker
from firmware_host.federation.service import EventSetup, FederationService, create_event
from firmware_host.federation.topics import SERVICE_USER, EventTopics
from firmware_host.federation.uplink import ClubUplink, club_messages, read_session
from laws.duplicate.deal import commitment

EVENT = "sim5"
ROOT = Path(__file__).resolve().parents[2]


def _need_mosquitto() -> None:
    if shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists():
        pytest.skip("mosquitto is not installed (`make test` installs it)")


def _wait(what: Any, timeout: float = 60.0, said: Any = None) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if what():
            return
        time.sleep(0.05)
    raise AssertionError("timed out waiting" + (f": {said()}" if said is not None else ""))


class ClubBrokerProcess:
    """`cardtable club broker` as the unit runs it: a process of its own, stopped with SIGTERM."""

    def __init__(self, argv: list[str]) -> None:
        self.argv = argv
        self.proc: subprocess.Popen[str] | None = None
        self.out: list[str] = []

    def start(self) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.out = []
        self.proc = subprocess.Popen([sys.executable, "-m", "firmware_host.cli", *self.argv], stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, env=env)
        proc = self.proc
        threading.Thread(target=lambda: self.out.extend(proc.stdout or []), daemon=True).start()
        # a process of its own under a loaded machine (a fresh-clone run with three workers timed out at 30 s
        # once, its output not shown): the bound is generous, and what it said so far is shown
        _wait(lambda: any(ln.startswith("mosquitto listening") for ln in self.out) or proc.poll() is not None, 120,
              lambda: "club broker said: " + "".join(self.out)[-2000:])
        assert proc.poll() is None, "".join(self.out)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(15)
        self.proc = None


def test_a_club_on_club_broker_keeps_its_bridge_and_uplink_across_a_restart(tmp_path: Path,
                                                                            capsys: pytest.CaptureFixture[str]) -> None:
    _need_mosquitto()
    topics = EventTopics(EVENT)
    boards = new_boards(3)
    event = tmp_path / "event"
    create_event(event, EventSetup(EVENT, (1, 2, 3), ("c1",), commitment=commitment(boards)))
    write_hand_records(event / "hand-records.pbn", boards, event=EVENT)
    fed = EventBroker(tmp_path / "fed", {"c1": "pw-c1", SERVICE_USER: "pw-fed"}, topics.acl(["c1"]), persistence=True)
    fed.start()
    service = FederationService(event, "127.0.0.1", fed.port, "pw-fed").start()
    # the club's director: the bridge from `club federate`, into the folder the broker's unit names
    secret = tmp_path / "c1-at-federation"
    secret.write_text("pw-c1\n", encoding="utf-8")
    folder = tmp_path / "federation"
    folder.mkdir()
    assert main(["club", "federate", "--event", EVENT, "--club", "c1", "--remote", f"127.0.0.1:{fed.port}",
                 "--password-file", str(secret), "--out", str(folder / f"{EVENT}.conf")]) == 0
    said = capsys.readouterr().out
    assert f"--federation {folder / EVENT}.conf" in said and "user uplink\n" in said
    port = free_port()
    club_dir = tmp_path / "club-broker"
    broker = ClubBrokerProcess(["club", "broker", "--dir", str(club_dir), "--port", str(port), "--table", "t1",
                                "--federation", str(folder)])
    uplinks: list[ClubUplink] = []
    try:
        broker.start()
        assert any(f"bridge fed-{EVENT}-c1 to 127.0.0.1:{fed.port}" in ln for ln in broker.out), broker.out
        uplink_pw = club_dir / "passwords" / "uplink.password"
        # the hand records arrive over the bridge, retained at the club's broker, for `club records`
        records = tmp_path / "records.pbn"
        assert main(["club", "records", "--event", EVENT, "--club", "c1", "--broker", f"127.0.0.1:{port}",
                     "--password-file", str(uplink_pw), "--commitment", commitment(boards), "--out", str(records),
                     "--timeout", "30"]) == 0, capsys.readouterr().err
        session = tmp_path / "session"
        assert main(["duplicate", "open", "--dir", str(session), "--hand-records", str(records), "--pairs", "6",
                     "--movement", "mitchell", "--boards-per-round", "1"]) == 0, capsys.readouterr().err
        journal = session / "session.sqlite3"
        sent = len(club_messages("c1", read_session(journal)))
        password = uplink_pw.read_text(encoding="utf-8").strip()
        uplinks.append(ClubUplink("c1", topics, journal, "127.0.0.1", port, "uplink", password,
                                  resend=0.5, poll=0.1).start())
        _wait(lambda: uplinks[0].done)                               # its entry sent, and the answer came back
        assert service.state.ledger.state() == {"c1": sent}
        uplinks[0].stop()
        assert _what_the_dashboard_sees_of_the_uplink(port, club_dir / "passwords", password) == []
        # the unit restarts the broker: the bridge, the uplink's login and its ACL are written again
        broker.stop()
        broker.start()
        again = tmp_path / "again.pbn"
        assert main(["club", "records", "--event", EVENT, "--club", "c1", "--broker", f"127.0.0.1:{port}",
                     "--password-file", str(uplink_pw), "--out", str(again), "--timeout", "30"]) == 0, \
            capsys.readouterr().err
        assert again.read_text(encoding="utf-8") == records.read_text(encoding="utf-8")
        uplinks.append(ClubUplink("c1", topics, journal, "127.0.0.1", port, "uplink", password,
                                  resend=0.5, poll=0.1).start())
        _wait(lambda: uplinks[1].done)                               # sent again from 1: answered over the bridge
        assert service.state.ledger.state() == {"c1": sent}          # and taken once
    finally:
        for u in uplinks:
            u.stop()
        broker.stop()
        service.stop()
        fed.stop()


def _what_the_dashboard_sees_of_the_uplink(port: int, passwords: Path, uplink_password: str) -> list[str]:
    """The uplink's login is no table: what it publishes as a table named after it (the club ACL's patterns
    give every login ``cardtable/<login>/...``) must reach nobody. The dashboard's own command, sent after
    the uplink's message was acknowledged, marks the point by which the uplink's would have arrived."""
    import paho.mqtt.client as mqtt

    from firmware_host.wire.subscribed import stop_loop

    got: list[str] = []
    mark, subscribed = threading.Event(), threading.Event()
    dashboard = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="dashboard")
    dashboard.username_pw_set("dashboard", (passwords / "dashboard.password").read_text(encoding="utf-8").strip())
    dashboard.on_message = lambda c, u, m: mark.set() if m.topic == "cardtable/t1/command/mark" else got.append(m.topic)
    dashboard.on_subscribe = lambda *_: subscribed.set()
    dashboard.connect("127.0.0.1", port)
    dashboard.loop_start()
    uplink = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="uplink")
    uplink.username_pw_set("uplink", uplink_password)
    uplink.connect("127.0.0.1", port)
    uplink.loop_start()
    try:
        dashboard.subscribe("cardtable/#", qos=1)
        assert subscribed.wait(10)
        uplink.publish("cardtable/uplink/status", "{}", qos=1).wait_for_publish(10)
        dashboard.publish("cardtable/t1/command/mark", "{}", qos=1).wait_for_publish(10)
        assert mark.wait(10)
    finally:
        for client in (dashboard, uplink):
            stop_loop(client)
            client.disconnect()
    return got


def _bridge_file(path: Path, **kw: Any) -> Path:
    bridge = ClubBridge(**({"event": EVENT, "club": "c1", "host": "fed.example.org", "port": 8883,
                            "password": "s3cret"} | kw))
    path.write_text(bridge.text(), encoding="utf-8")
    return path


def test_the_file_club_federate_writes_reads_back_and_nothing_else_does(tmp_path: Path) -> None:
    ca = tmp_path / "ca.pem"
    bridge = ClubBridge(EVENT, "c1", "fed.example.org", 8883, "s3 cret", "up-1", ca)
    assert read_bridge(bridge.text()) == bridge
    assert read_bridge("# a note of the director's\n\n" + bridge.text() + "\n# done\n") == bridge
    older = bridge.text().replace("# the uplink's login on the club's broker: up-1\n", "")
    assert read_bridge(older).uplink_user == "uplink"                # club federate's default
    for text, words in ((bridge.section(), "no line `# cardtable club federate: the bridge to the federation's event EVENT`"),
                        (bridge.text().replace("try_private true", "try_private false"),
                         "line 12 is 'try_private false', where it writes 'try_private true'"),
                        (bridge.text() + "log_dest stdout\n", "a line it does not write"),
                        (bridge.text().replace(f"topic fed/{EVENT}/public/# in 1\n", ""), "line 15 is 'bridge_cafile"),
                        (bridge.text().replace("address fed.example.org:8883", "address fed"), "HOST:PORT"),
                        (bridge.text().replace("up-1", "up 1"), "the uplink's login 'up 1' cannot be a topic level")):
        with pytest.raises(BridgeFileError, match="not a bridge `cardtable club federate` writes") as got:
            read_bridge(text)
        assert words in str(got.value), got.value


@pytest.mark.parametrize("make, words", [
    (lambda d: d / "nowhere.conf", "--federation {d}/nowhere.conf: no such file or folder"),
    (lambda d: _bridge_file(d / "x.conf", uplink_user="t1"),
     "--federation {d}/x.conf: its uplink's login 't1' is a table's"),
    (lambda d: _bridge_file(d / "x.conf", uplink_user="dashboard"),
     "--federation {d}/x.conf: its uplink's login 'dashboard' is a table's, a viewer's or one the club's broker keeps"),
    (lambda d: _bridge_file(d / "x.conf", uplink_user="relay"), "--federation {d}/x.conf: its uplink's login 'relay' is"),
    (lambda d: _bridge_file(d / "x.conf", cafile=d / "gone.pem"),
     "--federation {d}/x.conf: its bridge_cafile {d}/gone.pem is not there"),
    (lambda d: (d / "x.conf").write_bytes(b"\xff\xfe") and d / "x.conf", "--federation {d}/x.conf: not UTF-8 text"),
    (lambda d: (d / "x.conf").write_text("connection mine\n", encoding="utf-8") and d / "x.conf",
     "--federation {d}/x.conf: not a bridge `cardtable club federate` writes"),
    (lambda d: (_bridge_file(d / "a.conf"), _bridge_file(d / "b.conf", event="other"), d)[2],
     "--federation {d}/b.conf: its uplink's login 'uplink' is {d}/a.conf's too"),
    (lambda d: (_bridge_file(d / "a.conf"), _bridge_file(d / "b.conf", uplink_user="u2"), d)[2],
     "--federation {d}/b.conf: bridges event sim5 for club c1, as {d}/a.conf does"),
])
def test_club_broker_refuses_a_federation_it_cannot_use_before_mosquitto_starts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], make: Any, words: str) -> None:
    d = tmp_path / "fed"
    d.mkdir()
    given = make(d)
    broker = tmp_path / "broker"
    assert main(["club", "broker", "--dir", str(broker), "--table", "t1", "--viewer", "relay",
                 "--federation", str(given)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("club broker: " + words.format(d=d)) and err.count("\n") == 1, err
    assert not broker.exists()                                       # nothing written, mosquitto not started


def test_an_empty_federation_folder_is_no_bridge(tmp_path: Path) -> None:
    """The unit may name the folder before any event: the broker then runs without a bridge."""
    from firmware_host.commands.club_broker import _bridges

    (tmp_path / ".hidden").write_text("x", encoding="utf-8")
    assert _bridges([str(tmp_path)], []) == []


def test_a_bridge_file_whose_name_holds_a_line_end_writes_nothing_into_mosquitto_conf(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Attack p11: each bridge's path is written into mosquitto.conf as a comment above its section. A file
    in the --federation folder named 'c1.conf<LF>listener 18997<LF>allow_anonymous true<LF>#' (the file
    itself exactly what `club federate` writes) made the club's Mosquitto open a second listener that took
    anyone with no login. Such a name is refused before anything is written."""
    d = tmp_path / "fed"
    d.mkdir()
    _bridge_file(d / "c1.conf\nlistener 18997 127.0.0.1\nallow_anonymous true\n#")
    broker = tmp_path / "broker"
    assert main(["club", "broker", "--dir", str(broker), "--table", "t1", "--federation", str(d)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"club broker: --federation '{d}/c1.conf\\nlistener 18997 127.0.0.1\\nallow_anonymous "
                          "true\\n#': a file name holding a line end") and err.count("\n") == 1, err
    assert not broker.exists()                                       # nothing written, mosquitto not started


def test_the_documents_quote_the_line_club_broker_prints_for_a_bridge() -> None:
    """hardware/SETUP.md tells the club what the broker's journal shows once the bridge is added, and
    docs/federation.md what `club broker` prints for each: both quoted it without its last words, so a
    club comparing the two could not tell whether it had worked."""
    from firmware_host.commands.club_broker import bridge_line

    root = Path(__file__).resolve().parents[2]

    def flat(text: str) -> str:
        return " ".join(text.split())

    bridge = ClubBridge("sim1", "c1", "fed.example.org", 8883, "pw", cafile=Path("/etc/cardtable/fed-ca.pem"))
    setup = bridge_line(bridge, "/var/lib/cardtable-club/federation/sim1.conf",
                        "/var/lib/cardtable-club/broker/passwords")
    assert f"``{setup}``" in flat((root / "hardware" / "SETUP.md").read_text(encoding="utf-8"))
    federation = bridge_line(bridge, "FILE", "DIR/passwords")
    assert f"``{federation}``" in flat((root / "docs" / "federation.md").read_text(encoding="utf-8"))
