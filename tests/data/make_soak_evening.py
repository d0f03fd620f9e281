"""Records a short soak for the checker's mutation test (run: python -m tests.data.make_soak_evening).

A real ``cardtable run`` plays 14 deals of each game under every kind of fault (the club broker on, so
dashboard commands too), with a mistake in most deals; the driver's record of each game, with the journal
it ended with, is written to ``soak-evening.json.gz`` (``Record.to_json``). The evening must pass the
checker as recorded, and hold what the mutations break (dashboard commands taken, refused and
acknowledged, a law-90 penalty, bridge auctions and play with their irregularities and a revoke's tricks
transferred) and a euchre deal stopped for a replacement pack (``EU-33`` ``replace_pack``), the table
dealing on only once the soak's director had acknowledged: ``tests/soak/test_mutations.py`` then breaks it one way at a time and
sees each breakage fail. Run again after a change to the record or the journal's shape (a seed whose
evening does not pass, or lacks one of those, is skipped).
"""

from __future__ import annotations

import gzip
import json
import tempfile
from pathlib import Path

from firmware_host.soak.checker import check
from firmware_host.soak.driver import GameRun, Options
from firmware_host.soak.report import table
from firmware_host.soak.schedule import FAULT_KINDS, make_schedule

HERE = Path(__file__).parent
OUT = HERE / "soak-evening.json.gz"


def main(first_seed: int = 11, tries: int = 16) -> None:
    for seed in range(first_seed, first_seed + tries):
        with tempfile.TemporaryDirectory(prefix="soak-evening-") as tmp:
            records = []
            for game in ("contract-bridge", "euchre"):
                s = make_schedule(game, 14, seed, mistake_rate=0.7, faults=2 * len(FAULT_KINDS))
                records.append(GameRun(s, Path(tmp), Options(broker=True)).run())
        findings = [check(r, r.rows) for r in records]
        print(f"seed {seed}:\n{table(findings)}")
        kinds = {c["expect"] for r in records for c in r.commands}
        # a law-90 penalty (points to the other side, ``scored_by``): a bridge penalty card is no such one
        penalties = any(row[2].get("remedy") == "penalty" and "scored_by" in row[2] for r in records for row in r.rows)
        bridge = {(b.get("clause"), b.get("remedy")) for _, k, b in records[0].rows if k == "ruling"}
        played = {("BP-22", "contract"), ("BP-64", "penalty")} <= bridge and len({c for c, _ in bridge
                                                                                 if c.startswith("BP-")}) >= 5
        # at euchre a deal stopped for a replacement pack (EU-33), the next one dealt once the director acknowledged
        new_pack = any(b.get("remedy") == "replace_pack" and b.get("dealer") for _, k, b in records[1].rows
                       if k == "ruling")
        lacking = [what for what, there in (("a verdict ok", all(f.ok for f in findings)),
                                            ("commands taken, acknowledged and refused",
                                             {"event", "ack", "refused"} <= kinds),
                                            ("a law-90 penalty", penalties), ("bridge play's rulings", played),
                                            ("a euchre replace_pack", new_pack)) if not there]
        print(f"seed {seed}: not kept, it lacks {', '.join(lacking)}" if lacking else f"seed {seed}: kept")
        if not lacking:
            with gzip.open(OUT, "wt", encoding="utf-8") as out:
                json.dump({"seed": seed, "games": [r.to_json() for r in records]}, out, separators=(",", ":"))
            print(f"wrote {OUT}")
            return
    raise SystemExit("no evening passed the checker; nothing written")


if __name__ == "__main__":
    main()
