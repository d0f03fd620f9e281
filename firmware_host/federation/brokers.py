"""Mosquitto for an event: the federation's broker (its ACL from the event's topics) and a club's broker
with the bridge to it (``topics.EventTopics.bridge``). Both are the club's ``LocalBroker`` with their
own ACL and extra configuration. ``cardtable federation serve`` starts the federation's
(:func:`federation_broker`): on loopback by default, or on the address the clubs reach with TLS."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from firmware_host.club.broker import LocalBroker, broker_config, free_port, make_password_file

# The largest packet the federation's broker takes from a client: 256 KiB, a margin above the 64 KiB the
# service reads (``service.MAX_BYTES``), so that a club's message of 64 KiB to 256 KiB reaches the
# service and is answered ``conflict`` with its size, rather than its connection dropped by the broker
# (and the message sent again on every reconnect, the club never told). Beyond it the broker disconnects.
FEDERATION_MAX_PACKET = 256 * 1024


class EventBroker(LocalBroker):
    """A ``LocalBroker`` whose ACL is ``acl`` and whose configuration ends with ``extra`` (a bridge);
    ``max_packet``: its ``max_packet_size`` (64 KiB, a club's; :data:`FEDERATION_MAX_PACKET`, the
    federation's)."""

    def __init__(self, workdir: str | Path, users: Mapping[str, str], acl: str, extra: str = "",
                 max_packet: int = 65536, **kw: Any) -> None:
        super().__init__(workdir, users, **kw)
        self.acl = acl
        self.extra = extra
        self.max_packet = max_packet
        self.local_port = self.port      # where a client on this machine connects (federation_broker)

    def write_files(self) -> None:
        self.workdir.mkdir(parents=True, exist_ok=True)
        pw, acl = self.workdir / "mosquitto.passwd", self.workdir / "mosquitto.acl"
        make_password_file(pw, self.users)
        acl.write_text(self.acl, encoding="utf-8")
        acl.chmod(0o600)
        conf = broker_config(self.port, pw, acl, bind=self.bind, tls=self.tls,
                             persistence_dir=self.workdir if self.persistence else None, max_packet=self.max_packet)
        self.conf_path.write_text(conf + self.extra, encoding="utf-8")
        self._written = True

    def kill(self) -> None:
        """Kill the broker at once (an outage), without a clean stop."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)
        self.proc = None


def federation_broker(workdir: str | Path, users: Mapping[str, str], acl: str, *, port: int = 0,
                      bind: str = "127.0.0.1", tls: tuple[Path, Path] | None = None,
                      persistence: bool = True) -> EventBroker:
    """The federation's broker: one listener on ``bind:port`` for the clubs' bridges, TLS only when
    ``tls`` (certificate, key) is given; then a second listener on loopback without TLS, for the
    federation's service on the same machine (``local_port``; the same logins and ACL), so that the
    certificate need not name 127.0.0.1. Without TLS the service uses the clubs' listener. Its
    ``max_packet_size`` is :data:`FEDERATION_MAX_PACKET`."""
    local = free_port() if tls else 0
    extra = f"listener {local} 127.0.0.1\nuse_username_as_clientid true\n" if tls else ""
    broker = EventBroker(workdir, users, acl, extra=extra, port=port, bind=bind, tls=tls, persistence=persistence,
                         max_packet=FEDERATION_MAX_PACKET)
    broker.local_port = local or broker.port
    return broker
