"""The test server: ``python serve.py DB_URL FD`` serves the app, with its pages, on the
listening socket it inherits as file descriptor FD (in a process of its own, as in
production).  The test process binds that socket to a free loopback port before starting
this one, so no other process (another pytest-xdist worker, say) can take the port in
between."""

from __future__ import annotations

import socket
import sys

import uvicorn

from patience.web.app import create_app


def main() -> None:
    from patience.web.pages import install_pages

    db_url, fd = sys.argv[1], int(sys.argv[2])
    app = create_app(db_url, solver_seconds=1.0)
    if not any(getattr(route, "path", None) == "/" for route in app.routes):
        install_pages(app)
    config = uvicorn.Config(app, log_level="warning", ws="none", access_log=False)
    uvicorn.Server(config).run(sockets=[socket.socket(fileno=fd)])


if __name__ == "__main__":
    main()
