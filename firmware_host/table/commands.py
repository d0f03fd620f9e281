"""The director's checked commands at the table (from the club's dashboard): a choice among a law's
options, a search's outcome, a euchre bid or discard or a bridge call entered for a player.

Each is checked against the state the event would meet (``choices``), then ruled on like any input
from source ``director``; one that nothing open allows is refused with a journal note. Its outcome is
kept for the status (``TableController.answers``), once per command id. ``ctl`` is the
controller (typed ``Any`` as in ``ordering``: this module is its part, and never imports it).
"""

from __future__ import annotations

from typing import Any

from firmware_host.table import choices
from firmware_host.table.inputs import DirectorCommand, LawInput
from laws.events import Event
from laws.rulings import Ruling


def take(ctl: Any, item: DirectorCommand) -> list[Ruling]:
    """A director's choice, search outcome, bid, discard or call: checked against the state the event would meet, then
    ruled on from source ``director``; refused (a journal note, the reason told back in the status)
    when nothing open at the table allows it."""
    state = ctl.engine.state
    try:
        if item.kind == "choose":
            event: Event = choices.director_choice(state, item.body)
        elif item.kind == "search":
            event = choices.director_search(state, item.body)
        elif item.kind in choices.ENTRIES:
            event = choices.director_entry(state, item.kind, item.body)
        else:
            raise choices.ChoiceRefused(f"the table takes no {item.kind[:20]!r} command")
    except choices.ChoiceRefused as exc:
        why = str(exc)
        ctl._note(f"the director's {item.kind} from {item.by[:40]} refused: {why}",
                  {"command": {"id": item.cid, "kind": item.kind, "by": item.by[:40]}, "refused": why})
        answer(ctl, {"id": item.cid, "kind": item.kind, "ok": False, "why": why})
        ctl._status()
        return []
    told = {"id": item.cid, "kind": item.kind, "ok": True, "why": ""}
    answer(ctl, told)  # before the rulings go out: the status they bring says so
    ignored = ctl.engine.ignored
    ctl._not_applied = None
    rulings = ctl._law(LawInput(event, "director", command=(item.cid, item.by[:40])))
    if ctl.engine.ignored > ignored or ctl._not_applied is not None:
        told.update(ok=False, why=ctl._not_applied or "journaled, but it does not fit the table's "
                    f"{ctl.engine.state.phase.value} phase and was not ruled on")
        ctl._status()
    return rulings


def answer(ctl: Any, told: dict[str, Any]) -> None:
    """Keep a command's outcome for the status (once per command, however often it is retried)."""
    for old in [a for a in ctl.answers if a["id"] == told["id"]]:
        ctl.answers.remove(old)
    ctl.answers.append(told)
