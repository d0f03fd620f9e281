"""The run at scale, small (`cardtable bench federation --scale` is the real one, minutes long): two clubs'
brokers bridged to the federation's through cuttable links, the service as its own process, one outage
of each kind (a club's broker killed, a club's link cut, the federation's broker restarted, the service
killed), judged by the same checks: nothing lost, nothing twice, every ranking equal to a rescore. One of
the two clubs is real (a duplicate session with real tables on the event's records, fetched over its
bridge), and its link is the one cut, for longer than the outages after it (the full run: ten minutes).

Short, about 20 s: the cut lasts 4 s, and the intervals that decide how soon a link back carries the
messages again are made short too, as a club with a short outage to ride out would set them: each
bridge's ``restart_timeout`` 1 s (a club's is 1 s growing to 30 s with jitter while the link is down,
so a cut of 12 s could wait half a minute more) and each uplink's resend 0.5 s growing to 2 s (a club's:
2 s to 30 s). The long versions are the benchmark's. Every broker and process the run starts is stopped
with a bounded wait however it ends (``scale``'s exit stack; a real session has ``session_timeout``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from firmware_host.bench.federation_scale import OUTAGE_KINDS, scale


def test_two_clubs_through_one_outage_of_each_kind() -> None:
    if shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists():
        pytest.skip("mosquitto is not installed (`make test` installs it)")
    found = scale(tables=12, clubs=2, boards=2, pace=3.0, outages=4, settle=1.0, drain=30.0, long_cut=4.0,
                  resend=0.5, max_wait=2.0, bridge_restart=(1, 1), session_timeout=60.0)
    assert [o["kind"] for o in found["outages"]] == list(OUTAGE_KINDS)
    cut = found["outages"][1]
    assert cut["club"] == "c00" and cut["for_s"] == 4.0             # the real club's link, the long cut
    assert list(found["real_clubs"]) == ["c00"] and found["real_clubs"]["c00"].get("problems") == []
    assert found["real_clubs"]["c00"]["results"] > 0
    assert found["real_messages"]["c00"] > 1                        # its entry and its session's results
    assert found["audit"] == f"{found['messages']} message rows; 0 lost; 0 taken twice; 0 changed; 0 unexpected"
    assert [o["ranking"] for o in found["outages"]] == ["equal"] * 4 and found["final_ranking"] == "equal"
    assert found["ok"]
