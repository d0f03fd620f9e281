"""The race in paho's ``loop_stop`` that ``wire/subscribed.py:stop_loop`` survives, acted out for the tests
of every service that stops its client's network thread (the euchre night's in ``test_subscribed.py``, the
federation's in ``tests/federation/test_serve_again.py``): one stand-in thread, so each test sets up the
same race."""

from __future__ import annotations


class Ending:
    """A paho client's network thread that ends (as paho's does: it sets the client's ``_thread`` to None
    as its last act) just as ``loop_stop`` has looked at it and before it joins it. Put it in place of the
    client's ``_thread``; the client's stop must then end with ``_thread`` None and nothing raised."""

    def __init__(self, client: object) -> None:
        self.client = client

    def __ne__(self, other: object) -> bool:   # loop_stop's "not the current thread?" comes here
        self.client._thread = None  # type: ignore[attr-defined]
        return True

    def __eq__(self, other: object) -> bool:
        return False

    __hash__ = object.__hash__
