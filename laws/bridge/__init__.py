"""Bridge as it is played: the auction and the tricks, as pure values (LAWS.md ``BP-``).

Standard library only. The auction (whose turn, which calls are legal, the contract and declarer) and
the play (tricks, their winners, revokes against known hands) are models here; the clauses that rule on
them, registered like every other clause, are in ``laws/games/``.
"""
