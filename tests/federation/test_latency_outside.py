"""Which messages the scale run's latency counts as "outside outages" (``outside_outages``).

The run of 2026-12-03 named its ten slowest messages outside outages: every one had been sent less than a
second before an outage began (the federation's broker restarted 0.1 s after a club published) and was
held by it, yet counted as outside it because only the time sent was compared with the outage."""

from __future__ import annotations

from firmware_host.bench.federation_scale import IN_FLIGHT, outside_outages

WINDOWS = [(10.0, 18.0, ""), (30.0, 40.0, "c2")]     # an outage of all clubs; one of club c2's


def test_a_message_an_outage_caught_in_flight_is_the_outages() -> None:
    sent = {("c1", 1): 9.9, ("c1", 2): 9.9, ("c1", 3): 5.0, ("c1", 4): 12.0, ("c1", 5): 20.0,
            ("c1", 6): 29.5, ("c2", 1): 29.5, ("c1", 7): 9.0}
    seen = {("c1", 1): 17.0,    # caught in flight by the outage at 10: the outage's
            ("c1", 2): 9.95,    # in the view before the outage began: outside, 0.05 s
            ("c1", 3): 17.0,    # not seen 5 s after it was sent when the outage began: a miss, outside
            ("c1", 4): 19.0,    # sent during the outage
            ("c1", 5): 20.3,    # outside
            ("c1", 6): 35.0,    # the outage at 30 is c2's, not c1's: outside (a slow one)
            ("c2", 1): 35.0,    # c2's own outage caught it in flight
            ("c1", 7): 10.5}    # sent 1 s before the outage (within the 2 s target), caught: the outage's
    assert sorted(outside_outages(sent, seen, WINDOWS)) == [("c1", 2), ("c1", 3), ("c1", 5), ("c1", 6)]
    # by the time sent alone (the rule before): the three caught in flight counted as outside
    assert sorted(outside_outages(sent, seen, WINDOWS, in_flight=0.0)) == [
        ("c1", 1), ("c1", 2), ("c1", 3), ("c1", 5), ("c1", 6), ("c1", 7), ("c2", 1)]


def test_in_flight_is_the_latency_target() -> None:
    assert IN_FLIGHT == 2.0
    sent, seen = {("c1", 1): 10.0 - IN_FLIGHT}, {("c1", 1): 12.0}
    assert outside_outages(sent, seen, WINDOWS) == [("c1", 1)]     # sent the whole target before: a miss
