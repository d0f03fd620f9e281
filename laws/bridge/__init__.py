"""Bridge as it is played: the auction and the tricks, as pure values (docs/laws.md ``BP-``).

Standard library only. The auction (whose turn, which calls are legal, the contract and declarer) and
the play (tricks, their winners, revokes against known hands) are models here; the clauses that rule on
them, registered like every other clause, are in ``laws/games/``.

The modules:

* ``calls``: :class:`~laws.bridge.calls.Call` and :func:`~laws.bridge.calls.parse_call` (event and PBN
  spellings).
* ``auction``: :class:`~laws.bridge.auction.Auction`: ``judge`` / ``judge_text`` a call without changing
  anything; ``add``, ``accept``, ``cancel``, ``bar``; ``turn``, ``closed``, ``contract()``, ``declarer``,
  ``dummy``, ``opening_leader``; ``pbn_lines()``.
* ``verdicts``: :class:`~laws.bridge.verdicts.CallVerdict` and its :class:`~laws.bridge.verdicts.Option`
  values: the irregularity, its docs/laws.md id, and the options the laws give, as data.
* ``play``: :class:`~laws.bridge.play.Play`: ``judge`` a card; ``play``, ``accept``, ``withdraw``,
  ``dummy_faced``, ``correct`` (a revoke); ``claim`` and ``agree_claim`` / ``dispute_claim`` /
  ``rule_claim`` / ``withdraw_claim`` / ``cancel_concession``; ``rectification()``, ``enter_result``, ``result()``.
* ``tricks``: the play's values: :class:`~laws.bridge.tricks.Trick`, :class:`~laws.bridge.tricks.Revoke`,
  :class:`~laws.bridge.tricks.TrickClaim`, :class:`~laws.bridge.tricks.PlayVerdict`,
  :class:`~laws.bridge.tricks.PlayResult`, :class:`~laws.bridge.tricks.PlayError`.
* ``revokes``: the trick transfer for established revokes (``BP-64``), from the trick record.
* ``concessions``: the tricks a side's top trumps cannot lose, and an agreed claim that concedes them
  (``BP-68-71``, law 71): ``judge(play)``; ``Play.cancel_concession`` applies it.
* ``pbn``: reading a PBN 2.1 auction section (``AP``, ``^I``, ``^S``, import columns), writing the play
  section (``play_lines(play)``), and PBN's card spelling (suit then rank).

Both models are plain dataclasses of seats, cards, ints, strings, lists and dicts, so a table's
``game_state`` holding them is checkpointed by ``laws.snapshot`` as it is (nothing was added to it).
"""
