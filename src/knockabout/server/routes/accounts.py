"""Accounts: optional; a guest plays exactly as without them.

  GET  /api/account                     who this browser is: {"account": {id, name} | null,
                                        "csrf": the token its state-changing requests carry}
  POST /api/account/signup              {name, password, claim?} -> a new account, logged in
  POST /api/account/login               {name, password, claim?} -> logged in
  POST /api/account/logout              {}
  POST /api/account/password            {password, new_password}: every other session ends
  POST /api/account/delete              {password}: the account goes; its games stay, its
                                        seats named "deleted player"
  POST /api/account/claim               {claim: [{table, token}, ...]}: the seats a guest's
                                        browser holds become the account's
  GET  /api/accounts/{name}             a profile: recent games (with what each rated one
                                        did to the rating), and per game the games played,
                                        won, drawn, lost, the win rate and the rating
  GET  /signup, /login, /account, /u/{name}   the front end's pages

Every POST here carries the page's CSRF token (``X-CSRF-Token``; see :mod:`..sessions`).
A failed log-in says the same, in the same time, whether or not the name has an account;
log-ins are limited per address and per name (:class:`~knockabout.server.quotas.LoginLimits`).
Names are 2 to 24 letters, digits, ``_``, ``.`` or ``-`` (case does not make another name);
passwords 8 to 256 characters.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Annotated, Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field

from knockabout.core.errors import KnockaboutError
from knockabout.core.registry import get_game
from knockabout.ladder.ratings import account_key, shown
from knockabout.server import passwords
from knockabout.server.app_state import ApiError, Server, ServerState, client_address
from knockabout.server.live import token_hash
from knockabout.server.ratings import rating_json
from knockabout.server.routes.pages import INDEX
from knockabout.server.sessions import SESSION_LIFETIME, Me, Viewer, id_hash
from knockabout.store import DELETED_NAME, Account, AccountGame, NameTaken
from knockabout.store.accounts import name_key
from knockabout.store.ratings import StoredRating

router = APIRouter()

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{1,23}")
LOGIN_FAILED = "wrong name or password"
RECENT_GAMES = 20


class SeatClaim(BaseModel):
    model_config = ConfigDict(extra="forbid")
    table: str = Field(min_length=1, max_length=64)
    token: str = Field(min_length=1, max_length=200)


Claims = Annotated[list[SeatClaim], Field(max_length=500)]


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=passwords.MAX_LENGTH)
    claim: Claims = Field(default_factory=list, description="seats this browser holds, to make the account's")


class PasswordChange(BaseModel):
    model_config = ConfigDict(extra="forbid")
    password: str = Field(min_length=1, max_length=passwords.MAX_LENGTH)
    new_password: str = Field(min_length=1, max_length=passwords.MAX_LENGTH)


class PasswordOnly(BaseModel):
    model_config = ConfigDict(extra="forbid")
    password: str = Field(min_length=1, max_length=passwords.MAX_LENGTH)


class ClaimSeats(BaseModel):
    model_config = ConfigDict(extra="forbid")
    claim: Claims


def account_json(account: Account) -> dict[str, Any]:
    return {"id": account.id, "name": account.name, "created_at": account.created_at}


def check_new_password(password: str, name: str) -> None:
    if len(password) < passwords.MIN_LENGTH:
        raise ApiError(422, f"a password needs at least {passwords.MIN_LENGTH} characters")
    if name_key(password) == name_key(name):
        raise ApiError(422, "a password must not be the account's name")


def check_name(name: str) -> None:
    if not NAME.fullmatch(name):
        raise ApiError(422, "a name is 2 to 24 letters, digits, _, . or - (starting with a letter or digit)")


async def start_session(server: ServerState, request: Request, response: Response, account: Account,
                        old: str | None) -> dict[str, Any]:
    """Log ``account`` in with a new session id (the old one, if any, ends: a session id
    never survives a log-in); the answer carries the new CSRF token."""
    if old is not None:
        await server.run(server.store.accounts.end_session, id_hash(old))
    session_id = server.sessions.new_id()
    await server.run(server.store.accounts.start_session, account.id, id_hash(session_id), SESSION_LIFETIME)
    server.sessions.set_session(request, response, session_id)
    return {"account": account_json(account), "csrf": server.sessions.csrf_token(session_id, None)}


async def claim_seats(server: ServerState, account: Account, claims: list[SeatClaim]) -> list[dict[str, Any]]:
    pairs = [(c.table, token_hash(c.token)) for c in claims]
    got = await server.run(server.store.accounts.claim, account.id, pairs)
    return [{"table": t, "seat": seat} for t, seat in got]


def guest_form(server: ServerState, request: Request, me: Viewer) -> None:
    """An account form is a state-changing request: it carries the CSRF token of its
    session, or of the guest's cookie (a log-in forged by another site is refused too)."""
    if me.account is None:  # (with a session, current_viewer checked it already)
        server.sessions.check_csrf(request, None)


@router.get("/api/account")
async def whoami(request: Request, response: Response, server: Server, me: Me) -> dict[str, Any]:
    if me.account is not None:
        return {"account": account_json(me.account), "csrf": server.sessions.csrf_token(me.session_id, None)}
    guest = server.sessions.guest_cookie(request, response)
    return {"account": None, "csrf": server.sessions.csrf_token(None, guest)}


@router.post("/api/account/signup")
async def signup(body: Credentials, request: Request, response: Response, server: Server, me: Me) -> dict[str, Any]:
    guest_form(server, request, me)
    name = body.name.strip()
    check_name(name)
    check_new_password(body.password, name)
    await server.logins.check_signup(client_address(request))
    hashed = await server.passwords.hash(body.password)
    try:
        account = await server.run(server.store.accounts.create, name, hashed)
    except NameTaken as exc:
        raise ApiError(409, str(exc)) from None
    out = await start_session(server, request, response, account, me.session_id)
    out["claimed"] = await claim_seats(server, account, body.claim)
    return out


@router.post("/api/account/login")
async def login(body: Credentials, request: Request, response: Response, server: Server, me: Me) -> dict[str, Any]:
    guest_form(server, request, me)
    key = name_key(body.name.strip())
    await server.logins.check_login(client_address(request), key)
    facts = await server.run(server.store.accounts.login_facts, body.name.strip())
    # the same work whether the name has an account or not: the hash is checked either way
    ok = await server.passwords.verify(facts[1] if facts else None, body.password)
    if facts is None or not ok:
        raise ApiError(401, LOGIN_FAILED)
    account, hashed = facts
    if server.passwords.needs_rehash(hashed):
        await server.run(server.store.accounts.set_password_hash, account.id,
                         await server.passwords.hash(body.password))
    out = await start_session(server, request, response, account, me.session_id)
    out["claimed"] = await claim_seats(server, account, body.claim)
    return out


@router.post("/api/account/logout")
async def logout(request: Request, response: Response, server: Server, me: Me) -> dict[str, Any]:
    guest_form(server, request, me)
    if me.session_id is not None:
        await server.run(server.store.accounts.end_session, id_hash(me.session_id))
    server.sessions.clear_session(request, response)
    guest = server.sessions.guest_cookie(request, response)
    return {"account": None, "csrf": server.sessions.csrf_token(None, guest)}


async def reauthenticate(server: ServerState, request: Request, account: Account, password: str) -> None:
    """Ask for the password again (changing it, deleting the account), counted like a log-in."""
    await server.logins.check_login(client_address(request), name_key(account.name))
    if not await server.passwords.verify(await server.run(server.store.accounts.password_hash, account.id),
                                         password):
        raise ApiError(401, "wrong password")


def logged_in(me: Viewer) -> Account:
    if me.account is None:
        raise ApiError(401, "log in first")
    return me.account


@router.post("/api/account/password")
async def change_password(body: PasswordChange, request: Request, response: Response, server: Server,
                          me: Me) -> dict[str, Any]:
    account = logged_in(me)
    await reauthenticate(server, request, account, body.password)
    check_new_password(body.new_password, account.name)
    await server.run(server.store.accounts.set_password_hash, account.id,
                     await server.passwords.hash(body.new_password))
    await server.run(server.store.accounts.end_sessions, account.id)  # logged out everywhere else
    return await start_session(server, request, response, account, None)


@router.post("/api/account/delete")
async def delete_account(body: PasswordOnly, request: Request, response: Response, server: Server,
                         me: Me) -> dict[str, Any]:
    account = logged_in(me)
    await reauthenticate(server, request, account, body.password)
    held = await server.run(server.store.accounts.delete, account.id)
    for table_id, seat in held:  # the live tables show the new name at once
        live = server.manager.get(table_id)
        if live is not None:
            await live.rename(seat, DELETED_NAME)
    server.sessions.clear_session(request, response)
    guest = server.sessions.guest_cookie(request, response)
    return {"account": None, "csrf": server.sessions.csrf_token(None, guest), "deleted": True}


@router.post("/api/account/claim")
async def claim(body: ClaimSeats, server: Server, me: Me) -> dict[str, Any]:
    account = logged_in(me)
    return {"claimed": await claim_seats(server, account, body.claim)}


def game_json(g: AccountGame, change: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """One of an account's tables; ``change`` what it did to the account's rating (rated
    tables only): ``{"before", "after"}`` on the shown scale."""
    finished = g.finished
    return {"id": g.table_id, "game": g.game, "status": g.status, "seat": g.seat, "names": g.names,
            "outcome": g.result, "created_at": g.created_at, "finished_at": g.finished_at,
            "result": ("won" if g.won else "drawn" if g.drawn else "lost") if finished else None,
            "rating_change": None if change is None else {"before": shown(change["mu_before"]),
                                                           "after": shown(change["mu_after"])},
            "url": f"/replay/{g.table_id}" if finished else f"/t/{g.table_id}"}


def game_stats(results: list[AccountGame], ratings: Sequence[StoredRating] = ()) -> list[dict[str, Any]]:
    """Per game: games played to the end, won, drawn, lost, the share won, and the
    account's rating there (``rating``: None until a rated table counted it; see
    :func:`~knockabout.server.ratings.rating_json` for its fields)."""
    out: dict[str, dict[str, Any]] = {}
    for g in results:
        row = out.setdefault(g.game, {"game": g.game, "name": game_name(g.game), "played": 0, "won": 0,
                                      "drawn": 0, "lost": 0})
        row["played"] += 1
        row["won" if g.won else "drawn" if g.drawn else "lost"] += 1
    for row in out.values():
        row["win_rate"] = row["won"] / row["played"]
        row["rating"] = None
    for r in ratings:
        row = out.setdefault(r.game, {"game": r.game, "name": game_name(r.game), "played": 0, "won": 0,
                                      "drawn": 0, "lost": 0, "win_rate": None})
        row["rating"] = rating_json(r, r.player)
    return sorted(out.values(), key=lambda r: (-r["played"], r["game"]))


def game_name(game_id: str) -> str:
    try:
        return get_game(game_id).name
    except KnockaboutError:
        return game_id  # a game this build does not have: its id


@router.get("/api/accounts/{name}")
async def profile(name: str, server: Server, me: Me) -> dict[str, Any]:
    account = await server.run(server.store.accounts.by_name, name) if len(name) <= 64 else None
    if account is None:
        raise ApiError(404, "no player has that name")
    own = me.account is not None and me.account.id == account.id
    # others see finished games of listed tables (an unlisted table's link is its creator's to give)
    games = await server.run(server.store.accounts.games, account.id, RECENT_GAMES, listed_only=not own,
                             finished_only=not own)
    results = await server.run(server.store.accounts.results, account.id)
    key = account_key(account.id)
    ratings = await server.run(server.store.ratings.of_player, key)
    changes = {c["table_id"]: c for c in await server.run(server.store.ratings.player_changes, key, RECENT_GAMES)}
    return {"name": account.name, "created_at": account.created_at, "own": own,
            "games": [game_json(g, changes.get(g.table_id)) for g in games], "stats": game_stats(results, ratings)}


@router.get("/signup", include_in_schema=False)
@router.get("/login", include_in_schema=False)
@router.get("/account", include_in_schema=False)
async def account_page() -> FileResponse:
    return FileResponse(INDEX)


@router.get("/u/{name}", include_in_schema=False)
async def profile_page(name: str) -> FileResponse:
    return FileResponse(INDEX)
