"""A game from another installed package plugs in through the ``knockabout.games`` entry
point alone, and plays through ``sim``, ``play`` and the server like the built-in ones.

The game lives in ``tests/plugin_game/site/highcard`` (see docs/adding-a-game.md, which
walks through it file by file)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pexpect
import pytest
from fastapi.testclient import TestClient

from knockabout.bots.levels import levels_for
from knockabout.cli.render import renderer_for
from knockabout.core import GameRecord, replay
from knockabout.core.registry import game_ids, get_game
from knockabout.server import ServerSettings, create_app
from tests.conformance.js_reads import unknown_reads, view_reads
from tests.plugin_game.conftest import SITE, env_with_plugin
from tests.server.conftest import my_turn, receive_until

pytestmark = [pytest.mark.timeout(180), pytest.mark.usefixtures("installed")]

KNOCKABOUT = [sys.executable, "-m", "knockabout"]


def test_the_installed_game_is_found_through_its_entry_point() -> None:
    assert "high-card" in game_ids()
    game = get_game("high-card")
    assert type(game).__module__ == "highcard.game"
    assert Path(sys.modules["highcard"].__file__ or "").is_relative_to(SITE)


def test_its_plug_ins_are_found_through_the_game() -> None:
    game = get_game("high-card")
    assert renderer_for(game) is sys.modules["highcard.terminal"].RENDERER
    heuristic = game.heuristic()
    assert heuristic is not None and heuristic.bot().name == "high-card heuristic"
    js = (SITE / "highcard" / game.web_renderer).read_text()  # type: ignore[operator]
    assert unknown_reads(game.view_type.json_schema(), view_reads(js)) == []


def test_sim_plays_it() -> None:
    run = subprocess.run([*KNOCKABOUT, "sim", "high-card", "-n", "20", "-b", "random,easy"],
                         capture_output=True, text=True, env=env_with_plugin(), timeout=120)
    assert run.returncode == 0, run.stderr
    assert "easy" in run.stdout and "random" in run.stdout


def test_it_offers_no_learned_level_and_sim_says_why() -> None:
    assert levels_for("high-card") == ["random", "easy", "medium", "hard"]  # it ships no network
    run = subprocess.run([*KNOCKABOUT, "sim", "high-card", "-n", "2", "-b", "learned,easy"],
                         capture_output=True, text=True, env=env_with_plugin(), timeout=120)
    assert run.returncode != 0
    assert "the learned level is not available for High Card: no trained network ships with it yet" in run.stderr
    assert "choose one of: random, easy, medium, hard" in run.stderr


def test_schema_prints_its_view_schema() -> None:
    run = subprocess.run([*KNOCKABOUT, "schema", "high-card"], capture_output=True, text=True,
                         env=env_with_plugin(), timeout=60)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == get_game("high-card").view_type.json_schema()


def test_a_scripted_person_plays_it_in_the_terminal(tmp_path: Path) -> None:
    record = tmp_path / "hc.json"
    env = env_with_plugin() | {"TERM": "xterm-256color", "HOME": str(tmp_path)}
    child = pexpect.spawn(sys.executable, ["-m", "knockabout", "play", "high-card", "--seats", "me,easy",
                                           "--seed", "4", "--pace", "0", "--no-clear", "--record", str(record)],
                          encoding="utf-8", timeout=30, dimensions=(50, 140), env=env)
    child.logfile_read = transcript = io.StringIO()
    moves = 0
    while child.expect([r"Your move \[1(-\d+)?, action", r"wins! \(|Draw among"]) == 0:  # ([1, ...]: one move)
        child.send("1\r")
        child.expect(r"> 1\r*\n")
        moves += 1
    child.expect("Record written")
    child.expect(pexpect.EOF)
    assert moves == 3, "one card a round, three rounds"
    shown = transcript.getvalue()
    assert "High Card · round 1/3" in shown and "Play the" in shown, "the game's own terminal renderer drew it"
    assert replay(GameRecord.load(record)).outcome() is not None


def test_the_server_plays_it_and_serves_its_web_renderer(tmp_path: Path) -> None:
    settings = ServerSettings(db_url=f"sqlite:///{tmp_path / 'hc.db'}", bot_delay=0.0, bot_pace=0.0)
    with TestClient(create_app(settings)) as c:
        games = {g["id"] for g in c.get("/api/games").json()["games"]}
        assert "high-card" in games
        js = c.get("/games/high-card/renderer.js")
        assert js.status_code == 200 and "javascript" in js.headers["content-type"]
        assert js.text == (SITE / "highcard" / "web" / "renderer.js").read_text()
        made = c.post("/api/tables", json={"game": "high-card", "seats": ["me", "easy"], "name": "Ann"}).json()
        moves = 0
        with c.websocket_connect(f"/ws/tables/{made['id']}") as ws:
            ws.send_json({"type": "hello", "token": made["token"]})
            while True:
                msg: dict[str, Any] = receive_until(ws, my_turn(0))
                if msg["outcome"] is not None:
                    break
                assert msg["view"]["hand"] and msg["legal"] == msg["view"]["legal"]
                ws.send_json({"type": "act", "action": msg["legal"][0], "version": msg["version"]})
                moves += 1
        assert moves >= 1
        info = c.get(f"/api/tables/{made['id']}").json()
        assert info["status"] == "finished"
        record = GameRecord.from_dict(c.get(f"/api/tables/{made['id']}/record").json())
        assert replay(record).outcome() is not None


def test_it_passes_the_conformance_suite() -> None:
    from tests.conformance import test_facts, test_protocol

    ran = 0
    for module in (test_protocol, test_facts):
        for name, fn in vars(module).items():
            if not name.startswith("test_") or not callable(fn):
                continue
            params = fn.__code__.co_varnames[: fn.__code__.co_argcount]
            if params == ("game_id",):
                fn("high-card")
            elif params == ("game_id", "seed"):
                fn("high-card", 0)
            else:
                continue
            ran += 1
    assert ran >= 15


def test_a_renderer_file_that_is_not_there_is_a_clear_404(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = get_game("high-card")
    monkeypatch.setattr(type(game), "web_renderer", "web/missing.js")
    settings = ServerSettings(db_url=f"sqlite:///{tmp_path / 'x.db'}")
    with TestClient(create_app(settings)) as c:
        r = c.get("/games/high-card/renderer.js")
        assert r.status_code == 404 and "web/missing.js" in r.json()["error"]
        assert c.get("/games/no-such-game/renderer.js").status_code == 404
        monkeypatch.setattr(type(game), "web_renderer", None)
        generic = c.get("/games/high-card/renderer.js")
        assert generic.status_code == 200 and "export function renderBoard" in generic.text
        assert generic.text == c.get("/static/generic.js").text, "a game without one gets the generic renderer"
