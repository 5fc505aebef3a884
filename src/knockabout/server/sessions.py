"""Who is asking: the session cookie of a logged-in browser, and the CSRF token every
state-changing request of a browser with a session (and every account form) must carry.

- The session cookie (``knockabout_session``) holds a random 256-bit session id, signed
  (itsdangerous, with the server's key kept in its database); it is HttpOnly, SameSite=Lax,
  and Secure when the request came over HTTPS (as uvicorn reads it from the socket, or from
  a trusted proxy's ``X-Forwarded-Proto``: ``FORWARDED_ALLOW_IPS``, 127.0.0.1 by default)
  or always with ``ServerSettings.secure_cookies``. The store keeps only the id's SHA-256.
  Logging in or signing up always starts a new session (a session id planted before it is
  worth nothing: session fixation), logging out or changing the password ends it.
- The CSRF token is an HMAC of the session id (of a guest's own random cookie,
  ``knockabout_csrf``, before logging in). ``GET /api/account`` gives it to the page, which
  sends it back in the ``X-CSRF-Token`` header; another site can neither read it nor make
  it. A request without a session cookie needs none: it carries no authority but what is in
  its body (a seat token), so a forged one gains nothing.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request, Response
from itsdangerous import BadSignature, TimestampSigner

from knockabout.server.app_state import ApiError, ServerState, server_state
from knockabout.store import Account

SESSION_COOKIE = "knockabout_session"
GUEST_COOKIE = "knockabout_csrf"
CSRF_HEADER = "x-csrf-token"
SESSION_LIFETIME = 30 * 24 * 3600.0  # seconds a session lasts from logging in
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
CSRF_REFUSAL = "this request lacks the page's security token (reload the page and try again)"


def id_hash(session_id: str) -> str:
    """What the store keeps of a session id."""
    return hashlib.sha256(session_id.encode()).hexdigest()


class Sessions:
    """Signing session cookies and making CSRF tokens with one server key."""

    def __init__(self, key: str, secure_always: bool = False) -> None:
        self._key = key.encode()
        self._signer = TimestampSigner(key, salt="knockabout-session")
        self.secure_always = secure_always

    @staticmethod
    def new_id() -> str:
        return secrets.token_urlsafe(32)

    def session_id(self, request: Request) -> str | None:
        """The session id the request's cookie holds, if it is signed by this server and
        younger than a session lives."""
        value = request.cookies.get(SESSION_COOKIE)
        if not value or len(value) > 200:
            return None
        try:
            return self._signer.unsign(value, max_age=int(SESSION_LIFETIME)).decode()
        except (BadSignature, UnicodeDecodeError):
            return None

    def csrf_token(self, session_id: str | None, guest: str | None) -> str | None:
        """The CSRF token for a session (or, without one, for a guest's cookie)."""
        if session_id is not None:
            what = "session:" + session_id
        elif guest:
            what = "guest:" + guest
        else:
            return None
        return hmac.new(self._key, what.encode(), hashlib.sha256).hexdigest()

    def check_csrf(self, request: Request, session_id: str | None) -> None:
        """Refuse (403) a request whose ``X-CSRF-Token`` is not the token of its session
        (or, without one, of its guest cookie)."""
        expected = self.csrf_token(session_id, request.cookies.get(GUEST_COOKIE))
        given = request.headers.get(CSRF_HEADER, "")
        if expected is None or not hmac.compare_digest(expected.encode(), given.encode()):
            raise ApiError(403, CSRF_REFUSAL)

    def secure(self, request: Request) -> bool:
        return self.secure_always or request.url.scheme == "https"

    def set_session(self, request: Request, response: Response, session_id: str) -> None:
        response.set_cookie(SESSION_COOKIE, self._signer.sign(session_id).decode(), max_age=int(SESSION_LIFETIME),
                            path="/", httponly=True, samesite="lax", secure=self.secure(request))

    def clear_session(self, request: Request, response: Response) -> None:
        response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax", secure=self.secure(request))

    def guest_cookie(self, request: Request, response: Response) -> str:
        """The guest's own random cookie (made now if the browser has none)."""
        guest = request.cookies.get(GUEST_COOKIE)
        if not guest or len(guest) > 100:
            guest = secrets.token_urlsafe(24)
            response.set_cookie(GUEST_COOKIE, guest, path="/", httponly=True, samesite="strict",
                                secure=self.secure(request))
        return guest


@dataclass(frozen=True)
class Viewer:
    """Who makes a request: a logged-in account (with its session id) or a guest."""

    account: Account | None = None
    session_id: str | None = None


async def current_viewer(request: Request, server: Annotated[ServerState, Depends(server_state)]) -> Viewer:
    """The request's account, from its session cookie; a state-changing request with a
    session must carry the session's CSRF token (else 403)."""
    session_id = server.sessions.session_id(request)
    if session_id is None:
        return Viewer()
    account = await server.run(server.store.accounts.session_account, id_hash(session_id))
    if account is None:
        return Viewer()  # expired, ended or deleted: a guest
    if request.method not in SAFE_METHODS:
        server.sessions.check_csrf(request, session_id)
    return Viewer(account, session_id)


Me = Annotated[Viewer, Depends(current_viewer)]
"""A route parameter typed ``Me`` receives the :class:`Viewer` making the request."""
