"""An event beyond one pairs field (teams of four, Swiss, an individual, pairs in sections) as a kind of
session (``laws.session.kind.Kind``): its setup, its records and their checks; the event's own model is
``laws.competition.event``."""
