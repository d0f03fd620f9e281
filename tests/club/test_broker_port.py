"""A club broker whose port was chosen for it, taken by another program before Mosquitto could bind it,
starts on another (``LocalBroker.start``); a port the caller gave is never changed behind his back."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from firmware_host.club.broker import BrokerError, LocalBroker
from tests.club.conftest import PASSWORDS


def _take(port: int) -> socket.socket:
    s = socket.socket()
    s.bind(("127.0.0.1", port))
    s.listen()
    return s


def test_a_chosen_port_taken_before_the_start_is_chosen_again(tmp_path: Path) -> None:
    broker = LocalBroker(tmp_path / "broker", PASSWORDS)
    first = broker.port
    with _take(first):
        broker.start()
        try:
            assert broker.port != first
            assert f"listener {broker.port} 127.0.0.1" in broker.conf_path.read_text()
            with socket.create_connection(("127.0.0.1", broker.port), timeout=5):
                pass
        finally:
            broker.stop()


def test_a_port_given_and_taken_is_an_error_naming_it(tmp_path: Path) -> None:
    with _take(0) as held:
        port = held.getsockname()[1]
        broker = LocalBroker(tmp_path / "broker", PASSWORDS, port=port)
        with pytest.raises(BrokerError, match=str(port)):
            broker.start()
        assert broker.port == port
