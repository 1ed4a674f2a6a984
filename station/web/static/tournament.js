// A tournament page: on each "changed" from the WebSocket, fetch the standings again (at most
// every two seconds) and redraw the table.
"use strict";
(function () {
  const root = document.querySelector("[data-tournament]");
  const id = root.dataset.tournament;
  let waiting = false;

  function esc(text) { return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]); }

  function renderGame(g) {
    let html = "<li>game " + g.id + ": " + esc(g.players.join(", "));
    if (g.table) html += ' at <a href="/tables/' + encodeURIComponent(g.table) + '">' + esc(g.table) + "</a>";
    if (g.result) {
      html += " — " + Object.entries(g.result.scores).map(([p, s]) => esc(p) + " " + esc(s)).join(", ");
      html += " (" + esc(g.result.source) + (g.result.final === false ? ", in progress" : "") + ")";
    }
    return html + "</li>";
  }

  function render(t) {
    document.querySelector("#standings tbody").innerHTML = t.standings.map((l) =>
      "<tr><td>" + l.rank + '</td><td class="player">' + esc(l.player) + "</td><td>" + l.played + "</td><td>" + l.wins +
      "</td><td>" + l.points + "</td><td>" + l.average + "</td></tr>").join("");
    const rounds = document.getElementById("rounds");
    if (rounds) {
      rounds.innerHTML = t.rounds.map((r) => "<h2>Round " + r.round + "</h2><ul>" + r.games.map(renderGame).join("") + "</ul>").join("") ||
        '<p class="muted">No round yet.</p>';
    }
  }

  function refresh() {
    if (waiting) return;
    waiting = true;
    setTimeout(() => {
      fetch("/api/tournaments/" + encodeURIComponent(id)).then((r) => r.json()).then(render).finally(() => { waiting = false; });
    }, 500);
  }

  function connect() {
    const status = document.getElementById("live-status");
    const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws/tournaments/" + encodeURIComponent(id));
    ws.onopen = () => status && status.classList.add("on");
    ws.onmessage = refresh;
    ws.onclose = () => { status && status.classList.remove("on"); setTimeout(connect, 2000); };
  }
  connect();
})();
