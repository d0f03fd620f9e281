"""Hand records as files: reading and writing them (PBN ``pbnfile.py``, Duplimate ``duplimate.py``, the
format chosen by name ``handfiles.py``), the checks and limits every reader shares (``errors.py``), and
new deals dealt from a fresh random source with their fingerprints kept (``newdeals.py``)."""
