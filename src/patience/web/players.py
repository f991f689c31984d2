"""Players without registration: a random id in a cookie, and restore codes.

The first request without a (well-formed) ``patience_player`` cookie is given a
fresh random id; the cookie is HttpOnly (scripts cannot read it), SameSite=Lax
and Secure over HTTPS.  A player row is only written when the player first
stores something (a game, a message, a restore code).

A restore code (``7K3M-Q9TX-4RWB-ZP2D``: 16 Crockford base-32 characters, 80
random bits) maps to the player id; entering it in another browser switches that
browser to the player, so statistics survive clearing browser data.  The code
reads back leniently: case, spaces and dashes do not matter, and ``O``/``I``/``L``
are read as ``0``/``1``/``1``.
"""

from __future__ import annotations

import re
import secrets
from http.cookies import SimpleCookie
from typing import Any

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

COOKIE = "patience_player"
COOKIE_MAX_AGE = 400 * 24 * 3600  # the longest browsers keep a cookie
_ID_RE = re.compile(r"^[A-Za-z0-9_-]{22,64}$")
_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base 32
_READ_AS = str.maketrans({"O": "0", "I": "1", "L": "1"})
CODE_LENGTH = 16


def new_player_id() -> str:
    return secrets.token_urlsafe(24)


def valid_player_id(value: str | None) -> bool:
    return value is not None and bool(_ID_RE.match(value))


def new_restore_code() -> str:
    raw = "".join(secrets.choice(_ALPHABET) for _ in range(CODE_LENGTH))
    return "-".join(raw[i:i + 4] for i in range(0, CODE_LENGTH, 4))


def normalize_restore_code(text: str) -> str | None:
    """The canonical form of a typed code, or None when it cannot be one."""
    raw = re.sub(r"[\s-]+", "", text).upper().translate(_READ_AS)
    if len(raw) != CODE_LENGTH or any(c not in _ALPHABET for c in raw):
        return None
    return "-".join(raw[i:i + 4] for i in range(0, CODE_LENGTH, 4))


def _cookie_value(scope: Scope) -> str | None:
    for name, value in scope.get("headers", ()):
        if name == b"cookie":
            jar: SimpleCookie = SimpleCookie()
            try:
                jar.load(value.decode("latin-1"))
            except Exception:  # a malformed Cookie header is treated as no cookie
                continue
            if COOKIE in jar:
                return jar[COOKIE].value
    return None


def cookie_header(player_id: str, *, secure: bool) -> str:
    parts = [f"{COOKIE}={player_id}", "Path=/", f"Max-Age={COOKIE_MAX_AGE}", "HttpOnly",
             "SameSite=Lax"]
    if secure:
        parts.append("Secure")
    return "; ".join(parts)


def player_of(scope_state: dict[str, Any]) -> str:
    player: str = scope_state["player_id"]
    return player


class PlayerCookieMiddleware:
    """Puts the player id in ``request.state.player_id`` and keeps the cookie set.

    A handler that changes ``request.state.player_id`` (restoring a player) gets
    the cookie changed with its response.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        sent = _cookie_value(scope)
        if not valid_player_id(sent):
            sent = None
        state = scope.setdefault("state", {})
        state["player_id"] = sent or new_player_id()
        secure = scope.get("scheme") == "https"

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                player = state.get("player_id")
                if player and player != sent:
                    headers = MutableHeaders(scope=message)
                    headers.append("set-cookie", cookie_header(player, secure=secure))
            await send(message)

        await self.app(scope, receive, send_with_cookie)
