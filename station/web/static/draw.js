// Drawing a table's view (made by station/games: views.py and each game's module) as SVG, and the drone's mass graph.
"use strict";
(function () {
  const CELL = 30;
  const SHOWN = 1.4;  // a cell is drawn 42 px wide: labels readable at arm's length (max-width caps it)
  const LETTERS = { A: "#e4572e", B: "#f3a712", C: "#29a36a", D: "#2e86de", E: "#8e44ad" };

  function escape(text) {
    return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
  }

  function colour(key) {
    if (!key) return "#d9d9d9";
    if (LETTERS[key]) return LETTERS[key];
    if (window.CSS && CSS.supports("color", key)) return key;
    let hash = 0;
    for (const ch of key) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
    return "hsl(" + (hash % 360) + ", 55%, 62%)";
  }

  function cellSvg(cell, x, y) {
    const marks = (cell && cell.m) || [];
    if (!cell) return '<rect class="free" x="' + x + '" y="' + y + '" width="' + CELL + '" height="' + CELL + '"/>';
    if (marks.includes("wall")) return '<rect class="wall" x="' + x + '" y="' + y + '" width="' + CELL + '" height="' + CELL + '"/>';
    let fill = colour(cell.k);
    let cls = "tile";
    if (marks.includes("minus")) { fill = "#fff3f3"; cls = "minus"; }
    if (marks.includes("empty-box")) { fill = "#b08d57"; cls = "empty-box"; }
    let out = '<rect class="' + cls + '" x="' + x + '" y="' + y + '" width="' + CELL + '" height="' + CELL + '" fill="' + fill + '"/>';
    // the damage cross under the label: the box's weight stays readable
    if (marks.includes("damaged")) out += '<path class="damaged" d="M' + (x + 3) + " " + (y + 3) + " L" + (x + CELL - 3) + " " + (y + CELL - 3) + " M" + (x + CELL - 3) + " " + (y + 3) + " L" + (x + 3) + " " + (y + CELL - 3) + '"/>';
    if (cell.t) out += '<text x="' + (x + CELL / 2) + '" y="' + (y + CELL / 2 + 4) + '" class="label' + (cls === "minus" ? " minus-label" : "") + '">' + escape(cell.t) + "</text>";
    if (marks.includes("fragile")) out += '<circle class="fragile" cx="' + (x + CELL - 6) + '" cy="' + (y + 6) + '" r="3"/>';
    // a colour that scores (a Moving Day box's) is said by its initial too, not by colour alone
    if (colourName(cell.k)) out += '<text class="colour-initial" x="' + (x + 2.5) + '" y="' + (y + CELL - 3) + '">' + escape(cell.k[0]) + "</text>";
    return out;
  }

  // ``key`` when it names a colour in words ("yellow"), not a letter or a piece's id
  function colourName(key) {
    return key && /^[a-z]{3,}$/.test(key) && window.CSS && CSS.supports("color", key) ? key : "";
  }

  // A board in words for a screen reader: its size, what is filled and each piece's place.
  function describeBoard(b) {
    const rows = b.rows || [];
    const columns = Math.max(0, ...rows.map((r) => r.length));
    const pieces = [];
    let free = 0;
    rows.forEach((row, r) => row.forEach((cell, c) => {
      const marks = (cell && cell.m) || [];
      if (!cell) { free += 1; return; }
      if (marks.includes("wall")) return;
      const words = [colourName(cell.k), cell.t, ...marks.filter((m) => m !== "minus")].filter(Boolean).join(" ");
      pieces.push((marks.includes("minus") ? "minus one" : words || "filled") + " at row " + (r + 1) + ", column " + (c + 1));
    }));
    return b.title + ": " + rows.length + " rows by " + columns + " columns, " + free + " free squares" +
      (pieces.length ? "; " + pieces.slice(0, 40).join("; ") + (pieces.length > 40 ? "; and " + (pieces.length - 40) + " more" : "") : "; nothing placed");
  }

  // ``flagged``: [{player, vehicle?, row, col}] — cells a flagged move names, marked on the board
  function flaggedHere(b, flagged) {
    return (flagged || []).filter((f) => b.title === f.player + ": " + f.vehicle ||
      (!f.vehicle && b.title.startsWith(f.player + "'s ")));
  }

  // the last move's cells: a double outline (white, then dark) and a notch in the corner, so
  // it shows on any tile colour and is told apart from a flag's dashed outline by its shape
  function movedSvg(m) {
    const x = m.col * CELL, y = m.row * CELL;
    return '<rect class="last-move-halo" x="' + (x + 2) + '" y="' + (y + 2) + '" width="' + (CELL - 4) + '" height="' + (CELL - 4) + '"/>' +
      '<rect class="last-move" x="' + (x + 2) + '" y="' + (y + 2) + '" width="' + (CELL - 4) + '" height="' + (CELL - 4) + '"/>' +
      '<path class="last-move-notch" d="M' + x + " " + y + " h10 l-10 10 z" + '"/>';
  }

  // ``moved``: [{board, row, col}] — the cells the last move filled (station/games/views.py)
  function board(b, flagged, moved) {
    const marks = flaggedHere(b, flagged);
    const last = (moved || []).filter((m) => m.board === b.title);
    const rows = b.rows || [];
    const width = Math.max(1, ...rows.map((r) => r.length)) * CELL;
    const height = Math.max(1, rows.length) * CELL;
    let svg = '<svg class="grid" viewBox="-1 -1 ' + (width + 2) + " " + (height + 2) + '" width="' + Math.round((width + 2) * SHOWN) + '" role="img" aria-label="' + escape(describeBoard(b)) + '">';
    rows.forEach((row, r) => row.forEach((cell, c) => { svg += cellSvg(cell, c * CELL, r * CELL); }));
    last.forEach((m) => { svg += movedSvg(m); });
    marks.forEach((f) => { svg += '<rect class="flagged" x="' + (f.col * CELL + 1) + '" y="' + (f.row * CELL + 1) + '" width="' + (CELL - 2) + '" height="' + (CELL - 2) + '"/>'; });
    svg += "</svg>";
    const said = marks.map((f) => "flagged: row " + (f.row + 1) + ", column " + (f.col + 1))
      .concat(last.map((m) => "last move: row " + (m.row + 1) + ", column " + (m.col + 1)));
    if (said.length) svg = svg.replace('aria-label="', 'aria-label="' + escape(said.join("; ")) + "; ");
    const tag = last.length ? ' <span class="move-tag">last move</span>' : "";
    return '<figure class="board-figure' + (last.length ? " has-last-move" : "") + '"><figcaption>' + escape(b.title) + tag + "</figcaption>" + svg + "</figure>";
  }

  // Nine shop cards: "0/9", then 1 to 8; 9 reached means back on "0/9".
  function drone(d) {
    const w = 48;
    const reachedCard = typeof d.reached === "number" ? d.reached % 9 : null;
    // the same in words for a screen reader: the card reached, who has bet (face down)
    const bettors = d.face_down || [];
    const said = "shop cards 0/9 to 8; " + (reachedCard === null ? "no card reached yet" : "card reached: " + d.reached) +
      (bettors.length ? "; speculation cards face down: " + bettors.join(", ") : "") + ((d.pilots || []).length ? "; pilots " + d.pilots.join(" and ") : "");
    let svg = '<svg class="drone" viewBox="0 0 ' + (9 * w + 4) + ' 100" width="' + (9 * w + 4) + '" role="img" aria-label="' + escape(said) + '">';
    for (let n = 0; n <= 8; n++) {
      const x = 2 + n * w;
      svg += '<rect class="shop' + (reachedCard === n ? " reached" : "") + '" x="' + x + '" y="4" width="' + (w - 6) + '" height="52" rx="4"/>';
      svg += '<text class="shop-number" x="' + (x + (w - 6) / 2) + '" y="36">' + (n === 0 ? "0/9" : n) + "</text>";
    }
    svg += "</svg>";
    const pilots = (d.pilots || []).length ? "<div>pilots: " + escape(d.pilots.join(", ")) + "</div>" : "";
    const reached = reachedCard === null ? "" : "<div>card reached: <strong>" + escape(d.reached) + "</strong></div>";
    return '<figure class="board-figure drone-figure"><figcaption>drone challenge</figcaption>' + svg + reached + pilots + "</figure>";
  }

  function view(v, flagged, moved) {
    if (!v) return '<p class="muted">no game</p>';
    let html = "";
    // a game's own drawing that failed: the generic view follows, and the table is told so
    if (v.problem) html += '<p class="view-problem" role="alert">' + escape(v.problem) + "</p>";
    if (v.drone) html += drone(v.drone);
    html += (v.boards || []).map((b) => board(b, flagged, moved)).join("");
    if ((v.lines || []).length) html += '<ul class="view-lines">' + v.lines.map((l) => "<li>" + escape(l) + "</li>").join("") + "</ul>";
    return html;
  }

  // a round step for an axis from 0 to ``top``: 1, 2 or 5 times a power of ten, 3 to 6 steps
  function axisStep(top) {
    const raw = top / 4, power = Math.pow(10, Math.floor(Math.log10(raw)));
    return [1, 2, 5, 10].map((m) => m * power).find((step) => top / step <= 6);
  }
  const figures = (value) => String(Number(value.toPrecision(6)));

  // The drone's mass over time, with its axes' values: grams up the side, seconds since the
  // first reading along the bottom (docs/contracts.md: ``t`` in seconds, ``mass_g`` in grams).
  function massGraph(observations) {
    const points = (observations || []).map((o) => o.observation || {}).filter((o) => typeof o.mass_g === "number");
    if (points.length === 0) return "";
    const timed = points.every((p) => typeof p.t === "number");
    const times = points.map((p, i) => (timed ? p.t : i));
    const masses = points.map((p) => p.mass_g);
    const t0 = Math.min(...times), span = Math.max(Math.max(...times) - t0, 1);
    const mStep = axisStep(Math.max(...masses, 1)), tStep = axisStep(span);
    const mTop = Math.ceil(Math.max(...masses, 1) / mStep) * mStep, tTop = Math.ceil(span / tStep) * tStep;
    const W = 400, H = 140, left = 44, bottom = 22, top = 8, right = 10;  // the plot inside its axes
    const x = (t) => left + (t - t0) / tTop * (W - left - right), y = (m) => top + (1 - m / mTop) * (H - top - bottom);
    const xy = points.map((p, i) => x(times[i]).toFixed(1) + "," + y(masses[i]).toFixed(1));
    let axes = '<line class="axis" x1="' + left + '" y1="' + top + '" x2="' + left + '" y2="' + (H - bottom) + '"/>' +
      '<line class="axis" x1="' + left + '" y1="' + (H - bottom) + '" x2="' + (W - right) + '" y2="' + (H - bottom) + '"/>';
    for (let m = 0; m <= mTop + mStep / 2; m += mStep) {
      axes += '<line class="tick" x1="' + (left - 4) + '" y1="' + y(m).toFixed(1) + '" x2="' + left + '" y2="' + y(m).toFixed(1) + '"/>' +
        '<text class="axis-value mass-value" x="' + (left - 6) + '" y="' + (y(m) + 4).toFixed(1) + '" text-anchor="end">' + figures(m) + "</text>";
    }
    for (let t = 0; t <= tTop + tStep / 2; t += tStep) {
      axes += '<line class="tick" x1="' + x(t0 + t).toFixed(1) + '" y1="' + (H - bottom) + '" x2="' + x(t0 + t).toFixed(1) + '" y2="' + (H - bottom + 4) + '"/>' +
        '<text class="axis-value time-value" x="' + x(t0 + t).toFixed(1) + '" y="' + (H - 6) + '" text-anchor="middle">' + figures(t) + "</text>";
    }
    const unit = timed ? "s" : "readings";
    const last = masses[masses.length - 1].toFixed(1);
    return '<figure class="board-figure"><figcaption>drone mass (g) against time (' + unit + '), last ' + last + " g</figcaption>" +
      '<svg class="mass" viewBox="0 0 ' + W + " " + H + '" width="' + W + '" role="img" aria-label="' +
      escape("drone mass over " + figures(span) + " " + unit + ", from " + Math.min(...masses).toFixed(1) + " to " + Math.max(...masses).toFixed(1) + " g, last " + last + " g") + '">' +
      axes + '<polyline points="' + xy.join(" ") + '"/></svg></figure>';
  }

  // One cell size for every board in ``box``, the largest at which they all fit its width and
  // ``height`` (px): on the projector the boards fill the screen and stay comparable.
  function fit(box, height) {
    const svgs = Array.from(box.querySelectorAll("svg.grid"));
    const units = svgs.map((svg) => svg.viewBox.baseVal.width);
    const fits = (cell) => {
      svgs.forEach((svg, i) => { svg.style.width = (units[i] * cell / CELL).toFixed(1) + "px"; });
      return box.scrollHeight <= height + 1 && box.scrollWidth <= box.clientWidth + 1;
    };
    if (!svgs.length) return 0;
    // shelves: the tallest boards first (CSS order; the page's order stays for screen readers),
    // so a row of tall boards is not half empty beside short ones
    svgs.forEach((svg) => { svg.closest("figure").style.order = String(-Math.round(svg.viewBox.baseVal.height)); });
    let low = 8, high = 480;  // px a cell: bisect, a handful of layouts
    while (high - low > 1) { const mid = (low + high) >> 1; if (fits(mid)) low = mid; else high = mid; }
    fits(low);
    return low;
  }

  // A piece drawn alone (rows of cells as a board has them), ``label`` its words for a
  // screen reader (none: hidden from it, words beside it say it); ``cell`` px a square (the board entry's pictures, the reveal picker's)
  function picture(rows, label, cell) {
    const width = Math.max(1, ...rows.map((r) => r.length)) * CELL, height = Math.max(1, rows.length) * CELL;
    let svg = '<svg class="piece" viewBox="-1 -1 ' + (width + 2) + " " + (height + 2) + '" width="' + Math.round((width + 2) * (cell || 24) / CELL) +
      (label ? '" role="img" aria-label="' + escape(label) + '">' : '" aria-hidden="true">');  // in a button its words name it
    rows.forEach((row, r) => row.forEach((c, col) => { if (c) svg += cellSvg(c, col * CELL, r * CELL); }));
    return svg + "</svg>";
  }

  window.PackrefDraw = { view, massGraph, escape, fit, picture, colour };
})();
