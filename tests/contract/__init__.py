"""Clean-room contract tests: what outside developers who build from our documents alone would check.

The documents are the contract: ``hardware/shoe/PROTOCOL.md`` with ``hardware/shoe/test_vectors.json``,
``docs/events.md`` and ``docs/laws.md``. ``shoewire`` (a protocol codec) and ``outsider`` (running
``cardtable replay`` and writing ordinary deals) are written from those documents and import nothing of
ours; the tests then hold our host codec, the reference firmware and the law engine to them. A test here
that fails means the code or the document is wrong: fix whichever the document's words make wrong.
"""
