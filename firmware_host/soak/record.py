"""What physically happened in one game's evening, as the driver saw it (``Record``), and its JSON form.

The record is the soak's own knowledge, never the table's: the cards that left the shoe (with the seat
the shoe sent each to and the dealer it dealt for), the mistakes made on purpose and the seats they
concern, the results the driver entered, the dashboard commands and malformed lines it sent, the faults
applied. The checker (``checker.check``) judges the journal against it.

``Record.to_json()`` / ``Record.from_json()`` round-trip a record (with the journal rows it ended with)
through plain JSON, so a recorded evening can be kept as test data (``tests/data/soak-evening.json.gz``)
and judged again, or broken on purpose, without running the table.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

Row = tuple[int, str, dict[str, Any]]


@dataclass(frozen=True)
class Dealt:
    """One card as it physically left the shoe (from the virtual shoe's hardware).

    ``seat``: the seat the shoe's dealing sent it to (``N``, ``E``, ``S``, ``W``; ``table`` for a euchre
    turn-up), None where the record does not know (records made before seats were kept)."""

    card: str
    pack: str
    face_up: bool
    readable: bool
    seat: str | None = None


@dataclass
class DealRecord:
    """One shoe deal as the driver saw it: the cards that left (seat cards, then a euchre turn-up), the
    dealer the shoe dealt for, the mistakes it made on purpose that are not in the cards (buttons, the
    director's reports) and the seats they concern, and the result it entered for the hand."""

    number: int
    cards: list[Dealt] = field(default_factory=list)
    turn_up: Dealt | None = None
    mistakes: list[str] = field(default_factory=list)   # applied button / director mistakes
    injected: str | None = None                          # the shoe injection asked for (if any)
    pack_size: int | None = None                         # cards in the shoe when the deal began
    dealer: str | None = None                            # the seat the shoe dealt for
    facts: dict[str, str] = field(default_factory=dict)  # "at": the seat a mistake concerns; "other"
    result: dict[str, Any] | None = None                 # the result event the driver entered


@dataclass
class Record:
    """Everything the driver knows about one game's evening."""

    game: str
    complete: int                                  # cards a full deal gives the seats
    deals: list[DealRecord] = field(default_factory=list)
    director: list[dict[str, Any]] = field(default_factory=list)   # events entered, in order
    presses: int = 0                               # seat buttons pressed on the shoe
    faults: Counter[str] = field(default_factory=Counter)
    verified: bool | None = None                   # ``cardtable journal verify`` said intact
    verify_message: str = ""
    notes: list[str] = field(default_factory=list)  # what the driver noticed (stalls, crashes)
    tracebacks: int = 0                            # in the output of every process the soak ran
    restarts: int = 0                              # starts of the run process after the first
    exits: list[int] = field(default_factory=list)  # statuses of exits nobody asked for
    rows: list[Row] = field(default_factory=list)  # the journal, at the end
    strays: int = 0                                # cards out while no deal ran (sent without a seat)
    dashboard: dict[int, int] | None = None        # with a broker: ruling seq -> deliveries seen
    commands: list[dict[str, Any]] = field(default_factory=list)  # dashboard commands sent (below)
    bad_lines: list[str] = field(default_factory=list)  # malformed lines written to ``--events``
    locks: int = 0                                 # write locks held past the table's busy timeout
    lock_windows: list[tuple[float, float]] = field(default_factory=list)  # each lock's (start, end), epoch s
    kill_times: list[float] = field(default_factory=list)  # when the driver killed the table, epoch s
    stopped: int | None = 0                        # status of the SIGTERM that ended the evening

    # ``commands``: one dict per command the driver published as the dashboard does, with ``kind``
    # (``ack``, ``choose``, ``search``, ``result``, ``bid``), ``id`` and ``expect``: ``event`` (journaled
    # once as the event the driver also lists in ``director``), ``refused`` (a journal note saying so,
    # no event) or ``ack`` (a journal note ``{"ack": "director"}``, ruling lamps out).

    def to_json(self) -> dict[str, Any]:
        """The record as plain JSON data."""
        out = asdict(self)
        out["faults"] = dict(self.faults)
        out["rows"] = [list(r) for r in self.rows]
        out["dashboard"] = None if self.dashboard is None else {str(k): v for k, v in self.dashboard.items()}
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Record:
        """A record from ``to_json`` data."""
        d = dict(data)

        def dealt(c: dict[str, Any] | None) -> Dealt | None:
            return None if c is None else Dealt(**c)

        deals = [DealRecord(**{**x, "cards": [Dealt(**c) for c in x["cards"]], "turn_up": dealt(x["turn_up"])})
                 for x in d.pop("deals")]
        dash = d.pop("dashboard")
        rows = [(int(s), str(k), dict(b)) for s, k, b in d.pop("rows")]
        d["lock_windows"] = [(float(a), float(b)) for a, b in d.get("lock_windows", [])]
        d["kill_times"] = [float(t) for t in d.get("kill_times", [])]
        return cls(**{**d, "deals": deals, "faults": Counter(d.pop("faults")), "rows": rows,
                      "dashboard": None if dash is None else {int(k): v for k, v in dash.items()}})


def bad_line_note(body: dict[str, Any]) -> bool:
    """A journal note about a malformed line of the director's input (``PATH line N: ...``)."""
    text = body.get("text")
    return body.get("device") == "director" and isinstance(text, str) and " line " in text.split(":", 1)[0]
