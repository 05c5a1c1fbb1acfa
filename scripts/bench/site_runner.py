"""Starts the built site on a free loopback port with a fresh seeded database: for the e2e tests and the
benchmarks.

    url, stop = start_site({"REDIS_URL": "redis://127.0.0.1:6390/0", "GRANIAN_WORKERS": "2"})
    ...
    stop()

`env_overrides` go into the site's environment over the defaults below (a new DATA_DIR folder, a SQLite
database in it, demo mode, a free port). The site's output is in DATA_DIR/site.log; `stop` ends the site
and removes DATA_DIR. `backend_only` serves the app's backend (the REST API, the embedded services and the
pages' live connection) as `reflex run` does, without building the frontend: a start in seconds.
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
LOG_NAME = "site.log"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _run(args: list[str], env: dict) -> None:
    result = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed:\n{result.stdout}\n{result.stderr}")


def _backend(port: int) -> list[str]:
    """The backend's server as `reflex run --env prod` starts it (Granian, the app's factory), told that the
    frontend is built elsewhere."""
    return [
        str(VENV_BIN / "granian"),
        *("--interface", "asgi", "--factory", "--host", "127.0.0.1", "--port", str(port)),
        "cycling_site.cycling_site:app",
    ]


def start_site(
    env_overrides: dict[str, str] | None = None, backend_only: bool = False
) -> tuple[str, Callable[[], None]]:
    """Migrates and seeds the database, starts `reflex run --env prod --single-port` (or only the backend)
    and waits for /ping; answers the site's address and the function that stops it."""
    overrides = env_overrides or {}
    data_dir = Path(overrides.get("DATA_DIR") or tempfile.mkdtemp(prefix="cycling-site-"))
    port = int(overrides.get("PORT") or free_port())
    env = {
        **os.environ,
        "APP_ENV": "demo",
        "DATA_DIR": str(data_dir),
        "DB_URL": f"sqlite:///{data_dir / 'site.db'}",
        "PORT": str(port),
        "SITE_URL": f"http://127.0.0.1:{port}",
        **({"__REFLEX_SKIP_COMPILE": "true"} if backend_only else {}),
        **overrides,
    }
    _run([str(VENV_BIN / "reflex"), "db", "migrate"], env)
    _run([sys.executable, "-m", "cycling_site.seed"], env)
    log = data_dir / LOG_NAME
    with log.open("w") as log_file:
        process = subprocess.Popen(
            _backend(port)
            if backend_only
            else [str(VENV_BIN / "reflex"), "run", "--env", "prod", "--single-port"],
            cwd=ROOT,
            env=env,
            stdout=log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def stop() -> None:
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        shutil.rmtree(data_dir, ignore_errors=True)

    url = env["SITE_URL"]
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        failure = ""
        if process.poll() is not None:
            failure = "The site stopped while starting"
        elif time.monotonic() > deadline:
            failure = f"The site did not start in {START_TIMEOUT} s"
        if failure:
            output = log.read_text()[-4000:]
            stop()
            raise RuntimeError(f"{failure}:\n{output}")
        try:
            if httpx.get(f"{url}/ping", timeout=2).status_code == 200:
                return url, stop
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
