"""The test server: ``python serve.py DB_URL PORT`` serves the app, with its pages, on
127.0.0.1:PORT (in a process of its own, as in production)."""

from __future__ import annotations

import sys

import uvicorn

from patience.web.app import create_app


def main() -> None:
    from patience.web.pages import install_pages

    db_url, port = sys.argv[1], int(sys.argv[2])
    app = create_app(db_url, solver_seconds=1.0)
    if not any(getattr(route, "path", None) == "/" for route in app.routes):
        install_pages(app)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", ws="none",
                access_log=False)


if __name__ == "__main__":
    main()
