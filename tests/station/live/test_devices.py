"""The devices the set-up page offers: camera nodes by number, the data folder's replays and
drone captures, pyserial's ports; what feeds a table marked."""

from __future__ import annotations

from pathlib import Path

from station.live.devices import seen_devices


def test_camera_nodes_replays_and_captures_are_listed_in_order(tmp_path: Path) -> None:
    dev = tmp_path / "dev"
    dev.mkdir()
    for name in ("video10", "video2", "video0", "videox", "ttyS0"):
        (dev / name).touch()
    replays = tmp_path / "data" / "replays"
    (replays / "rehearsal").mkdir(parents=True)
    (replays / "final.mp4").touch()
    (replays / "flight.bin").touch()
    (replays / "notes.txt").touch()
    seen = seen_devices(tmp_path / "data", {"2": "t1", f"replay://{replays / 'flight.bin'}": "t9"},
                        dev=dev)
    cameras = [(c["source"], c["kind"], c["table"]) for c in seen["cameras"]]
    assert cameras == [("0", "camera", None), ("2", "camera", "t1"), ("10", "camera", None),
                       (str(replays / "final.mp4"), "replay", None),
                       (str(replays / "rehearsal"), "replay", None)]
    assert seen["cameras"][0]["path"] == str(dev / "video0")
    captures = [p for p in seen["serial_ports"] if p["kind"] == "replay"]
    assert captures == [{"port": f"replay://{replays / 'flight.bin'}", "kind": "replay",
                         "name": "drone capture flight.bin", "table": "t9"}]


def test_a_station_without_a_replays_folder_lists_what_it_has(tmp_path: Path) -> None:
    seen = seen_devices(tmp_path, dev=tmp_path)
    assert seen["cameras"] == []
    assert all(port["kind"] == "serial" for port in seen["serial_ports"])
