"""Shared helpers of the vision tests: fixture paths and comparison with the truth."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from vision.layout import MatSpec

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "vision"


def load_truth(image: Path) -> dict[str, Any]:
    return json.loads(image.with_suffix(".json").read_text())


def specs_of(truth: dict[str, Any]) -> list[MatSpec]:
    return [MatSpec(m["id"], m["rows"], m["cols"], m["kind"]) for m in truth["mats"]]


def compare(truth_mat: dict[str, Any], seen: dict[str, Any]) -> dict[str, int]:
    """Counts of wrong classes, ``?`` on clear cells, and missed and false tags."""
    wrong = unknown_clear = 0
    for true_row, covered_row, seen_row in zip(truth_mat["cells"], truth_mat["covered"],
                                                seen["cells"], strict=True):
        for true_cell, covered, seen_cell in zip(true_row, covered_row, seen_row, strict=True):
            wrong += seen_cell not in ("?", true_cell)
            unknown_clear += covered == "0" and seen_cell == "?"
    every = {(t["id"], t["row"], t["col"], t["rotation"]) for t in truth_mat["tags"]}
    visible = {(t["id"], t["row"], t["col"], t["rotation"]) for t in truth_mat["tags"]
               if not t["covered"]}
    found = {(t["id"], t["row"], t["col"], t["rotation"]) for t in seen["tags"]}
    return {"wrong": wrong, "unknown_clear": unknown_clear,
            "missed_tags": len(visible - found), "false_tags": len(found - every)}
