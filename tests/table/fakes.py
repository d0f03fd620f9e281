"""Fakes shared by the controller tests."""

from __future__ import annotations


class Clock:
    """An injected clock that moves on a millisecond each time it is read, from 1000.0, so the journal's
    timestamps stay distinct and in order without the test waiting."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        self.now += 0.001
        return self.now
