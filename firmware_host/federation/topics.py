"""The event's topics on the federation's broker, and the ACL and bridge configuration made from them.

Every topic of an event is under ``fed/<event>/``; a club's are under ``fed/<event>/club/<club>/``:

* ``.../out/result`` — the club's numbered messages (QoS 1), bridged from the club's broker **out**;
* ``.../in/answer`` — the federation's answer to each (verdict, number, the number it expects next),
  bridged **in** to the club's broker;
* ``.../in/field`` — what the club may see of the field (retained): the boards it has finished, and
  its own ranking on them at the field's matchpoints (``laws.federation.own``);
* ``.../in/board/<n>`` — board n's field (its deal, the field's results as a frequency table, the
  club's own lines with the field's matchpoints), retained, only once the release rule lets the club
  see it;
* ``.../in/records`` — the event's hand records with their commitment, retained, sent ahead of play;
* ``fed/<event>/public/standings`` — the field's ranking from boards every club has finished (retained).

A club's login may write only its own ``out`` and read only its own ``in`` (and the public topic): the
ACL below is generated from these names, never written by hand.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

_NAME = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
SERVICE_USER = "federation"
# A club's id is its login on the federation's broker (its ``user`` in the ACL, its ``remote_username``):
# the logins the broker's ACL gives other rights are no club's.
RESERVED_LOGINS = (SERVICE_USER,)


class TopicError(ValueError):
    """An event or club name that cannot be a topic level."""


def _level(kind: str, name: str) -> str:
    if not isinstance(name, str) or not _NAME.match(name):
        raise TopicError(f"{kind} {name!r} cannot be a topic level: 1 to 32 letters, digits, - or _")
    return name


def _club(club: str) -> str:
    """A club's id, checked: a topic level (so a login Mosquitto's password file and ACL can hold), and
    not a login the federation's broker keeps for itself (the service's: a club named so would log in
    with the service's rights)."""
    _level("a club id", club)
    if club in RESERVED_LOGINS:
        raise TopicError(f"a club id {club!r} is the federation service's own login on the broker: "
                         "give the club another id")
    return club


@dataclass(frozen=True)
class EventTopics:
    """The topics of one event."""

    event: str

    def __post_init__(self) -> None:
        _level("an event name", self.event)

    @property
    def root(self) -> str:
        return f"fed/{self.event}"

    def club(self, club: str) -> str:
        return f"{self.root}/club/{_club(club)}"

    def result(self, club: str) -> str:
        return f"{self.club(club)}/out/result"

    def answer(self, club: str) -> str:
        return f"{self.club(club)}/in/answer"

    def field(self, club: str) -> str:
        return f"{self.club(club)}/in/field"

    def board(self, club: str, board: int) -> str:
        return f"{self.club(club)}/in/board/{int(board)}"

    def records(self, club: str) -> str:
        return f"{self.club(club)}/in/records"

    @property
    def all_results(self) -> str:
        return f"{self.root}/club/+/out/result"

    @property
    def standings(self) -> str:
        return f"{self.root}/public/standings"

    def club_of(self, topic: str) -> str | None:
        """The club a result topic is from (None for any other topic)."""
        parts = topic.split("/")
        if len(parts) == 6 and parts[:3] == ["fed", self.event, "club"] and parts[4:] == ["out", "result"] \
                and parts[3] not in RESERVED_LOGINS:
            return parts[3]
        return None

    def acl(self, clubs: Iterable[str]) -> str:
        """The federation broker's ACL: the service reads every club's out and writes every in and the
        public topic; each club writes its own out and reads its own in and the public topic."""
        lines = [f"user {SERVICE_USER}", f"topic read {self.root}/club/+/out/#",
                 f"topic write {self.root}/club/+/in/#", f"topic write {self.root}/public/#", ""]
        for club in sorted(clubs):
            lines += [f"user {_club(club)}", f"topic write {self.club(club)}/out/#",
                      f"topic read {self.club(club)}/in/#", f"topic read {self.root}/public/#", ""]
        return "\n".join(lines)

    def club_acl(self, club: str, uplink_user: str, deny: Iterable[str] = ()) -> str:
        """The lines a club's own broker needs for its uplink's login (its own topics only); ``deny``: topic
        filters the login is refused first, whatever the rest of that broker's ACL would let every login do
        (``club broker``'s patterns give each login a table's topics under its own name)."""
        _level("the uplink's login", uplink_user)
        return (f"user {uplink_user}\n" + "".join(f"topic deny {d}\n" for d in deny)
                + f"topic write {self.club(club)}/out/#\ntopic read {self.club(club)}/in/#\n"
                f"topic read {self.root}/public/#\n")

    def bridge(self, club: str, host: str, port: int, password: str, *, cafile: Path | None = None,
               restart: tuple[int, int] = (1, 30)) -> str:
        """The ``connection`` section a club's Mosquitto needs to bridge the event's topics to the
        federation's broker (``cardtable club federate`` writes it). With ``cafile`` the bridge speaks TLS
        1.2 or later and checks the federation's certificate against it. ``restart``: Mosquitto's
        ``restart_timeout`` (seconds: the first wait before connecting again after the link failed, and
        the most it grows to, with jitter, while the link stays down). The bridge says it is one
        (``try_private true``), so the federation's broker passes on the retain flag of what it sends
        it: without it, a retained message published while the bridge is up (the records, a board's
        field) reaches the club's broker as a live one and is not kept there for a later reader."""
        if not 1 <= restart[0] <= restart[1]:
            raise TopicError(f"restart_timeout {restart[0]} {restart[1]}: 1 <= base <= cap")
        if not host or any(c in host for c in " \n\t"):
            raise TopicError(f"the federation's broker address {host!r} is not a host name")
        if "\n" in password:
            raise TopicError("a password cannot hold a line end")
        lines = [f"connection fed-{self.event}-{_club(club)}", f"address {host}:{int(port)}",
                 f"remote_username {club}", f"remote_password {password}", f"remote_clientid {club}",
                 "cleansession false", "bridge_protocol_version mqttv311", "notifications false",
                 f"restart_timeout {int(restart[0])} {int(restart[1])}", "try_private true",
                 f"topic {self.club(club)}/out/# out 1", f"topic {self.club(club)}/in/# in 1",
                 f"topic {self.root}/public/# in 1"]
        if cafile is not None:
            lines += [f"bridge_cafile {cafile}", "bridge_insecure false", "bridge_tls_version tlsv1.2"]
        return "\n".join(lines) + "\n"
