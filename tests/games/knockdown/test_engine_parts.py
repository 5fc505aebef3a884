"""The engine's named parts: the op vocabulary checked at load, typed tasks and pending
records through a save, and the event names the narration knows."""

from __future__ import annotations

import inspect
import json
import pickle
import shutil
import typing
from pathlib import Path

import pytest

from knockabout.core import Rng
from knockabout.games.knockdown import GAME
from knockabout.games.knockdown.content.loader import CONTENT_DIR, load_box_folder
from knockabout.games.knockdown.content.ops import OP_NAMES, Op, OpName
from knockabout.games.knockdown.presentation.narration import narrate
from knockabout.games.knockdown.rules.events import EVENT_NAMES
from knockabout.games.knockdown.rules.phases import COMBO_PLAYED, COMBO_STARTED, Phase, pending_from_data
from knockabout.games.knockdown.rules.tasks import TASK_TYPES, Task, task_data, task_from_data
from knockabout.games.knockdown.state import KnockdownState

EXPECTED_OPS = ", ".join(OP_NAMES)


def _copy_box(tmp_path: Path, box: str = "tainted_grail") -> Path:
    dst = tmp_path / box
    shutil.copytree(CONTENT_DIR / box, dst)
    return dst


def test_an_unknown_op_is_refused_on_load_naming_file_entry_and_field(tmp_path: Path) -> None:
    d = _copy_box(tmp_path)
    f = d / "fighters.toml"
    text = f.read_text()
    assert 'ko_effect = [{ op = "wound"' in text
    f.write_text(text.replace('ko_effect = [{ op = "wound"', 'ko_effect = [{ op = "wobble"', 1))
    problems = GAME.validate_content(f)
    assert problems == [
        f"{f}: fighter #1 'mistbearer'.ko_effect #1 'wobble': op: unknown op 'wobble' (expected one of: {EXPECTED_OPS})"
    ]
    box, errors = load_box_folder(d)
    assert box is None and errors == problems


def test_an_effect_without_an_op_is_refused_naming_the_field(tmp_path: Path) -> None:
    d = _copy_box(tmp_path)
    f = d / "fighters.toml"
    f.write_text(f.read_text().replace('ko_effect = [{ op = "wound",', "ko_effect = [{", 1))
    problems = GAME.validate_content(f)
    assert problems == [f"{f}: fighter #1 'mistbearer'.ko_effect #1: op: missing (expected one of: {EXPECTED_OPS})"]


def test_an_unknown_skill_effect_kind_is_refused_naming_the_field(tmp_path: Path) -> None:
    d = _copy_box(tmp_path)
    f = d / "skills.toml"
    text = f.read_text()
    assert 'kind = "hand_limit"' in text
    f.write_text(text.replace('kind = "hand_limit"', 'kind = "hand_size"', 1))
    problems = GAME.validate_content(f)
    entry = "skill #4 'Deep Pockets'.effects #1 'hand_size'"
    assert problems[0].startswith(f"{f}: {entry}: kind: unknown kind 'hand_size' (expected one of: extra_symbol, ")


def test_loaded_ops_carry_their_enum_name_and_every_name_has_one_model() -> None:
    models = typing.get_args(typing.get_args(Op)[0])
    names = [typing.get_args(m.model_fields["op"].annotation)[0] for m in models]
    assert sorted(names) == sorted(OpName) and len(set(names)) == len(names)
    state = GAME.new_state({}, 0)
    ops = [op for prog in state.setup.programs for op in prog]
    assert ops and all(type(op.op) is OpName for op in ops)


def _sample(kind: type[Task]) -> Task:
    values: list[object] = []
    if kind.FIELDS:
        params = inspect.signature(kind.__init__).parameters
        assert tuple(params)[1:] == kind.FIELDS, "FIELDS lists the record's fields in order"
        for name in kind.FIELDS:
            # annotations are strings in the plain build (postponed), types in the compiled one
            values.append(True if params[name].annotation in ("bool", bool) else len(values) + 1)
    return kind(*values)


@pytest.mark.parametrize("kind", TASK_TYPES, ids=[k.__name__ for k in TASK_TYPES])
def test_every_task_is_saved_as_its_code_and_fields_and_restored_as_its_record(kind: type[Task]) -> None:
    task = _sample(kind)
    data = task_data(task)
    assert data == [TASK_TYPES.index(kind), *task.values()]
    back = task_from_data(json.loads(json.dumps(data)))
    assert type(back) is kind and back == task and repr(back) == repr(task)
    assert [type(v) for v in back.values()] == [type(v) for v in task.values()], "a flag comes back a bool"
    assert pickle.loads(pickle.dumps(task)) == task and hash(back) == hash(task)


def test_a_broken_saved_task_is_refused_with_what_is_wrong() -> None:
    with pytest.raises(ValueError, match="not a task"):
        task_from_data([99])
    with pytest.raises(ValueError, match="task Take has 2 fields"):
        task_from_data([TASK_TYPES.index(TASK_TYPES[7]), 1])


def _states_with_pending(seed: int) -> list[KnockdownState]:
    s = GAME.new_state({"boxes": ["tainted_grail", "nemesis", "siege_storm"]}, seed)
    rng = Rng(seed)
    out = []
    while s.to_act() is not None and len(out) < 400:
        if s.pend:
            out.append(s.clone())
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
    return out


def test_a_saved_state_comes_back_with_typed_phase_tasks_and_pending_record() -> None:
    seen_phases = set()
    for seed in range(3):
        for s in _states_with_pending(seed):
            back = KnockdownState.from_dict(json.loads(json.dumps(s.to_dict())))
            assert type(back.phase) is Phase
            assert [type(t) for t in back.tasks] == [type(t) for t in s.tasks]
            assert type(back.pend) is type(s.pend) and back.pend == s.pend
            assert back.to_dict() == s.to_dict()
            seen_phases.add(s.phase)
    assert {Phase.COMBO, Phase.STEP, Phase.CARD, Phase.ROW, Phase.OPENING} <= seen_phases


def test_pending_details_of_a_phase_without_any_are_refused() -> None:
    with pytest.raises(ValueError, match="phase TURN has no pending details"):
        pending_from_data(Phase.TURN, (1, 2))


def test_a_combo_saved_under_rules_1_0_may_still_end() -> None:
    assert pending_from_data(Phase.COMBO, ()) == COMBO_PLAYED
    assert pending_from_data(Phase.COMBO, (False,)) == COMBO_STARTED


def test_every_event_the_rules_emit_is_named_and_narrated_in_words() -> None:
    seen: set[str] = set()
    for boxes in (["tainted_grail"], ["nemesis"], ["siege_storm"]):
        for seed in range(4):
            s = GAME.new_state({"boxes": boxes}, seed)
            rng = Rng(seed)
            while s.to_act() is not None:
                legal = s.legal_actions()
                for e in s.apply(legal[rng.below(len(legal))]):
                    assert e.type in EVENT_NAMES, e.type
                    seen.add(e.type)
                    line = narrate(e, ("Ann", "Bob"))
                    assert line is None or not line.startswith(f"{e.type}:"), line
    assert len(seen) >= 35



def _emitted_names(source: str) -> set[str]:
    """The event names a module's ``public(...)``/``private(...)`` calls can give: every string
    constant in the name argument (a conditional name gives both)."""
    import ast

    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("public", "private"):
            arg = node.args[0 if node.func.id == "public" else 1]
            names |= {c.value for c in ast.walk(arg) if isinstance(c, ast.Constant) and isinstance(c.value, str)}
    return names


def test_every_event_name_in_the_rules_source_is_in_the_event_list() -> None:
    """Every place that makes an event, not only those random play reaches: the name must be
    one the narration knows (rules/events.py)."""
    import knockabout.games.knockdown as package

    root = Path(package.__file__).parent
    files = [root / "state.py", *sorted((root / "rules").glob("*.py"))]
    found = set().union(*(_emitted_names(f.read_text(encoding="utf-8")) for f in files))
    assert len(found) >= 45
    assert found - EVENT_NAMES == set()
    assert _emitted_names('ev.append(public("a" if x else "b", player=1)); private(frozenset((0,)), "c")') == {
        "a", "b", "c"}

def test_the_templated_events_each_have_a_template_and_write_seat_names() -> None:
    from typing import get_args

    from knockabout.core.events import Event
    from knockabout.games.knockdown.presentation.narration import _TEMPLATES, Templated

    assert set(_TEMPLATES) == set(get_args(Templated))
    assert set(_TEMPLATES) <= EVENT_NAMES
    names = ("Ann", "Bob")
    assert narrate(Event("wound_moved", {"player": 0, "kind": "heavy", "to": 1}), names) == (
        "Ann passes a heavy wound to Bob."
    )
    assert narrate(Event("new_round", {"round": 2, "first": 1}), names) == "Round 2 begins; Bob goes first."
    assert narrate(Event("ko_test", {"player": 1, "target": 0}), names) == (
        "Bob goes for the K.O.: Ann must pass a Knockdown Test!"
    )
    # the events narrated by code still are
    assert narrate(Event("tokens", {"player": 0, "change": -2, "token": "poison"}), names) == (
        "Ann loses 2 poison tokens."
    )
