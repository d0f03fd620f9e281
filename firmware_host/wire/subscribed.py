"""When a club service on the broker may say it is ready: once the broker has taken its subscriptions.

The broker accepts a login (its CONNACK) before it has taken that login's subscriptions (their SUBACK).
A message another login publishes in between reaches nobody, so a service that called itself connected
at the CONNACK could miss the first message a table or a test sent it once it said so. Each service
subscribes when its login is accepted and sets its ``connected`` event here, when the subscriptions are
in place, and clears it when the login is lost (``track_connected``); a subscription the broker refuses
(its access list) is logged and leaves the event unset.

A service stopping stops its client's network thread with :func:`stop_loop`, not paho's ``loop_stop``
alone, which can fail as the thread ends on its own.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any


def when_subscribed(event: threading.Event, who: str, log: logging.Logger) -> Callable[..., None]:
    """A paho ``on_subscribe`` callback (callback API version 2) that sets ``event`` once every
    subscription of the request was granted; ``who`` names the service in the message a refusal logs."""

    def on_subscribe(client: Any, userdata: Any, mid: int, reason_codes: list[Any], properties: Any) -> None:
        refused = [code for code in reason_codes if code.is_failure]
        if refused:
            log.error("%s: the broker refused a subscription (%s); it will not say it is connected", who, refused[0])
            return
        event.set()

    return on_subscribe


def track_connected(client: Any, event: threading.Event, who: str, log: logging.Logger) -> None:
    """Make ``event`` say whether ``client`` (a paho client) is connected and subscribed: set by
    :func:`when_subscribed`, cleared when the login is lost."""
    client.on_subscribe = when_subscribed(event, who, log)
    client.on_disconnect = lambda *args: event.clear()


def stop_loop(client: Any) -> None:
    """Stop ``client``'s network thread (paho's ``loop_stop``), which may end meanwhile.

    paho's ``loop_stop`` sets the loop's end flag, then reads the client's thread again to join it; the
    thread sets that to None as its last act, so a caller preempted in between got ``AttributeError``
    ('NoneType' object has no attribute 'join'), seen on a loaded machine as a service stopped. The thread
    is over then, which is what was asked; any other ``AttributeError`` is raised."""
    try:
        client.loop_stop()
    except AttributeError:
        if getattr(client, "_thread", None) is not None:
            raise
