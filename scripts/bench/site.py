"""Starts the built site on a free loopback port with a fresh seeded database, for benchmarks and tests.

    url, stop = start_site({"GRANIAN_WORKERS": "2"})
    ...
    stop()

`env_overrides` are added to the site's environment (e.g. REDIS_URL); the site's database is
`site_db_url(url)`, its log `site_log(url)`.
"""

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = ROOT / ".venv" / "bin"
START_TIMEOUT = 600
_started: dict[str, tuple[str, Path]] = {}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _run(args: list[str], env: dict) -> None:
    result = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed:\n{result.stdout}\n{result.stderr}")


def start_site(env_overrides: dict[str, str] | None = None) -> tuple[str, Callable[[], None]]:
    """Migrates and seeds a new database, starts `reflex run --env prod --single-port` and waits for
    /ping; answers the site's address and the function that stops it and removes its data."""
    data_dir = Path(tempfile.mkdtemp(prefix="cycling-site-"))
    port = _free_port()
    env = {
        **os.environ,
        "APP_ENV": "demo",
        "DATA_DIR": str(data_dir),
        "DB_URL": f"sqlite:///{data_dir / 'site.db'}",
        "PORT": str(port),
        "SITE_URL": f"http://127.0.0.1:{port}",
        **(env_overrides or {}),
    }
    _run([str(VENV_BIN / "reflex"), "db", "migrate"], env)
    _run([sys.executable, "-m", "cycling_site.seed"], env)
    log = data_dir / "site.log"
    with log.open("w") as log_file:
        process = subprocess.Popen(
            [str(VENV_BIN / "reflex"), "run", "--env", "prod", "--single-port"],
            cwd=ROOT,
            env=env,
            stdout=log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def stop() -> None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
        shutil.rmtree(data_dir, ignore_errors=True)

    url = env["SITE_URL"]
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        if process.poll() is not None:
            stop()
            raise RuntimeError(f"The site stopped while starting:\n{log.read_text()[-4000:]}")
        try:
            if httpx.get(f"{url}/ping", timeout=2).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            stop()
            raise RuntimeError(f"The site did not start in {START_TIMEOUT} s")
        time.sleep(0.5)
    _started[url] = (env["DB_URL"], log)
    return url, stop


def site_db_url(url: str) -> str:
    return _started[url][0]


def site_log(url: str) -> Path:
    return _started[url][1]


def site_pid(url: str) -> int:
    """The process listening on the site's port (the server; with several workers, their parent)."""
    import psutil

    port = int(url.rsplit(":", 1)[1])
    for connection in psutil.net_connections("tcp"):
        if connection.status == "LISTEN" and connection.laddr.port == port and connection.pid:
            return connection.pid
    raise RuntimeError(f"Nothing listens on port {port}")
