"""Each club's results, taken exactly once whatever the wide-area link does (``docs/federation.md``).

A club numbers every message it sends the federation about its results, 1, 2, 3 … with no gap, in the
order its session journal committed them (a confirmed result, a director's correction, an adjusted
score, a line taken off: each is a message). The federation takes a club's messages **in number order
only**:

* the next number expected: **taken** (and acknowledged);
* a number already taken, with the same content (its digest): a **repeat** — acknowledged again, not
  taken twice (a bridge that delivered a message twice, a club that resent after a lost acknowledgement);
* a number already taken with other content: a **conflict** — refused and reported (a club whose journal
  was replaced); nothing of the field changes;
* a number beyond the next expected: a **gap** — not taken; the club is asked to send again from the
  next expected number (its session journal has them all), and the later messages come again in order.

So each message is taken exactly once, in the club's own order, and a correction can never be applied
before the result it corrects. :class:`Ledger` is the pure state; the service journals each taken
message before it acknowledges it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum


class Verdict(StrEnum):
    TAKEN = "taken"
    REPEAT = "repeat"
    CONFLICT = "conflict"
    GAP = "gap"
    UNKNOWN_CLUB = "unknown club"


@dataclass(frozen=True)
class Answer:
    """What the federation answers a club's message: the verdict, and the number it expects next."""

    verdict: Verdict
    club: str
    number: int
    expect: int
    why: str = ""


@dataclass
class Ledger:
    """The numbers taken from each club, and each message's digest (to tell a repeat from a conflict)."""

    clubs: frozenset[str]
    taken: dict[str, list[str]] = field(default_factory=dict)   # club -> digests of messages 1..n

    def expect(self, club: str) -> int:
        """The next number expected from ``club``."""
        return len(self.taken.get(club, [])) + 1

    def judge(self, club: str, number: int, digest: str) -> Answer:
        """The verdict on a message, without taking it."""
        if club not in self.clubs:
            return Answer(Verdict.UNKNOWN_CLUB, club, number, 0, f"club {club!r} does not take part in the event")
        expect = self.expect(club)
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            return Answer(Verdict.CONFLICT, club, 0, expect, f"a message number is a whole number from 1, got {number!r}")
        if number == expect:
            return Answer(Verdict.TAKEN, club, number, expect + 1)
        if number < expect:
            if self.taken[club][number - 1] == digest:
                return Answer(Verdict.REPEAT, club, number, expect, f"message {number} was taken already")
            return Answer(Verdict.CONFLICT, club, number, expect,
                          f"message {number} was taken already with other content: the club's journal "
                          "does not match what it sent before")
        return Answer(Verdict.GAP, club, number, expect,
                      f"message {number} came before {expect}: send again from {expect}")

    def offer(self, club: str, number: int, digest: str) -> Answer:
        """Judge a message and, when it is the next one, take it."""
        answer = self.judge(club, number, digest)
        if answer.verdict is Verdict.TAKEN:
            self.taken.setdefault(club, []).append(digest)
        return answer

    def state(self) -> Mapping[str, int]:
        """How many messages have been taken from each club."""
        return {c: len(self.taken.get(c, [])) for c in sorted(self.clubs)}
