"""The duplicate pairs session's pure model: its setup (``spec.py``), its state as a fold of its
journal's records (``state.py``) and the checks each record passes before it is taken (``checks.py``)."""
