"""config/mosquitto.conf (for a club that runs its own Mosquitto) against the configuration `cardtable club
broker` writes (audit 64, F5): the same settings, the TLS files `cardtable club certs` makes in the folder
hardware/SETUP.md C3 uses, and login names `club broker` makes. The shipped file said
max_queued_messages 10000 where the generator said 100000, its TLS lines named broker.crt and
club-ca.crt in /etc/cardtable/tls/, and its password example made a login `table-1`."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from firmware_host.club.broker import broker_config
from firmware_host.club.club_demo import table_ids

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = (ROOT / "config" / "mosquitto.conf").read_text(encoding="utf-8")
SETUP = (ROOT / "hardware" / "SETUP.md").read_text(encoding="utf-8")
# the settings that decide how the broker behaves (not where its files are, nor its port)
SETTINGS = ("per_listener_settings", "allow_anonymous", "persistence", "max_packet_size", "max_inflight_messages",
            "max_queued_messages", "use_username_as_clientid", "connection_messages", "log_type", "tls_version")


def _settings(lines: list[str]) -> dict[str, list[str]]:
    got: dict[str, list[str]] = {}
    for line in lines:
        key, _sep, value = line.strip().partition(" ")
        if key in SETTINGS:
            got.setdefault(key, []).append(value)
    return got


def _active(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]


def _tls_block() -> list[str]:
    """The shipped file's commented TLS listener, uncommented."""
    lines = SHIPPED.splitlines()
    start = lines.index("# listener 8883")
    block = []
    for line in lines[start:]:
        if not line.startswith("# "):
            break
        block.append(line[2:])
    return block


def test_the_shipped_settings_are_the_generated_ones() -> None:
    made = broker_config(1883, Path("/etc/cardtable/mosquitto.passwd"), Path("/etc/cardtable/mosquitto.acl"))
    assert _settings(_active(SHIPPED)) == _settings(_active(made))
    tls = broker_config(8883, Path("/p"), Path("/a"),
                        tls=(Path("/etc/cardtable/club-certs/broker.pem"), Path("/etc/cardtable/club-certs/broker.key")))
    shipped_tls = _tls_block()
    # the listener's own options: the ones the generator puts after its TLS listener line
    listener = _active(tls)[next(i for i, ln in enumerate(_active(tls)) if ln.startswith("listener ")):]
    assert _settings(shipped_tls) == {k: v for k, v in _settings(listener).items()
                                      if k in ("use_username_as_clientid", "tls_version")}
    assert _settings(shipped_tls) == {"use_username_as_clientid": ["true"], "tls_version": ["tlsv1.2"]}
    files = {k: v for k, _s, v in (ln.partition(" ") for ln in shipped_tls) if k in ("certfile", "keyfile", "cafile")}
    assert files == {"certfile": "/etc/cardtable/club-certs/broker.pem",
                     "keyfile": "/etc/cardtable/club-certs/broker.key"}, files
    assert {k for k, _s, _v in (ln.partition(" ") for ln in _active(tls))} >= {"certfile", "keyfile"}
    assert "cafile" not in tls


def test_the_tls_files_are_the_ones_club_certs_makes_where_setup_puts_them(tmp_path: Path) -> None:
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    from firmware_host.club.certs import make_broker_cert, make_club_ca

    ca = make_club_ca(tmp_path)
    cert, key = make_broker_cert(tmp_path, ["club.local"])
    c3 = SETUP.split("\n## C3.", 1)[1].split("\n## ", 1)[0]
    folder = re.search(r"club certs --dir (\S+)", c3)
    assert folder is not None
    for name in (cert.name, key.name):
        assert f"{folder.group(1)}/{name}" in SHIPPED, f"config/mosquitto.conf does not name {name} in {folder.group(1)}"
    assert f"--dir {folder.group(1)}" in SHIPPED and ca.name in SHIPPED  # the CA the tables get a copy of
    assert ".crt" not in SHIPPED and "/etc/cardtable/tls/" not in SHIPPED


def test_the_password_example_makes_logins_club_broker_makes() -> None:
    users = re.findall(r"mosquitto_passwd (?:-c )?/etc/cardtable/mosquitto.passwd (\S+)", SHIPPED)
    assert users, "no password example"
    assert set(users) <= {"dashboard", "broadcast", "spectator", *table_ids(12)}, users


def test_club_broker_does_not_show_the_director_mosquittos_warning_about_the_round_pattern(tmp_path: Path) -> None:
    """`club broker` printed "Warning: ACL pattern 'cardtable/session/round' does not contain '%c' or '%u'."
    at every start: mosquitto takes any pattern without a login in it for a mistake, but the round called is
    the one topic every login reads (docs/mqtt.md). The line stays in the broker's own log, not in what the
    director is shown; any other warning still is."""
    from firmware_host.club.broker import LocalBroker, expected_warning

    shown: list[str] = []
    broker = LocalBroker(tmp_path / "b", {"dashboard": "pw", "table-01": "pw1"}, on_line=shown.append)
    broker.start()
    broker.stop()
    said = [ln for ln in broker.log_lines if "does not contain" in ln]
    assert said and all(expected_warning(ln) for ln in said), broker.log_lines   # mosquitto does say it
    assert not [ln for ln in shown if "does not contain" in ln], shown
    assert any("running" in ln for ln in shown), shown
    assert not expected_warning("Warning: ACL pattern 'cardtable/%u/x' does not contain '%c' or '%u'.")
