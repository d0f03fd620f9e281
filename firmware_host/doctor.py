"""``cardtable doctor``: is this Pi ready to run its table? One check per line, each OK or the fix.

Each check is a small function taking the validated configuration (and, for what a test must fake, the
thing it asks: the device folder, the kernel's clock state, ``systemctl``) and returning a ``Check``.
They use the same code paths as ``cardtable run``: ``vision.camera.open_camera``, pyserial, the MQTT
client with the table's credentials and TLS settings.
"""

from __future__ import annotations

import atexit
import ctypes
import glob
import os
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_host.config import Config
from firmware_host.resources import this_program
from firmware_host.wire.subscribed import stop_loop

MIN_FREE_BYTES = 200 * 1024 * 1024   # a long evening's journal is a few MB; leave room for logs and PBN
UNIT = "cardtable.service"
Runner = Callable[[Sequence[str]], tuple[int, str]]
Prober = Callable[[Any, Sequence[str]], list[Any]]  # (pins, backends) -> [Probe], as probe_backends


@dataclass(frozen=True)
class Check:
    """One line of the report: what was checked, whether it passed, and what was found or what to do."""

    name: str
    ok: bool
    text: str

    def line(self) -> str:
        return f"{'OK  ' if self.ok else 'FAIL'}  {self.name:<7} {self.text}"


def run_command(argv: Sequence[str]) -> tuple[int, str]:
    """Run a short command; (exit status, standard output). 127 when the program is not installed."""
    try:
        proc = subprocess.run(list(argv), capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return 127, str(exc)
    return proc.returncode, proc.stdout.strip()


# --- the camera ----------------------------------------------------------------------------------------

def _exposure(source: Any) -> str:
    """The exposure controls the camera offers, as words (informative: not every camera has them)."""
    cam = getattr(source, "_cam", None)
    controls = getattr(cam, "camera_controls", None)
    if isinstance(controls, dict):  # picamera2
        names = [c for c in ("AeEnable", "ExposureTime", "AnalogueGain", "ExposureValue") if c in controls]
        return f"exposure controls {', '.join(names)}" if names else "no exposure controls"
    get = getattr(source, "get", None)
    if callable(get):  # cv2.VideoCapture (V4L2)
        import cv2

        auto, value = get(cv2.CAP_PROP_AUTO_EXPOSURE), get(cv2.CAP_PROP_EXPOSURE)
        if value in (-1.0, 0.0) and auto in (-1.0, 0.0):
            return "no exposure controls reported (set them with v4l2-ctl)"
        return f"exposure {value:g} (auto-exposure mode {auto:g})"
    return "exposure: not adjustable (synthetic or file)"


def check_camera(cfg: Config, frames: int = 3) -> Check:
    source_name = cfg.camera.source
    if str(source_name) == "none":
        return Check("camera", True, "none configured (camera.source = \"none\")")
    from vision.camera import CameraError, SyntheticCamera, open_camera

    size = (cfg.camera.width, cfg.camera.height)
    try:
        cam = SyntheticCamera(size=size) if source_name == "synthetic" else open_camera(source_name, size)
    except CameraError as exc:
        fix = ("on a Pi with the camera module: sudo apt install python3-picamera2, a venv made with "
               "--system-site-packages, `rpicam-hello --list-cameras` lists it; the user in group video"
               if source_name == "picamera2" else
               "check `v4l2-ctl --list-devices` and camera.source; the user in group video")
        return Check("camera", False, f"{exc} -- fix: {fix}")
    try:
        got = 0
        shape = None
        for _ in range(frames):
            ok, frame = cam.read()
            if ok and frame is not None and getattr(frame, "size", 0):
                got += 1
                shape = frame.shape
        exposure = _exposure(cam)
    finally:
        cam.release()
    if got < frames:
        return Check("camera", False, f"{source_name!r} opened but gave {got} of {frames} frames -- fix: "
                     "another program may hold it (stop it), or check the cable/ribbon")
    assert shape is not None
    return Check("camera", True, f"{source_name!r} delivers {shape[1]}x{shape[0]} frames; {exposure}")


# --- the shoe's serial port ----------------------------------------------------------------------------

def check_serial(cfg: Config) -> Check:
    if cfg.shoe.driver == "none":
        return Check("serial", True, "no shoe configured (shoe.driver = \"none\")")
    port = cfg.shoe.port
    import serial

    if "://" not in port:
        if not os.path.exists(port):
            return Check("serial", False, f"{port} does not exist -- fix: plug the shoe's FTDI cable in (lsusb: "
                         f"0403:6001); install the udev rule (sudo {this_program()} install-files) or set "
                         "shoe.port to its /dev/ttyUSB* device")
        if not os.access(port, os.R_OK | os.W_OK):
            return Check("serial", False, f"{port}: this user may not read and write it -- fix: sudo usermod -aG "
                         f"dialout {_user()} and log in again (the service gets it from SupplementaryGroups)")
    try:
        link = serial.serial_for_url(port, baudrate=cfg.shoe.baudrate, timeout=0, do_not_open=False)
        link.close()
    except (serial.SerialException, OSError, ValueError) as exc:
        return Check("serial", False, f"{port}: cannot open ({exc}) -- fix: is another program using it?")
    return Check("serial", True, f"{port} opens for reading and writing")


def _user() -> str:
    import getpass

    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return str(os.getuid())


# --- GPIO ---------------------------------------------------------------------------------------------

def check_gpio(cfg: Config, dev: str = "/dev", probe: Prober | None = None) -> Check:
    """The GPIO chips are usable by this user, and a button pin of the panel opens with edge detection
    on the backend ``pins.factory`` chooses (``auto``: lgpio, else RPi.GPIO). Backends are tried in that
    order until one opens the pin, as ``auto`` does at start, and each one tried is named with what it
    did: a Pi whose lgpio fails says why, and then what RPi.GPIO did (on a 6.6 kernel, no edge detection)."""
    from firmware_host.devices.panel import AUTO_ORDER, use_lgpio_folder
    from firmware_host.devices.panel_retry import probe_backends

    factory = cfg.pins.factory
    if factory == "mock":
        return Check("gpio", True, "mock pins (pins.factory = \"mock\"): no GPIO used")
    chips = sorted(glob.glob(os.path.join(dev, "gpiochip*")))
    if not chips:
        return Check("gpio", False, f"no {dev}/gpiochip* -- fix: this is not a Raspberry Pi? then set "
                     "pins.factory = \"mock\"")
    denied = [c for c in chips if not os.access(c, os.R_OK | os.W_OK)]
    if len(denied) == len(chips):
        return Check("gpio", False, f"{', '.join(chips)}: not readable and writable by this user -- fix: sudo "
                     f"usermod -aG gpio {_user()} and log in again")
    # lgpio makes its notification pipes where LG_WD says when it is imported: the data folder, as the
    # unit does (else the working folder, which `sudo -u cardtable` in the source checkout cannot write).
    folder = cfg.table.data_dir
    if not os.access(folder, os.W_OK) and "LG_WD" not in os.environ:
        folder = Path(tempfile.mkdtemp(prefix="cardtable-lg-"))   # gone when doctor ends, not left in /tmp
        atexit.register(shutil.rmtree, folder, True)
    use_lgpio_folder(folder)
    # The backends after the one that works are not the panel's: probed, a Trixie Pi without RPi.GPIO
    # (SETUP installs it on Bookworm only) had an OK line telling it to install RPi.GPIO with apt.
    order = AUTO_ORDER if factory == "auto" else (factory,)
    results: list[Any] = []
    for backend in order:
        results += (probe or probe_backends)(cfg.pins, (backend,))
        if results and results[-1].ok:
            break
    said = "; ".join(f"{r.backend}: {r.text}" for r in results)
    chosen = next((r for r in results if r.ok), None)
    usable = f"{len(chips) - len(denied)} GPIO chip(s) usable"
    if chosen is None:
        fix = "sudo apt install python3-lgpio, and make the venv with --system-site-packages"
        if factory == "rpigpio":
            fix += '; or set pins.factory = "lgpio" (or "auto")'

        return Check("gpio", False, f"{usable}, but no pin opens with edge detection: {said} -- fix: {fix}")
    return Check("gpio", True, f"{usable}; the panel uses {chosen.backend}: {said}")


def _importable(name: str) -> bool:
    import importlib.util

    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


# --- the data folder ----------------------------------------------------------------------------------

def check_data(cfg: Config, min_free: int = MIN_FREE_BYTES) -> Check:
    folder = cfg.table.data_dir
    if not folder.is_dir():  # not made here: run as root, doctor would make it root's
        return Check("data", False, f"{folder} does not exist -- fix: sudo install -d -o cardtable -g "
                     f"cardtable -m 0750 {folder} (hardware/SETUP.md, step 2)")
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".doctor-"):
            pass
        free = shutil.disk_usage(folder).free
    except OSError as exc:
        return Check("data", False, f"{folder}: cannot write ({exc.strerror or exc}) -- fix: the service makes "
                     "/var/lib/cardtable itself (StateDirectory); elsewhere: sudo install -d -o cardtable "
                     f"{folder}")
    if free < min_free:
        return Check("data", False, f"{folder}: only {free // 2**20} MB free -- fix: free at least "
                     f"{min_free // 2**20} MB (old exports, logs)")
    return Check("data", True, f"{folder} is writable; {free // 2**20} MB free")


# --- the clock ----------------------------------------------------------------------------------------

TIME_ERROR = 5  # adjtimex(2): the clock is not synchronised


def kernel_clock_state() -> int:
    """``adjtimex(2)`` read-only: 0 (TIME_OK) ... 5 (TIME_ERROR, not synchronised); -1 if unknown."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        buf = ctypes.create_string_buffer(512)  # struct timex, modes = 0: only read
        return int(libc.adjtimex(buf))
    except (OSError, AttributeError):
        return -1


def check_clock(state: Callable[[], int] = kernel_clock_state) -> Check:
    code = state()
    if code == -1:
        return Check("clock", False, "cannot ask the kernel whether the clock is synchronised -- fix: check "
                     "`timedatectl`")
    if code == TIME_ERROR:
        return Check("clock", False, "not synchronised: journal times would be wrong -- fix: give the Pi a "
                     "network with NTP (`timedatectl` should say 'System clock synchronized: yes'); a Pi "
                     "has no battery clock")
    return Check("clock", True, "synchronised (journal times are right)")


# --- the broker ---------------------------------------------------------------------------------------

def check_broker(cfg: Config, timeout: float = 5.0) -> Check:
    mqtt_cfg = cfg.mqtt
    if mqtt_cfg is None:
        return Check("broker", True, "none configured (no [mqtt] section)")
    import ssl

    import paho.mqtt.client as mqtt

    from firmware_host.tablelink.checks import connect_problem, read_password

    where = f"{mqtt_cfg.host}:{mqtt_cfg.port}{' (TLS)' if mqtt_cfg.tls else ''}"
    user = mqtt_cfg.username or cfg.table.id
    try:
        password = read_password(mqtt_cfg)
    except OSError as exc:
        return Check("broker", False, f"cannot read the password file ({exc.strerror or exc}) -- fix: copy "
                     f"the broker's passwords/{user}.password to {mqtt_cfg.password_file}, owner cardtable")
    done = threading.Event()
    result: list[Any] = []
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"cardtable-{cfg.table.id}-doctor",
                         protocol=mqtt.MQTTv311, clean_session=True)
    client.username_pw_set(user, password)

    def on_connect(c: Any, u: Any, flags: Any, reason_code: Any, props: Any) -> None:
        result.append(reason_code)
        done.set()

    client.on_connect = on_connect
    try:
        if mqtt_cfg.tls:
            client.tls_set(ca_certs=str(mqtt_cfg.ca_file) if mqtt_cfg.ca_file else None,
                           cert_reqs=ssl.CERT_REQUIRED)
        client.connect(mqtt_cfg.host, mqtt_cfg.port, keepalive=10)
        client.loop_start()
        done.wait(timeout)
    except (OSError, ValueError, ssl.SSLError):
        pass
    finally:
        stop_loop(client)
        client.disconnect()
    if not result:
        return Check("broker", False, f"{where}: {connect_problem(mqtt_cfg, timeout)} -- fix: is the broker "
                     "running and reachable? host, port and tls in [mqtt]")
    code = result[0]
    if code.is_failure:
        return Check("broker", False, f"{where} refused user {user!r}: {code} -- fix: [mqtt] username must be a "
                     f"table the broker knows (BROKER_ARGS in the club's /etc/cardtable/club.env: --tables N "
                     f"or --table {user}) and password_file must hold its passwords/{user}.password")
    return Check("broker", True, f"{where} accepts user {user!r}")


# --- the service --------------------------------------------------------------------------------------

def unit_state(run: Runner = run_command) -> tuple[str, str]:
    """(``systemctl is-enabled``, ``systemctl is-active``) of the unit; ("", "") without systemctl."""
    rc, enabled = run(["systemctl", "is-enabled", UNIT])
    if rc == 127:
        return "", ""
    _, active = run(["systemctl", "is-active", UNIT])
    return enabled or "not-found", active or "unknown"


def check_unit(state: tuple[str, str]) -> Check:
    enabled, active = state
    if not enabled:
        return Check("service", False, "systemctl is not here -- fix: on the Pi, see hardware/SETUP.md "
                     "(or --skip service where there is no systemd)")
    if enabled in ("not-found", "") or "No such file" in enabled:
        return Check("service", False, f"{UNIT} is not installed -- fix: sudo {this_program()} install-files, "
                     "then sudo systemctl daemon-reload && sudo systemctl enable --now cardtable")
    if enabled != "enabled":
        return Check("service", False, f"{UNIT} is {enabled} -- fix: sudo systemctl enable --now cardtable")
    if active not in ("active", "activating"):
        return Check("service", False, f"{UNIT} is enabled but {active} -- fix: journalctl -u cardtable -e "
                     f"says why; a configuration error stops it (exit 2): sudo -u cardtable {this_program()} "
                     "check-config says what, then sudo systemctl restart cardtable")
    return Check("service", True, f"{UNIT} is enabled and {active}")


CHECKS = ("camera", "serial", "gpio", "data", "clock", "broker", "service")


def run_checks(cfg: Config, skip: Sequence[str] = (), *, dev: str = "/dev",
               clock: Callable[[], int] = kernel_clock_state, run: Runner = run_command) -> list[Check]:
    """Every check not in ``skip``, in the order of ``CHECKS``. When a device check fails while the
    service is running, the fix says that the service may be holding the device."""
    state = unit_state(run) if "service" not in skip else ("", "")
    funcs: dict[str, Callable[[], Check]] = {
        "camera": lambda: check_camera(cfg), "serial": lambda: check_serial(cfg),
        "gpio": lambda: check_gpio(cfg, dev), "data": lambda: check_data(cfg),
        "clock": lambda: check_clock(clock), "broker": lambda: check_broker(cfg),
        "service": lambda: check_unit(state)}
    out = []
    for name in CHECKS:
        if name in skip:
            continue
        check = funcs[name]()
        if not check.ok and name in ("camera", "serial", "gpio") and state[1] == "active":
            check = Check(check.name, False, check.text + " (cardtable.service is running and may hold it: "
                          "sudo systemctl stop cardtable, then run doctor again)")
        out.append(check)
    return out


def doctor_exit(checks: Sequence[Check]) -> int:
    return 0 if all(c.ok for c in checks) else 1


def config_path_default() -> Path:
    return Path("/etc/cardtable/table.toml")
