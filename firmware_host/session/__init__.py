"""A session's service on the club's machine, reusable by every kind of session: the journalled service
and its intake (``journalled.py``: records checked against a pure model from ``laws/session/``, committed
in one transaction, applied; ``SessionOrdering``: a source's message answered only once committed, held
while the journal cannot be written) and its own broker client (``broker_client.py``). The duplicate
pairs session is the first kind (``duplicate_session.py``: its service and its desk on the link, with its
double-dummy analysis ``analysis.py`` and its roster ``roster.py``); docs/architecture.md says what a new
kind provides."""
