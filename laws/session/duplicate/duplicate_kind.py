"""The duplicate pairs session as a kind of session (``laws.session.kind.Kind``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from laws.session.duplicate.spec import SessionSetup
from laws.session.duplicate.state import SessionState, replay


class DuplicateKind:
    """Its setup is a ``SessionSetup``; its state a ``SessionState``."""

    name = "duplicate"

    def setup_from_dict(self, d: Any) -> SessionSetup:
        return SessionSetup.from_dict(d)

    def start(self, setup: SessionSetup) -> SessionState:
        return SessionState.start(setup)

    def replay(self, setup: SessionSetup, records: Iterable[Mapping[str, Any]]) -> tuple[SessionState, list[str]]:
        return replay(setup, records)


DUPLICATE = DuplicateKind()
