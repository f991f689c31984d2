"""The web server: the game API for the browser table, anonymous players, storage.

``patience serve`` starts it; :func:`patience.web.app.create_app` builds the ASGI app.
The modules import FastAPI, SQLAlchemy and friends; this package's ``__init__`` does not,
so ``patience.web.cli`` can register its commands without them.
"""
