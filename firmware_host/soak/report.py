"""The soak's table of figures, one column per game and a total."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from firmware_host.soak.checker import Findings
from firmware_host.soak.schedule import PLAY_KINDS, RECORDED_ONLY

_NAMES = {"contract-bridge": "bridge", "euchre": "euchre"}


def table(results: Sequence[Findings], seconds: float | None = None) -> str:
    """The figures as a plain-text table (then every problem and note found)."""
    cols = [_NAMES.get(f.game, f.game) for f in results] + (["total"] if len(results) > 1 else [])
    kinds = sorted(set().union(*(f.faults for f in results))) if results else []

    def row(label: str, values: Sequence[object]) -> str:
        vals = list(values)
        if len(results) > 1:
            nums = [v for v in vals if isinstance(v, int) and not isinstance(v, bool)]
            vals.append(sum(nums) if len(nums) == len(vals) else "")
        return f"{label:<34}" + "".join(f"{v!s:>10}" for v in vals)

    lines = [f"{'':<34}" + "".join(f"{c:>10}" for c in cols)]
    add = lines.append
    add(row("deals (shoe)", [f.deals for f in results]))
    add(row("hands scored", [f.results for f in results]))
    add(row("rubbers won", [f.rubbers for f in results]))
    add(row("irregularities injected", [f.mistakes_injected for f in results]))
    add(row("  of which no fault once dealt", [f.mistakes_harmless for f in results]))
    for k in [k for k in (*PLAY_KINDS, *RECORDED_ONLY) if any(f.kinds.get(k) for f in results)]:
        add(row(f"  {k.replace('_', ' ')}", [f.kinds.get(k, 0) for f in results]))
    add(row("rulings expected", [f.rulings_expected for f in results]))
    add(row("rulings got", [f.rulings_got for f in results]))
    add(row("false rulings", [f.false_rulings for f in results]))
    add(row("missed rulings", [f.missed_rulings for f in results]))
    add(row("  wrong dealer, seat, side or pack", [f.wrong_fields for f in results]))
    add(row("bridge auctions closed", [f.contracts for f in results]))
    add(row("  contract not the soak's own", [f.contracts_wrong for f in results]))
    add(row("score and formation rulings", [f.score_rulings for f in results]))
    add(row("  not on the soak's own sheet", [f.score_wrong for f in results]))
    add(row("results not scored", [f.unscored for f in results]))
    add(row("deals: wrong dealer / deal end", [f"{f.dealers_wrong}/{f.deal_ends_wrong}" for f in results]))
    add(row("formations wrong", [f.formations_wrong for f in results]))
    add(row("lamp rules broken", [f.lamp_problems for f in results]))
    total: Counter[str] = Counter()
    for f in results:
        total.update(f.faults)
    add(row("faults", [sum(f.faults.values()) for f in results]))
    for k in kinds:
        add(row(f"  {k}", [f.faults.get(k, 0) for f in results]))
    add(row("locks past the busy timeout", [f.locks for f in results]))
    add(row("  commits that failed / recoveries", [f"{f.commit_failures}/{f.recoveries}" for f in results]))
    add(row("  lock episodes failing a commit", [f"{f.locks_failing}/{f.locks_failing + f.locks_idle}"
                                                      for f in results]))
    add(row("cards the shoe sent", [f.cards_sent for f in results]))
    add(row("  after a deal stopped (no seat)", [f.strays for f in results]))
    add(row("  journaled to another seat", [f.cards_misseated for f in results]))
    add(row("  journaled face up or down against the shoe", [f.cards_faced_wrong for f in results]))
    add(row("director's entries", [f.director_sent for f in results]))
    add(row("  dashboard commands / wrong", [f"{f.commands_sent}/{f.commands_wrong}" for f in results]))
    add(row("  malformed lines / noted", [f"{f.bad_lines_sent}/{f.bad_lines_noted}" for f in results]))
    add(row("events lost", [f.events_lost for f in results]))
    add(row("  cards lost", [f.cards_lost for f in results]))
    add(row("  director's entries lost", [f.director_lost for f in results]))
    add(row("events twice or out of order", [f.cards_duplicated + f.director_extra for f in results]))
    if any(f.dashboard for f in results):
        add(row("dashboard: rulings never received", [f.dashboard_missing for f in results]))
        add(row("dashboard: rulings not journaled", [f.dashboard_unknown for f in results]))
        add(row("dashboard: repeats (by seq)", [f.dashboard_repeats for f in results]))
    add(row("devices offline at the end", [len(f.offline_at_end) for f in results]))
    add(row("process restarts", [f.restarts for f in results]))
    add(row("  exits nobody asked for", [len(f.exits) for f in results]))
    add(row("    of which status 2 (no restart)", [f.exits.count(2) for f in results]))
    add(row("tracebacks in any process's output", [f.tracebacks for f in results]))
    add(row("chain verifies", ["yes" if f.verified else "NO" for f in results]))
    add(row("verdict", ["ok" if f.ok else "FAIL" for f in results]))
    if seconds is not None:
        lines.append(f"{len(results)} game(s) in {seconds:.0f} s")
    for f in results:
        for text in f.notes + f.problems:
            lines.append(f"{_NAMES.get(f.game, f.game)}: {text}")
    return "\n".join(lines)
