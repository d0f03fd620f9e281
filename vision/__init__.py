"""Camera sources, card codes, decoding, table zones: what the camera saw, as law-engine events."""
