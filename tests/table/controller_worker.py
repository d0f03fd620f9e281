"""A controller in a process of its own, for the kill -9 test: it processes a scenario's events one by
one and prints ``done N`` after each, so the parent knows what was acknowledged before the kill."""

from __future__ import annotations

import json
import sys
import time

from gpiozero.pins.mock import MockFactory

from firmware_host.config import load_config
from firmware_host.devices.panel import Panel
from firmware_host.records.journal import Journal
from firmware_host.table.controller import LawInput, TableController
from laws.events import event_from_dict


def main(data_dir: str, scenario: str, start: int) -> None:
    cfg = load_config(None, env={}, check_devices=False)
    lines = [json.loads(x) for x in open(scenario, encoding="utf-8") if x.strip()]
    game = lines[0]["game"]
    journal = Journal.open(data_dir)
    panel = Panel(cfg.pins, MockFactory(), time.monotonic)
    ctl = TableController(game=game, journal=journal, panel=panel, clock=time.time)
    print(f"ready {json.dumps(ctl.lamps, sort_keys=True)}", flush=True)
    for i, obj in enumerate(lines[1:], start=1):
        if i < start:
            continue
        ctl.process(LawInput(event_from_dict(obj), "script"))
        print(f"done {i} {ctl.seq}", flush=True)
    print("end", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
