"""Every decision kind of every game, met in the browser: each prompt has a title and a line
of why, and the page never shows an action's text, an option's key or a validator's words.

Two people sit at the table: the page's (seat 1) clicks its moves; the rival's are sent on its
own WebSocket. Both are chosen by looking ahead on the server's own state (a test may look)
towards a decision the page's seat has not met yet: the rival attacks it, tests it, makes it
block. Knockdown's rarer decisions belong to particular fighters (James spends Ammo, Katie
blinks and takes from the row, Veroth reacts), so it is played with each of them. Each first
screen of a kind is kept as a screenshot (the folder is printed)."""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from knockabout.core import get_game
from knockabout.table import Table
from tests.web.conftest import LiveServer
from tests.web.pages import click_tower, made_table, new_page, sit

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

TOWER = {"knockdown_test": "tower"}
TABLES: dict[str, list[dict[str, Any]]] = {
    "nak-muay": [{"countdown_seconds": 4}],
    "knockback": [{"lineup": "draft2"}],
    "knockdown": [
        {**TOWER, "boxes": ["nemesis"], "fighters": ["katie", "james"]},
        {**TOWER, "boxes": ["nemesis"], "fighters": ["james", "katie"]},
        {**TOWER, "boxes": ["siege_storm", "nemesis"], "fighters": ["veroth", "james"]},
    ],
}
ACTION_TEXT = re.compile(r"\b[a-z]+(?:[_-][a-z]+)*:[a-z0-9+,_-]+\b")  # attack:1, place:A1:B2:N, hide:0
SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")  # an option key or value: countdown_seconds, draw_after
VALIDATION = ("Input should", "validation error", "Field required", "Extra inputs", "should be")


def _towards_new(table: Table, seat: int, offered: list[str], seen: set[str], rng: random.Random) -> str:
    """The offered action whose short random continuations meet an unseen decision kind of
    ``seat`` soonest (a look ahead on a copy of the server's state)."""
    best, best_score = offered[0], float("inf")
    for action in offered:
        score = float("inf")
        for _ in range(2):
            s = table._state.clone()
            s.apply(action)
            for step in range(24):
                d = s.to_act()
                if d is None:
                    break
                if d.player == seat and d.kind not in seen:
                    score = min(score, step)
                    break
                legal = s.legal_actions()
                s.apply(legal[rng.randrange(len(legal))])
        score += rng.random()
        if score < best_score:
            best, best_score = action, score
    return best


def _check_words(page: Any, kind: str, game_id: str) -> None:
    title = page.inner_text("#prompt-title").strip()
    why = page.inner_text("#prompt-why").strip() if page.locator("#prompt-why").count() else ""
    assert title and why.endswith((".", "!", "?")), f"{kind}: a title and a line of why ({title!r}, {why!r})"
    assert page.locator("#prompt-help").count() == 1, f"{kind}: a '?' beside the prompt"
    text = page.inner_text("body")
    raw = ACTION_TEXT.findall(text)
    assert not raw, f"{game_id} {kind}: action texts on the page: {raw[:5]}"
    keys = [w for w in SNAKE.findall(text)]
    assert not keys, f"{game_id} {kind}: option keys or values on the page: {keys[:5]}"
    for words in VALIDATION:
        assert words not in text, f"{game_id} {kind}: validation text on the page: {words!r}"
    options = [k for k in get_game(game_id).config_model.model_fields if "_" in k]
    assert not [k for k in options if k in text], f"{game_id} {kind}: an option key on the page"


def _drain(ws: ClientConnection) -> None:
    """Read what the rival's connection was sent (its frames are not needed)."""
    try:
        while True:
            ws.recv(timeout=0)
    except TimeoutError:
        return


def _check_rules_at(page: Any, section: str) -> None:
    """The '?' beside the prompt opens the rules at its decision's section, and the rules
    begin with how to play, with pictures the game's renderer drew."""
    page.click("#prompt-help")
    page.wait_for_selector("#rules-body .rules-here")
    assert page.get_attribute("#rules-body .rules-here", "id") == section
    assert page.inner_text("#rules-body h2") == "How to play"
    assert page.locator("#rules-body figure[data-picture] *").count() > 0, "a picture drawn by the renderer"
    page.keyboard.press("Escape")
    page.wait_for_selector("#rules-drawer", state="hidden")


def _play_until_seen(page: Any, server: LiveServer, table_id: str, game_id: str, seen: set[str],
                     shots: Path, deadline: float, rng: random.Random, rival: ClientConnection) -> None:
    table = server.app.state.manager.get(table_id).table
    stale = 0  # the page's decisions since the last new kind: this table has shown what it has
    while time.monotonic() < deadline and not table.over and stale < 40:
        d = table.decision()
        if d is not None and d.player == 1:
            _drain(rival)
            legal = [a.text for a in table._state.legal_actions()]
            version = table.version
            rival.send(json.dumps({"type": "act", "action": _towards_new(table, 0, legal, seen, rng),
                                   "version": version}))
            end = time.monotonic() + 10
            while table.version == version and time.monotonic() < end:
                time.sleep(0.01)
            continue
        up = table.updates_for(0)
        if d is None or d.player != 0 or (not up.legal and up.challenge is None) or up.guidance is None:
            time.sleep(0.02)
            continue
        version = table.version
        try:
            page.wait_for_selector(f"#prompt[data-kind='{d.kind}']", timeout=5000)
        except Exception:
            continue  # the table moved on (a timed decision ran out): look again
        stale += 1
        if d.kind not in seen:
            _check_words(page, d.kind, game_id)
            if not seen:
                _check_rules_at(page, up.guidance.prompt.section)
            seen.add(d.kind)
            stale = 0
            page.screenshot(path=str(shots / f"{game_id}-{d.kind}.png"), full_page=True)
        if up.challenge is not None:
            click_tower(page)
        else:
            offered = [a.action for a in up.guidance.actions]
            on_page = page.eval_on_selector_all("#decide [data-action]", "els => els.map(e => e.dataset.action)")
            if sorted(on_page) != sorted(offered):
                continue  # the page is still drawing this decision
            choice = _towards_new(table, 0, offered, seen, rng)
            page.eval_on_selector(f"#decide [data-action='{choice}']", "e => e.click()")
        end = time.monotonic() + 10
        while table.version == version and time.monotonic() < end:
            time.sleep(0.02)


@pytest.mark.parametrize("game_id", list(TABLES))
def test_every_decision_kind_is_put_in_words(server: LiveServer, browser: Any, shots: Path, game_id: str) -> None:
    kinds = set(get_game(game_id).facts.decision_kinds)
    seen: set[str] = set()
    ctx, page = new_page(browser, "desktop", reduced_motion="reduce")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    rng = random.Random(game_id)
    deadline = time.monotonic() + 300
    k = 0
    while seen != kinds and time.monotonic() < deadline:
        config = TABLES[game_id][k % len(TABLES[game_id])]
        made = made_table(server, game_id, ["me", "open"], name="Ann", config=config)
        sit(page, server, made["id"], made["token"])
        joined = httpx.post(f"{server.url}/api/tables/{made['id']}/join", json={"name": "Bo"}).json()
        with connect(f"ws://127.0.0.1:{server.port}/ws/tables/{made['id']}") as rival:
            rival.send(json.dumps({"type": "hello", "token": joined["token"]}))
            _play_until_seen(page, server, made["id"], game_id, seen, shots,
                             min(deadline, time.monotonic() + 150), rng, rival)
        k += 1
    ctx.close()
    assert seen == kinds, f"{game_id}: never met {sorted(kinds - seen)}"
    assert not errors, errors
