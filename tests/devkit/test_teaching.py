"""The closed-loop teacher over the photoshoot model: a person doing what packref says."""

from __future__ import annotations

import json

import numpy as np

from devkit.vision.photoshoot import teach_copy
from devkit.vision.photoshoot.teaching import REACTION, Teacher, TeachingSession
from station.catalogue.learn import Note
from station.cli import main as packref


def turns(squares: list[str]) -> set[tuple[str, ...]]:
    grid = np.array([list(row) for row in squares])
    return {tuple("".join(row) for row in np.rot90(grid, k)) for k in range(4)}


def test_two_cards_and_an_item_are_recorded_and_the_replay_learns_the_same(tmp_path):
    cards = teach_copy("small-warehouse", 0, "plain", tmp_path / "cards", count=2)
    assert cards.stopped is None
    laid = [card["squares"] for card in cards.truth["cards"]]
    learnt = [card["squares"] for card in cards.learnt["cards"]]
    assert len(learnt) == 2
    assert all(tuple(seen) in turns(want) for seen, want in zip(learnt, laid, strict=True))
    assert all(card["recorded"] and card["tries"] for card in cards.truth["cards"])
    frames = sorted(path.name for path in (tmp_path / "cards").glob("*.jpg"))
    assert frames == [f"{i:04d}.jpg" for i in range(cards.frames)]

    replayed = tmp_path / "learnt.json"
    assert packref(["catalogue", "learn", "small-warehouse", "--replay", str(tmp_path / "cards"),
                    "--mats", str(tmp_path / "cards" / "mats.json"),
                    "--out", str(replayed)]) == 0
    assert json.loads(replayed.read_text()) == cards.learnt

    item = teach_copy("removal", 1, "plain", count=1)
    (want,) = item.truth["items"]
    (seen,) = item.learnt["items"]
    assert seen["tag"] == want["tag"] and tuple(seen["shape"]) in turns(want["shape"])


class ScriptedLearner:
    """Says "again" on the first try's still frames and "recorded" on the second try's."""

    def __init__(self, teacher_notes: list[Note]) -> None:
        self.notes, self.waiting = teacher_notes, False

    def answer(self, shot: dict) -> None:
        if shot["phase"] == "still":
            kind = "again" if shot["attempt"] == 0 else "recorded"
            self.notes.append(Note(len(self.notes), kind, kind))
            self.waiting = kind == "recorded"
        elif shot["phase"] == "empty" and shot["component"] is not None:
            self.waiting = False


def test_told_to_lay_it_again_the_person_picks_it_up_and_lays_it_elsewhere():
    session = TeachingSession("small-warehouse", 2, "plain", count=1)
    shots: list[dict] = []
    session.shoot = lambda frame, **truth: shots.append(truth) or truth  # no rendering
    teacher = Teacher(session, None, stable=3)
    teacher.learner = learner = ScriptedLearner(teacher.heard)
    for shot in teacher.photos():
        learner.answer(shot)
    (log,) = teacher.log
    assert log.outcomes == ["again", "recorded"] and len(log.tries) == 2
    phases = [shot["phase"] for shot in shots if shot["component"] == 0]
    first_still = phases.index("still")
    # the person hears "again" and acts REACTION frames later: picks it up, lays it again
    assert phases[first_still:first_still + REACTION + 2] == \
        ["still"] * (REACTION + 1) + ["picking up"]
    assert phases[-5:-3] == ["taking", "leaving"] and phases[-1] == "empty"
