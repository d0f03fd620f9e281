"""A euchre night across the club's tables, as pure models: the formats (who sits where each round), the
scoring a club chooses, and the standings.

* :mod:`laws.euchre_night.scoring` — a hand's points to each player, by the Somerset code (laws 2-3) or a
  club's house rules, and the renege penalty by the law (laws 62-71).
* :mod:`laws.euchre_night.formats` — progressive euchre (winners move up, partners split), rotating
  partners (everyone partners everyone once), and fixed partnerships (round robin or Swiss by points).
* :mod:`laws.euchre_night.standings` — each player's total, hands won, loners made, and the tie-breaks.
"""
