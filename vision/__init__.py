"""Camera sources, card codes, decoding, table zones: what the camera saw, as law-engine events.

- ``vision.codes``: the card code's payload (``CARD_CODES.md``), ``encode_payload``/``parse_payload``; the
  bidding code of a bidding box's cards, ``encode_call_payload``/``parse_call_payload``; either kind,
  ``parse_code``.
- ``vision.decode``: ``make_decoder("zxing"|"pyzbar")`` -> ``read(frame) -> FrameReading``; its second look
  at code-shaped regions the whole-frame read missed, and at unread cards smeared by motion (measured
  and deconvolved), is ``vision.lookagain``.
- ``vision.camera``: ``open_camera(source, size, Exposure(...))``, ``SyntheticCamera``, ``Picamera2Source``,
  ``CaptureThread``; ``vision.camcheck``: what ``cardtable camera-check`` measures.
- ``vision.zones``: ``VisionConfig``/``Zones`` and ``load_vision_config`` for ``[vision]``/``[zones]``.
- ``vision.calibrate``: ArUco corner markers -> homography.
- ``vision.watcher``: ``TableWatcher.feed(frame) -> list[Event]``, ``set_phase``, ``take_notes``;
  ``build_watcher(cfg)``; in the auction its ``vision.calls_seen.CallWatch`` turns bidding cards into calls.
- ``vision.render``: synthetic table scenes (cards and bidding cards); ``vision.labels``: printable code
  stickers; ``vision.bidding_labels``: printable bidding cards (``cardtable labels --bidding``).
- ``vision.photo``: a second scene generator (from ``CARD_CODES.md`` alone) for ``vision.measure_degrade``,
  the degradation benchmark (``cardtable bench vision --degradations``).
"""
