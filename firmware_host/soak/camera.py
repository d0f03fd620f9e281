"""The soak's camera: the synthetic camera's picture of the table, served as a live MJPEG stream over HTTP,
which ``cardtable run`` opens like any IP camera (``camera.source = "http://..."``, OpenCV's FFmpeg).

A camera fault (``camera``) is the stream going away (the server closes every connection and stops
listening) and coming back on the same port after a while, as a camera whose cable is pulled and
pushed back in.
"""

from __future__ import annotations

import http.server
import socket
import threading
import time
from typing import Any

FPS = 8


class StreamCamera:
    """An MJPEG stream of one rendered picture of an empty table, on a loopback port."""

    def __init__(self, size: tuple[int, int] = (320, 240)) -> None:
        import cv2

        from vision.camera import SyntheticCamera

        ok, frame = SyntheticCamera(size=size).read()
        ok2, jpg = cv2.imencode(".jpg", frame)
        if not (ok and ok2):
            raise RuntimeError("the synthetic camera drew no picture")
        self.jpeg = jpg.tobytes()
        self.size = size
        self.port = 0
        self.frames = 0
        self._server: http.server.ThreadingHTTPServer | None = None
        self._conns: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._down = threading.Event()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/table.mjpg"

    def start(self) -> None:
        cam = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                with cam._lock:
                    cam._conns.add(self.connection)
                self.send_response(200)
                self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
                self.end_headers()
                head = b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n" % len(cam.jpeg)
                try:
                    while not cam._down.is_set():
                        self.wfile.write(head + cam.jpeg + b"\r\n")
                        cam.frames += 1
                        cam._down.wait(1 / FPS)
                except OSError:
                    pass
                finally:
                    with cam._lock:
                        cam._conns.discard(self.connection)

        self._down.clear()
        for _ in range(50):  # the port may be in TIME_WAIT's hands for a moment
            try:
                server = http.server.ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise RuntimeError(f"the soak's camera cannot listen on port {self.port} again")
        server.daemon_threads = True
        self.port = int(server.server_address[1])
        threading.Thread(target=server.serve_forever, name="soak-camera", daemon=True).start()
        self._server = server

    def stop(self) -> None:
        """The cable is pulled: no more frames, connections closed, nobody listening."""
        self._down.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        with self._lock:
            for conn in list(self._conns):
                try:
                    conn.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

