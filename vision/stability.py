"""Live reading: report an observation only once it has held still for several frames.

A hand moving over the table makes every frame a little different; what the
table *shows* is what stays the same. :class:`Stabilizer` turns a stream of
per-frame observations into the stream of stable ones, and :func:`watch` runs
a reader over a frame source with it, keeping each mat's last good pose while
a hand covers its markers.

Example::

    >>> stabilizer = Stabilizer(stable_frames=2)
    >>> seen = [{"id": 0, "found": True, "cells": ["A."], "tags": []}]
    >>> hand = [{"id": 0, "found": True, "cells": ["?."], "tags": []}]
    >>> [stabilizer.update(frame) is not None for frame in (seen, seen, hand, hand)]
    [False, True, False, False]
    >>> stabilizer.stable[0]["cells"]
    ['A.']
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator
from functools import reduce
from typing import Any

import numpy as np

from vision.config import DEFAULT_CONFIG
from vision.mats import MatPose
from vision.reader import Reader

MatList = list[dict[str, Any]]


def _fill_unknown(mat: dict[str, Any], before: dict[str, Any] | None) -> dict[str, Any]:
    """``mat`` with each ``?`` cell replaced by its value in ``before`` (same-sized, found),
    and the tags ``before`` saw on those cells kept: a hand hides a tag as it hides a cell."""
    if not mat.get("found") or not before or not before.get("found"):
        return mat
    if [len(row) for row in mat["cells"]] != [len(row) for row in before["cells"]]:
        return mat
    filled = ["".join(old if new == "?" else new for new, old in zip(row, old_row, strict=True))
              for row, old_row in zip(mat["cells"], before["cells"], strict=True)]
    hidden = {(r, c) for r, row in enumerate(mat["cells"]) for c, cell in enumerate(row)
              if cell == "?"}
    seen = {(tag.get("row"), tag.get("col")) for tag in mat.get("tags", [])}
    kept = [tag for tag in before.get("tags", [])
            if (tag.get("row"), tag.get("col")) in hidden - seen]
    if not kept:
        return {**mat, "cells": filled}
    place = {_tag_key(tag): index for index, tag in enumerate(before["tags"])}
    tags = sorted([*mat.get("tags", []), *kept], key=lambda tag: place.get(_tag_key(tag),
                                                                             len(place)))
    return {**mat, "cells": filled, "tags": tags}  # in the order seen before: no false change


def _tag_key(tag: dict[str, Any]) -> tuple[Any, Any, Any]:
    return tag.get("id"), tag.get("row"), tag.get("col")


def _cells_agree(mat: dict[str, Any], other: dict[str, Any]) -> bool:
    """Whether two frames' readings of a mat can show the same thing: found alike, and
    every cell equal where both read it (``?`` agrees with anything)."""
    if mat.get("id") != other.get("id") or bool(mat.get("found")) != bool(other.get("found")):
        return False
    if not mat.get("found"):
        return True
    rows, others = mat["cells"], other["cells"]
    if [len(row) for row in rows] != [len(row) for row in others]:
        return False
    return all(a == b or "?" in (a, b) for row, row_b in zip(rows, others, strict=True)
               for a, b in zip(row, row_b, strict=True))


def _tags_agree(mat: dict[str, Any], other: dict[str, Any]) -> bool:
    """Every tag one frame sees is seen by the other too, unless its cell is ``?`` there."""
    for one, two in ((mat, other), (other, mat)):
        keys = {_tag_key(tag) for tag in two.get("tags", [])}
        hidden = {(r, c) for r, row in enumerate(two.get("cells", [])) for c, cell in
                  enumerate(row) if cell == "?"}
        for tag in one.get("tags", []):
            if _tag_key(tag) not in keys and (tag.get("row"), tag.get("col")) not in hidden:
                return False
    return True


def agree(mat: dict[str, Any], other: dict[str, Any]) -> bool:
    """Whether two frames' readings of a mat agree wherever both saw it.

    >>> a = {"id": 0, "found": True, "cells": ["A?"], "tags": []}
    >>> agree(a, {"id": 0, "found": True, "cells": ["?."], "tags": []})
    True
    >>> agree(a, {"id": 0, "found": True, "cells": ["B."], "tags": []})
    False
    """
    return _cells_agree(mat, other) and (not mat.get("found") or _tags_agree(mat, other))


def merged(mat: dict[str, Any], other: dict[str, Any]) -> dict[str, Any]:
    """Two agreeing readings of a mat as one: each cell as either frame read it, every
    tag either saw (in the order first seen)."""
    if not mat.get("found"):
        return mat
    cells = ["".join(b if a == "?" else a for a, b in zip(row, row_b, strict=True))
             for row, row_b in zip(mat["cells"], other["cells"], strict=True)]
    keys = {_tag_key(tag) for tag in mat.get("tags", [])}
    tags = [*mat.get("tags", []), *(tag for tag in other.get("tags", [])
                                    if _tag_key(tag) not in keys)]
    return {**mat, "cells": cells, "tags": tags}


def merged_unknown(mat: dict[str, Any], other: dict[str, Any]) -> dict[str, Any]:
    """Two agreeing readings of a mat as one that keeps every doubt: ``?`` where either
    frame read ``?``, every tag either saw.

    >>> merged_unknown({"id": 0, "found": True, "cells": ["A?."], "tags": []},
    ...                {"id": 0, "found": True, "cells": ["A.?"], "tags": []})["cells"]
    ['A??']
    """
    if not mat.get("found"):
        return mat
    cells = ["".join("?" if "?" in (a, b) else a for a, b in zip(row, row_b, strict=True))
             for row, row_b in zip(mat["cells"], other["cells"], strict=True)]
    return {**merged(mat, other), "cells": cells}


def _unsure(mat: dict[str, Any], reads: list[list[int]], needed: int) -> dict[str, Any]:
    """``mat`` with ``?`` on every cell its run read fewer than ``needed`` times."""
    if not mat.get("found") or not reads:
        return mat
    cells = ["".join(cell if count >= needed else "?" for cell, count in zip(row, counts,
                                                                             strict=True))
             for row, counts in zip(mat["cells"], reads, strict=True)]
    return mat if cells == mat["cells"] else {**mat, "cells": cells}


def _reads(mat: dict[str, Any]) -> list[list[int]]:
    return [[int(cell != "?") for cell in row] for row in mat.get("cells", [])] \
        if mat.get("found") else []


def _more_reads(counts: list[list[int]], mat: dict[str, Any]) -> list[list[int]]:
    return [[count + (cell != "?") for count, cell in zip(row_counts, row, strict=True)]
            for row_counts, row in zip(counts, mat["cells"], strict=True)] \
        if counts and mat.get("found") else counts


def hidden_cells(mats: MatList) -> int:
    """How many cells of the found mats are ``?``."""
    return sum(row.count("?") for mat in mats if mat.get("found") for row in mat["cells"])


def _all_agree(frames: list[MatList]) -> bool:
    """Whether every two frames' readings agree, mat by mat."""
    return all(len(one) == len(two) and all(agree(a, b) for a, b in zip(one, two, strict=True))
               for index, one in enumerate(frames) for two in frames[index + 1:])


class Stabilizer:
    """Passes an observation on once it has held for ``stable_frames`` frames in a row.

    A ``?`` is not a change: frames hold together while every cell agrees where both
    read it (a cell at a glare's edge flickering between its value and ``?`` leaves
    the run unbroken), and the run's reading is every cell as the frames of it saw
    it — once ``cell_reads`` of them read it (one frame's read alone, e.g. a card
    held above the mat, is not enough: the cell is ``?``). Cells the run did not
    read so keep their last stable value (``fill``; else they stay ``?``: see
    :attr:`seen`), unless ``keep_unknown``: then a cell any frame of the run read
    ``?`` stays ``?`` (:func:`merged_unknown`; a reading is passed on only as all
    its frames saw it, e.g. to learn a piece, where a hand's ``?`` must never become
    the mat's ``.``), and the run holds together as before (a glare's edge
    flickering between ``.`` and ``?`` beside a card still lets it be learnt).

    :attr:`seen` is the run's reading before any filling: ``hidden_cells(seen)``
    says whether a hand, a held card or a glare still hides part of the mats.
    """

    def __init__(self, stable_frames: int = DEFAULT_CONFIG.stable_frames,
                 keep_unknown: bool = False, cell_reads: int = DEFAULT_CONFIG.cell_reads,
                 fill: bool = True) -> None:
        if stable_frames < 1:
            raise ValueError("stable_frames must be at least 1")
        self.stable_frames = stable_frames
        self.keep_unknown = keep_unknown
        self.cell_reads = max(1, min(cell_reads, stable_frames))
        self.fill = fill
        self.stable: MatList | None = None
        self.seen: MatList = []
        self._candidate: MatList | None = None
        self._reads: list[list[list[int]]] = []
        self._window: list[MatList] = []
        self._count = 0

    def __repr__(self) -> str:
        return f"<Stabilizer K={self.stable_frames} count={self._count}>"

    def _holds(self, mats: MatList) -> bool:
        """Whether ``mats`` continues the run of frames held so far."""
        if self._candidate is None or len(mats) != len(self._candidate):
            return False
        return all(agree(old, new) for old, new in zip(self._candidate, mats, strict=True))

    def update(self, mats: MatList) -> MatList | None:
        """Feed one frame's ``mats``; the new stable observation when it has just changed."""
        if self.keep_unknown:
            return self._update_as_seen(mats)
        if self._holds(mats):
            assert self._candidate is not None
            self._candidate = [merged(old, new) for old, new in
                               zip(self._candidate, mats, strict=True)]
            self._reads = [_more_reads(counts, mat) for counts, mat in
                           zip(self._reads, mats, strict=True)]
            self._count += 1
        else:
            self._candidate, self._count = copy.deepcopy(mats), 1
            self._reads = [_reads(mat) for mat in mats]
        if self._count < self.stable_frames:
            return None
        self.seen = [_unsure(mat, counts, self.cell_reads)
                     for mat, counts in zip(self._candidate, self._reads, strict=True)]
        before = {mat["id"]: mat for mat in self.stable or []}
        reading = [_fill_unknown(mat, before.get(mat["id"])) for mat in self.seen] \
            if self.fill else self.seen
        return self._changed(reading)

    def _update_as_seen(self, mats: MatList) -> MatList | None:
        """``keep_unknown``: the last ``stable_frames`` frames, when they agree with one
        another, as one reading that keeps every ``?`` any of them read."""
        self._window = [*self._window, copy.deepcopy(mats)][-self.stable_frames:]
        if len(self._window) < self.stable_frames or not _all_agree(self._window):
            return None
        self.seen = [reduce(merged_unknown, frames)
                     for frames in zip(*self._window, strict=True)]
        return self._changed(self.seen)

    def _changed(self, reading: MatList) -> MatList | None:
        if reading != self.stable:
            self.stable = copy.deepcopy(reading)
            return self.stable
        return None


def stable_readings(frames: Iterable[np.ndarray], reader: Reader,
                    stabilizer: Stabilizer) -> Iterator[tuple[int, MatList | None]]:
    """``(i, reading)`` for every frame ``i`` of ``frames``: the new stable reading when it
    has just changed, else None (see :func:`watch`)."""
    remembered: dict[int, MatPose] = {}
    for index, frame in enumerate(frames):
        observation = reader.observe(frame, remembered)
        for mat_id, pose in observation.poses.items():
            if pose.markers_seen >= reader.config.trusted_pose_markers:
                remembered[mat_id] = pose
        yield index, stabilizer.update(observation.mats)


def watch(frames: Iterable[np.ndarray], reader: Reader,
          stable_frames: int = DEFAULT_CONFIG.stable_frames,
          keep_unknown: bool = False) -> Iterator[dict[str, Any]]:
    """``{"frame": i, "mats": [...]}`` each time the stable observation of ``frames`` changes.

    ``i`` counts frames from 0 and is the frame on which the new observation
    became stable. A mat pose fitted from fewer markers than
    ``config.trusted_pose_markers`` gives way to the last pose fitted from more.
    ``keep_unknown`` as in :class:`Stabilizer`.
    """
    stabilizer = Stabilizer(stable_frames, keep_unknown)
    for index, changed in stable_readings(frames, reader, stabilizer):
        if changed is not None:
            yield {"frame": index, "mats": changed}
