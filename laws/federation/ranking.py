"""A field's rankings kept up to date pair by pair (``docs/federation.md``, "Only what a result changed
is scored again").

:class:`LiveRanking` holds, for each field, its pairs in ranking order with their standings. Given the
pairs' figures after some results (:class:`laws.scoring.session.Tally`), it finds the pairs whose
figures changed, takes only those out of the order and puts them back where their new figure goes
(a binary search each), and gives the rankings with their places. Its rankings are, by construction
and by test, those :func:`laws.scoring.session.rank_tallies` gives from the same figures: the same
standings (:func:`laws.scoring.session.standing`), the same order (best figure first, ties by pair),
the same places.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction

from laws.scoring.session import Tally, places, standing
from laws.scoring.session_values import Method, Pair, Ranking, SessionError, Standing

Row = tuple[Fraction, tuple[int, str], Pair]      # (minus the figure, the pair's key, the pair)


@dataclass
class LiveRanking:
    """The rankings of ``fields`` (each pair's field name), kept from one set of figures to the next."""

    method: Method
    fields: Mapping[Pair, str]
    _seen: dict[Pair, Tally] = field(default_factory=dict, repr=False)
    _rows: dict[str, list[Row]] = field(default_factory=dict, repr=False)
    _standing: dict[Pair, tuple[Row, Standing]] = field(default_factory=dict, repr=False)

    def update(self, tallies: Mapping[Pair, Tally]) -> int:
        """Take the pairs' figures now; how many pairs moved (their figures changed, came or went).

        Raises:
            SessionError: a pair that is in no field (as :func:`rank_tallies`).
        """
        at_imps = self.method.at_imps
        gone = [p for p in self._seen if tallies.get(p) is None or tallies[p].boards <= 0]
        changed = [p for p, t in tallies.items() if t.boards > 0 and self._seen.get(p) != t]
        for pair in gone + changed:
            old = self._standing.pop(pair, None)
            if old is not None:
                rows = self._rows[self.fields[pair]]
                del rows[bisect.bisect_left(rows, old[0])]
            self._seen.pop(pair, None)
        for pair in changed:
            if pair not in self.fields:
                raise SessionError(f"pair {pair.label} is in no field")
            t = tallies[pair]
            key, st = standing(pair, t, at_imps)
            row = (-key, pair.key, pair)
            bisect.insort(self._rows.setdefault(self.fields[pair], []), row)
            self._standing[pair] = (row, st)
            self._seen[pair] = t
        return len(gone) + len(changed)

    def rankings(self) -> tuple[Ranking, ...]:
        """Every field's ranking, fields in name order (a field with no pair left is not shown)."""
        out = []
        for name in sorted(self._rows):
            rows = self._rows[name]
            if not rows:
                continue
            standings = []
            for r, place in zip(rows, places([-r[0] for r in rows])):
                st = self._standing[r[2]][1]
                if st.place != place:
                    st = replace(st, place=place)
                    self._standing[r[2]] = (r, st)
                standings.append(st)
            out.append(Ranking(name, tuple(standings)))
        return tuple(out)
