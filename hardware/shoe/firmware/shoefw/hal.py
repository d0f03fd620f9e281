"""The hardware abstraction the shoe logic talks to. ``rp2040.py`` implements it with real pins; the
host's virtual shoe implements it with a simulated pack. Every method must return quickly.

Methods a hardware layer provides:

- ``ticks_ms()``: a millisecond clock that never wraps (the RP2040 layer extends
  ``time.ticks_ms()``, which wraps after about 12 days).
- ``exit_blocked()``: True while a card is in the exit slot (the card-exit sensor's beam is broken).
- ``read_code()``: the code the face-side reader decoded for the card in the slot, as
  ``(payload text, quality 0-100)``, or None when nothing was decoded (yet). Consumes the reading.
  A line the reader garbled (not UTF-8) is ``("", 0)``: an unreadable card (see ``decode_line``).
- ``back_shows_face()``: True when the back-side detector sees a card face where a back should be
  (the card is face up), False when it sees a back, None when the shoe has no such detector.
- ``pack_present()``: True while cards remain in the shoe.
- ``take_buttons()``: list of ``(seat 0-3, kind)`` presses since the last call, already debounced.
- ``set_lamp(lamp, mode, colour)``: drive lamp 0 (the shoe) or 1-4 (seats N, E, S, W); the shoe
  logic only passes modes 0-3 and colours 0-4.
- ``capabilities()``: the CAP_* bits of ``wire.py`` this hardware has.
- ``route(dest)`` (only hardware with ``CAP_BOARDS``): send the card now in the exit to pocket ``dest``
  (seats 0-3) or to the reject exit (``board.REJECT``). Called while a board is dealt: when a card
  enters the exit (the reject exit, until its code is read), at every reading of its code, and when
  the board ends with a card in the exit. The gate rests at the reject exit: a card the shoe never
  routes (outside a board) lands there.
"""

# Button kinds (PROTOCOL.md section 4.2, BUTTON).
BUTTON_CALL = 1      # short press: call the director / attention
BUTTON_DEMAND = 2    # long press: the player demands a redeal or new deal
BUTTON_CONFIRM = 3   # double press: the player confirms (e.g. accepts a ruling)


ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
WHITE_SPACE = " \t\r\n"     # PROTOCOL.md section 8: what a shoe takes off the two ends of a reader's text
CODE_VERSION = "1"
BACK = "ZZ"


def decode_line(raw):
    """A reader's line as text, or None when it is not UTF-8. (MicroPython ignores the "ignore"
    of ``bytes.decode`` and raises on invalid UTF-8, so never rely on it.)"""
    try:
        return bytes(raw).decode("utf-8")
    except (UnicodeError, ValueError):
        return None


def check_char(data):
    """ISO 7064 MOD 37,36 check character over ``data`` (card codes, version 1)."""
    m = len(ALPHABET)
    p = m
    for ch in data:
        s = (p + ALPHABET.index(ch)) % m or m
        p = (2 * s) % (m + 1)
    return ALPHABET[(m + 1 - p) % m]


def parse_payload(text):
    """Split a card code's payload into ``(pack id, card)``; card None when it is not a card.

    The text loses spaces, tabs, CRs and LFs at its two ends (no other character is white space) and
    ``a-z`` are read as ``A-Z`` (no other character changes). The payload is then card code version 1
    (``vision/CARD_CODES.md``): six characters of ``0-9A-Z``,
    the version ``1``, the pack id (two characters), the card in event notation (``ZZ`` on a back)
    and a check character. A back mark gives its pack and no card; anything else that is not a card
    (another version, a wrong check, a foreign code, a card field that is neither) gives ``("", None)``.
    """
    text = text.strip(WHITE_SPACE)
    if len(text) != 6:
        return "", None
    upper = ""
    for ch in text:
        if "a" <= ch <= "z":
            ch = chr(ord(ch) - 32)      # a-z only: str.upper() differs between CPython and MicroPython
        if ch not in ALPHABET:
            return "", None
        upper += ch
    text = upper
    if text[0] != CODE_VERSION or check_char(text[:5]) != text[5]:
        return "", None
    pack, card = text[1:3], text[3:5]
    if card == BACK:
        return pack, None
    if card[0] not in "AKQJT98765432" or card[1] not in "SHDC":
        return "", None
    return pack, card
