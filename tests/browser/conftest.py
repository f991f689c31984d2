"""Fixtures of the browser tests: a real server (uvicorn, in a subprocess, on a loopback port,
with its own SQLite file) and Debian's Chromium driven by Playwright.

The browser tests need ``/usr/bin/chromium`` (``make test`` installs it with apt-get when it is
missing); without it they are skipped, saying so.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

CHROMIUM = Path(os.environ.get("PATIENCE_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a real server (uvicorn in a process of its own, on a loopback port,
    with its own SQLite file), with the HTML pages installed.  The port is bound here and
    the socket handed to the server: no other process (another xdist worker's server, say)
    can take it between choosing it and listening on it."""
    tmp = tmp_path_factory.mktemp("browser")
    log = (tmp / "server.log").open("ab")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).with_name("serve.py")),
             f"sqlite:///{tmp / 'web.db'}", str(sock.fileno())],
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            pass_fds=[sock.fileno()])
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                break
        except httpx.TransportError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            log.close()
            raise RuntimeError(f"the test server did not start: "
                               f"{(tmp / 'server.log').read_text()}")
        time.sleep(0.05)
    yield url
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(15)
    log.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip(f"no Chromium at {CHROMIUM}: `make chromium` (or `make test`) installs "
                    "Debian's chromium package")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def new_page(browser: Any, server: str) -> Iterator[Any]:
    """Open pages in fresh browser contexts (each one a new player, with its own cookie)."""
    contexts: list[Any] = []

    def make(viewport: dict[str, int] | None = None, *, phone: bool = False,
             motion: str = "reduce") -> Any:
        options: dict[str, Any] = {"viewport": viewport or (PHONE if phone else DESKTOP),
                                   "base_url": server, "reduced_motion": motion}
        if phone:
            options.update(has_touch=True, is_mobile=True, device_scale_factor=2)
        ctx = browser.new_context(**options)
        contexts.append(ctx)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("dialog", lambda d: d.accept())
        page.errors = errors
        return page

    yield make
    for ctx in contexts:
        ctx.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    (ARTIFACTS / "screenshots").mkdir(parents=True, exist_ok=True)
    return ARTIFACTS / "screenshots"
