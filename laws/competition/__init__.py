"""Events beyond one pairs field: teams of four, Swiss, individuals and several sections, as pure models.

* :mod:`laws.competition.vp` — IMPs to victory points: the WBF continuous 20-point scale and discrete
  scales given as data.
* :mod:`laws.competition.teams` — a match between two teams in two rooms (IMPs a board, VPs a match) and
  a round robin's schedule.
* :mod:`laws.competition.swiss` — a Swiss round's draw from the standings (with the fewest repeats when
  no draw avoids them all), and the tie-breaks.
* :mod:`laws.competition.matching` — a graph's largest matching, which counts a Swiss round's fewest repeats.
* :mod:`laws.competition.individual` — individual movements (every player partners every other once) and
  their scores a player.
* :mod:`laws.competition.sections` — several sections of one event, scored within each section or across
  the field when they play the same boards.

Standard library only, like the rest of ``laws``; the rules are stated in each module's docstring and in
``docs/scoring.md`` and ``docs/movements.md``.
"""
