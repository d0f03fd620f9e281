"""The club machine's web plumbing, shared by every page the director's server mounts: logins and
sessions (``auth.py``), login throttling and known devices (``throttle.py``), the one guard every
request that changes something passes (``guard.py``) and the one server-sent event stream
(``stream.py``). It knows nothing of tables or sessions."""
