"""The real-recording trace family: loaders, labels from the data, composed challenges.

The recordings live outside the project (``../shared/data/drone-real/``, or
``$PACKREF_DRONE_REAL``); without them these tests skip.
"""

from __future__ import annotations

import numpy as np
import pytest

from devkit.hardware.real_traces import (
    DEV_SEEDS,
    SEALED_SEEDS,
    XIO_HAND_TOUCH,
    XIO_LIFTS,
    XIO_TOUCHDOWNS,
    compose_challenge,
    data_dir,
    impact_onset,
    lift_onset,
    load_hx711,
    load_recordings,
    load_xio,
    settle_onset,
)

FOLDER = data_dir()
pytestmark = pytest.mark.skipif(FOLDER is None, reason="the real drone recordings are absent "
                                "(../shared/data/drone-real/ or $PACKREF_DRONE_REAL)")


def test_the_xio_recording_is_read_in_the_boards_units() -> None:
    xio = load_xio(FOLDER)
    assert len(xio.t) > 13_000 and 130 < xio.t[-1] < 140
    resting = xio.between(1.0, 10.0)
    assert np.linalg.norm(np.median(resting.accel, axis=1)) == pytest.approx(9.75, abs=0.1)
    steps = np.diff(xio.t)
    assert 0.009 < np.median(steps) < 0.011 and steps.max() > 0.02  # the real jitter


def test_the_hx711_log_is_grams_at_its_slow_rate() -> None:
    times, grams = load_hx711(FOLDER)
    assert 1 / np.median(np.diff(times)) == pytest.approx(11.6, abs=0.5)
    assert np.std(np.diff(grams)) < 0.1  # rest: a few hundredths of a gram


def test_the_labels_are_the_rules_applied_to_the_data() -> None:
    xio = load_xio(FOLDER)
    for lift, first, last in XIO_LIFTS.values():
        assert lift_onset(xio, first, last) == pytest.approx(lift, abs=0.02)
    touchdown, first, last = XIO_TOUCHDOWNS["jolted"]
    assert impact_onset(xio, first, last) == pytest.approx(touchdown, abs=0.02)
    touchdown, first, last = XIO_TOUCHDOWNS["soft-hand"]
    assert settle_onset(xio, first, last) == pytest.approx(touchdown, abs=0.02)
    with pytest.raises(ValueError, match="no impact"):
        impact_onset(xio, *XIO_HAND_TOUCH)  # a soft touch has no jolt


def test_a_challenge_is_reproducible_and_its_truth_is_in_order() -> None:
    recordings = load_recordings(FOLDER)
    one, again = compose_challenge(11, recordings), compose_challenge(11, recordings)
    assert np.array_equal(one.samples.force_g, again.samples.force_g)
    assert one.truth == again.truth
    times = [event["t"] for event in one.truth]
    assert times == sorted(times) and one.samples.t[-1] > times[-1]
    assert np.all(np.diff(one.samples.t) > 0)
    kinds = [event["event"] for event in one.truth if event["event"] in ("lift", "land")]
    assert kinds == ["lift", "land"] * (len(kinds) // 2)
    assert compose_challenge(12, recordings).truth != one.truth


def test_the_cell_reads_the_carried_mass_at_rest_and_holds_slow_readings() -> None:
    recordings = load_recordings(FOLDER)
    challenge = compose_challenge(5, recordings)
    samples = challenge.samples
    load = next(event for event in challenge.truth if event["event"] == "load")
    after = (samples.t > load["t"] + 0.3) & (samples.t < load["t"] + 0.6)
    assert np.median(samples.force_g[after]) == pytest.approx(load["mass_g"], abs=0.5)
    new_readings = (np.diff(samples.force_g) != 0).sum() / samples.duration
    assert 10 < new_readings < 13  # the HX711's ~11.6 conversions a second, held


def test_the_sealed_seeds_are_apart_from_the_development_seeds() -> None:
    assert not set(SEALED_SEEDS) & set(DEV_SEEDS)
