"""The lobby: games, creating tables, joining seats, clear errors."""

from __future__ import annotations

from typing import Any

from knockabout.bots.levels import levels_for


def test_games_list_nak_muay_with_options_and_bot_levels(make_client: Any) -> None:
    with make_client() as c:
        r = c.get("/api/games")
        assert r.status_code == 200
        games = {g["id"]: g for g in r.json()["games"]}
        assert "countdown_seconds" in games["nak-muay"]["options"]
        assert "random" in r.json()["bots"]
        # each game lists the levels it offers: learned only where a trained network ships
        assert games["nak-muay"]["bots"] == ["random", "easy", "medium", "hard", "learned"]
        for g in games.values():
            assert g["bots"] == levels_for(g["id"]) and g["bots"][:4] == ["random", "easy", "medium", "hard"]


def test_create_then_join_an_open_seat_with_a_secret_token(make_client: Any) -> None:
    with make_client() as c:
        r = c.post("/api/tables", json={"game": "nak-muay", "seats": ["me", "open", "random"], "name": "Ann"})
        assert r.status_code == 200, r.text
        made = r.json()
        assert made["seat"] == 0 and len(made["token"]) >= 20
        info = c.get(f"/api/tables/{made['id']}").json()
        assert info["status"] == "waiting" and info["free_seats"] == [1]
        assert info["seed"] is None and made["table"]["seed"] is None, "the seed would give away the deal"
        assert made["token"] not in str(info), "tokens are never shown to others"
        j = c.post(f"/api/tables/{made['id']}/join", json={"name": "Bo"})
        assert j.status_code == 200 and j.json()["seat"] == 1 and j.json()["token"] != made["token"]
        info = c.get(f"/api/tables/{made['id']}").json()
        assert info["status"] == "playing" and [s["name"] for s in info["seats"]][:2] == ["Ann", "Bo"]
        full = c.post(f"/api/tables/{made['id']}/join", json={"name": "Cy"})
        assert full.status_code == 409 and "no free seat" in full.json()["error"]


def test_a_table_with_a_learned_bot(make_client: Any) -> None:
    with make_client() as c:
        r = c.post("/api/tables", json={"game": "nak-muay", "seats": ["me", "learned"], "name": "Ann"})
        assert r.status_code == 200, r.text
        info = c.get(f"/api/tables/{r.json()['id']}").json()
        assert info["seats"][1]["kind"] == "bot" and info["seats"][1]["level"] == "learned"


def test_bad_table_requests_get_one_clear_error(make_client: Any) -> None:
    with make_client() as c:
        cases = [
            ({"game": "chess", "seats": ["me", "random"]}, "unknown game 'chess'"),
            ({"game": "nak-muay", "seats": ["me", "wizard"]}, "unknown seat 'wizard'"),
            ({"game": "nak-muay", "seats": ["me", "me", "random"]}, "only one seat may be 'me'"),
            ({"game": "nak-muay", "seats": ["me", "random"], "config": {"countdown_seconds": -3}},
             "Countdown seconds must be more than 0 (you gave -3)."),
            ({"game": "nak-muay", "seats": ["me", "random"], "config": {"players": 4}}, "players is 4"),
            ({"game": "nak-muay", "seats": ["me", "random"], "colour": "red"}, "colour"),
            ({"game": "nak-muay"}, "seats"),
            ({"game": "nak-muay", "seats": ["me", "open"], "seed": 4}, "gives away the deal"),
        ]
        for body, message in cases:
            r = c.post("/api/tables", json=body)
            assert r.status_code in (400, 422), body
            assert message in r.json()["error"], (body, r.json())
        assert c.get("/api/tables").json()["tables"] == [], "nothing was created"
        r = c.get("/api/tables/nope")
        assert r.status_code == 404 and "no table 'nope'" in r.json()["error"]


def test_options_naming_server_files_cannot_be_set_from_the_web(make_client: Any) -> None:
    with make_client() as c:
        games = {g["id"]: g for g in c.get("/api/games").json()["games"]}
        for g in games.values():
            assert not any(k.endswith(("_file", "_files", "_dir", "_path")) for k in g["options"]), g["id"]
        if "knockback" in games:
            r = c.post("/api/tables", json={"game": "knockback", "seats": ["me", "random"],
                                            "config": {"pack_files": ["/etc"]}})
            assert r.status_code == 400 and "only available in local play" in r.json()["error"]


def test_knockback_marks_its_pack_files_option_as_local_only() -> None:
    from knockabout.core import get_game
    from knockabout.server.live import local_only_options

    assert "pack_files" in local_only_options(get_game("knockback"))
    schema = get_game("knockback").config_model.model_json_schema()
    assert schema["properties"]["pack_files"].get("local_only") is True


def test_a_bad_option_from_the_form_reads_as_a_sentence_about_the_game(make_client: Any) -> None:
    """What the web's create form can send wrong comes back in the options' own names, never
    as an option key or a validator's message (the command line keeps the keys)."""
    cases = [
        ("nak-muay", {"countdown_seconds": 0}, "Countdown seconds must be more than 0 (you gave 0)."),
        ("knockdown", {"boxes": []}, "Boxes: choose at least one."),
        ("knockback", {"best_of": 0}, "Best of must be at least 1 (you gave 0)."),
        ("knockdown", {"tower_skill": 2}, "Bot tower skill must be at most 1 (you gave 2)."),
    ]
    with make_client() as c:
        for game, config, sentence in cases:
            r = c.post("/api/tables", json={"game": game, "seats": ["me", "random"], "config": config})
            assert r.status_code == 400 and r.json()["error"] == sentence, r.json()
            for raw in ("Input should", "_", "configuration", "(got"):
                assert raw not in r.json()["error"]


def test_the_same_fighter_twice_is_refused_by_its_name(make_client: Any) -> None:
    with make_client() as c:
        r = c.post("/api/tables", json={"game": "knockdown", "seats": ["me", "random"],
                                        "config": {"fighters": ["puppy", "puppy"], "boxes": ["nemesis"]}})
    assert r.status_code == 400 and r.json()["error"] == "Both players chose Puppy: pick two different fighters."
