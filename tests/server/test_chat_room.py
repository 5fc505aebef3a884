"""A table's chat room, with a fake clock: limits, phrases, channels, mutes, cleaning."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from knockabout.server.chat import (
    MAX_CHARS,
    PHRASES,
    ChatLine,
    ChatPolicy,
    ChatRefused,
    ChatRoom,
    clean_text,
    readable,
)


class Clock:
    def __init__(self) -> None:
        self.now = 50.0

    def __call__(self) -> float:
        return self.now


def room(policy: ChatPolicy | None = None) -> tuple[ChatRoom, Clock]:
    clock = Clock()
    return ChatRoom(clock, lambda: 1_700_000_000.0, policy or ChatPolicy()), clock


def test_a_player_says_a_line_and_a_quick_phrase() -> None:
    r, _ = room()
    a = r.post("seat:0", 0, "Ann", 3, text="  hello   there ")
    assert (a.n, a.channel, a.text, a.step, a.seat, a.phrase) == (1, "players", "hello there", 3, 0, None)
    b = r.post("seat:1", 1, "Bo", 4, phrase="good-game")
    assert b.text == "Good game" and b.phrase == "good-game" and b.n == 2
    assert {"good-game", "well-played", "oops"} <= set(PHRASES)
    assert ChatLine.from_json(b.to_json()) == b


@pytest.mark.parametrize(("text", "phrase", "why"), [
    ("", None, "empty"),
    (" \n\t ", None, "empty"),
    ("x" * (MAX_CHARS + 1), None, f"at most {MAX_CHARS} characters"),
    (None, "rude-word", "no quick phrase"),
    (None, None, "either text or a quick phrase"),
    ("hi", "oops", "either text or a quick phrase"),
])
def test_lines_that_are_refused(text: str | None, phrase: str | None, why: str) -> None:
    r, _ = room()
    with pytest.raises(ChatRefused, match=why):
        r.post("seat:0", 0, "Ann", 0, text=text, phrase=phrase)
    assert r.history(0) == [] and r.next_n == 1


def test_the_rate_limit_is_per_sender_and_slides() -> None:
    r, clock = room(ChatPolicy(lines=3, seconds=10))
    for i in range(3):
        r.post("seat:0", 0, "Ann", 0, text=f"m{i}")
        clock.now += 1
    with pytest.raises(ChatRefused, match=r"too fast: at most 3 in 10 seconds; wait 7\.0 s"):
        r.post("seat:0", 0, "Ann", 0, text="again")
    r.post("seat:1", 1, "Bo", 0, text="I may")  # someone else is not held back
    clock.now += 7  # the first line is 10 s old
    r.post("seat:0", 0, "Ann", 0, text="now")
    assert [x.text for x in r.history(0)] == ["m0", "m1", "m2", "I may", "now"]


def test_spectators_chat_apart_from_the_players() -> None:
    r, _ = room()
    r.post("seat:0", 0, "Ann", 0, text="players talk")
    r.post("spectator:1", None, "Cy", 0, text="watchers talk")
    assert [x.text for x in r.history(0)] == ["players talk"], "a player never reads the spectators"
    assert [x.text for x in r.history(None)] == ["players talk", "watchers talk"]
    assert r.lines[-1].channel == "spectators"
    assert readable(r.lines[0], 1) and not readable(r.lines[1], 1) and readable(r.lines[1], None)


def test_a_mute_hides_one_sender_from_one_reader() -> None:
    r, _ = room()
    r.post("seat:0", 0, "Ann", 0, text="spam")
    r.post("seat:1", 1, "Bo", 0, text="hi")
    assert [x.text for x in r.history(1, muted={"seat:0"})] == ["hi"]
    assert [x.text for x in r.history(2)] == ["spam", "hi"], "others still read it"


def test_restored_lines_continue_the_numbering() -> None:
    r, _ = room()
    old = ChatLine(7, "players", "seat:0", 0, "Ann", "before the restart", 2, 1.0)
    r.restore([old])
    assert r.post("seat:1", 1, "Bo", 3, text="after").n == 8


def test_markup_is_kept_as_the_text_it_is() -> None:
    payload = '<script>alert(1)</script><img src=x onerror=alert(2)>'
    r, _ = room()
    assert r.post("seat:0", 0, "Ann", 0, text=payload).text == payload  # text, shown as text by every client


@given(st.text(max_size=400))
def test_cleaning_leaves_no_control_characters_or_runs_of_space(text: str) -> None:
    out = clean_text(text)
    assert out == out.strip() and "  " not in out
    assert not any(ch in out for ch in "\n\r\t\x00\u202e\u200b")
    assert clean_text(out) == out
