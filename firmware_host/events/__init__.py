"""An event beyond one pairs field on the club's machine (teams of four, Swiss teams and pairs, an
individual): its journal and the tables' results taken once (``session.py``), the director's and the
tables' views (``views.py``), the event on the broker with its pages (``service.py``) and its results
files: USEBIO, PBN and the published folder (``files.py``). The pure model is ``laws.competition``.
"""
