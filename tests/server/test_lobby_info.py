"""The lobby's game cards, option choices, rules pages and rematches."""

from __future__ import annotations

from typing import Any

from knockabout.core.registry import get_game
from knockabout.server.rules import rules_html
from tests.server.conftest import receive_until


def test_every_game_sells_itself_with_a_line_a_length_and_its_rules(make_client: Any) -> None:
    with make_client() as c:
        games = {g["id"]: g for g in c.get("/api/games").json()["games"]}
        for gid, g in games.items():
            assert g["lobby"]["summary"] and g["lobby"]["minutes"][0] <= g["lobby"]["minutes"][1], gid
            r = c.get(f"/api/games/{gid}/rules")
            assert r.status_code == 200, r.text
            html = r.json()["html"]
            assert html.startswith("<h1") and "<script" not in html, gid
        r = c.get("/api/games/chess/rules")
        assert r.status_code == 404 and "chess" in r.json()["error"]


def test_every_offered_choice_is_a_value_the_game_accepts(make_client: Any) -> None:
    """A picker never offers a value the config refuses (and fighters come from their box)."""
    with make_client() as c:
        games = {g["id"]: g for g in c.get("/api/games").json()["games"]}
    kd = games["knockdown"]["lobby"]
    assert {ch["value"] for ch in kd["choices"]["boxes"]} == {"tainted_grail", "nemesis", "siege_storm"}
    assert kd["narrowed_by"]["fighters"] == "boxes"
    game = get_game("knockdown")
    for fighter in kd["choices"]["fighters"]:
        if fighter["value"] == "random":
            continue
        box = fighter["group"]
        assert fighter["detail"], "a fighter's sheet is shown on hover"
        game.new_state({"boxes": [box], "fighters": [fighter["value"], "random"], "arena": box}, 1)
    kb = games["knockback"]["lobby"]
    packs = [ch["value"] for ch in kb["choices"]["packs"] if ch["value"] != "random"]
    assert len(packs) >= 2 and all(len(ch["detail"]) == 3 for ch in kb["choices"]["packs"][1:]), "three cards a pack"
    get_game("knockback").new_state({"packs": packs[:2]}, 1)


RULES_DOCS = (("nak-muay-knockout", "nakmuay"), ("knockdown", "knockdown"), ("knockback", "knockback"))
PLAYER_PAGES = ("nak-muay", "knockdown", "knockback")  # each packaged page is written for players


def test_rules_pages_in_docs_are_the_packaged_ones_or_the_full_reference_behind_them() -> None:
    """docs/rules/ holds each game's full reference; where the packaged page (the browser's
    rules drawer) is the players' own shorter page, the reference links to it."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    for doc, pkg in RULES_DOCS:
        ref = (root / "docs/rules" / f"{doc}.md").read_text()
        page = root / "src/knockabout/games" / pkg / "rules.md"
        assert ref == page.read_text() or f"src/knockabout/games/{pkg}/rules.md" in ref, doc


def test_a_players_rules_page_speaks_plain_words() -> None:
    """How to play comes first; no rules version, no option keys, no action texts."""
    import re

    for gid in PLAYER_PAGES:
        html = rules_html(get_game(gid))
        headings = re.findall(r"<h2[^>]*>(.*?)</h2>", html)
        assert headings and headings[0] == "How to play", headings
        assert "rules version" not in html and "<code>" not in html, gid


def _finish(c: Any, table_id: str, token: str) -> dict[str, Any]:
    with c.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_json({"type": "hello", "token": token})
        while True:
            msg = receive_until(ws, lambda m: m.get("type") in ("sync", "update") and (
                m["outcome"] is not None or (m["decision"] and m["decision"]["player"] == m["seat"]
                                             and m["legal"])))
            if msg["outcome"] is not None:
                return msg
            ws.send_json({"type": "act", "action": msg["legal"][0], "version": msg["version"]})


def test_a_finished_table_is_played_again_with_the_same_seats_and_options(make_client: Any) -> None:
    with make_client() as c:
        made = c.post("/api/tables", json={"game": "nak-muay", "seats": ["me", "random", "easy"], "name": "Ann",
                                           "config": {"countdown_seconds": 2, "end_turn": "strict_end_turn"}}).json()
        early = c.post(f"/api/tables/{made['id']}/rematch", json={"token": made["token"]})
        assert early.status_code == 409 and "not over" in early.json()["error"]
        _finish(c, made["id"], made["token"])
        bad = c.post(f"/api/tables/{made['id']}/rematch", json={"token": "nope"})
        assert bad.status_code == 409 and "does not belong" in bad.json()["error"]
        r = c.post(f"/api/tables/{made['id']}/rematch", json={"token": made["token"]})
        assert r.status_code == 200, r.text
        again = r.json()
        info = c.get(f"/api/tables/{again['id']}").json()
        assert again["id"] != made["id"] and again["seat"] == 0
        assert [(s["kind"], s.get("level")) for s in info["seats"]] == [("person", None), ("bot", "random"),
                                                                         ("bot", "easy")]
        assert info["seats"][0]["name"] == "Ann"
        assert info["config"]["countdown_seconds"] == 2 and info["config"]["end_turn"] == "strict_end_turn"
        assert c.get(f"/api/tables/{made['id']}").json()["rematch"] == again["id"], "the old table points on"
        assert info["created_at"] > 0


def test_a_rematch_opens_the_other_persons_seat_for_them(make_client: Any) -> None:
    # (the test plays both seats itself: no grace period may run out and hand a seat to a
    # stand-in bot meanwhile, and the limits keep a first-legal-action game short)
    with make_client(grace=3600) as c:
        made = c.post("/api/tables", json={"game": "knockback", "seats": ["me", "open"], "name": "Ann",
                                           "config": {"max_turns": 20, "max_rounds": 2}}).json()
        bo = c.post(f"/api/tables/{made['id']}/join", json={"name": "Bo"}).json()
        live = c.app.state.manager.get(made["id"])
        while not live.table.over:  # both play their first legal action
            d = live.table.decision()
            live.table.act(d.player, live.table.updates_for(d.player).legal[0], live.table.version)
        first = c.post(f"/api/tables/{made['id']}/rematch", json={"token": made["token"]}).json()
        assert "id" in first, first
        info = c.get(f"/api/tables/{first['id']}").json()
        assert info["free_seats"] == [1] and info["status"] == "waiting"
        second = c.post(f"/api/tables/{made['id']}/rematch", json={"token": bo["token"]}).json()
        assert second["id"] == first["id"] and second["seat"] == 1, "Bo sits at the same rematch"
        assert c.get(f"/api/tables/{first['id']}").json()["status"] == "playing"
