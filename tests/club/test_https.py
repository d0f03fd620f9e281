"""The dashboard served over HTTPS itself (``--certfile``/``--keyfile``): the page comes over TLS and both
cookies are Secure; behind a reverse proxy, its ``X-Forwarded-Proto: https`` makes them Secure too."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import pytest

from firmware_host.cli import main
from firmware_host.club.broker import LocalBroker, free_port
from firmware_host.club.certs import make_broker_cert, make_club_ca
from firmware_host.club.dashboard import Dashboard, serve
from firmware_host.web.auth import hash_password

from .conftest import PASSWORDS


def _serve(d: Dashboard, **kw: str) -> tuple[object, threading.Thread, int]:
    port = free_port()
    server = serve(d, "127.0.0.1", port, **kw)
    runner = threading.Thread(target=server.run, daemon=True)
    runner.start()
    for _ in range(200):
        if server.started:
            break
        threading.Event().wait(0.05)
    return server, runner, port


@pytest.mark.parametrize("how", ["certfile", "proxy"])
def test_cookies_are_secure_whenever_the_page_is_served_over_https(broker: LocalBroker, tmp_path: Path,
                                                                   how: str) -> None:
    import httpx

    d = Dashboard("127.0.0.1", broker.port, "dashboard", PASSWORDS["dashboard"],
                  {"director": hash_password("right-horse-1")})
    if how == "certfile":
        if shutil.which("openssl") is None:
            pytest.skip("openssl is not installed (Debian package openssl; `make test` installs it)")
        ca = make_club_ca(tmp_path / "certs")
        cert, key = make_broker_cert(tmp_path / "certs", ["127.0.0.1"])
        server, runner, port = _serve(d, certfile=str(cert), keyfile=str(key))
        url, verify, headers = f"https://127.0.0.1:{port}", str(ca), {}
    else:
        server, runner, port = _serve(d, forwarded_allow_ips="127.0.0.1")
        url, verify, headers = f"http://127.0.0.1:{port}", "", {"X-Forwarded-Proto": "https"}
    try:
        with httpx.Client(base_url=url, verify=verify or False) as c:
            r = c.post("/login", data={"username": "director", "password": "right-horse-1"}, headers=headers)
        assert r.status_code == 303
        cookies = r.headers.get_list("set-cookie")
        assert len(cookies) == 2 and all("; secure" in x.lower() for x in cookies), cookies
    finally:
        server.should_exit = True  # type: ignore[attr-defined]
        runner.join(10)


def test_https_needs_both_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    users, pw = tmp_path / "users", tmp_path / "pw"
    users.write_text(f"director:{hash_password('right-horse-1')}\n")
    pw.write_text("x\n")
    assert main(["club", "dashboard", "--users", str(users), "--mqtt-password-file", str(pw),
                 "--certfile", str(tmp_path / "nope.pem")]) == 2
    assert "HTTPS needs --certfile and --keyfile" in capsys.readouterr().err
