"""A second `federation serve` on the same event listens where it says, with the logins and TLS it was
given (an audit: the broker's configuration was written only when the folder had none, so a second serve
printed its new port and bind while Mosquitto listened on the first run's, the first run's club password
still logged in and the new one was refused, and "with TLS" was printed over a plain listener). The club's
own broker (``LocalBroker``, the same start) is held to the same."""

from __future__ import annotations

import shutil
import socket
import time
from pathlib import Path

import pytest

from firmware_host.club.broker import LocalBroker, free_port
from firmware_host.federation.brokers import federation_broker
from firmware_host.federation.topics import SERVICE_USER, EventTopics
from tests.wire.paho_race import Ending


def _need_mosquitto() -> None:
    if shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists():
        pytest.skip("mosquitto is not installed (make test installs it)")


def _login(port: int, user: str, password: str) -> str:
    """What the broker on ``port`` answers a plain MQTT login: ``in``, ``refused`` or ``no broker``."""
    import paho.mqtt.client as mqtt

    got: list[str] = []
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"probe-{user}")
    client.username_pw_set(user, password)
    client.on_connect = lambda c, u, f, rc, p=None: got.append("in" if not rc.is_failure else "refused")
    try:
        client.connect("127.0.0.1", port, keepalive=5)
    except OSError:
        return "no broker"
    try:
        end = time.monotonic() + 10
        while not got and time.monotonic() < end:
            if client.loop(timeout=0.2) != mqtt.MQTT_ERR_SUCCESS:
                return got[0] if got else "refused"
        return got[0] if got else "refused"
    finally:
        client.disconnect()


def _listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def test_a_second_serve_listens_where_it_says_with_its_own_logins_and_tls(tmp_path: Path) -> None:
    _need_mosquitto()
    from firmware_host.club.certs import make_broker_cert, make_club_ca

    acl = EventTopics("ev").acl(("a", "b"))
    folder = tmp_path / "e" / "broker"
    first_port = free_port()
    first = federation_broker(folder, {SERVICE_USER: "f", "a": "OLD", "b": "pb"}, acl, port=first_port)
    first.start()
    first.stop()
    second_port = free_port()
    second = federation_broker(folder, {SERVICE_USER: "f", "a": "NEW", "b": "pb"}, acl, port=second_port,
                               bind="0.0.0.0")
    second.start()
    try:
        assert not _listening(first_port)
        assert _login(second_port, "a", "NEW") == "in"
        assert _login(second_port, "a", "OLD") == "refused"
        assert f"listener {second_port} 0.0.0.0" in second.conf_path.read_text(encoding="utf-8")
    finally:
        second.stop()
    make_club_ca(tmp_path / "ca")
    cert, key = make_broker_cert(tmp_path / "ca", ["127.0.0.1"])
    third = federation_broker(folder, {SERVICE_USER: "f", "a": "NEW", "b": "pb"}, acl, port=second_port,
                              tls=(cert, key))
    third.start()
    try:
        assert third.local_port != second_port
        assert _login(third.local_port, "a", "NEW") == "in"        # the service's loopback listener
        assert _login(second_port, "a", "NEW") != "in"            # the clubs' listener speaks TLS only
    finally:
        third.stop()


def test_a_club_broker_started_again_in_its_folder_takes_its_new_settings(tmp_path: Path) -> None:
    _need_mosquitto()
    first = LocalBroker(tmp_path / "broker", {"dashboard": "d1", "t1": "OLD"})
    first.start()
    first.stop()
    second = LocalBroker(tmp_path / "broker", {"dashboard": "d1", "t1": "NEW"})
    assert second.port != first.port
    second.start()
    try:
        assert not _listening(first.port)
        assert _login(second.port, "t1", "NEW") == "in"
        assert _login(second.port, "t1", "OLD") == "refused"
    finally:
        second.stop()


def test_a_service_whose_network_thread_ends_as_it_stops_stops_cleanly(tmp_path: Path) -> None:
    """paho's loop_stop raised AttributeError ('NoneType' object has no attribute 'join') when its thread
    ended between its two looks at it, seen under load as test_big_field's service stopped."""
    from firmware_host.federation.service import EventSetup, FederationService, create_event

    create_event(tmp_path / "event", EventSetup("again", (1,), ("c1",)))
    service = FederationService(tmp_path / "event", "127.0.0.1", free_port(), "f")   # never started
    service.client._thread = Ending(service.client)  # type: ignore[attr-defined]
    service.stop()
    assert service.client._thread is None  # type: ignore[attr-defined]
