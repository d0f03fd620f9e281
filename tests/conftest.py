"""Suite-wide settings.

Hypothesis's per-example deadline measures wall-clock time; on a shared two-core machine (and in CI) a
single example can take longer than 200 ms for reasons that have nothing to do with the code, and the
test then fails as "flaky". Speed is measured by ``cardtable bench``, never by tests, so the deadline is
off for the whole suite.
"""

from hypothesis import settings

settings.register_profile("cardtable", deadline=None)
settings.load_profile("cardtable")
