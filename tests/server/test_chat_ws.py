"""Chat at a table over the WebSocket: who reads which channel, phrases, limits, mutes,
storage across a restart, and a finished game's chat for its replay."""

from __future__ import annotations

from typing import Any

import pytest

from knockabout.server.chat import ChatPolicy
from tests.server.conftest import receive, receive_until

pytestmark = pytest.mark.timeout(120)

XSS = '<script>alert("x")</script><img src=x onerror="alert(1)">&amp;'


def two_people(c: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    r = c.post("/api/tables", json={"game": "nak-muay", "seats": ["me", "open"], "name": "Ann"})
    assert r.status_code == 200, r.text
    made = r.json()
    joined = c.post(f"/api/tables/{made['id']}/join", json={"name": "Bo"}).json()
    return made, joined


def hello(ws: Any, token: str | None, **kw: Any) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token, **kw})
    return receive_until(ws, lambda m: m["type"] == "sync")


def chat(ws: Any) -> dict[str, Any]:
    return receive_until(ws, lambda m: m["type"] in ("chat", "error"))


def test_players_talk_spectators_read_and_talk_apart(make_client: Any) -> None:
    with make_client() as c:
        made, joined = two_people(c)
        tid = made["id"]
        with c.websocket_connect(f"/ws/tables/{tid}") as ann, c.websocket_connect(f"/ws/tables/{tid}") as bo, \
                c.websocket_connect(f"/ws/tables/{tid}") as cy:
            hello(ann, made["token"])
            hello(bo, joined["token"])
            hello(cy, None, name="Cy")
            ann.send_json({"type": "chat", "text": "  good   luck "})
            for ws in (ann, bo, cy):
                [line] = chat(ws)["lines"]
                assert (line["text"], line["name"], line["seat"], line["channel"]) == ("good luck", "Ann", 0,
                                                                                        "players")
            cy.send_json({"type": "chat", "text": "Bo should dodge"})
            assert chat(cy)["lines"][0]["channel"] == "spectators"
            bo.send_json({"type": "chat", "phrase": "well-played"})
            got = chat(bo)["lines"][0]
            assert got["text"] == "Well played" and got["phrase"] == "well-played"
            assert chat(ann)["lines"][0]["text"] == "Well played", "Ann never got the spectator's line"
            assert chat(cy)["lines"][0]["text"] == "Well played"


@pytest.mark.parametrize(("msg", "why"), [
    ({"type": "chat", "text": "x" * 201}, "at most 200 characters"),
    ({"type": "chat", "text": "   "}, "empty"),
    ({"type": "chat", "phrase": "nope"}, "no quick phrase"),
    ({"type": "chat"}, "either text or a quick phrase"),
    ({"type": "chat", "text": "x" * 801}, "malformed"),
    ({"type": "mute", "who": "seat:0"}, "cannot mute yourself"),
])
def test_refused_lines_say_why_and_reach_nobody(make_client: Any, msg: dict[str, Any], why: str) -> None:
    with make_client() as c:
        made, _ = two_people(c)
        with c.websocket_connect(f"/ws/tables/{made['id']}") as ann:
            hello(ann, made["token"])
            ann.send_json(msg)
            err = chat(ann)
            assert err["type"] == "error" and why in err["message"]
        assert c.app.state.server.store.chat(made["id"]) == []


def test_the_rate_limit_and_a_mute(make_client: Any) -> None:
    with make_client(chat=ChatPolicy(lines=2, seconds=60)) as c:
        made, joined = two_people(c)
        tid = made["id"]
        with c.websocket_connect(f"/ws/tables/{tid}") as ann, c.websocket_connect(f"/ws/tables/{tid}") as bo:
            hello(ann, made["token"])
            hello(bo, joined["token"])
            bo.send_json({"type": "mute", "who": "seat:0"})
            assert chat(bo)["muted"] == ["seat:0"]
            for i in range(2):
                ann.send_json({"type": "chat", "text": f"line {i}"})
                assert chat(ann)["lines"][0]["text"] == f"line {i}"
            ann.send_json({"type": "chat", "text": "one too many"})
            assert "too fast: at most 2 in 60 seconds" in chat(ann)["message"]
            bo.send_json({"type": "chat", "text": "quiet here"})
            assert chat(bo)["lines"][0]["text"] == "quiet here", "Bo saw none of Ann's lines"
            assert chat(ann)["lines"][0]["text"] == "quiet here", "Ann still reads Bo"
            bo.send_json({"type": "mute", "who": "seat:0", "muted": False})
            assert chat(bo)["muted"] == []
        # a reconnecting seat keeps its mutes and gets the lines so far (less the muted)
        with c.websocket_connect(f"/ws/tables/{tid}") as bo:
            hello(bo, joined["token"])
            history = chat(bo)
            assert [x["text"] for x in history["lines"]] == ["line 0", "line 1", "quiet here"]


def test_lines_are_stored_and_come_back_after_a_restart(make_client: Any) -> None:
    with make_client() as c:
        made, joined = two_people(c)
        tid = made["id"]
        with c.websocket_connect(f"/ws/tables/{tid}") as ann:
            hello(ann, made["token"])
            ann.send_json({"type": "chat", "text": XSS})
            assert chat(ann)["lines"][0]["text"] == XSS, "kept as the text it is: clients show it as text"
        stored = c.app.state.server.store.chat(tid)
        assert [x["text"] for x in stored] == [XSS] and stored[0]["n"] == 1
    # the same database: the table resumes with its chat
    with make_client() as c, c.websocket_connect(f"/ws/tables/{tid}") as bo:
        hello(bo, joined["token"])
        history = chat(bo)
        assert [x["text"] for x in history["lines"]] == [XSS] and history["you"] == "seat:1"
        bo.send_json({"type": "chat", "phrase": "hello"})
        assert chat(bo)["lines"][0]["n"] == 2


def test_a_finished_games_chat_is_read_with_its_replay(make_client: Any) -> None:
    with make_client() as c:
        r = c.post("/api/tables", json={"game": "nak-muay", "seats": ["me", "random"], "name": "Ann", "seed": 3})
        made = r.json()
        with c.websocket_connect(f"/ws/tables/{made['id']}") as ws:
            msg = hello(ws, made["token"])
            ws.send_json({"type": "chat", "phrase": "good-luck"})
            while msg.get("outcome") is None:
                if msg["type"] in ("sync", "update") and msg["legal"]:
                    ws.send_json({"type": "act", "action": msg["legal"][-1], "version": msg["version"]})
                msg = receive(ws)
            ws.send_json({"type": "chat", "phrase": "good-game"})
            chat(ws)
        lines = c.get(f"/api/tables/{made['id']}/chat").json()["lines"]
        assert [x["text"] for x in lines] == ["Good luck!", "Good game"]
        assert lines[0]["step"] <= lines[1]["step"], "each line knows the step it was said at"
        live = c.post("/api/tables", json={"game": "nak-muay", "seats": ["me", "open"], "name": "A"}).json()
        assert c.get(f"/api/tables/{live['id']}/chat").status_code == 409
        assert c.get("/api/tables/nope/chat").status_code == 404
        assert {p["key"] for p in c.get("/api/chat/phrases").json()["phrases"]} >= {"good-game", "well-played",
                                                                                  "oops"}
