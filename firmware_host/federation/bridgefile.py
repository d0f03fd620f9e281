"""The file ``cardtable club federate`` writes, and reading it back for ``cardtable club broker --federation``.

A club that runs its broker with ``cardtable club broker`` cannot add lines to that broker's
mosquitto.conf, password file or ACL: the command writes all three from its options at every start.
So the federation's part is an option too: the file ``club federate`` wrote is read back here, checked to
be exactly what ``club federate`` writes (the bridge section ``topics.EventTopics.bridge`` makes, and the
uplink's login), and ``club broker`` adds the bridge to its mosquitto.conf, the uplink's login to its
password file and the uplink's lines (``EventTopics.club_acl``) to its ACL, at every start like the rest.

The file stays a Mosquitto configuration section (a club running a Mosquitto of its own includes it): the
event and the uplink's login are in its comment lines. Sans-I/O: text in, :class:`ClubBridge` out.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from firmware_host.federation.topics import EventTopics, TopicError

HEADER = "# cardtable club federate: the bridge to the federation's event "
UPLINK = "# the uplink's login on the club's broker: "
# what a file written before the uplink's login was written in it meant (``club federate``'s default)
DEFAULT_UPLINK = "uplink"


class BridgeFileError(ValueError):
    """A file that is not what ``cardtable club federate`` writes; the message says what is wrong in it."""


@dataclass(frozen=True)
class ClubBridge:
    """One club's bridge to one federation's event, and the login its uplink uses on the club's broker."""

    event: str
    club: str
    host: str
    port: int
    password: str
    uplink_user: str = DEFAULT_UPLINK
    cafile: Path | None = None
    restart: tuple[int, int] = (1, 30)

    @property
    def topics(self) -> EventTopics:
        return EventTopics(self.event)

    @property
    def connection(self) -> str:
        """Mosquitto's name of the bridge (one per event and club on a broker)."""
        return f"fed-{self.event}-{self.club}"

    def section(self) -> str:
        """The ``connection`` section for the club's mosquitto.conf."""
        return self.topics.bridge(self.club, self.host, self.port, self.password, cafile=self.cafile,
                                  restart=self.restart)

    def acl(self, deny: tuple[str, ...] = ()) -> str:
        """The club broker's ACL lines for the uplink's login (its own event topics only; ``deny``: filters
        refused to it first, ``EventTopics.club_acl``)."""
        return self.topics.club_acl(self.club, self.uplink_user, deny)

    def text(self) -> str:
        """The whole file, as ``club federate`` writes it."""
        return f"{HEADER}{self.event}\n{UPLINK}{self.uplink_user}\n{self.section()}"


def _settings(text: str) -> list[tuple[int, str]]:
    """The lines Mosquitto reads (not comments, not blank), with their line numbers."""
    return [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1)
            if line.strip() and not line.lstrip().startswith("#")]


def read_bridge(text: str) -> ClubBridge:
    """The bridge in ``text``, which must be what ``club federate`` writes: its header, then the section
    ``EventTopics.bridge`` makes for the event, club, address, password and CA it names, line for line
    (comments and blank lines aside; a section edited by hand is refused, since the club's broker would
    run what nobody wrote with the command: write it again with ``club federate``). A file without the
    uplink's login line (written before it was) names the default login, ``uplink``."""
    lines = text.splitlines()
    heads = [ln for ln in lines if ln.startswith(HEADER)]
    if not heads:
        raise BridgeFileError(f"not a bridge `cardtable club federate` writes (no line `{HEADER}EVENT`)")
    event = heads[0][len(HEADER):].strip()
    uplinks = [ln[len(UPLINK):].strip() for ln in lines if ln.startswith(UPLINK)]
    uplink = uplinks[0] if uplinks else DEFAULT_UPLINK
    got = _settings(text)
    values: dict[str, str] = {}
    for _n, line in got:
        key, _sep, value = line.partition(" ")
        values.setdefault(key, value.strip())
    try:
        club = values.get("remote_username", "")
        host, _sep, port = values.get("address", "").rpartition(":")
        restart = tuple(int(x) for x in values.get("restart_timeout", "").split())
        if not port.isdigit() or len(restart) != 2:
            raise BridgeFileError("not a bridge `cardtable club federate` writes (its address or restart_timeout "
                                  "line is missing or not HOST:PORT, BASE CAP)")
        cafile = Path(values["bridge_cafile"]) if "bridge_cafile" in values else None
        bridge = ClubBridge(event, club, host, int(port), values.get("remote_password", ""), uplink, cafile,
                            (restart[0], restart[1]))
        want = _settings(bridge.text())
        bridge.acl()
    except (TopicError, ValueError) as exc:
        if isinstance(exc, BridgeFileError):
            raise
        raise BridgeFileError(f"not a bridge `cardtable club federate` writes ({exc})") from None
    for (n, line), (_m, expected) in zip(got, want, strict=False):
        if line != expected:
            raise BridgeFileError(f"not a bridge `cardtable club federate` writes (line {n} is {line[:80]!r}, "
                                  f"where it writes {expected[:80]!r}: write it again with `club federate`)")
    if len(got) != len(want):
        n = got[len(want)][0] if len(got) > len(want) else len(lines)
        raise BridgeFileError(f"not a bridge `cardtable club federate` writes (line {n}: "
                              f"{'a line it does not write' if len(got) > len(want) else 'the section ends early'}"
                              "; write it again with `club federate`)")
    return bridge
