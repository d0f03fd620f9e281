"""TLS between the tables, the broker and the dashboard with the club's own CA (made with openssl),
against a real Mosquitto: it works with the right CA, and the wrong one is refused and said."""

from __future__ import annotations

import logging
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from firmware_host.cli import main
from firmware_host.club.broker import LocalBroker
from firmware_host.club.certs import CertError, make_broker_cert, make_club_ca
from firmware_host.club.dashboard import Dashboard
from firmware_host.config import ConfigError, MqttConfig, load_config
from firmware_host.records.journal import Journal
from firmware_host.tablelink.publisher import MqttPublisher
from firmware_host.web.auth import hash_password

from .conftest import PASSWORDS, _need


@pytest.fixture
def certs(tmp_path: Path) -> Path:
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed (Debian package openssl; `make test` installs it)")
    d = tmp_path / "certs"
    make_club_ca(d)
    make_broker_cert(d, ["localhost", "127.0.0.1"])
    return d


@pytest.fixture
def tls_broker(tmp_path: Path, certs: Path) -> Any:
    _need("mosquitto", "mosquitto")
    b = LocalBroker(tmp_path / "broker", PASSWORDS, tls=(certs / "broker.pem", certs / "broker.key"))
    b.start()
    yield b
    b.stop()


def _table(tmp_path: Path, port: int, ca: Path | None, tls: bool = True) -> tuple[MqttPublisher, Journal]:
    journal = Journal.open(tmp_path / f"t1-{time.monotonic_ns()}", synchronous="NORMAL")
    cfg = MqttConfig(host="127.0.0.1", port=port, username="t1", tls=tls, ca_file=ca)
    return MqttPublisher(cfg, "t1", journal, password=PASSWORDS["t1"]), journal


def test_table_and_dashboard_talk_over_tls_with_the_club_ca(tmp_path: Path, tls_broker: LocalBroker,
                                                           certs: Path) -> None:
    from starlette.testclient import TestClient

    dash = Dashboard("127.0.0.1", tls_broker.port, "dashboard", PASSWORDS["dashboard"],
                     {"director": hash_password("right-horse-1")}, tls=True, ca_file=str(certs / "club-ca.pem"))
    pub, journal = _table(tmp_path, tls_broker.port, certs / "club-ca.pem")
    with TestClient(dash.app, base_url="http://club.test") as client:
        pub.start()
        try:
            assert pub.connected_event.wait(10)
            pub.status({"phase": "shuffle", "game": "euchre", "deal": 0, "lamps": {"redeal": False}})
            client.post("/login", data={"username": "director", "password": "right-horse-1"})
            for _ in range(100):
                tables = client.get("/api/state").json()["tables"]
                if any(t["table"] == "t1" and t["game"] == "euchre" for t in tables):
                    break
                time.sleep(0.05)
            else:
                raise AssertionError(f"the dashboard never saw table t1 over TLS: {tables}")
        finally:
            pub.stop()
            journal.close()


def _never_connects(tmp_path: Path, port: int, ca: Path | None, tls: bool, caplog: pytest.LogCaptureFixture) -> str:
    pub, journal = _table(tmp_path, port, ca, tls)
    with caplog.at_level(logging.WARNING):
        pub.start()
        try:
            assert not pub.connected_event.wait(3)
        finally:
            pub.stop()
            journal.close()
    return caplog.text


def test_a_broker_certificate_from_another_ca_is_refused_and_said(tmp_path: Path, tls_broker: LocalBroker,
                                                                 caplog: pytest.LogCaptureFixture) -> None:
    said = _never_connects(tmp_path, tls_broker.port, make_club_ca(tmp_path / "other"), True, caplog)
    assert "certificate is not trusted" in said and "ca_file" in said


def test_plain_mqtt_to_a_tls_port_is_said(tmp_path: Path, tls_broker: LocalBroker,
                                          caplog: pytest.LogCaptureFixture) -> None:
    assert "set tls = true" in _never_connects(tmp_path, tls_broker.port, None, False, caplog)


def test_config_names_a_missing_ca_file_or_one_without_tls(tmp_path: Path, certs: Path) -> None:
    base = '[table]\nid = "t1"\n[mqtt]\nhost = "broker.local"\n'
    (tmp_path / "a.toml").write_text(base + 'tls = true\nca_file = "nowhere.pem"\n')
    with pytest.raises(ConfigError, match=r"mqtt.ca_file.*does not exist"):
        load_config(tmp_path / "a.toml", env={}, check_devices=False)
    (tmp_path / "b.toml").write_text(base + f'ca_file = "{certs / "club-ca.pem"}"\n')
    with pytest.raises(ConfigError, match="set tls = true"):
        load_config(tmp_path / "b.toml", env={}, check_devices=False)
    (tmp_path / "c.toml").write_text(base + f'tls = true\nca_file = "{certs / "club-ca.pem"}"\n')
    assert load_config(tmp_path / "c.toml", env={}, check_devices=False).mqtt.ca_file == certs / "club-ca.pem"  # type: ignore[union-attr]


def test_certs_command_and_its_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    assert main(["club", "certs", "--dir", str(tmp_path / "c"), "--host", "club.local",
                 "--host", "192.168.1.10"]) == 0
    assert "--certfile" in capsys.readouterr().out
    assert (tmp_path / "c" / "broker.pem").is_file() and (tmp_path / "c" / "club-ca.key").stat().st_mode & 0o077 == 0
    assert main(["club", "certs", "--dir", str(tmp_path / "d")]) == 2
    assert "at least one host" in capsys.readouterr().err
    with pytest.raises(CertError, match="no club CA"):
        make_broker_cert(tmp_path / "empty", ["x"])


@pytest.mark.parametrize("host", ["a b/c", "", "club..local", "club-.local", "x" * 64 + ".local", "clüb.local"])
def test_certs_refuses_a_host_no_certificate_can_name_before_the_ca_is_made(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], host: str) -> None:
    """``club certs --host 'a b/c'`` made the club CA, then printed openssl's own three lines ("Missing '='
    after RDN type string 'c' in subject name string"), naming no option; ``--host ''`` four lines of
    "X509 V3 routines". Now one line naming --host, exit 2, and no folder made."""
    assert main(["club", "certs", "--dir", str(tmp_path / "c"), "--host", "club.local", "--host", host]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"club certs: --host {host[:60]!r} is not a host name or IP address"), err
    assert len(err.strip().splitlines()) == 1 and not (tmp_path / "c").exists()


def test_the_broker_certificate_names_localhost_for_the_clubs_own_services(tmp_path: Path) -> None:
    """hardware/SETUP.md makes the certificate for the tables' names (club.local, 192.168.1.10), while the
    shipped config/club.env has the dashboard reach the broker as localhost with TLS: its login failed on a
    host-name mismatch. localhost and 127.0.0.1 are now always named."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    assert main(["club", "certs", "--dir", str(tmp_path / "c"), "--host", "club.local", "--host", "192.168.1.10"]) == 0
    out = subprocess.run(["openssl", "x509", "-noout", "-ext", "subjectAltName", "-in", str(tmp_path / "c" / "broker.pem")],
                         capture_output=True, text=True, check=True).stdout
    names = {n.strip() for n in out.splitlines()[-1].split(",")}
    assert names == {"DNS:club.local", "IP Address:192.168.1.10", "DNS:localhost", "IP Address:127.0.0.1"}
