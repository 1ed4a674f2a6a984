"""The detector on challenges composed from real sensor recordings (devkit/hardware/real_traces.py).

Skipped when the recordings are absent (../shared/data/drone-real/ or $PACKREF_DRONE_REAL).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from devkit.hardware.real_traces import (
    RealChallenge,
    Recordings,
    compose_challenge,
    data_dir,
    load_recordings,
)
from hardware.events import DroneEvent, LiveEventDetector, detect_events
from hardware.faults import SensorFault
from hardware.samples import Samples
from hardware.simulate import inject_fault

FOLDER = data_dir()
pytestmark = pytest.mark.skipif(FOLDER is None, reason="the real drone recordings are absent "
                                "(../shared/data/drone-real/ or $PACKREF_DRONE_REAL)")


@pytest.fixture(scope="module")
def recordings() -> Recordings:
    return load_recordings(FOLDER)


def first_challenges(recordings: Recordings, wanted: Callable[[RealChallenge], bool],
                     count: int = 3) -> list[RealChallenge]:
    """The first ``count`` development challenges (seeds from 0) that show ``wanted``."""
    found = []
    for seed in range(400):
        challenge = compose_challenge(seed, recordings)
        if wanted(challenge):
            found.append(challenge)
            if len(found) == count:
                return found
    raise AssertionError("too few such challenges in the first 400 seeds")


def events_of(challenge: RealChallenge) -> list[DroneEvent]:
    return [event for event in detect_events(challenge.samples) if isinstance(event, DroneEvent)]


def test_a_soft_set_down_with_a_hand_left_on_lands_at_the_touch_down(recordings) -> None:
    for challenge in first_challenges(recordings, lambda c: "a soft-hand real set-down" in c.story):
        landings = [event.t for event in events_of(challenge) if event.event == "land"]
        for _lift, touchdown in challenge.flights:
            assert min(abs(t - touchdown) for t in landings) <= 0.3, challenge


def test_a_leaning_hover_is_no_landing_and_lift_nor_drop_and_load(recordings) -> None:
    def leaning_without_drop(challenge: RealChallenge) -> bool:
        return (any(piece.startswith("a hover leant") for piece in challenge.story)
                and not any(event["event"] == "drop" for event in challenge.truth))

    for challenge in first_challenges(recordings, leaning_without_drop):
        kinds = [event.event for event in events_of(challenge)]
        truth = [event["event"] for event in challenge.truth]
        assert kinds == truth, challenge


def test_a_hand_resting_still_on_a_new_present_is_no_load_and_drop(recordings) -> None:
    def resting_hand(challenge: RealChallenge) -> bool:
        return any("a hand resting still" in piece for piece in challenge.story)

    for challenge in first_challenges(recordings, resting_hand):
        events = events_of(challenge)
        assert not any(event.event == "drop" for event in events) or any(
            event["event"] == "drop" for event in challenge.truth), challenge
        loads = [event for event in events if event.event == "load"]
        true_loads = [event for event in challenge.truth if event["event"] == "load"]
        assert len(loads) == len(true_loads), challenge
        for found, true in zip(loads, true_loads, strict=True):
            assert found.mass_g == pytest.approx(true["mass_g"], abs=0.5)


def test_a_drop_after_a_fault_has_cleared_is_still_a_drop(recordings) -> None:
    challenge = compose_challenge(40, recordings)  # a flight, then a drop after the landing
    drop = next(event for event in challenge.truth if event["event"] == "drop")
    lift, touchdown = challenge.flights[0]
    start = lift + 1.0
    assert start + 2.2 < touchdown - 0.5 and touchdown < drop["t"]
    stuck, _ = inject_fault(challenge.samples, "imu-frozen", start, 2.2)
    events = detect_events(stuck)
    assert [event.event for event in events if isinstance(event, SensorFault)] == [
        "fault", "fault-cleared"]
    drops = [event for event in events if isinstance(event, DroneEvent) and event.event == "drop"]
    assert [round(event.t, 1) for event in drops] == [round(drop["t"], 1)]


def test_the_live_detector_sees_a_long_carry_as_one_flight(recordings) -> None:
    # A window inside a long carry holds no table rest: measured there, its zero took the
    # hand's lean for the vertical and split the flight into landings and lifts.
    def long_carry(challenge: RealChallenge) -> bool:
        return any(touchdown - lift > 12.0 for lift, touchdown in challenge.flights)

    for challenge in first_challenges(recordings, long_carry):
        samples = challenge.samples
        live, reported = LiveEventDetector(), []
        for start in range(0, len(samples), 10):  # 0.1 s at 100 Hz, as the station feeds it
            reported += live.add(Samples(*(column[start:start + 10]
                                           for column in samples.columns())))
        reported += live.finish()
        kinds = [event.event for event in sorted(reported, key=lambda event: event.t)
                 if isinstance(event, DroneEvent)]
        assert kinds == [event.event for event in events_of(challenge)], challenge
