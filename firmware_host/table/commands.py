"""The director's commands at the table (from the club's dashboard): the acknowledgement, a hand's
result, a choice among a law's options, a search's outcome, a euchre bid or discard or a bridge call
entered for a player, a bridge answer that settles an irregularity or a claim (``bridge_choices.ANSWERS``:
accept, withdraw, bar, correct_revoke, claim, claim_reply, claim_ruled), a correction of a deal's result.

**Each command is done once, by its id, across restarts.** Its rows carry the id (an event row
``"command": {"id", "by"}``, a note ``{"ack": ..., "command": {...}}`` or a refusal
``{"command": {...}, "refused": why}``), so a restart knows every id the journal holds
(``ctl.commands_seen``, read by ``ordering.restore``); a command delivered again (QoS 1 delivers at least
once; the broker sends again what the table had not acknowledged when it stopped) is answered, not done
again. The broker is told a command was taken only once its rows are committed (``CommandAck``).

A choice, search, bid, discard, call or bridge answer is checked against the state the event would meet (``choices``), then
ruled on like any input from source ``director``; one that nothing open allows is refused with a journal
note. Its outcome is kept for the status (``TableController.answers``). ``ctl`` is the controller (typed
``Any`` as in ``ordering``: this module is its part, and never imports it).
"""

from __future__ import annotations

import logging
from typing import Any

from firmware_host.table import bridge_choices, choices
from firmware_host.table.inputs import DirectorCommand, LawInput
from firmware_host.table.redact import loggable
from laws.events import Event
from laws.rulings import Ruling

log = logging.getLogger(__name__)
CHECKED = choices.CHECKED


def take(ctl: Any, item: DirectorCommand) -> list[Ruling]:
    """A director's command: done once per id, checked, then ruled on from source ``director``; refused
    (a journal note, the reason told back in the status) when it does not check out."""
    if item.cid and item.cid in ctl.commands_seen:
        log.info("the director's %s %s delivered again; done once already, answered again", item.kind, item.cid)
        ctl._status()  # the answer it had is in the status again (and ``done``, once the broker hears)
        return []
    command = {"id": item.cid, "kind": item.kind, "by": item.by[:40]}
    state = ctl.engine.state
    if item.kind == "correct" and not item.refused:
        return correct(ctl, item)
    try:
        if item.refused:
            raise choices.ChoiceRefused(item.refused)
        if item.kind == "ack":
            ctl.director_ack(command)
            _seen(ctl, item)
            return []
        if item.kind == "result" and item.event is not None:
            event: Event = item.event
        elif item.kind == "choose":
            event = choices.director_choice(state, item.body)
        elif item.kind == "search":
            event = choices.director_search(state, item.body)
        elif item.kind in choices.ENTRIES:
            event = choices.director_entry(state, item.kind, item.body)
        elif item.kind in bridge_choices.ANSWERS:
            event = bridge_choices.director_answer(state, item.kind, item.body)
        else:
            raise choices.ChoiceRefused(f"the table takes no {item.kind[:20]!r} command")
    except (choices.ChoiceRefused, bridge_choices.AnswerRefused) as exc:
        why = str(exc)
        ctl._note(f"the director's {item.kind} from {item.by[:40]} refused: {why}",
                  {"command": command, "refused": why},
                  logged=f"the director's {item.kind} from {item.by[:40]} refused: {loggable(why)}")
        _seen(ctl, item)
        if item.kind in CHECKED:
            answer(ctl, {"id": item.cid, "kind": item.kind, "ok": False, "why": why})
        ctl._status()
        return []
    told = {"id": item.cid, "kind": item.kind, "ok": True, "why": ""}
    if item.kind in CHECKED:
        answer(ctl, told)  # before the rulings go out: the status they bring says so
    ignored = ctl.engine.ignored
    ctl._not_applied = None
    rulings = ctl._law(LawInput(event, "director", command=(item.cid, item.by[:40])))
    _seen(ctl, item)
    if ctl.engine.ignored > ignored or ctl._not_applied is not None:
        told.update(ok=False, why=ctl._not_applied or "journaled, but it does not fit the table's "
                    f"{ctl.engine.state.phase.value} phase and was not ruled on")
        ctl._status()
    return rulings


def _seen(ctl: Any, item: DirectorCommand) -> None:
    if item.cid:
        ctl.commands_seen.add(item.cid)


def answer(ctl: Any, told: dict[str, Any]) -> None:
    """Keep a command's outcome for the status (once per command, however often it is retried)."""
    for old in [a for a in ctl.answers if a["id"] == told["id"]]:
        ctl.answers.remove(old)
    ctl.answers.append(told)


def _dealt_so_far(dealt: int) -> str:
    """The deals a correction may name, in words a director reads: "deals 1 to 0" said nothing."""
    if dealt < 1:
        return "this table has dealt no deal yet"
    return "this table has dealt deal 1 only" if dealt == 1 else f"this table has dealt deals 1 to {dealt}"


def correct(ctl: Any, item: DirectorCommand) -> list[Ruling]:
    """A director's correction of a deal's result (fields checked by the club's ``parse_result`` before it
    came here): journaled as a note row ``{"correction": {"deal", "result"}, "command": {...}}`` (the
    deal's own ``result`` event stays in the chain, as the laws scored it), answered in the status. A
    deal the table has not dealt is refused, logged without the ``deal`` it was sent (docs/ordering.md: it
    may be a card typed in the wrong field)."""
    deal = item.body.get("deal")
    dealt = ctl.engine.state.deals_started
    command = {"id": item.cid, "kind": "correct", "by": item.by[:40]}
    if isinstance(deal, bool) or not isinstance(deal, int) or not 1 <= deal <= dealt:
        why = f"{_dealt_so_far(dealt)}: there is no deal {deal!r} to correct"
        ctl._note(f"the director's correction from {item.by[:40]} refused: {why}", {"command": command, "refused": why},
                  logged=f"the director's correction from {item.by[:40]} refused: {loggable(why)}")  # ``deal`` as sent
        answer(ctl, {"id": item.cid, "kind": "correct", "ok": False, "why": why})
    else:
        ctl._note(f"the director {item.by[:40]} corrected the result of deal {deal}",
                  {"correction": {"deal": deal, "result": dict(item.body.get("result") or {})}, "command": command})
        answer(ctl, {"id": item.cid, "kind": "correct", "ok": True, "why": ""})
    _seen(ctl, item)
    ctl._status()
    return []
