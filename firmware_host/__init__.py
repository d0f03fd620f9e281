"""The Raspberry Pi host program, in rooms (``docs/architecture.md``): ``table`` (the heart: controller
and its promises), ``records`` (journal, replay, exports), ``devices`` (panel, display, words), ``shoe``,
``club``, ``duplicate``, ``soak``, ``bench`` and ``commands`` (the CLI); at the top, ``live`` (a real
table put together), ``demo``, ``doctor``, ``config`` and ``resources``.
"""
