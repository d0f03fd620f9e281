"""A euchre night on the club's machine (``docs/euchre.md``): the session and its journal
(``session``), the night on the club's broker (``service``), its pages (``pages``), what it shows and
exports (``views``), and ``cardtable euchre demo`` (``demo``, its simulated players ``players``). The
pure night (formats, scoring, standings, the hand notation) is ``laws/euchre_night/``; a euchre table's
side of the night is ``firmware_host/tablelink/euchre_night.py``."""
