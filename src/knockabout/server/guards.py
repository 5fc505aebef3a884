"""Input guards: what the server does with input it will not take.

Every HTTP refusal has one shape, ``{"error": "<a sentence>"}``, whoever refuses it
(our routes, FastAPI's validation, Starlette's 404/405, a body too large or not JSON,
an unexpected failure). Every WebSocket message that cannot be taken (a binary frame,
text that is not JSON or nested too deeply, a message too large, an unknown type) gets
one ``{"type": "error", "message": ...}`` and changes nothing; the connection stays
open, so a bad client never makes the table send a frame to anyone else.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger(__name__)

MAX_BODY_BYTES = 64 * 1024
"""The largest HTTP request body the server reads (a table's config is a few hundred bytes)."""

MAX_MESSAGE_CHARS = 16 * 1024
"""The largest WebSocket text message the server reads (an answer is at most ~2 KB)."""

NOT_JSON = "the body is not JSON (or it is not UTF-8, or nested too deeply)"

GONE = (WebSocketDisconnect, RuntimeError, OSError)
"""What sending to or closing a socket whose client has gone may raise (Starlette raises
RuntimeError after a close, the servers' transports OSError subclasses)."""


class BodyLimit:
    """ASGI middleware: a request body over ``limit`` bytes is answered 413 ``{"error": ...}``
    before the application sees any of it (by its Content-Length, or while it streams)."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._refuse(scope, receive, send)
            return
        body = bytearray()
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body.extend(message.get("body", b""))
            more = bool(message.get("more_body"))
            if len(body) > self.limit:
                await self._refuse(scope, receive, send)
                return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if sent:
                return await receive()  # after the body: wait for the disconnect
            sent = True
            return {"type": "http.request", "body": bytes(body), "more_body": False}

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = JSONResponse(
            {"error": f"request body too large: at most {self.limit} bytes are accepted"}, status_code=413)
        await response(scope, receive, send)


def install_error_handlers(app: FastAPI) -> None:
    """Starlette's own refusals (404, 405, a body that is not JSON) and any unexpected
    failure answer ``{"error": ...}`` like every other refusal."""

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 404:
            message = f"no such page or route: {request.url.path}"
        elif exc.status_code == 405:
            message = f"{request.method} is not allowed on {request.url.path}"
        elif exc.status_code == 400 and "parsing the body" in str(exc.detail):
            message = f"bad request: {NOT_JSON}"
        else:
            message = str(exc.detail)
        return JSONResponse({"error": message}, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.error("unexpected %s on %s %s: %s", type(exc).__name__, request.method, request.url.path, exc)
        return JSONResponse({"error": "the server failed to answer this request"}, status_code=500)


class BadFrame(Exception):
    """A WebSocket message the server does not read; the text says why."""


async def receive_text(ws: WebSocket) -> str:
    """The next text message. A disconnect raises :class:`WebSocketDisconnect`; a binary
    frame or a message over :data:`MAX_MESSAGE_CHARS` raises :class:`BadFrame`."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    if text is None:
        raise BadFrame("binary frames are not accepted: send JSON as a text message (UTF-8)")
    if len(text) > MAX_MESSAGE_CHARS:
        raise BadFrame(f"message too large: {len(text)} characters, at most {MAX_MESSAGE_CHARS}")
    return str(text)


def json_problem(exc: ValidationError) -> str | None:
    """Why a message is not JSON at all (None when it is JSON but not a known message)."""
    for err in exc.errors():
        if err.get("type") == "json_invalid":
            why = str(err.get("ctx", {}).get("error", "")) or "invalid"
            return f"not JSON: {why}"
    return None


def first_problem(exc: ValidationError | RequestValidationError) -> str:
    """The first few problems a validation found, on one line (``field: why; ...``)."""
    problems = []
    for err in exc.errors()[:3]:
        if err.get("type") == "json_invalid":
            return NOT_JSON
        loc = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "message"
        problems.append(f"{loc}: {err.get('msg', 'invalid')}")
    return "; ".join(problems)


async def send_safely(ws: WebSocket, data: dict[str, Any]) -> None:
    """Send unless the client has gone (then do nothing: its receive loop cleans up)."""
    try:
        await ws.send_json(data)
    except GONE:
        return


async def close_safely(ws: WebSocket, code: int, reason: str) -> None:
    """Close with a code and a reason the client can read, unless it has gone already."""
    try:
        await ws.close(code=code, reason=reason[:120])
    except GONE:
        return
