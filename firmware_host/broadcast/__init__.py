"""The broadcast on the club's machine: every table's play for spectators, from what the tables journal.

``archive.py`` writes, after a session, each board of each table as a LIN record (a folder per session)
and the replay pages a club publishes beside its travellers (``replay_html.py``: static pages, card by
card, no server needed). The release rule and the feed items are pure, in ``laws/broadcast``.
"""
