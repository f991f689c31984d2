"""The real server: ``serve`` in a subprocess, killed with SIGKILL in the middle of play,
loses no acknowledged move; and the ``serve``/``feedback`` commands."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from patience.web.players import COOKIE

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")

#: ``python -m patience.web`` is the ``patience`` command line with ``serve`` registered.
SERVE = [sys.executable, "-m", "patience.web", "serve"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """``serve`` in a subprocess on a free loopback port (``port`` if given and still free).

    ``serve`` binds a port number it is given, so another process (another pytest-xdist
    worker's server or client connection) may take the port between :func:`free_port` and
    the bind; the server then exits saying so, and it is started again on another port."""

    def __init__(self, db: str, log: Path, port: int | None = None) -> None:
        for _ in range(5):
            before = log.stat().st_size if log.exists() else 0
            if self._start(db, port or free_port(), log):
                return
            self.stop()
            said = log.read_bytes()[before:].decode(errors="replace")
            if "address already in use" not in said.lower():
                raise AssertionError(f"the server did not start: {log.read_text()}")
            port = None  # taken meanwhile: another one
        raise AssertionError(f"the server found no free port: {log.read_text()}")

    def _start(self, db: str, port: int, log: Path) -> bool:
        """Start the server; whether it answers (False: it exited, or not in time)."""
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.log = log.open("ab")
        self.process = subprocess.Popen(
            [*SERVE, "--port", str(port), "--db", db, "--log-level", "warning"],
            stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 30
        while self.process.poll() is None and time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.url}/api/health", timeout=1).status_code == 200:
                    return True
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        return False

    def kill9(self) -> None:
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(10)
        self.log.close()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self.log.close()


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[list[Server]]:
    started: list[Server] = []
    yield started
    for s in started:
        s.stop()


def test_kill_9_in_the_middle_of_play_loses_no_acknowledged_move(
        tmp_path: Path, servers: list[Server]) -> None:
    db = f"sqlite:///{tmp_path / 'crash.db'}"
    first = Server(db, tmp_path / "server.log")
    servers.append(first)
    with httpx.Client(base_url=first.url, timeout=10) as c:
        state = c.post("/api/games", json={"game": "fours-up", "deal": 7}).json()
        acknowledged: list[str] = []
        for _ in range(12):
            legal = [m for m in state["legal_moves"] if m != "deal"] or state["legal_moves"]
            r = c.post(f"/api/games/{state['id']}/moves",
                       json={"move": legal[0], "version": state["version"]})
            assert r.status_code == 200, r.text
            acknowledged.append(legal[0])
            state = r.json()
        cookie = c.cookies[COOKIE]
    first.kill9()

    second = Server(db, tmp_path / "server.log", port=first.port)  # the same port if free
    servers.append(second)
    with httpx.Client(base_url=second.url, timeout=10, cookies={COOKIE: cookie}) as c:
        again = c.get(f"/api/games/{state['id']}").json()
        assert again["moves"] == len(acknowledged) and again["version"] == state["version"]
        assert again["piles"] == state["piles"] and again["legal_moves"] == state["legal_moves"]
        record = c.get(f"/api/games/{state['id']}/record").json()
        assert record["moves"] == acknowledged
        # and play goes on where it stopped
        r = c.post(f"/api/games/{state['id']}/moves",
                   json={"move": again["legal_moves"][0], "version": again["version"]})
        assert r.status_code == 200
    # another browser (no cookie) cannot see it
    assert httpx.get(f"{second.url}/api/games/{state['id']}", timeout=10).status_code == 404


def test_serve_makes_the_sqlite_folder_and_answers_the_schema(tmp_path: Path,
                                                              servers: list[Server]) -> None:
    db_file = tmp_path / "new" / "folder" / "p.db"
    server = Server(f"sqlite:///{db_file}", tmp_path / "server.log")
    servers.append(server)
    assert db_file.is_file()
    schema = httpx.get(f"{server.url}/api/openapi.json", timeout=10).json()
    assert schema["info"]["title"] == "patience" and "/api/games" in schema["paths"]


def test_web_commands_register_with_the_cli() -> None:
    import patience.web.cli  # noqa: F401  (registers serve and feedback)
    from patience.cli import build_parser

    parser = build_parser()
    args = parser.parse_args(["serve", "--port", "8123", "--db", "sqlite:///x.db"])
    assert (args.host, args.port, args.db) == ("127.0.0.1", 8123, "sqlite:///x.db")
    args = parser.parse_args(["feedback", "--limit", "3"])
    assert args.limit == 3
    with pytest.raises(SystemExit):
        parser.parse_args(["serve", "--port", "70000"])


def test_feedback_command_lists_messages_with_their_position(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from fastapi.testclient import TestClient

    from patience.web.app import create_app
    from patience.web.cli import main

    db = f"sqlite:///{tmp_path / 'fb.db'}"
    assert main(["feedback", "--db", db]) == 0
    assert "No feedback yet." in capsys.readouterr().out
    with TestClient(create_app(db)) as c:
        s = c.post("/api/games", json={"game": "fours-up", "deal": 7}).json()
        s = c.post(f"/api/games/{s['id']}/moves", json={"move": "t6>f1", "version": 0}).json()
        r = c.post("/api/feedback", json={"message": "why can't the 2D move?",
                                          "game_id": s["id"]})
        assert r.status_code == 201
    assert main(["feedback", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "why can't the 2D move?" in out and "fours-up --deal 7" in out and "t6>f1" in out
    assert main(["feedback", "--db", db, "--json"]) == 0
    import json

    items = json.loads(capsys.readouterr().out)
    assert items[0]["moves"] == ["t6>f1"] and items[0]["deal"] == 7
