"""A real browser on the camera check page: the camera's latest frame with its reading drawn,
kept up to date as the camera reads new frames, the mats listed, the downloads working."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import numpy as np
import pytest

from station.api import build_services
from station.config import Settings
from station.live.camera import looked_for_in_kit
from station.live.camera_view import CameraView
from tests.station.browser import SIZES, browser_page, expect
from tests.station.camera_frames import render_frames
from tests.station.conftest import TOKEN
from tests.station.test_browser import axe_script, axe_violations, served, small_targets
from vision.overlay import observation_geometry
from vision.reader import Reader
from vision.sources import ReplaySource


@pytest.fixture(scope="module")
def frames(tmp_path_factory: pytest.TempPathFactory) -> list[np.ndarray]:
    """A Removal table, clean, then with a hand over the trucks."""
    return list(ReplaySource(render_frames(tmp_path_factory.mktemp("camera") / "removal",
                                           hands=(0, 1))))


def read_into(view: CameraView, image: np.ndarray) -> None:
    """What the camera's thread does with a frame before a game: read the chosen game's kit
    mats, and publish the frame with its reading."""
    mats = looked_for_in_kit(view.chosen())
    view.looking_for(mats, f"no game at the table: reading the kit's mats of {mats.game}")
    reader = Reader(list(mats.specs))
    observation = reader.observe(image)
    view.publish(image, observation.mats, observation_geometry(reader.specs, observation))


def test_the_camera_page_shows_the_latest_frame_and_follows_the_camera(
        settings: Settings, frames: list[np.ndarray], tmp_path: Path) -> None:
    services = build_services(settings)
    services.station.create_table("Table 1", "t1")
    view = services.station.cameras.bind("t1", "/replays/t1")
    view.choose("removal")
    read_into(view, frames[0])
    with served(services) as url, browser_page(viewport=SIZES["desktop"]) as page:
        page.goto(f"{url}/tables/t1/camera")
        expect(page.locator("#camera-status")).to_contain_text("organiser's token")
        page.fill("#token", TOKEN)
        picture = page.locator("#camera-picture")
        expect(picture).to_be_visible()
        expect(picture).to_have_attribute("data-frame", "1")
        assert page.evaluate("document.getElementById('camera-picture').naturalWidth") == 960
        mats = page.locator("#camera-mats li")
        expect(mats).to_have_count(4)
        expect(mats.nth(0)).to_contain_text("mat 0 (truck 1): found, every cell read, tags")
        expect(mats.nth(3)).to_have_text("mat 3 (truck 4): not found")
        expect(page.locator("#camera-looked-for")).to_contain_text("the kit's mats of removal")

        first = picture.get_attribute("src")
        read_into(view, frames[1])  # a hand comes over the trucks
        expect(picture).to_have_attribute("data-frame", "2")
        assert picture.get_attribute("src") != first
        expect(page.locator("#camera-mats")).to_contain_text("cells ?")
        expect(page.locator("#camera-live")).to_have_class("live on")  # a frame just read

        raw = picture.get_attribute("src")
        page.uncheck("#camera-overlay")  # the frame as read
        expect(picture).not_to_have_attribute("src", raw)

        with page.expect_download() as download:
            page.get_by_role("button", name="MATS.json (ZIP)").click()
        saved = tmp_path / "camera.zip"
        download.value.save_as(saved)
        bundle = zipfile.ZipFile(io.BytesIO(saved.read_bytes()))
        assert sorted(bundle.namelist()) == ["MATS.json", "frame.png", "overlay.png",
                                             "reading.json"]

        page.select_option("#camera-game", "small-warehouse")
        page.click("#camera-choose-button")
        expect(page.locator("#camera-message")).to_have_text(
            "looking for the kit's mats of small-warehouse")
        assert view.chosen() == "small-warehouse"


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_camera_page_is_accessible(settings: Settings, frames: list[np.ndarray],
                                       size: str) -> None:
    """axe-core finds nothing serious; it does not scroll sideways; taps are 44 px."""
    services = build_services(settings)
    services.station.create_table("Table 1", "t1")
    view = services.station.cameras.bind("t1", "0")
    view.choose("removal")
    read_into(view, frames[1])
    with served(services) as url, browser_page(viewport=SIZES[size]) as page:
        page.goto(f"{url}/tables/t1/camera")
        page.fill("#token", TOKEN)
        expect(page.locator("#camera-picture")).to_be_visible()
        found = axe_violations(page, axe_script()) + small_targets(page)
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > SIZES[size]["width"]:
            found.append(f"scrolls sideways: {width} px wide")
        assert found == []
