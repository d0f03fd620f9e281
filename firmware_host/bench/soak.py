"""``cardtable bench soak``: the long evening (at least 500 deals and 100 faults), with its timings.

``--quick`` plays a short one (for smoke tests). The club broker is on (with broker outages and the
dashboard's commands among the faults) when Mosquitto is installed. Among the faults: locks held past
the journal's busy timeout (commits really fail), malformed lines on the director's input, kills,
stalls, a full disk, the shoe unplugged, camera and broker outages, jams and line noise. Exit status 1
when an invariant fails.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from pathlib import Path

DEALS, FAULTS = 500, 120
QUICK_DEALS, QUICK_FAULTS = 16, 6


def run(args: argparse.Namespace) -> int:
    from firmware_host.club.broker import BrokerError, mosquitto_binary
    from firmware_host.soak.driver import Options, evening
    from firmware_host.soak.report import table

    try:
        mosquitto_binary()
        broker = True
    except BrokerError as exc:
        print(f"soak: no broker in this run: {exc}")
        broker = False

    quick = bool(getattr(args, "quick", False))
    deals, faults = (QUICK_DEALS, QUICK_FAULTS) if quick else (DEALS, FAULTS)
    workdir = Path(tempfile.mkdtemp(prefix="cardtable-bench-soak-"))
    t0 = time.monotonic()
    results = evening(deals=deals, faults=faults, seed=1, games=("contract-bridge", "euchre"), workdir=workdir,
                      opts=Options(broker=broker))
    seconds = time.monotonic() - t0
    ok = all(f.ok for f in results)
    if getattr(args, "json", False):
        print(json.dumps({"soak": {
            "seconds": round(seconds, 1), "ok": ok,
            "games": {f.game: {"deals": f.deals, "hands_scored": f.results, "rubbers": f.rubbers,
                               "irregularities": f.mistakes_injected, "rulings_expected": f.rulings_expected,
                               "rulings_got": f.rulings_got, "false_rulings": f.false_rulings,
                               "missed_rulings": f.missed_rulings, "wrong_fields": f.wrong_fields,
                               "kinds": dict(f.kinds), "contracts": f.contracts,
                               "contracts_wrong": f.contracts_wrong,
                               "score_wrong": f.score_wrong, "events_lost": f.events_lost,
                               "cards_misseated": f.cards_misseated, "dealers_wrong": f.dealers_wrong,
                               "deal_ends_wrong": f.deal_ends_wrong, "lamp_problems": f.lamp_problems,
                               "commands": f.commands_sent, "commands_wrong": f.commands_wrong,
                               "bad_lines": f.bad_lines_sent, "bad_lines_noted": f.bad_lines_noted,
                               "locks": f.locks, "commit_failures": f.commit_failures,
                               "tracebacks": f.tracebacks, "exits": f.exits,
                               "faults": dict(f.faults), "verified": f.verified, "problems": f.problems,
                               "notes": f.notes} for f in results}}}, indent=1))
    else:
        print(f"soak: `cardtable bench soak` — {deals} deals, {faults} faults, seed 1, through `cardtable run`"
              f"{' with the club broker' if broker else ''}")
        print(table(results, seconds))
        n = sum(f.deals for f in results)
        print(f"{n / seconds * 60:.0f} deals a minute, faults included")
    if ok:
        shutil.rmtree(workdir, ignore_errors=True)
    else:
        print(f"journals and logs in {workdir}")
    return 0 if ok else 1
