"""What accounts must withstand: finding out which names exist, guessing passwords, forged
requests from other sites, planted session ids, markup in names, and one account reaching
for another's tables. Each test would fail without the protection it names."""

from __future__ import annotations

import statistics
import time
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from tests.accounts.conftest import PASSWORD, Browser, Site

pytestmark = pytest.mark.timeout(180)

NO_LIMITS = {"login_rate": "off", "account_login_rate": "off", "signup_rate": "off"}


# -- enumeration
def test_a_failed_login_says_the_same_whether_or_not_the_name_exists(make_site: Any) -> None:
    with make_site(**NO_LIMITS) as site:
        owner = site.browser()
        owner.signup("ann")
        b = site.browser("198.51.100.1")
        known = b.login("ann", "not the password")
        unknown = b.login("nobody-here", "not the password")
        assert (known.status_code, known.json()) == (unknown.status_code, unknown.json()) == (
            401, {"error": "wrong name or password"})
        assert "set-cookie" not in known.headers and "set-cookie" not in unknown.headers


def test_an_unknown_name_costs_a_password_check_as_a_known_one_does(make_site: Any) -> None:
    with make_site(**NO_LIMITS) as site:
        site.browser().signup("ann")
        passwords = site.app.state.server.passwords
        counting = CountingHasher(passwords.hasher)
        passwords.hasher = counting
        checks = counting.checks
        b = site.browser("198.51.100.1")

        def timed(name: str) -> float:
            start = time.perf_counter()
            assert b.login(name, "not the password").status_code == 401
            return time.perf_counter() - start

        known, unknown = [], []
        for i in range(9):  # in turns, so that the machine's own load falls on both alike
            known.append(timed("ann"))
            unknown.append(timed(f"nobody{i}"))
    assert len(checks) == 18, "every attempt checks a hash, whether the name exists or not"
    ratio = statistics.median(unknown) / statistics.median(known)
    assert 0.5 < ratio < 2.0, f"known {statistics.median(known):.3f} s, unknown {statistics.median(unknown):.3f} s"


class CountingHasher:
    """A password hasher that counts the hashes it checks."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.checks: list[str] = []

    def verify(self, h: str, password: str) -> bool:
        self.checks.append(h)
        return bool(self.inner.verify(h, password))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def test_the_login_limit_refuses_unknown_and_known_names_alike(make_site: Any) -> None:
    with make_site(login_rate="off", account_login_rate="2/minute") as site:
        site.browser().signup("ann")
        answers = {}
        for name in ("ann", "nobody-here"):
            b = site.browser("198.51.100.5")
            for _ in range(2):
                assert b.login(name, "wrong password!").status_code == 401
            refused = b.login(name, "wrong password!")
            answers[name] = (refused.status_code, refused.json())
    assert answers["ann"] == answers["nobody-here"]
    assert answers["ann"][0] == 429


def test_profiles_of_unknown_and_deleted_names_answer_alike(site: Site) -> None:
    gone = site.browser()
    gone.signup("gone")
    assert gone.post("/api/account/delete", {"password": PASSWORD}).status_code == 200
    b = site.browser("198.51.100.1")
    deleted, unknown = b.client.get("/api/accounts/gone"), b.client.get("/api/accounts/never-was")
    assert (deleted.status_code, deleted.json()) == (unknown.status_code, unknown.json())
    assert deleted.status_code == 404


# -- brute force
def test_logins_are_limited_per_address(make_site: Any) -> None:
    with make_site(login_rate="3/minute", account_login_rate="off") as site:
        site.browser().signup("ann")
        attacker = site.browser("198.51.100.66")
        for _ in range(3):
            assert attacker.login("ann", "guess guess").status_code == 401
        assert attacker.login("ann").status_code == 429, "even the right password, past the limit"
        assert attacker.login("someone-else", "guess guess").status_code == 429, "any name, from that address"
        assert site.browser("198.51.100.67").login("ann").status_code == 200, "another address is not held up"


def test_logins_are_limited_per_account_from_any_address(make_site: Any) -> None:
    with make_site(login_rate="off", account_login_rate="3/minute") as site:
        site.browser().signup("ann")
        site.browser("192.0.2.99").signup("bo")
        for i in range(3):
            assert site.browser(f"198.51.100.{i + 10}").login("ANN", "guess guess").status_code == 401
        assert site.browser("198.51.100.50").login("ann").status_code == 429, "the account is held for a while"
        assert site.browser("198.51.100.51").login("bo").status_code == 200, "other accounts are not"


def test_asking_for_the_password_again_counts_against_the_limit(make_site: Any) -> None:
    with make_site(login_rate="3/minute", account_login_rate="off") as site:
        thief = site.browser()  # e.g. a browser left logged in
        thief.signup("ann")
        for _ in range(3):
            assert thief.post("/api/account/password", {"password": "guess guess",
                                                        "new_password": "mine now!!"}).status_code == 401
        assert thief.post("/api/account/delete", {"password": PASSWORD}).status_code == 429


def test_new_accounts_are_limited_per_address(make_site: Any) -> None:
    with make_site(signup_rate="2/hour") as site:
        b = site.browser()
        assert b.signup("one").status_code == 200
        assert b.signup("two").status_code == 200
        assert b.signup("three").status_code == 429
        assert site.browser("198.51.100.3").signup("four").status_code == 200


# -- CSRF
def test_account_forms_need_the_page_s_token(site: Site) -> None:
    site.browser().signup("ann")
    b = site.browser("198.51.100.1")
    other = site.browser("198.51.100.2")
    for token in ("", "0" * 64, other.csrf):
        refused = b.post("/api/account/login", {"name": "ann", "password": PASSWORD}, csrf=token)
        assert refused.status_code == 403, token
        assert "knockabout_session" not in b.client.cookies, "no session came of it"
    assert b.post("/api/account/signup", {"name": "forged", "password": PASSWORD}, csrf="x" * 64).status_code == 403
    assert b.login("ann").status_code == 200


def test_a_logged_in_browser_s_state_changing_requests_need_its_session_s_token(site: Site) -> None:
    ann = site.browser()
    ann.signup("ann")
    tables = len(site.app.state.manager.tables)
    forged: dict[str, dict[str, Any]] = {
        "/api/tables": {"game": "nak-muay", "seats": ["me", "random"]},
        "/api/account/password": {"password": PASSWORD, "new_password": "attacker's choice"},
        "/api/account/delete": {"password": PASSWORD},
        "/api/account/logout": {},
        "/api/account/claim": {"claim": []},
    }
    guest = site.browser("198.51.100.9")
    for path, body in forged.items():
        for token in (None, "f" * 64, guest.csrf):
            headers = {} if token is None else {"x-csrf-token": token}
            answer = ann.client.post(path, json=body, headers=headers)
            assert answer.status_code == 403, (path, token, answer.text)
    assert len(site.app.state.manager.tables) == tables, "no table was made"
    assert ann.load()["account"]["name"] == "ann", "still logged in, password unchanged"
    assert site.browser("198.51.100.3").login("ann").status_code == 200
    assert ann.post("/api/tables", forged["/api/tables"]).status_code == 200, "with the token it works"


def test_a_guest_without_a_session_plays_without_any_token(site: Site) -> None:
    b = site.browser()
    made = b.client.post("/api/tables", json={"game": "nak-muay", "seats": ["me", "open"], "name": "Gus"})
    assert made.status_code == 200
    joined = site.browser("198.51.100.1").client.post(f"/api/tables/{made.json()['id']}/join", json={"name": "Hal"})
    assert joined.status_code == 200


# -- session fixation
def test_logging_in_always_starts_a_new_session(site: Site) -> None:
    attacker = site.browser("198.51.100.66")
    attacker.signup("mallory")
    planted = attacker.client.cookies["knockabout_session"]
    victim = site.browser()
    victim.signup("victim")
    victim.post("/api/account/logout")
    plant(victim, planted)  # by the attacker
    victim.load()
    assert victim.login("victim").status_code == 200
    mine = victim.client.cookies["knockabout_session"]
    assert mine != planted
    assert victim.load()["account"]["name"] == "victim"
    assert attacker.load()["account"] is None, "the planted session is over, and never was the victim's"
    forged = site.browser("198.51.100.67")
    plant(forged, mine.split(".")[0] + ".AAAAAA.forged-signature")
    assert forged.load()["account"] is None, "an unsigned session id is nobody's"


def plant(b: Browser, session_cookie: str) -> None:
    """Put a session cookie into a browser's jar (where the server's own would be)."""
    domain = next(c.domain for c in b.client.cookies.jar if c.name == "knockabout_csrf")
    b.client.cookies.delete("knockabout_session")
    b.client.cookies.set("knockabout_session", session_cookie, domain=domain, path="/")


# -- names are text
@pytest.mark.parametrize("name", ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "a\"b'c", "ann&co",
                                  "x" * 25, "a", "two words"])
def test_account_names_hold_no_markup(site: Site, name: str) -> None:
    answer = site.browser().signup(name)
    assert answer.status_code == 422 and "letters, digits" in answer.json()["error"]


# -- another account's tables
def test_an_account_cannot_take_another_s_seats(site: Site) -> None:
    ann, bo = site.browser(), site.browser("198.51.100.2")
    ann.signup("ann")
    private = ann.table(seats=["me", "open"], listed=False)
    public = ann.table(seats=["me", "open"])
    bo.signup("bo")
    guessed = bo.post("/api/account/claim", {"claim": [{"table": private["id"], "token": "guessed-token"},
                                                      {"table": public["id"], "token": public["id"]}]})
    assert guessed.status_code == 200 and guessed.json()["claimed"] == []
    leaked = bo.post("/api/account/claim", {"claim": [{"table": public["id"], "token": public["token"]}]})
    assert leaked.json()["claimed"] == [], "a seat an account holds stays that account's, even with its token"
    at = site.app.state.store.accounts.accounts_at(public["id"])
    assert {s: a.name for s, a in at.items()} == {0: "ann"}
    # bo sees none of ann's unfinished or unlisted tables on her profile; she sees all of hers
    assert bo.client.get("/api/accounts/ann").json()["games"] == []
    assert {g["id"] for g in ann.client.get("/api/accounts/ann").json()["games"]} == {private["id"], public["id"]}
    # nor can bo ask for a rematch or take her seat with his session: the seat token is the key
    assert bo.post(f"/api/tables/{public['id']}/rematch", {"token": "not hers"}).status_code == 409
    ws_url = site.url.replace("http", "ws") + f"/ws/tables/{public['id']}"
    cookie = f"knockabout_session={bo.client.cookies['knockabout_session']}"
    with connect(ws_url, additional_headers={"cookie": cookie}) as ws:
        ws.send('{"type": "hello"}')
        assert '"seat":null' in ws.recv(timeout=10).replace(" ", ""), "a session alone is a spectator's"


def test_cookies_are_http_only_same_site_and_secure_behind_https(make_site: Any) -> None:
    with make_site() as site:
        plain = site.browser()
        plain.signup("ann")
        cookie = plain_cookie(plain)
        assert "httponly" in cookie and "samesite=lax" in cookie and "secure" not in cookie
        # behind a TLS proxy on 127.0.0.1
        assert "; secure" in signed_up(site, "bo", {"x-forwarded-proto": "https"})
    with make_site(secure_cookies=True) as site:
        assert "; secure" in signed_up(site, "cy", {})


def signed_up(site: Site, name: str, headers: dict[str, str]) -> str:
    """The cookies a sign-up sets (lower case). This client speaks plain HTTP to the server,
    so it sends back by hand the Secure cookie it would not send itself."""
    with httpx.Client(base_url=site.url, headers={"x-forwarded-for": "198.51.100.4", **headers}) as client:
        page = client.get("/api/account")
        assert "; secure" in page.headers["set-cookie"].lower()
        guest = page.cookies["knockabout_csrf"]
        made = client.post("/api/account/signup", json={"name": name, "password": PASSWORD},
                           headers={"x-csrf-token": page.json()["csrf"], "cookie": f"knockabout_csrf={guest}"})
        assert made.status_code == 200, made.text
        return str(made.headers["set-cookie"]).lower()


def plain_cookie(b: Browser) -> str:
    answer = b.login("ann")
    assert answer.status_code == 200
    return str(answer.headers["set-cookie"]).lower()
