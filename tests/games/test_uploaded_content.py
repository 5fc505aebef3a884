"""A table plays an uploaded content version by naming its id (the ``content`` option), for
every game with a content editor: the document's own cards are dealt, a saved state and a
bot's copy of it (``to_dict``/``from_dict``, what worker processes think on) keep playing
that version, the record replays to the same state, and an id that is no version here, or
a version whose files were changed, is one clear error."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from knockabout.core import content_versions as cv
from knockabout.core.errors import ConfigError
from knockabout.core.protocol import Game, State
from knockabout.core.registry import all_games, get_game
from knockabout.core.replay import Match, replay

EDITABLE = [g.id for g in all_games() if g.content_editor() is not None]


@pytest.fixture(autouse=True)
def content_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KNOCKABOUT_CONTENT", str(tmp_path / "content"))
    return tmp_path / "content"


def changed_document(game: Game[Any]) -> tuple[dict[str, Any], str]:
    """A shipped document (a new pack; a shipped box) with one name changed: the name."""
    editor = game.content_editor()
    assert editor is not None
    if game.id == "knockback":
        data = editor.document("new")
        data["id"], data["name"] = "test-pack", "Test <b>Pack</b>"
        data["cards"][0]["name"] = "<img src=x onerror=alert(1)>"
        return data, data["cards"][0]["name"]
    first = editor.shipped()[0].value
    data = editor.document(first)
    for f in data["fighter"]:
        f["name"] = f"{f['name']} Mk II"
    return data, data["fighter"][0]["name"]


def shown(state: State) -> str:
    """What both seats see of ``state``, as text."""
    return json.dumps([state.observe(seat).to_json() for seat in (0, 1)])  # type: ignore[union-attr]


def upload(game: Game[Any], data: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    editor = game.content_editor()
    assert editor is not None and editor.check(data) == []
    play = editor.playtest(data)
    assert set(play.config) == set(editor.playtest_sets), "the studio's form leaves out what the version sets"
    return cv.install(game.id, editor.files(data)), dict(play.config)


def test_every_game_with_content_files_has_an_editor_and_a_content_option() -> None:
    assert set(EDITABLE) == {"knockback", "knockdown"}
    for gid in EDITABLE:
        field = get_game(gid).config_model.model_fields[cv.CONTENT_OPTION]
        assert field.default == "" and (field.json_schema_extra or {}).get("content_version") is True


@pytest.mark.parametrize("gid", EDITABLE)
def test_a_table_plays_the_uploaded_version_and_its_copies_keep_it(gid: str) -> None:
    game = get_game(gid)
    data, name = changed_document(game)
    ident, config = upload(game, data)
    cfg = {**config, cv.CONTENT_OPTION: ident}
    seen = set()
    for seed in range(6):
        state = game.new_state(cfg, seed)
        copy = game.state_from_dict(state.to_dict())
        seen.add(name in shown(state))
        # a copy plays on exactly as the original
        rng = random.Random(seed)
        for _ in range(60):
            if state.to_act() is None:
                break
            action = rng.choice(state.legal_actions())
            state.apply(action)
            copy.apply(action)
        assert copy.to_dict() == state.to_dict()
    assert any(seen), "the uploaded document's own cards or fighters reach the table"
    try:  # without the version the same options play shipped content, or name a pack there is not
        without = [shown(game.new_state(config, seed)) for seed in range(6)]
    except ConfigError:
        without = []
    assert not any(name in text for text in without)


@pytest.mark.parametrize("gid", EDITABLE)
def test_the_record_names_the_version_and_replays(gid: str) -> None:
    game = get_game(gid)
    data, _ = changed_document(game)
    ident, config = upload(game, data)
    m = Match(game, {**config, cv.CONTENT_OPTION: ident}, seed=11)
    rng = random.Random(3)
    for _ in range(40):
        if m.state.to_act() is None:
            break
        m.apply(rng.choice(m.state.legal_actions()))
    assert m.record.config[cv.CONTENT_OPTION] == ident
    assert replay(m.record).to_dict() == m.state.to_dict()


@pytest.mark.parametrize("gid", EDITABLE)
def test_a_missing_or_changed_version_is_one_clear_error(gid: str, content_root: Path) -> None:
    game = get_game(gid)
    data, _ = changed_document(game)
    ident, config = upload(game, data)
    with pytest.raises(ConfigError, match="no content version"):
        game.new_state({**config, cv.CONTENT_OPTION: "f" * 32}, 0)
    with pytest.raises(ConfigError):
        game.make_config({cv.CONTENT_OPTION: "../../../etc/passwd"})
    for path in (content_root / ident).rglob("*.toml"):
        path.write_text(path.read_text() + "\n# changed\n")
    with pytest.raises(ConfigError, match="not those of version"):
        game.new_state({**config, cv.CONTENT_OPTION: ident}, 1)
