// Entering a move by the board (templates/table.html #tap-entry): where no camera sees a
// move, a person taps the piece (pictures of what may be played now), then its place on the
// drawn board, then its turn (and what follows, a card into the hand); each step offers only
// what some legal action still allows (/tables/ID/board-entry, from the engine), and the
// move is said in words before it is sent, as a declared action (the API's observations).
"use strict";
(function () {
  const box = document.getElementById("tap-entry");
  if (!box) return;
  const tableId = document.querySelector("[data-table]").dataset.table;
  const draw = window.PackrefDraw;
  const esc = draw.escape;
  const ASK = { piece: "Tap the piece to play", place: "Tap its place", turn: "Tap how it is turned", then: "Tap what follows" };
  let entry = null;     // the board entry as the station sent it
  let chosen = [];      // the keys tapped so far, one a step (null: a step the move has not)
  let loadedSeq = -1;
  let seq = Number(document.body.dataset.seq || 0);

  function say(text) { document.getElementById("tap-message").textContent = text; }
  function token() { return window.PackrefToken ? window.PackrefToken.get() : ""; }

  function load() {
    if (!box.open || loadedSeq === seq) return;
    if (!token()) { show('<p class="muted">Enter the organiser\'s token (the referee\'s tools) to enter a move.</p>'); loadedSeq = -1; return; }
    loadedSeq = seq;
    fetch("/tables/" + encodeURIComponent(tableId) + "/board-entry", { headers: { Authorization: "Bearer " + token() } })
      .then((r) => r.ok ? r.json() : r.json().then((a) => Promise.reject(a.detail || r.statusText)))
      .then((answer) => { entry = answer; chosen = []; render(); })
      .catch((problem) => { loadedSeq = -1; show(""); say(String(problem)); });
  }

  function show(html) { document.getElementById("tap-step").innerHTML = html; }

  // the legal moves that agree with every key tapped so far
  function candidates() {
    return entry.moves.filter((m) => chosen.every((key, i) => m.keys[i] === key));
  }

  function render() {
    if (!entry.moves.length) { show('<p class="muted">No move to enter by the board now' + (entry.untapped ? " (the referee's list has " + entry.untapped + ")" : "") + ".</p>"); renderTrail(); return; }
    let moves = candidates();
    // a step none of the moves left has (a drive has no place) is passed over
    while (chosen.length < entry.steps.length && moves.every((m) => m.keys[chosen.length] === null)) chosen.push(null);
    renderTrail();
    if (chosen.length === entry.steps.length) { confirm(moves[0]); return; }
    const step = entry.steps[chosen.length];
    const keys = [...new Set(moves.map((m) => m.keys[chosen.length]))];
    const options = keys.map((k) => entry.choices[k]);
    const heading = '<h3 id="tap-ask">' + esc(stepAsk(step, options)) + "</h3>";
    if (step === "place") show(heading + placeStep(options));
    else show(heading + '<div class="tap-options" role="group" aria-labelledby="tap-ask">' + options.map(button).join("") + "</div>" + (step === "turn" || step === "then" ? preview(moves) : ""));
    const first = document.querySelector("#tap-step button");
    if (first && chosen.length) first.focus();
  }

  function stepAsk(step, options) {
    if (step === "place") return (options.find((o) => o.ask) || {}).ask || ASK.place;
    return ASK[step] + " (" + options.length + " legal)";
  }

  function button(choice) {
    const pic = choice.picture ? draw.picture(choice.picture, "", 24) : "";
    return '<button type="button" class="tap-choice" data-tap="' + esc(choice.key) + '">' + pic + '<span>' + esc(choice.words) + "</span></button>";
  }

  // the place step: the acting player's board drawn, its legal squares buttons; places off
  // the boards (the storage) as buttons beside it
  function placeStep(options) {
    const byBoard = {};
    const off = [];
    options.forEach((o) => { if (o.board) (byBoard[o.board] = byBoard[o.board] || []).push(o); else off.push(o); });
    return Object.entries(byBoard).map(([title, places]) => grid(title, places, [])).join("") +
      (off.length ? '<div class="tap-options" role="group" aria-label="places off the board">' + off.map(button).join("") + "</div>" : "");
  }

  // a board of the view as a grid: ``places`` its tappable squares, ``lit`` squares shown
  // as where the piece would lie
  // ``piece``: the turned piece's picture, drawn in the ``lit`` squares (their top-left is
  // the picture's), so the board shows the move as it will lie
  function grid(title, places, lit, piece) {
    const board = ((current().view || {}).boards || []).find((b) => b.title === title) || { rows: [] };
    const at = Object.fromEntries(places.map((p) => [p.at[0] + ":" + p.at[1], p]));
    const shown = new Set(lit.map((c) => c[0] + ":" + c[1]));
    const top = Math.min(...lit.map((c) => c[0])), left = Math.min(...lit.map((c) => c[1]));
    const laid = (r, c) => piece && shown.has(r + ":" + c) ? (piece[r - top] || [])[c - left] : null;
    const columns = Math.max(1, ...board.rows.map((r) => r.length));
    let html = '<figure class="tap-board-figure"><figcaption>' + esc(title) + '</figcaption><div class="tap-board" role="group" aria-label="' + esc(title) + '" style="grid-template-columns: repeat(' + columns + ', 1fr)">';
    board.rows.forEach((row, r) => row.forEach((was, c) => {
      const cell = laid(r, c) || was;
      const style = cell ? ' style="background:' + esc(cell.m && cell.m.includes("empty-box") ? "#b08d57" : cell.m && cell.m.includes("wall") ? "#333" : draw.colour(cell.k)) + '"' : "";
      const text = cell && cell.t ? esc(cell.t) : "";
      const cls = "tap-cell" + (shown.has(r + ":" + c) ? " lit" : "") + (cell ? " filled" : "");
      const place = at[r + ":" + c];
      html += place ? '<button type="button" class="' + cls + ' tap-place" data-tap="' + esc(place.key) + '" aria-label="row ' + (r + 1) + ", column " + (c + 1) + (text ? " (" + text + ")" : "") + '" data-text="' + text + '"' + style + "></button>"  // the text drawn by CSS: the name says it
        : '<span class="' + cls + '" aria-hidden="true"' + style + ">" + text + "</span>";
    }));
    return html + "</div></figure>";
  }

  // under the turns: the board with where the piece would lie (the first turn's, then the one pointed at)
  function preview(moves) {
    const place = entry.choices[chosen[1]];
    if (!place || !place.board) return "";
    return '<div id="tap-preview">' + grid(place.board, [], cellsOf(moves[0]), turned(moves[0])) + "</div>";
  }
  function turned(move) { const turn = entry.choices[move.keys[2]]; return turn && turn.picture; }
  function cellsOf(move) { return move.cells || []; }

  function renderTrail() {
    const said = chosen.filter(Boolean).map((k) => "<li>" + esc(entry.choices[k].words) + "</li>").join("");
    document.getElementById("tap-trail").innerHTML = said;
    document.getElementById("tap-restart").hidden = chosen.filter(Boolean).length === 0;
  }

  let pending = null;
  function confirm(move) {
    pending = move;
    const words = entry.player + ": " + move.keys.filter(Boolean).map((k) => entry.choices[k].words).join(", ");
    show('<h3 id="tap-ask">Is this the move?</h3><p id="tap-words" class="tap-words">' + esc(words) + "</p>" +
      (cellsOf(move).length ? grid(entry.choices[move.keys[1]].board, [], cellsOf(move), turned(move)) : "") +
      '<button type="button" id="tap-send" class="tap-send">send the move</button>');
    document.getElementById("tap-send").focus();
  }

  async function send() {
    if (!pending) return;
    const response = await fetch("/api/tables/" + encodeURIComponent(tableId) + "/observations", {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: "Bearer " + token() },
      body: JSON.stringify({ observation: { kind: "declared", action: pending.action }, source: "person" }),
    });
    const answer = await response.json().catch(() => ({}));
    if (response.status === 401 && window.PackrefToken) { window.PackrefToken.explain(document.getElementById("tap-message"), 401); return; }
    say(response.ok ? "sent: " + document.getElementById("tap-words").textContent : (answer.detail || response.statusText));
    if (response.ok) { pending = null; loadedSeq = -1; chosen = []; }
  }

  function current() {
    const snapshot = window.PackrefTable ? window.PackrefTable.current() : JSON.parse(document.getElementById("snapshot").textContent);
    return snapshot.game || {};
  }

  box.addEventListener("toggle", load);
  box.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target.closest("button") : null;
    if (!target) return;
    if (target.dataset.tap) { chosen.push(target.dataset.tap); say(""); render(); }
    else if (target.id === "tap-send") send();
    else if (target.id === "tap-restart") { chosen = []; render(); }
  });
  // the board under the turns follows the turn pointed at or focused
  const follow = (event) => {
    const target = event.target instanceof Element ? event.target.closest("button.tap-choice") : null;
    const view = document.getElementById("tap-preview");
    if (!target || !view || !entry) return;
    const move = candidates().find((m) => m.keys[chosen.length] === target.dataset.tap);
    if (move) view.innerHTML = grid(entry.choices[move.keys[1]].board, [], cellsOf(move), turned(move));
  };
  box.addEventListener("focusin", follow);
  box.addEventListener("mouseover", follow);
  // a new event at the table: what is legal changed, the entry starts again
  document.addEventListener("packref:live", (event) => {
    const update = event.detail;
    if (update.type === "snapshot" && update.seq > seq) { seq = update.seq; if (box.open) load(); }
  });
  const tokenInput = document.getElementById("token");
  if (tokenInput) tokenInput.addEventListener("input", () => { loadedSeq = -1; window.PackrefToken.set(tokenInput.value.trim()); load(); });
})();
