// The table page's part of a tournament: when the game played here for a tournament ends,
// each player confirms the final scores (or not: the organiser is then flagged). Uses the
// referee's token kept in this browser (token.js, the one for every page).
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
    box.hidden = false;
    box.innerHTML = "<h2>Tournament result</h2><p>" +
      Object.entries(result.scores).map(([p, s]) => esc(p) + " " + esc(s)).join(", ") + "</p><ul>" +
      game.players.map((p) => "<li>" + esc(p) + ": " +
        (p in said ? (said[p] ? "agrees" : "<strong>disagrees</strong>") : "not yet") +
        ' <button type="button" data-player="' + esc(p) + '" data-agree="1">agree</button>' +
        ' <button type="button" data-player="' + esc(p) + '" data-agree="">disagree</button></li>').join("") +
      "</ul>" + (result.disputed ? '<p class="flag">The organiser has been told.</p>' : "") +
      '<p class="muted small" id="confirm-message"></p>';
    box.querySelectorAll("button").forEach((button) => button.addEventListener("click", () => {
      fetch("/api/tournaments/" + encodeURIComponent(game.tournament) + "/games/" + game.id + "/confirm", {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: "Bearer " + window.PackrefToken.get() },
        body: JSON.stringify({ player: button.dataset.player, agree: Boolean(button.dataset.agree) }),
      }).then((r) => r.json().then((body) => {
        if (r.ok) { render({ ...body, tournament: game.tournament }); return; }
        document.getElementById("confirm-message").textContent = "Not saved (" + r.status + "): " + (body.detail || "");
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
    ws.onmessage = (event) => { if (JSON.parse(event.data).snapshot?.game?.over) check(); };
    ws.onclose = () => setTimeout(connect, 2000);
  }
  check();
  connect();
})();
