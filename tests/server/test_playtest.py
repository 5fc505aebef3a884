"""Playtests on the server: a designer uploads a content version from the studio (checked,
size-limited, kept in the database under its uploader), makes a table with it, a playtester
joins by the invite link and they play; the table's record names the version, so its replay
stays exact after the designer uploads the same pack again with changes, and after the
server forgets every file it wrote. Hostile uploads (huge, deeply nested, markup in names,
unknown ops) and another person's versions are refused with one line and nothing kept."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from knockabout.core import content_versions as cv
from knockabout.core.registry import get_game
from knockabout.server import ServerSettings, create_app
from knockabout.server.guards import MAX_BODY_BYTES
from knockabout.server.routes import studio
from knockabout.server.routes.studio import MAX_DEPTH, MAX_VERSIONS
from tests.server.test_limits import from_addresses
from tests.server.test_rated_tables import play_out

pytestmark = pytest.mark.timeout(180)

ANN = {"x-address": "10.0.0.1"}
BO = {"x-address": "10.0.0.2"}


@pytest.fixture
def content_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KNOCKABOUT_CONTENT", str(tmp_path / "content"))
    return tmp_path / "content"


@pytest.fixture
def server(tmp_path: Path, content_root: Path) -> Iterator[Any]:
    """A server whose requests come from the address their ``x-address`` header names;
    ``server.again()`` is the same database opened by a new server process."""

    @contextmanager
    def again() -> Iterator[TestClient]:
        app = create_app(ServerSettings(db_url=f"sqlite:///{tmp_path / 'k.db'}", bot_delay=0.0, bot_pace=0.0,
                                        create_rate="off"))
        with TestClient(from_addresses(app)) as c:
            c.app = app  # (play_out reaches the live tables through it)
            yield c

    with again() as c:
        c.again = again  # type: ignore[attr-defined]
        yield c


def new_pack(client: Any, attack: int = 3) -> dict[str, Any]:
    data: dict[str, Any] = client.get("/api/studio/knockback/shipped/new").json()["data"]
    data["id"], data["name"] = "playtest-pack", "Playtest Pack"
    data["cards"][0]["name"] = "Stone Crab"
    data["cards"][0]["edges"]["north"]["attack"] = attack
    return data


def upload(client: Any, data: Any, who: dict[str, str] = ANN, game: str = "knockback") -> Any:
    return client.post(f"/api/studio/{game}/versions", json={"data": data}, headers=who)


def test_an_upload_is_checked_and_kept_under_its_uploader(server: Any) -> None:
    data = new_pack(server)
    r = upload(server, data)
    assert r.status_code == 200, r.text
    v = r.json()["version"]
    files = server.post("/api/studio/knockback/files", json={"data": data}).json()["files"]
    assert v["id"] == cv.version_id("knockback", files) and r.json()["new"]
    assert (v["game"], v["kind"], v["name"], v["tables"]) == ("knockback", "pack", "Playtest Pack", 0)
    assert v["size"] == sum(len(t) for t in files.values())
    again = upload(server, data).json()
    assert again["version"]["id"] == v["id"] and not again["new"], "the same files are the same version"
    assert [x["id"] for x in server.get("/api/studio/knockback/versions", headers=ANN).json()["versions"]] == [v["id"]]
    assert server.get("/api/studio/knockdown/versions", headers=ANN).json()["versions"] == []
    one = server.get(f"/api/studio/versions/{v['id']}", headers=ANN).json()
    assert one["data"] == data and one["tables"] == [], "it opens again in the editor as it was"
    assert server.app.state.store.content.files_of("guest:10.0.0.1", v["id"]) == files  # in the database
    # an invalid document is never kept
    bad = dict(data, id="ember-rush")
    r = upload(server, bad)
    assert r.status_code == 400 and r.json()["error"].startswith("the pack is not valid yet (id:")
    assert len(server.get("/api/studio/knockback/versions", headers=ANN).json()["versions"]) == 1


def test_another_persons_version_is_as_good_as_absent(server: Any) -> None:
    ident = upload(server, new_pack(server)).json()["version"]["id"]
    assert server.get("/api/studio/knockback/versions", headers=BO).json()["versions"] == []
    for r in (server.get(f"/api/studio/versions/{ident}", headers=BO),
              server.delete(f"/api/studio/versions/{ident}", headers=BO),
              server.post(f"/api/studio/versions/{ident}/tables", json={}, headers=BO)):
        assert r.status_code == 404 and r.json() == {"error": "no content version of yours with that id"}
    # nor does a table made elsewhere name it: only its uploader's studio makes one
    r = server.post("/api/tables", json={"game": "knockback", "seats": ["me", "easy"],
                                         "config": {"packs": ["playtest-pack", "random"], "content": ident}},
                    headers=BO)
    assert r.status_code == 400 and "made in the studio" in r.json()["error"]
    assert server.get(f"/api/studio/versions/{ident}", headers=ANN).status_code == 200, "still Ann's"
    for bad in ("../../etc/passwd", "0" * 32, "Z" * 32):
        assert server.get(f"/api/studio/versions/{bad}", headers=ANN).status_code == 404


def test_hostile_uploads_are_refused_and_nothing_is_kept(server: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    data = new_pack(server)
    nested: Any = 1
    for _ in range(MAX_DEPTH + 1):
        nested = {"a": nested}
    r = upload(server, dict(data, description=nested))
    assert r.status_code == 400 and "nests deeper than" in r.json()["error"]
    r = server.post("/api/studio/knockback/versions", content=b'{"data": "' + b"x" * MAX_BODY_BYTES + b'"}',
                    headers={"content-type": "application/json", **ANN})
    assert r.status_code == 413
    huge = dict(data, description="x" * 60_000)  # within the body limit, past what a pack may say
    r = upload(server, huge)
    assert r.status_code == 400 and "description" in r.json()["error"]
    with monkeypatch.context() as m:
        m.setattr(studio, "MAX_VERSION", 500)  # a version's files together
        r = upload(server, data)
    assert r.status_code == 413 and "holds at most 500" in r.json()["error"]
    unknown = new_pack(server)
    unknown["cards"][2]["ability"]["effects"][0]["op"] = "os.system"
    r = upload(server, unknown)
    assert r.status_code == 400 and "unknown effect op 'os.system'" in r.json()["error"]
    for junk in (None, [], "pack", {"game": "knockback", "id": 1}):
        assert upload(server, junk).status_code == 400
    assert server.get("/api/studio/knockback/versions", headers=ANN).json()["versions"] == []
    # markup in names is kept as data, never as markup: the lists and the table say it as text
    marked = new_pack(server)
    marked["name"] = "<script>alert(1)</script>"
    marked["cards"][0]["name"] = "<img src=x onerror=alert(1)>"
    v = upload(server, marked).json()["version"]
    assert v["name"] == "<script>alert(1)</script>"
    made = server.post(f"/api/studio/versions/{v['id']}/tables", json={"seats": ["me", "easy"]}, headers=ANN).json()
    assert made["table"]["game"] == "knockback"


def test_a_list_holds_so_many_versions(server: Any) -> None:
    for n in range(MAX_VERSIONS):
        assert upload(server, new_pack(server, attack=n % 10) | {"description": f"try {n}"}).status_code == 200
    r = upload(server, new_pack(server) | {"description": "one more"})
    assert r.status_code == 409 and f"at most {MAX_VERSIONS}" in r.json()["error"]
    assert upload(server, new_pack(server) | {"description": "one more"}, who=BO).status_code == 200, "per uploader"
    first = server.get("/api/studio/knockback/versions", headers=ANN).json()["versions"][-1]["id"]
    assert server.delete(f"/api/studio/versions/{first}", headers=ANN).status_code == 200
    assert upload(server, new_pack(server) | {"description": "one more"}).status_code == 200


def test_a_playtest_table_by_invite_link_plays_the_version_and_replays_exactly(server: Any) -> None:
    data = new_pack(server)
    ident = upload(server, data).json()["version"]["id"]
    made = server.post(f"/api/studio/versions/{ident}/tables", json={"name": "Ann"}, headers=ANN).json()
    assert made["seat"] == 0 and len(made["invites"]) == 1
    table = made["id"]
    assert server.get(f"/api/studio/versions/{ident}", headers=ANN).json()["tables"] == [table]
    assert all(t["id"] != table for t in server.get("/api/tables").json()["tables"]), "a playtest is unlisted"
    code = made["invites"][0]["url"].split("#invite=")[1]
    joined = server.post(f"/api/tables/{table}/join", json={"name": "Bo", "invite": code}, headers=BO)
    assert joined.status_code == 200 and joined.json()["seat"] == 1
    live = server.app.state.manager.get(table)
    shown = str(live.table.updates_for(0).view.to_json())
    assert "Stone Crab" in shown and "Playtest Pack" in shown, "the uploaded pack is dealt"
    play_out(server, table)
    record = server.get(f"/api/tables/{table}/record").json()
    assert record["config"]["content"] == ident and record["config"]["packs"][0] == "playtest-pack"
    steps = len(record["actions"])
    end = server.get(f"/api/tables/{table}/replay/{steps}").json()
    assert end["outcome"] == server.get(f"/api/tables/{table}").json()["outcome"]

    # the designer edits the same pack and uploads it again: a new version; the old table's is kept
    changed = new_pack(server, attack=9)
    newer = upload(server, changed).json()["version"]["id"]
    assert newer != ident
    assert server.delete(f"/api/studio/versions/{ident}", headers=ANN).status_code == 200
    again = server.post(f"/api/studio/versions/{newer}/tables", json={"seats": ["easy", "easy"]}, headers=ANN).json()
    assert again["table"]["game"] == "knockback"
    server.app.state.replays.__init__()  # (nothing cached from before)
    assert server.get(f"/api/tables/{table}/replay/{steps}").json() == end
    old = cv.folder("knockback", ident)
    assert 'attack = 3' in (old / "playtest-pack.toml").read_text()

    # a new server on the same database, every file it wrote gone: the replay reads the database
    with server.again() as fresh:
        shutil.rmtree(os.environ["KNOCKABOUT_CONTENT"])
        assert fresh.get(f"/api/tables/{table}/replay/{steps}").json() == end
        assert fresh.get(f"/api/tables/{table}/record").json() == record
        assert (cv.root() / ident).is_dir()


def test_a_downloaded_playtest_record_replays_on_a_machine_that_never_saw_the_upload(
        server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The record carries its content version's files; ``knockabout replay`` installs them
    (checked against the version's id) and replays the game; changed files are refused."""
    from typer.testing import CliRunner

    from knockabout.cli.main import app

    ident = upload(server, new_pack(server)).json()["version"]["id"]
    made = server.post(f"/api/studio/versions/{ident}/tables", json={"seats": ["me", "random"]}, headers=ANN).json()
    play_out(server, made["id"])
    record = server.get(f"/api/tables/{made['id']}/record").json()
    assert record["config"]["content"] == ident and "playtest-pack.toml" in record["content_files"]
    saved = tmp_path / "playtest.json"
    saved.write_text(json.dumps(record))
    monkeypatch.setenv("KNOCKABOUT_CONTENT", str(tmp_path / "elsewhere"))  # another machine: no versions at all
    runner = CliRunner()
    done = runner.invoke(app, ["replay", "--summary", str(saved)])
    assert done.exit_code == 0, done.output
    assert f"{len(record['actions'])} actions replayed exactly" in done.output
    assert (tmp_path / "elsewhere" / ident / "playtest-pack.toml").is_file()

    monkeypatch.setenv("KNOCKABOUT_CONTENT", str(tmp_path / "third"))
    name = "playtest-pack.toml"
    tampered = dict(record, content_files={name: record["content_files"][name].replace("attack = 3", "attack = 9")})
    saved.write_text(json.dumps(tampered))
    refused = runner.invoke(app, ["replay", str(saved)])
    assert refused.exit_code != 0 and "are not content version" in refused.output
    assert not (tmp_path / "third").exists(), "nothing is written for files that are not the version"


def test_a_rematch_of_a_playtest_plays_the_same_version(server: Any) -> None:
    ident = upload(server, new_pack(server)).json()["version"]["id"]
    made = server.post(f"/api/studio/versions/{ident}/tables", json={"seats": ["me", "random"]}, headers=ANN).json()
    play_out(server, made["id"])
    r = server.post(f"/api/tables/{made['id']}/rematch", json={"token": made["token"]}, headers=ANN)
    assert r.status_code == 200, r.text
    rematch = r.json()["id"]
    live = server.app.state.manager.get(rematch)
    assert live.table.record.config["content"] == ident
    tables = server.get(f"/api/studio/versions/{ident}", headers=ANN).json()["tables"]
    assert sorted(tables) == sorted([rematch, made["id"]]), "the rematch is one of the version's tables"


def test_a_knockdown_box_is_played_in_place_of_the_shipped_one(server: Any) -> None:
    box: dict[str, Any] = server.get("/api/studio/knockdown/shipped/nemesis").json()["data"]
    for f in box["fighter"]:
        f["name"] = f"{f['name']} Mk II"
    r = upload(server, box, game="knockdown")
    assert r.status_code == 200, r.text
    v = r.json()["version"]
    assert (v["kind"], v["game"]) == ("box", "knockdown")
    made = server.post(f"/api/studio/versions/{v['id']}/tables", json={"seats": ["me", "easy"]}, headers=ANN).json()
    live = server.app.state.manager.get(made["id"])
    assert live.table.record.config["boxes"] == ["nemesis"] and live.table.record.config["content"] == v["id"]
    assert "Mk II" in str(live.table.updates_for(0).view.to_json())
    assert get_game("knockdown").config_model.model_fields["content"].default == ""
    box["box"]["id"] = "my_box"  # a valid box, but a version plays a box in place of a shipped one
    r = upload(server, box, game="knockdown")
    assert r.status_code == 400 and "cannot be played at a table" in r.json()["error"] and "my_box" in r.json()[
        "error"]
    assert len(server.get("/api/studio/knockdown/versions", headers=ANN).json()["versions"]) == 1


def test_a_quick_test_names_the_version_it_played(server: Any) -> None:
    data = new_pack(server)
    job = server.post("/api/studio/knockback/test", json={"data": data, "bot": "random", "games": 1}, headers=ANN)
    assert job.status_code == 200, job.text
    saved = upload(server, data).json()["version"]["id"]
    assert job.json()["version"] == saved, "the numbers are those of the version saved from the same document"
    other = server.post("/api/studio/knockback/test", json={"data": new_pack(server, attack=8), "bot": "random",
                                                            "games": 1}, headers=BO).json()
    assert other["version"] != saved
    for j in (job.json(), other):
        server.post(f"/api/studio/jobs/{j['job']}/stop", json={"token": j["token"]})


def test_a_live_playtest_resumes_on_a_server_without_its_files(server: Any) -> None:
    ident = upload(server, new_pack(server)).json()["version"]["id"]
    made = server.post(f"/api/studio/versions/{ident}/tables", json={"name": "Ann"}, headers=ANN).json()
    before = server.get(f"/api/tables/{made['id']}").json()
    shutil.rmtree(os.environ["KNOCKABOUT_CONTENT"])
    with server.again() as fresh:  # a second server on the database resumes the table, its files gone
        info = fresh.get(f"/api/tables/{made['id']}").json()
        assert info["status"] == before["status"] == "waiting" and info["game"] == "knockback"
        live = fresh.app.state.manager.get(made["id"])
        assert live is not None and live.table.record.config["content"] == ident
        assert "Stone Crab" in str(live.table.updates_for(0).view.to_json())
