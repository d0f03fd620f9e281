"""The seam between a kind of session's pure model and the journalled service that runs it
(``firmware_host/session/journalled.py``). A new kind of session (a euchre night, teams, Swiss) provides
these, pure, in ``laws/session/<kind>/``, and gets the service's promises for nothing: every record
checked against the state as it stands, a batch committed in one transaction before it is applied or
answered, refusals journaled with their reason, the state rebuilt from the journal on a restart.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol

REPEAT = "repeat"   # what ``check`` says of a record already taken: dropped, answered as a repeat
HOLD = "hold"       # a record that cannot be taken yet, nor refused (it came ahead of one it follows): not
                    # journaled, not answered, so its source sends it again (a euchre night's hands)


class Setup(Protocol):
    """A session's setup: what its journal's first row holds (``{"type": "opened", "setup": ...}``)."""

    def to_dict(self) -> dict[str, Any]: ...


class State(Protocol):
    """A session's state: a fold of its taken records."""

    def check(self, rec: Mapping[str, Any]) -> str:
        """Why ``rec`` cannot be taken now ("" when it can; ``REPEAT`` when it was taken already; ``HOLD``
        when it cannot be taken yet but is not refused)."""
        ...

    def apply(self, rec: Mapping[str, Any]) -> None:
        """Take ``rec`` (checked first): the state changes, nothing else."""
        ...


class Kind(Protocol):
    """A kind of session: how its setup is read back and its state started and replayed."""

    name: str   # ``duplicate``, ``event``, ``euchre``: what a message calls the kind

    def setup_from_dict(self, d: Any) -> Setup:
        """The setup from the opening row (raises ``ValueError`` naming the field)."""
        ...

    def start(self, setup: Any) -> State:
        """The state of a session just opened."""
        ...

    def replay(self, setup: Any, records: Iterable[Mapping[str, Any]]) -> tuple[State, list[str]]:
        """The state after ``records`` (the taken records, in order), and why any was skipped."""
        ...
