"""A logged-in designer's content versions are their account's: listed, opened and removed
from any address once logged in, never by a guest at the same address; removing one needs
the page's CSRF token like every other change."""

from __future__ import annotations

from typing import Any

import pytest

from tests.accounts.conftest import Browser, Site

pytestmark = pytest.mark.timeout(180)


def pack(b: Browser) -> dict[str, Any]:
    data: dict[str, Any] = b.client.get("/api/studio/knockback/shipped/new").json()["data"]
    data["id"], data["name"] = "account-pack", "Account Pack"
    return data


def listed(b: Browser) -> list[str]:
    answer = b.client.get("/api/studio/knockback/versions")
    assert answer.status_code == 200, answer.text
    return [v["id"] for v in answer.json()["versions"]]


def test_a_logged_in_designers_versions_follow_the_account(site: Site) -> None:
    ann = site.browser("203.0.113.7")
    assert ann.signup("Ann").status_code == 200
    up = ann.post("/api/studio/knockback/versions", {"data": pack(ann)})
    assert up.status_code == 200, up.text
    ident = up.json()["version"]["id"]
    assert listed(ann) == [ident]

    guest = site.browser("203.0.113.7")  # the same address, not logged in
    assert ident not in listed(guest)
    assert guest.client.get(f"/api/studio/versions/{ident}").status_code == 404

    elsewhere = site.browser("198.51.100.9")  # Ann again, from another address
    assert elsewhere.login("Ann").status_code == 200
    assert listed(elsewhere) == [ident]
    assert elsewhere.client.get(f"/api/studio/versions/{ident}").status_code == 200

    assert elsewhere.client.delete(f"/api/studio/versions/{ident}").status_code == 403  # no CSRF token
    gone = elsewhere.client.delete(f"/api/studio/versions/{ident}", headers={"x-csrf-token": elsewhere.csrf})
    assert gone.status_code == 200, gone.text
    assert listed(ann) == []
