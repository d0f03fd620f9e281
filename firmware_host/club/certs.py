"""TLS for a club's broker without buying certificates: a club CA, and a broker certificate it signs.

``make_club_ca(folder)`` writes ``club-ca.pem`` (give it to every table and the dashboard: ``[mqtt]
ca_file``, ``--ca-file``) and ``club-ca.key`` (keep it off the tables). ``make_broker_cert(folder,
hosts)`` writes ``broker.pem`` and ``broker.key`` for the names and addresses the tables use to reach the
broker (``cardtable club broker --certfile --keyfile``). Both call the ``openssl`` command (Debian
package ``openssl``); keys are 2048-bit RSA, readable by their owner only.
"""

from __future__ import annotations

import ipaddress
import re
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path


class CertError(RuntimeError):
    """openssl is missing or refused; the message says which step and why."""


def _openssl(*args: str) -> None:
    tool = shutil.which("openssl")
    if tool is None:
        raise CertError("openssl is not installed (Debian package 'openssl')")
    done = subprocess.run([tool, *args], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise CertError(f"openssl {args[0]} failed: {(done.stderr or done.stdout).strip()[-500:]}")


_LABEL = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)")


def host_problem(host: str) -> str:
    """Why ``host`` cannot be named in the broker's certificate ("" when it can): an IP address, or a
    host name of letters, digits and ``-`` in dot-separated labels of 1 to 63 characters. ``--host 'a b/c'``
    reached openssl, which answered "Missing '=' after RDN type string 'c' in subject name string" in
    three lines of its own, after the club CA had been made."""
    try:
        ipaddress.ip_address(host)
        return ""
    except ValueError:
        pass
    if not host or len(host) > 253 or not all(_LABEL.fullmatch(label) for label in host.removesuffix(".").split(".")):
        return (f"{host[:60]!r} is not a host name or IP address (letters, digits and - in labels of 1 to 63 "
                "characters joined by dots, such as club.local, or an address such as 192.168.1.10)")
    return ""


def make_club_ca(folder: str | Path, days: int = 3650) -> Path:
    """Create the club CA in ``folder`` (once; an existing CA is kept). Returns ``club-ca.pem``."""
    d = Path(folder)
    d.mkdir(parents=True, exist_ok=True)
    pem, key = d / "club-ca.pem", d / "club-ca.key"
    if pem.exists() and key.exists():
        return pem
    _openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(pem),
             "-days", str(days), "-subj", "/CN=cardtable club CA",
             "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    key.chmod(0o600)
    return pem


def make_broker_cert(folder: str | Path, hosts: Sequence[str], days: int = 825) -> tuple[Path, Path]:
    """A broker certificate for ``hosts`` (names or IP addresses) and for ``localhost``/``127.0.0.1``,
    signed by the club CA in ``folder``.

    Returns:
        (certificate, key) paths.

    Raises:
        CertError: no CA in ``folder`` (make it first), no host, or openssl refused.
    """
    d = Path(folder)
    ca, ca_key = d / "club-ca.pem", d / "club-ca.key"
    if not (ca.exists() and ca_key.exists()):
        raise CertError(f"no club CA in {d}: make it first (club-ca.pem and club-ca.key)")
    if not hosts:
        raise CertError("name at least one host name or address the tables use to reach the broker")
    for h in hosts:
        if host_problem(h):
            raise CertError(f"--host {host_problem(h)}")
    alt: list[str] = []
    # the club's own services (the dashboard, a session, doctor) reach the broker on this machine as
    # localhost (config/club.env): always named, whatever hosts the tables use
    for h in (*hosts, "localhost", "127.0.0.1"):
        try:
            name = f"IP:{ipaddress.ip_address(h)}"
        except ValueError:
            name = f"DNS:{h}"
        if name not in alt:
            alt.append(name)
    pem, key, csr, ext = d / "broker.pem", d / "broker.key", d / "broker.csr", d / "broker.ext"
    ext.write_text("basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\n"
                   "extendedKeyUsage=serverAuth\nsubjectKeyIdentifier=hash\n"
                   "authorityKeyIdentifier=keyid,issuer\n"
                   f"subjectAltName={','.join(alt)}\n", encoding="utf-8")
    _openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(csr),
             "-subj", f"/CN={hosts[0]}")
    key.chmod(0o600)
    _openssl("x509", "-req", "-in", str(csr), "-CA", str(ca), "-CAkey", str(ca_key), "-CAcreateserial",
             "-out", str(pem), "-days", str(days), "-extfile", str(ext))
    csr.unlink()
    ext.unlink()
    return pem, key
