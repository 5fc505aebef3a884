"""The studio's server side (``/api/studio``): the schema and shipped documents of each game
with a content editor, checks that name the field, previews, TOML files that `content
validate` accepts and read back to the same document, and hostile documents and files
(huge, deeply nested, markup in names, unknown ops, not TOML) refused with one clear line."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from knockabout.core.registry import get_game
from knockabout.server.guards import MAX_BODY_BYTES
from knockabout.server.routes.studio import MAX_DEPTH, MAX_FILE, depth
from knockabout.sim.ablation import AblationSpec, plan_ablation, run_ablation
from knockabout.sim.balance_run import BalanceSpec, run_balance
from knockabout.sim.balance_tables import tables
from knockabout.sim.executor import InlineExecutor

Client = Callable[..., Any]


@pytest.fixture
def client(make_client: Client) -> Any:
    with make_client() as c:
        yield c


def test_the_forms_titles_are_words_a_designer_reads_not_class_names(client: Any) -> None:
    """The form names each part by its schema title: "Card 1", "Ability", never
    "CardModel 1" or "AbilityModel"."""
    for game in ("knockback", "knockdown"):
        schema = client.get(f"/api/studio/{game}").json()["schema"]
        titled = [schema, *schema.get("$defs", {}).values()]
        titles = [d.get("title", "") for d in titled if d.get("type") == "object" or "properties" in d]
        assert titles and all(t and not t.endswith("Model") and not t.startswith("_") for t in titles), titles
        assert all(" " in t or t.istitle() for t in titles), titles
    card = client.get("/api/studio/knockback").json()["schema"]["$defs"]["CardModel"]["properties"]
    assert card["actions"]["items"]["title"] == "Symbol" and card["actions"]["items"]["enum"]


def _doc(client: Any, game: str, ident: str) -> dict[str, Any]:
    r = client.get(f"/api/studio/{game}/shipped/{ident}")
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()["data"]
    return data


def test_the_games_with_an_editor_their_schema_and_shipped_documents(client: Any) -> None:
    games = {g["id"]: g["kind"] for g in client.get("/api/studio").json()["games"]}
    assert games == {"knockback": "pack", "knockdown": "box"}  # Nak Muay has no content files
    info = client.get("/api/studio/knockback").json()
    assert info["kind"] == "pack" and info["schema"]["title"] == "Pack"
    north = info["schema"]["$defs"]["EdgeModel"]["properties"]["attack"]
    assert (north["minimum"], north["maximum"], north["tunable"]) == (0, 9, True)
    assert [c["value"] for c in info["shipped"]][:2] == ["new", "ember-rush"]
    box = client.get("/api/studio/knockdown").json()
    assert {c["value"] for c in box["shipped"]} == {"tainted_grail", "nemesis", "siege_storm"}
    assert box["schema"]["properties"]["card"]["items"]["$ref"].endswith("AttackCard")
    assert client.get("/api/studio/nak-muay").status_code == 404
    assert client.get("/api/studio/chess").json()["error"].startswith("unknown game")
    assert client.get("/api/studio/knockback/shipped/nope").status_code == 404


def test_a_new_pack_checks_clean_and_its_file_is_what_content_validate_accepts(client: Any, tmp_path: Path) -> None:
    data = _doc(client, "knockback", "new")
    r = client.post("/api/studio/knockback/check", json={"data": data}).json()
    assert r["problems"] == [] and len(r["preview"]) == 3
    first = r["preview"][0]
    assert first["card"]["name"] == data["cards"][0]["name"] and set(first["board_edges"]) == {"N", "E", "S", "W"}
    files = client.post("/api/studio/knockback/files", json={"data": data}).json()["files"]
    (name, text), = files.items()
    path = tmp_path / name
    path.write_text(text)
    assert get_game("knockback").validate_content(path) == []
    back = client.post("/api/studio/knockback/read", json={"files": files}).json()
    assert back == {"data": data, "problems": []}


def test_every_problem_names_its_field(client: Any) -> None:
    data = _doc(client, "knockback", "ember-rush")
    r = client.post("/api/studio/knockback/check", json={"data": data}).json()
    assert r["problems"] == [{"path": ["id"], "message": "'ember-rush' is a shipped pack's id; give your pack its own"}]
    assert r["preview"] == []
    data["id"] = "my-rush"
    data["cards"][1]["edges"]["north"]["attack"] = 12
    data["cards"][2]["ability"]["effects"][0]["op"] = "teleport"  # an unknown op
    problems = client.post("/api/studio/knockback/check", json={"data": data}).json()["problems"]
    paths = [p["path"] for p in problems]
    assert ["cards", 1, "edges", "north", "attack"] in paths and ["cards", 2, "ability", "effects", 0] in paths
    assert any("unknown effect op 'teleport'" in p["message"] for p in problems)
    r = client.post("/api/studio/knockback/files", json={"data": data})
    assert r.status_code == 400 and "not valid yet" in r.json()["error"]
    box = _doc(client, "knockdown", "nemesis")
    box["fighter"][0]["special"][0]["heavy"] = 7
    box["card"][1]["name"] = box["card"][0]["name"]
    problems = client.post("/api/studio/knockdown/check", json={"data": box}).json()["problems"]
    assert {"path": ["fighter", 0, "special", 0, "heavy"], "message": "Input should be less than or equal to 4"} \
        in problems


def test_knockdown_checks_across_files_and_writes_five_files_that_read_back(client: Any, tmp_path: Path) -> None:
    box = _doc(client, "knockdown", "nemesis")
    box["card"][1]["name"] = box["card"][0]["name"]
    problems = client.post("/api/studio/knockdown/check", json={"data": box}).json()["problems"]
    assert {"path": ["card", 1, "name"], "message": "duplicate card name"} in problems
    box = _doc(client, "knockdown", "nemesis")
    box["fighter"][0]["special"][3]["heavy"] = 2
    r = client.post("/api/studio/knockdown/check", json={"data": box}).json()
    assert r["problems"] == []
    james = next(p for p in r["preview"] if p["kind"] == "fighter" and p["name"] == "James")
    assert "2 heavy wounds" in james["specials"][3]["text"]
    files = client.post("/api/studio/knockdown/files", json={"data": box}).json()["files"]
    assert sorted(files) == [f"nemesis/{k}.toml" for k in ("arena", "attacks", "box", "fighters", "skills")]
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert get_game("knockdown").validate_content(tmp_path / "nemesis") == []
    back = client.post("/api/studio/knockdown/read", json={"files": files}).json()
    assert back == {"data": box, "problems": []}


def test_markup_in_names_is_data_and_stays_text(client: Any) -> None:
    data = _doc(client, "knockback", "new")
    data["name"] = "<script>alert(1)</script>"
    data["cards"][0]["name"] = "<img src=x onerror=alert(1)>"
    r = client.post("/api/studio/knockback/check", json={"data": data}).json()
    assert r["problems"] == []
    assert r["preview"][0]["card"]["name"] == "<img src=x onerror=alert(1)>"  # the browser draws it as text
    text = next(iter(client.post("/api/studio/knockback/files", json={"data": data}).json()["files"].values()))
    assert 'name = "<script>alert(1)</script>"' in text


def test_hostile_documents_and_files_are_refused_with_one_line(client: Any) -> None:
    nested: Any = 1
    for _ in range(MAX_DEPTH + 1):
        nested = {"a": nested}
    assert depth(nested) > MAX_DEPTH
    r = client.post("/api/studio/knockback/check", json={"data": nested})
    assert r.status_code == 400 and "nests deeper than" in r.json()["error"]
    r = client.post("/api/studio/knockback/check", content="[" * 5000 + "]" * 5000,
                    headers={"content-type": "application/json"})
    assert r.status_code in (400, 422) and "error" in r.json()
    r = client.post("/api/studio/knockback/check", content=b"x" * (MAX_BODY_BYTES + 1),
                    headers={"content-type": "application/json"})
    assert r.status_code == 413
    r = client.post("/api/studio/knockback/read", json={"files": {"p.toml": "a = 1\n" * (MAX_FILE // 6 + 10)}})
    assert r.status_code in (413,) and "holds at most" in r.json()["error"]
    deep_toml = "x = " + "[" * 3000 + "]" * 3000
    r = client.post("/api/studio/knockback/read", json={"files": {"p.toml": deep_toml}})
    assert r.status_code in (200, 400)
    body = r.json()
    assert body.get("data") is None and (body.get("problems") or body.get("error"))
    for files, says in [({"p.toml": "not = [toml"}, "not valid TOML"),
                        ({"p.toml": 'game = "knockdown"'}, "not a KNOCKBACK pack"),
                        ({"a.toml": "", "b.toml": ""}, "a pack is one file")]:
        r = client.post("/api/studio/knockback/read", json={"files": files}).json()
        assert r["data"] is None and says in r["problems"][0]["message"], r
    r = client.post("/api/studio/knockdown/read", json={"files": {"evil.toml": 'game = "knockdown"'}}).json()
    assert r["data"] is None and "a box's files are" in r["problems"][0]["message"]
    for junk in (None, [], "pack", 3, {"game": "knockback", "id": 1}):
        r = client.post("/api/studio/knockback/check", json={"data": junk})
        assert r.status_code == 200 and r.json()["problems"], junk
    r = client.post("/api/studio/knockback/check", json={"data": {}, "extra": 1})
    assert r.status_code in (400, 422) and "error" in r.json()
    assert json.dumps(r.json()).count("Traceback") == 0


def _wait(client: Any, job: str, states: tuple[str, ...] = ("done", "stopped", "failed"), seconds: float = 120) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        j = client.get(f"/api/studio/jobs/{job}").json()
        if j["state"] in states:
            return j
        time.sleep(0.1)
    raise AssertionError(f"job {job} still {j['state']}")


def test_test_it_plays_the_numbers_knockabout_balance_plays(client: Any, tmp_path: Path) -> None:
    data = _doc(client, "knockback", "new")
    r = client.post("/api/studio/knockback/test", json={"data": data, "bot": "random", "games": 2, "seed": 5})
    assert r.status_code == 200, r.text
    job = _wait(client, r.json()["job"])
    assert job["state"] == "done" and job["done"] == job["planned"] == 7 * 6 * 2
    (group,) = job["groups"]
    assert "my-pack" in group["entrants"] and len(group["matrix"]) == 42
    # the same run from the engine of `knockabout balance GAME -o version=FOLDER`
    files = client.post("/api/studio/knockback/files", json={"data": data}).json()["files"]
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    run = run_balance(BalanceSpec("knockback", {"version": str(tmp_path)}, 2, "random", 5), InlineExecutor())
    t = tables(run.groups[0], [m for p in run.pairs[0] for m in p.matches], "pack", str)
    assert {(c.row, c.col): (c.rate.points, c.rate.n) for c in t.matrix} == {
        (c["row"], c["col"]): (c["rate"] * c["n"], c["n"]) for c in group["matrix"]}
    assert {e: r.rate for e, r in t.fieldrates.items()} == {f["entrant"]: f["rate"] for f in group["field"]}


def test_tests_queue_are_limited_per_requester_stop_early_and_refuse_bad_requests(client: Any) -> None:
    data = _doc(client, "knockback", "new")
    long = client.post("/api/studio/knockback/test", json={"data": data, "bot": "random", "games": 200}).json()
    again = client.post("/api/studio/knockback/test", json={"data": data, "bot": "random", "games": 1})
    assert again.status_code == 429 and "already have 1 test" in again.json()["error"]
    assert client.post(f"/api/studio/jobs/{long['job']}/stop", json={"token": "not-it"}).status_code == 404
    stopped = client.post(f"/api/studio/jobs/{long['job']}/stop", json={"token": long["token"]})
    assert stopped.status_code == 200
    job = _wait(client, long["job"])
    assert job["state"] == "stopped" and job["done"] < job["planned"]
    early = client.post("/api/studio/knockback/test",
                        json={"data": data, "bot": "random", "games": 200, "width": 45}).json()
    job = _wait(client, early["job"])
    assert job["state"] == "done" and job["done"] < job["planned"] and "widest" in job["note"]
    for body, says in [({"bot": "hard"}, "random or easy bots"), ({"games": 0}, "greater than or equal to 1"),
                       ({"width": 60}, "less than 50")]:
        r = client.post("/api/studio/knockback/test", json={"data": data, **body})
        assert r.status_code in (400, 422) and says in r.json()["error"], r.json()
    bad = dict(data, id="ember-rush")
    r = client.post("/api/studio/knockback/test", json={"data": bad})
    assert r.status_code == 400 and r.json()["error"].startswith("fix the pack first")
    assert client.get("/api/studio/jobs/nope").status_code == 404


def test_measure_gives_each_own_card_its_effect_beside_its_usage_as_balance_ablate_does(
        client: Any, tmp_path: Path) -> None:
    data = _doc(client, "knockback", "new")
    own = [c["name"] for c in data["cards"]]
    r = client.post("/api/studio/knockback/measure", json={"data": data, "bot": "random", "games": 2, "seed": 3})
    assert r.status_code == 200, r.text
    job = _wait(client, r.json()["job"])
    assert job["kind"] == "ablate" and job["state"] == "done" and job["done"] == job["planned"]
    assert job["planned"] == 4 * 12 * 2  # the base and one version per card: my-pack's 12 ordered pairings each
    assert sorted(c["card"] for c in job["cards"]) == sorted(own), "the document's own cards only"
    assert all(c["entrant"] == "my-pack" and c["effect"] is not None for c in job["cards"])
    # the numbers of `knockabout balance ablate -o version=FOLDER --files` for the same seed
    files = client.post("/api/studio/knockback/files", json={"data": data}).json()["files"]
    for name, text in files.items():
        (tmp_path / "v" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "v" / name).write_text(text)
    plan = plan_ablation(AblationSpec("knockback", {"version": str(tmp_path / "v")}, 2, "random", 3,
                                      files=tuple(files)), tmp_path / "work")
    run = run_ablation(plan, InlineExecutor())
    want = {e["card"]: (e["effect"], e["low"], e["high"], e["matches"]) for e in run.meta["ablation"]["effects"]}
    got = {c["card"]: (c["effect"]["effect"], c["effect"]["low"], c["effect"]["high"], c["effect"]["matches"])
           for c in job["cards"]}
    assert got == want
    base = tables(run.groups[0], [m for p in run.pairs[0] for m in p.matches], "pack", str)
    usage = {c.card: (c.diff, c.played) for c in base.cards if c.entrant == "my-pack"}
    assert {c["card"]: (c["usage"]["diff"], c["played"]) for c in job["cards"] if c["usage"]} == {
        k: v for k, v in usage.items() if k in got}
    r = client.post("/api/studio/knockback/measure", json={"data": data, "width": 10})
    assert r.status_code == 422  # a measure plays what it plans
