"""Mosquitto for an event: the federation's broker (its ACL from the event's topics) and a club's broker
with the bridge to it (``topics.EventTopics.bridge``). Both are the club's ``LocalBroker`` with their
own ACL and extra configuration; the tests and ``cardtable federation serve`` run them on loopback."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from firmware_host.club.broker import LocalBroker, broker_config, make_password_file


class EventBroker(LocalBroker):
    """A ``LocalBroker`` whose ACL is ``acl`` and whose configuration ends with ``extra`` (a bridge)."""

    def __init__(self, workdir: str | Path, users: Mapping[str, str], acl: str, extra: str = "",
                 **kw: Any) -> None:
        super().__init__(workdir, users, **kw)
        self.acl = acl
        self.extra = extra

    def write_files(self) -> None:
        self.workdir.mkdir(parents=True, exist_ok=True)
        pw, acl = self.workdir / "mosquitto.passwd", self.workdir / "mosquitto.acl"
        make_password_file(pw, self.users)
        acl.write_text(self.acl, encoding="utf-8")
        acl.chmod(0o600)
        conf = broker_config(self.port, pw, acl, bind=self.bind, tls=self.tls,
                             persistence_dir=self.workdir if self.persistence else None)
        self.conf_path.write_text(conf + self.extra, encoding="utf-8")

    def kill(self) -> None:
        """Kill the broker at once (an outage), without a clean stop."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)
        self.proc = None
