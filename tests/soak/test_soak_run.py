"""The short soak: a real `cardtable run` plays bridge and euchre against the virtual shoe under faults
(kill -9, journal stalls and locks past the busy timeout, a full disk when root can mount one, the shoe
unplugged, camera outages, jams, line noise, malformed director lines),
and every invariant of `firmware_host.soak.checker` holds. `cardtable bench soak` is the long one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_host.soak.checker import check
from firmware_host.soak.driver import GameRun, Options, evening
from firmware_host.soak.report import table
from firmware_host.soak.schedule import FAULT_KINDS, Fault, Schedule, kinds_for


def test_a_short_evening_keeps_every_promise(tmp_path: Path) -> None:
    # twelve deals, six of each game, each with a fault of another kind (the long evening: `cardtable bench soak`)
    results = evening(deals=12, faults=12, seed=3, games=("contract-bridge", "euchre"), workdir=tmp_path)
    text = table(results)
    assert all(f.ok for f in results), text
    assert sum(f.deals for f in results) >= 12 and sum(sum(f.faults.values()) for f in results) >= 12, text
    assert all(f.rulings_expected > 0 and f.results > 0 for f in results), text


@st.composite
def schedules(draw: Any) -> Schedule:
    game = draw(st.sampled_from(["contract-bridge", "euchre"]))
    deals = draw(st.integers(2, 4))
    mistakes = draw(st.dictionaries(st.integers(1, deals), st.sampled_from(kinds_for(game)), max_size=2))
    # locks (held until a commit fails: 10 s and more each) are the short evening's and the bench's, not
    # these quick generated ones
    kinds = [k for k in FAULT_KINDS if k != "lock"]
    faults = draw(st.lists(st.builds(Fault, st.sampled_from(kinds), st.integers(1, deals),
                                     st.floats(0.0, 1.0), st.floats(0.2, 2.5)), max_size=3))
    return Schedule(game, draw(st.integers(0, 1000)), deals, mistakes, tuple(faults))


@given(schedules())
@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck), database=None)
def test_generated_fault_schedules_against_the_real_process(tmp_path_factory: Any, schedule: Schedule) -> None:
    work = tmp_path_factory.mktemp("soak")
    record = GameRun(schedule, work, Options(idle_timeout=20)).run()
    f = check(record, record.rows)
    assert f.ok, table([f])
