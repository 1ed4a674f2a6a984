"""The printable kit drawn: mats, frames and tag-sticker sheets as true-scale PDF (and PNG
previews).

Everything is drawn from :mod:`vision.layout` (``docs/visual-spec.md``) with OpenCV
and written as a minimal PDF whose pages are the printed things' true size:
each page holds one lossless image, placed at exactly its size in millimetres.
What is printed is planned in :mod:`vision.kit`.

Example::

    >>> import tempfile, pathlib
    >>> from vision.kit import MatRequest, Sticker, plan_mats
    >>> mats = plan_mats([MatRequest("small-warehouse", "Player 1 warehouse", 8, 10, "colour",
    ...                              20.0)], numbers=range(6, 12))
    >>> out = pathlib.Path(tempfile.mkdtemp())
    >>> files = write_kit(out, mats, [Sticker(117, "moving-day box-03", 20.0)], px_per_mm=2)
    >>> sorted(path.name for path in files if path.suffix == ".pdf")
    ['small-warehouse.pdf', 'tags.pdf']
"""

from __future__ import annotations

import json
import zlib
from pathlib import Path

import cv2
import numpy as np

from vision.kit import (
    FOOTER_MM,
    OVERLAP_MM,
    PAGE_MARGIN_MM,
    SCALE_BAR_MM,
    KitMat,
    Sticker,
    paper_size,
    printable_mm,
    tile_spans,
)
from vision.layout import BORDER, MARGIN, TAG_SIDE, TAG_WHITE_SIDE, outer_size
from vision.render import MatContent, draw_mat, marker_picture

POINTS_PER_MM = 72 / 25.4
LABEL_STRIP_MM = 8.0


def _label_strip(image: np.ndarray, text: str, px_per_mm: float) -> np.ndarray:
    strip = np.full((round(LABEL_STRIP_MM * px_per_mm), image.shape[1], 3), 255, np.uint8)
    scale = max(0.2, px_per_mm * 0.12)
    cv2.putText(strip, text, (round(2 * px_per_mm), round(5.5 * px_per_mm)),
                cv2.FONT_HERSHEY_SIMPLEX, scale, (90, 90, 90), max(1, round(scale * 1.5)),
                cv2.LINE_AA)
    return np.vstack([image, strip])


def draw_kit_mat(mat: KitMat, px_per_mm: float) -> np.ndarray:
    """A mat (or frame) at true scale, BGR, with a label strip under its white margin."""
    request, spec = mat.request, mat.spec
    ppc = max(8, round(request.cell_mm * px_per_mm))
    image = draw_mat(MatContent.empty(spec), ppc, np.random.default_rng(0))
    if request.frame:
        offset = BORDER + MARGIN
        x0, y0 = round(offset * ppc), round(offset * ppc)
        x1, y1 = x0 + spec.cols * ppc, y0 + spec.rows * ppc
        image[y0:y1, x0:x1] = 255
        for start in range(x0, x1, max(4, ppc // 4)):
            cv2.line(image, (start, y0), (min(start + ppc // 8, x1), y0), (120, 120, 120), 1)
            cv2.line(image, (start, y1 - 1), (min(start + ppc // 8, x1), y1 - 1),
                     (120, 120, 120), 1)
        for start in range(y0, y1, max(4, ppc // 4)):
            cv2.line(image, (x0, start), (x0, min(start + ppc // 8, y1)), (120, 120, 120), 1)
            cv2.line(image, (x1 - 1, start), (x1 - 1, min(start + ppc // 8, y1)),
                     (120, 120, 120), 1)
    what = "frame: cut out the dashed window" if request.frame else "mat"
    text = (f"packref {request.game} - {request.label} - {what} {spec.id} "
            f"({spec.rows}x{spec.cols}, {spec.kind}, cell {request.cell_mm:g} mm)")
    return _label_strip(image, text, px_per_mm)


def _sticker(sticker: Sticker, px_per_mm: float) -> np.ndarray:
    side = round(TAG_WHITE_SIDE * sticker.cell_mm * px_per_mm)
    tile = np.full((side, side, 3), 255, np.uint8)
    marker = round(TAG_SIDE * sticker.cell_mm * px_per_mm)
    picture = cv2.resize(marker_picture(sticker.tag_id), (marker, marker),
                         interpolation=cv2.INTER_NEAREST)
    start = (side - marker) // 2
    tile[start:start + marker, start:start + marker] = picture
    cv2.rectangle(tile, (0, 0), (side - 1, side - 1), (200, 200, 200), 1)
    return tile


def draw_sticker_sheets(stickers: list[Sticker], px_per_mm: float,
                        paper: str | None = None) -> list[np.ndarray]:
    """A4 pages (BGR) of tag stickers, each with its id and piece written under it; on
    ``paper`` (``a4``, ``letter``) pages with a 100 mm scale bar in a footer."""
    width, height = (round(v * px_per_mm) for v in paper_size(paper or "a4"))
    margin = round(PAGE_MARGIN_MM * px_per_mm)
    pages, page = [], None
    x = y = margin
    row_height = 0
    footer = round(FOOTER_MM * px_per_mm) if paper else 0
    scale = max(0.2, px_per_mm * 0.06)
    for sticker in stickers:
        tile = _sticker(sticker, px_per_mm)
        cell_w = max(tile.shape[1], round(30 * px_per_mm))
        cell_h = tile.shape[0] + round(7 * px_per_mm)
        if page is None or x + cell_w > width - margin:
            x, y = margin, y + row_height
            row_height = 0
        if page is None or y + cell_h > height - margin - footer:
            page = np.full((height, width, 3), 255, np.uint8)
            pages.append(page)
            x = y = margin
        page[y:y + tile.shape[0], x:x + tile.shape[1]] = tile
        for line, text in enumerate((f"tag {sticker.tag_id}", sticker.label[:24])):
            cv2.putText(page, text, (x, y + tile.shape[0] + round((3 + 3 * line) * px_per_mm)),
                        cv2.FONT_HERSHEY_SIMPLEX, scale, (60, 60, 60), 1, cv2.LINE_AA)
        x += cell_w + round(4 * px_per_mm)
        row_height = max(row_height, cell_h + round(3 * px_per_mm))
    if paper:
        for page in pages:
            draw_scale_bar(page, px_per_mm)
    return pages


def draw_scale_bar(page: np.ndarray, px_per_mm: float) -> None:
    """A 100 mm bar (ticks every 10 mm) at the bottom left of the page, at true scale."""
    x0 = round(PAGE_MARGIN_MM * px_per_mm)
    y = page.shape[0] - round((PAGE_MARGIN_MM + 3) * px_per_mm)
    length = round(SCALE_BAR_MM * px_per_mm)
    thick = max(1, round(0.8 * px_per_mm))
    page[y:y + thick, x0:x0 + length] = 0
    for tick in range(0, 11):
        x = min(x0 + round(tick * 10 * px_per_mm), x0 + length - 1)
        page[y - round(2 * px_per_mm):y, x:x + max(1, thick // 2)] = 0
    cv2.putText(page, "100 mm: measure to check the print is at 100 %",
                (x0 + length + round(3 * px_per_mm), y + thick),
                cv2.FONT_HERSHEY_SIMPLEX, max(0.2, px_per_mm * 0.05), (60, 60, 60), 1,
                cv2.LINE_AA)


def _footer_text(page: np.ndarray, text: str, px_per_mm: float) -> None:
    cv2.putText(page, text, (round(PAGE_MARGIN_MM * px_per_mm),
                             page.shape[0] - round((PAGE_MARGIN_MM + 9) * px_per_mm)),
                cv2.FONT_HERSHEY_SIMPLEX, max(0.2, px_per_mm * 0.06), (40, 40, 40), 1,
                cv2.LINE_AA)


def tile_mat(image: np.ndarray, mat_id: int, px_per_mm: float,
             paper: str) -> list[tuple[np.ndarray, tuple[int, int, int, int]]]:
    """Pages of ``paper`` (BGR) holding a mat image, tiled with a 10 mm overlap when it
    is larger than the printable area, each with the tile's label, alignment marks and a
    100 mm scale bar; with each page, the part of the image it holds (x, y, w, h in px)."""
    page_w, page_h = (round(v * px_per_mm) for v in paper_size(paper))
    usable_w, usable_h = (int(v * px_per_mm) for v in printable_mm(paper))
    overlap = round(OVERLAP_MM * px_per_mm)
    height, width = image.shape[:2]
    xs, ys = tile_spans(width, usable_w, overlap), tile_spans(height, usable_h, overlap)
    margin = round(PAGE_MARGIN_MM * px_per_mm)
    mark = round(5 * px_per_mm)
    total, pages = len(xs) * len(ys), []
    for row, (y, h) in enumerate(ys):
        for col, (x, w) in enumerate(xs):
            tile = image[y:y + h, x:x + w].copy()
            grey = np.full_like(tile, 160)
            if col + 1 < len(xs):  # the next tile to the right is glued over this strip
                strip = xs[col + 1][0] - x
                tile[:, strip:] = cv2.addWeighted(tile[:, strip:], 0.5, grey[:, strip:], 0.5, 0)
            if row + 1 < len(ys):
                strip = ys[row + 1][0] - y
                tile[strip:] = cv2.addWeighted(tile[strip:], 0.5, grey[strip:], 0.5, 0)
            page = np.full((page_h, page_w, 3), 255, np.uint8)
            page[margin:margin + h, margin:margin + w] = tile
            if total > 1:  # alignment marks in the margin at every tile edge
                for edge in (margin, margin + w - 1):
                    cv2.line(page, (edge, margin - mark), (edge, margin - 2), (0, 0, 0), 1)
                    cv2.line(page, (edge, margin + h + 1), (edge, margin + h + mark),
                             (0, 0, 0), 1)
                for edge in (margin, margin + h - 1):
                    cv2.line(page, (margin - mark, edge), (margin - 2, edge), (0, 0, 0), 1)
                    cv2.line(page, (margin + w + 1, edge), (margin + w + mark, edge),
                             (0, 0, 0), 1)
                number = row * len(xs) + col + 1
                how = ("the others are glued over its grey strips" if number == 1 else
                       "trim its top/left margin, glue it over the grey strip")
                text = (f"mat {mat_id}, tile {number} of {total} (row {row + 1}, column "
                        f"{col + 1}): {how}")
            else:
                text = f"mat {mat_id}: cut along the outer white edge"
            _footer_text(page, text, px_per_mm)
            draw_scale_bar(page, px_per_mm)
            pages.append((page, (x, y, w, h)))
    return pages


def write_pdf(path: Path, pages: list[tuple[np.ndarray, float, float]]) -> None:
    """A PDF with one page per (BGR image, width mm, height mm), each image filling its page."""
    objects: list[bytes] = []

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)

    catalog = add(b"")
    tree = add(b"")
    kids = []
    for image, width_mm, height_mm in pages:
        rgb = np.ascontiguousarray(cv2.cvtColor(image, cv2.COLOR_BGR2RGB))
        data = zlib.compress(rgb.tobytes(), 6)
        picture = add(b"<< /Type /XObject /Subtype /Image /Width %d /Height %d "
                      b"/ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode "
                      b"/Length %d >>\nstream\n" % (rgb.shape[1], rgb.shape[0], len(data))
                      + data + b"\nendstream")
        width, height = width_mm * POINTS_PER_MM, height_mm * POINTS_PER_MM
        drawing = b"q %.3f 0 0 %.3f 0 0 cm /Im0 Do Q" % (width, height)
        content = add(b"<< /Length %d >>\nstream\n" % len(drawing) + drawing + b"\nendstream")
        kids.append(add(b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 %.3f %.3f] "
                        b"/Resources << /XObject << /Im0 %d 0 R >> >> /Contents %d 0 R >>"
                        % (tree, width, height, picture, content)))
    objects[catalog - 1] = b"<< /Type /Catalog /Pages %d 0 R >>" % tree
    objects[tree - 1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (
        b" ".join(b"%d 0 R" % kid for kid in kids), len(kids))
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, catalog, xref)
    path.write_bytes(bytes(out))


def _page_size_mm(image: np.ndarray, px_per_mm: float) -> tuple[float, float]:
    return image.shape[1] / px_per_mm, image.shape[0] / px_per_mm


def _preview(image: np.ndarray, path: Path, px_per_mm: float) -> Path:
    scale = min(1.0, 2.0 / px_per_mm)  # previews at about 2 px per mm
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    cv2.imwrite(str(path), small)
    return path


def write_kit(out: Path, mats: list[KitMat], stickers: list[Sticker],
              px_per_mm: float = 10.0, paper: str | None = None) -> list[Path]:
    """Write ``<game>.pdf`` (one true-size page per mat), ``tags.pdf`` (A4 sticker
    sheets), PNG previews, ``mats-<game>.json`` (ready for ``--mats``) and ``kit.json``.

    With ``paper`` (``a4``, ``letter``) every page is that paper: a mat larger than the
    printable area is tiled (:func:`tile_mat`) and every page has a 100 mm scale bar."""
    if paper is not None:
        paper_size(paper)
    out.mkdir(parents=True, exist_ok=True)
    previews = out / "png"
    previews.mkdir(exist_ok=True)
    written: list[Path] = []
    games = list(dict.fromkeys(mat.request.game for mat in mats))
    for game in games:
        pages = []
        for mat in (m for m in mats if m.request.game == game):
            image = draw_kit_mat(mat, px_per_mm)
            if paper is not None:
                pages += [(page, *paper_size(paper))
                          for page, _ in tile_mat(image, mat.spec.id, px_per_mm, paper)]
            else:
                pages.append((image, *_page_size_mm(image, px_per_mm)))
            written.append(_preview(image, previews / f"{game}-mat-{mat.spec.id}.png", px_per_mm))
        write_pdf(out / f"{game}.pdf", pages)
        written.append(out / f"{game}.pdf")
        document = {"mats": [{"id": m.spec.id, "rows": m.spec.rows, "cols": m.spec.cols,
                              "kind": m.spec.kind} for m in mats if m.request.game == game]}
        (out / f"mats-{game}.json").write_text(json.dumps(document, indent=1) + "\n")
        written.append(out / f"mats-{game}.json")
    sheets = draw_sticker_sheets(stickers, px_per_mm, paper)
    write_pdf(out / "tags.pdf", [(sheet, *paper_size(paper or "a4")) for sheet in sheets])
    written.append(out / "tags.pdf")
    for number, sheet in enumerate(sheets, start=1):
        written.append(_preview(sheet, previews / f"tags-{number}.png", px_per_mm))
    listing = {"mats": [{"game": m.request.game, "label": m.request.label, "id": m.spec.id,
                         "rows": m.spec.rows, "cols": m.spec.cols, "kind": m.spec.kind,
                         "cell_mm": m.request.cell_mm, "frame": m.request.frame,
                         "size_mm": [round(v * m.request.cell_mm, 1)
                                     for v in outer_size(m.spec)]} for m in mats],
               "tags": [{"id": s.tag_id, "label": s.label, "cell_mm": s.cell_mm}
                        for s in stickers]}
    (out / "kit.json").write_text(json.dumps(listing, indent=1) + "\n")
    written.append(out / "kit.json")
    return written
