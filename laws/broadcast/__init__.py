"""The broadcast of the tables' play to spectators (vugraph with no operator), as pure models.

* :mod:`laws.broadcast.feed` — a table's journal rows folded into feed items (a board's hands, each call
  with its rulings, each card, claims, the result), each an allow-list of what a spectator may see.
* :mod:`laws.broadcast.release` — the director's release rule: when an item may be shown, and to whom.
* :mod:`laws.broadcast.lin` — a board as a LIN record, the format broadcasters' viewers read.
* :mod:`laws.broadcast.euchre` — a euchre table's rows folded into the same items, hand by hand.

The services that move the items (the club's machine) are in ``firmware_host/broadcast/``.
"""
