"""The camera check: a station started with a replayed camera shows its latest frame with the
reading drawn on it, and that reading is ``packref vision read``'s of the same frame
(``GET /api/tables/ID/camera``, ``camera.png``, ``camera.zip``, ``PUT .../camera/mats``)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import cv2
import httpx
import numpy as np
import pytest
from fastapi.testclient import TestClient

from station.api import Services, create_app
from tests.conftest import REPO
from tests.station.camera_frames import render_frames
from tests.station.conftest import TOKEN

AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture(scope="module")
def frames(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Removal table: a clean frame, then a hand over the trucks (the frame that stays)."""
    return render_frames(tmp_path_factory.mktemp("camera") / "removal", hands=(0, 1))


@pytest.fixture
def station_url(frames: Path, tmp_path: Path) -> Iterator[str]:
    """``packref serve`` with table ``t1``'s camera replaying ``frames``; its URL."""
    server = subprocess.Popen(
        [sys.executable, "-m", "station", "serve", "--port", "0", "--data", str(tmp_path),
         "--camera", f"t1={frames}"], cwd=REPO, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, env=dict(os.environ, PACKREF_TOKEN=TOKEN))
    try:
        yield json.loads(server.stdout.readline())["url"].rstrip("/")
    finally:
        server.terminate()
        server.communicate(timeout=30)


def wait_for(condition: Callable[[], Any], timeout: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("timed out")


def settled(api: httpx.Client, because: str) -> dict[str, Any]:
    """The camera's answer once the replay ended with mats looked for ``because``."""
    def ready() -> dict[str, Any] | None:
        answer = api.get("/api/tables/t1/camera").json()
        done = answer["looked_for"]["because"] == because and "ended" in answer["status"]
        return answer if done and answer["frame"] else None

    return wait_for(ready)


def vision_read(folder: Path, png: bytes, mats_file: dict[str, Any]) -> list[dict[str, Any]]:
    """``packref vision read`` of ``png`` with ``mats_file``: its mats."""
    (folder / "frame.png").write_bytes(png)
    (folder / "MATS.json").write_text(json.dumps(mats_file))
    done = subprocess.run([sys.executable, "-m", "station", "vision", "read",
                           str(folder / "frame.png"), "--mats", str(folder / "MATS.json")],
                          cwd=REPO, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)["mats"]


def by_place(mats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The mats with their tags in place order (the detector's order may vary)."""
    return [{**mat, "tags": sorted(mat.get("tags", []), key=lambda t: (t["row"], t["col"]))}
            if mat.get("found") else mat for mat in mats]


def decoded(data: bytes) -> np.ndarray:
    return cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)


def check_drawn_reading(api: httpx.Client, answer: dict[str, Any], folder: Path) -> None:
    """The reading served is ``vision read``'s of the frame served, and the overlay draws it."""
    bundle = zipfile.ZipFile(io.BytesIO(api.get("/api/tables/t1/camera.zip").content))
    assert sorted(bundle.namelist()) == ["MATS.json", "frame.png", "overlay.png", "reading.json"]
    reading = json.loads(bundle.read("reading.json"))
    assert reading["frame"] == answer["frame"] and reading["mats"] == answer["mats"]
    mats_file = json.loads(bundle.read("MATS.json"))
    assert mats_file == {"mats": [{k: m[k] for k in ("id", "rows", "cols", "kind")}
                                  for m in answer["looked_for"]["mats"]]}
    raw = api.get("/api/tables/t1/camera.png", params={"overlay": 0, "width": 0})
    assert raw.headers["content-type"] == "image/png"
    assert raw.headers["x-packref-frame"] == str(answer["frame"])
    assert raw.content == bundle.read("frame.png")
    assert by_place(vision_read(folder, raw.content, mats_file)) == by_place(answer["mats"])

    image = decoded(raw.content)
    drawn = decoded(api.get("/api/tables/t1/camera.png",
                            params={"overlay": 1, "width": 0}).content)
    assert drawn.shape == image.shape == (answer["height"], answer["width"], 3)
    assert np.array_equal(drawn, decoded(bundle.read("overlay.png")))
    changed = np.abs(drawn.astype(int) - image.astype(int)).max(axis=-1) > 40
    for where in answer["geometry"]:  # every found mat is outlined
        points = np.round(np.array(where["outline"])).astype(int)
        near = [changed[max(y - 2, 0):y + 3, max(x - 2, 0):x + 3].any() for x, y in points]
        assert sum(near) > 0.9 * len(near), f"mat {where['id']} is not outlined"
    found = {mat["id"] for mat in answer["mats"] if mat["found"]}
    assert {where["id"] for where in answer["geometry"]} == found
    outside = np.ones(changed.shape, bool)
    for where in answer["geometry"]:
        corners = np.round(np.array(where["corners"])).astype(np.int32)
        cv2.fillConvexPoly(outside.view(np.uint8), cv2.convexHull(corners), 0)
        cv2.circle(outside.view(np.uint8), tuple(int(v) for v in corners[0]), 150, 0, -1)  # label
    outside[:200, :400] = False  # the legend
    outside = cv2.erode(outside.astype(np.uint8), np.ones((61, 61), np.uint8)).astype(bool)
    assert not changed[outside].any()  # nothing drawn far from the mats
    small = decoded(api.get("/api/tables/t1/camera.png").content)
    assert small.shape[1] == 960  # the page's picture


def test_the_camera_page_draws_what_vision_read_reads_before_and_during_a_game(
        station_url: str, tmp_path: Path) -> None:
    api = httpx.Client(base_url=station_url, headers=AUTH, timeout=30)
    assert httpx.get(f"{station_url}/api/tables/t1/camera").status_code == 401
    assert httpx.get(f"{station_url}/api/tables/t1/camera.png").status_code == 401
    # before any game, nothing chosen: the frame alone
    alone = settled(api, "none")
    assert alone["mats"] == [] and alone["width"] == 1920
    # before any game: the kit's Removal trucks, chosen on the page (two laid of four)
    chosen = api.put("/api/tables/t1/camera/mats", json={"game": "removal"})
    assert chosen.status_code == 200 and chosen.json()["chosen"] == "removal"
    answer = settled(api, "chosen")
    assert [(m["id"], m["found"]) for m in answer["mats"]] == [
        (0, True), (1, True), (2, False), (3, False)]
    assert [m["label"] for m in answer["looked_for"]["mats"]] == [
        "truck 1", "truck 2", "truck 3", "truck 4"]
    assert any("?" in line for m in answer["mats"][:2] for line in m["cells"])  # the hand
    assert any(m["tags"] for m in answer["mats"][:2])
    check_drawn_reading(api, answer, tmp_path)
    # a game of two starts: its two trucks are read, as the game reads them
    api.post("/api/tables/t1/games", json={"game": "removal", "players": ["Ana", "Ben"],
                                           "deal": "table"}).raise_for_status()
    answer = settled(api, "game")
    assert [m["id"] for m in answer["mats"]] == [0, 1]
    check_drawn_reading(api, answer, tmp_path)
    page = httpx.get(f"{station_url}/tables/t1/camera")
    assert page.status_code == 200 and 'id="camera-picture"' in page.text
    assert 'href="/tables/t1/camera"' in httpx.get(f"{station_url}/tables/t1").text


def test_a_table_without_a_camera_is_a_clear_404(services: Services) -> None:
    with TestClient(create_app(services)) as client:
        client.post("/api/tables", headers=AUTH, json={"name": "Table 2", "id": "t2"})
        for path in ("camera", "camera.png", "camera.zip"):
            answer = client.get(f"/api/tables/t2/{path}", headers=AUTH)
            assert answer.status_code == 404
            assert answer.json()["detail"] == ("table 't2' has no camera: start the station "
                                               "with 'packref serve --camera t2=SOURCE'")
        assert client.get("/api/tables/t9/camera", headers=AUTH).status_code == 404
        page = client.get("/tables/t2/camera")
        assert page.status_code == 200 and "This table has no camera" in page.text


def test_a_bound_camera_without_a_frame_says_so_and_a_choice_is_checked(
        services: Services) -> None:
    with TestClient(create_app(services)) as client:
        client.post("/api/tables", headers=AUTH, json={"name": "Table 3", "id": "t3"})
        services.station.cameras.bind("t3", "0").say("camera 0: cannot be opened")
        answer = client.get("/api/tables/t3/camera", headers=AUTH)
        assert answer.status_code == 200 and answer.json()["frame"] is None
        assert answer.json()["status"] == "camera 0: cannot be opened"
        picture = client.get("/api/tables/t3/camera.png", headers=AUTH)
        assert picture.status_code == 404 and "has given no frame yet" in picture.json()["detail"]
        wrong = client.put("/api/tables/t3/camera/mats", headers=AUTH, json={"game": "chess"})
        assert wrong.status_code == 422 and wrong.json()["detail"].startswith("$.game: ")
        assert client.put("/api/tables/t3/camera/mats",
                          json={"game": "removal"}).status_code == 401
        cleared = client.put("/api/tables/t3/camera/mats", headers=AUTH, json={"game": None})
        assert cleared.status_code == 200 and cleared.json()["chosen"] is None
