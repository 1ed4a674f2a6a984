// The table page's part of a tournament: when the game played here for a tournament ends,
// each player confirms the final scores (or not: the organiser is then flagged) with their
// own code for this game, given by the organiser; never the organiser's token. A player may
// sign on their phone instead (the link beside their name, or the organiser's).
"use strict";
(function () {
  const view = document.querySelector(".table-view[data-table]");
  if (!view) return;
  const table = view.dataset.table;
  const box = document.createElement("section");
  box.className = "confirm-box";
  box.id = "confirm";
  box.hidden = true;
  (document.querySelector(".scores-box") || view).appendChild(box);

  function esc(text) { return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]); }

  function render(game) {
    const result = game.result;
    if (!result || result.final === false) { box.hidden = true; return; }
    const said = result.confirmations || {};
    const phone = (p) => "/tournaments/" + encodeURIComponent(game.tournament) + "/games/" + game.id + "/sign?player=" + encodeURIComponent(p);
    box.hidden = false;
    // drawn again for the same game (a check when its table's game ended): codes being typed stay
    const typed = box.dataset.game === String(game.id) ?
      Array.from(box.querySelectorAll("input.confirm-code"), (input) => input.value) : [];
    box.dataset.game = String(game.id);
    box.innerHTML = "<h2>Tournament result</h2><p>" +
      Object.entries(result.scores).map(([p, s]) => esc(p) + " " + esc(s)).join(", ") + "</p>" +
      '<p class="muted small">Each player signs with their own code for this game (the organiser gives it).</p><ul>' +
      game.players.map((p, i) => "<li>" + esc(p) + ": " +
        (p in said ? (said[p] ? "agrees" : "<strong>disagrees</strong>") : "not yet") +
        ' <input class="confirm-code" data-index="' + i + '" aria-label="' + esc(p) + '\'s code" placeholder="code" size="10" autocomplete="off" spellcheck="false">' +
        ' <button type="button" data-index="' + i + '" data-agree="1">agree</button>' +
        ' <button type="button" data-index="' + i + '" data-agree="">disagree</button>' +
        ' <a class="small" href="' + esc(phone(p)) + '">on a phone</a></li>').join("") +
      "</ul>" + (result.disputed ? '<p class="flag">The organiser has been told.</p>' : "") +
      '<p class="muted small" id="confirm-message" role="status"></p>';
    box.querySelectorAll("input.confirm-code").forEach((input, i) => { input.value = typed[i] || ""; });
    box.querySelectorAll("button[data-index]").forEach((button) => button.addEventListener("click", () => {
      const index = Number(button.dataset.index);
      const code = box.querySelector('input[data-index="' + index + '"]');
      const note = document.getElementById("confirm-message");
      if (!code.value.trim()) { code.focus(); note.textContent = "Enter " + game.players[index] + "'s code first."; return; }
      fetch("/api/tournaments/" + encodeURIComponent(game.tournament) + "/games/" + game.id + "/confirm", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ player: game.players[index], agree: Boolean(button.dataset.agree), code: code.value.trim() }),
      }).then((r) => r.json().then((body) => {
        if (r.ok) { box.dataset.game = ""; render({ ...body, tournament: game.tournament }); return; }  // the code leaves the screen
        note.textContent = "Not saved (" + r.status + "): " + (body.detail || "");
      }));
    }));
  }

  let pending = false;
  function check() {
    if (pending) return;
    pending = true;
    fetch("/api/tournaments/at-table/" + encodeURIComponent(table))
      .then((r) => (r.ok ? r.json().then(render) : (box.hidden = true)))
      .finally(() => { pending = false; });
  }

  function connect() {
    const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws/tables/" + encodeURIComponent(table));
    // a game over, or ended (a tournament result entered by hand): its result may be to confirm
    ws.onmessage = (event) => { const snap = JSON.parse(event.data).snapshot; if (snap && (!snap.game || snap.game.over)) check(); };
    ws.onclose = () => setTimeout(connect, 2000);
  }
  check();
  connect();
})();
