"""The hardware abstraction the shoe logic talks to. ``rp2040.py`` implements it with real pins; the
host's virtual shoe implements it with a simulated pack. Every method must return quickly.

Methods a hardware layer provides:

- ``ticks_ms()``: a millisecond clock that never wraps (the RP2040 layer extends
  ``time.ticks_ms()``, which wraps after about 12 days).
- ``exit_blocked()``: True while a card is in the exit slot (the card-exit sensor's beam is broken).
- ``read_code()``: the code the face-side reader decoded for the card in the slot, as
  ``(payload text, quality 0-100)``, or None when nothing was decoded (yet). Consumes the reading.
- ``back_shows_face()``: True when the back-side detector sees a card face where a back should be
  (the card is face up), False when it sees a back, None when the shoe has no such detector.
- ``pack_present()``: True while cards remain in the shoe.
- ``take_buttons()``: list of ``(seat 0-3, kind)`` presses since the last call, already debounced.
- ``set_lamp(lamp, mode, colour)``: drive lamp 0 (the shoe) or 1-4 (seats N, E, S, W).
- ``capabilities()``: the CAP_* bits of ``wire.py`` this hardware has.
"""

# Button kinds (PROTOCOL.md section 4.8).
BUTTON_CALL = 1      # short press: call the director / attention
BUTTON_DEMAND = 2    # long press: the player demands a redeal or new deal
BUTTON_CONFIRM = 3   # double press: the player confirms (e.g. accepts a ruling)


def parse_payload(text):
    """Split a card code's payload into ``(pack id, card)``; card None when it is not a card.

    The printed code holds the pack id then the card in event notation, optionally separated by
    ``:``, ``-``, ``/`` or a space: ``"A:TS"``, ``"B-9H"``, ``"P17 QC"``, ``"ATS"``.
    """
    text = text.strip()
    if len(text) < 2:
        return "", None
    card = text[-2:].upper()
    pack = text[:-2].rstrip(":-/ ")
    if card[0] not in "AKQJT98765432" or card[1] not in "SHDC":
        return pack, None
    return pack, card
