// A tournament page: on each "changed" from the WebSocket, fetch the standings again (at most
// every two seconds) and redraw the table. For the organiser, a form enters a game's result by
// hand: the token is kept in sessionStorage (this tab only) and sent only in the Authorization
// header of that request.
"use strict";
(function () {
  const root = document.querySelector("[data-tournament]");
  const id = root.dataset.tournament;
  let waiting = false;
  let current = JSON.parse(document.getElementById("tournament").textContent);

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

  function renderRound(r) {
    return "<h2>Round " + r.round + ' <button type="button" class="print-slips" data-round="' + r.round + '">print table slips</button></h2><ul>' +
      r.games.map(renderGame).join("") + r.byes.map((p) => "<li>" + esc(p) + ": bye (a win)</li>").join("") + "</ul>";
  }

  function renderDisputes(t) {
    const box = document.getElementById("disputes");
    if (!box) return;
    box.hidden = t.disputes.length === 0;
    document.getElementById("dispute-list").innerHTML = t.disputes.map((d) => '<li class="flag">round ' + d.round + " · game " + d.game +
      (d.table ? " at " + esc(d.table) : "") + ": " + esc(d.disagree.join(", ")) + (d.disagree.length === 1 ? " disagrees" : " disagree") +
      " with the final scores</li>").join("");
  }

  function render(t) {
    document.querySelector("#standings tbody").innerHTML = t.standings.map((l) =>
      "<tr" + (l.player in t.dropped ? ' class="dropped"' : "") + "><td>" + l.rank + '</td><td class="player">' + esc(l.player) +
      "</td><td>" + l.played + "</td><td>" + l.wins + "</td><td>" + l.points + "</td><td>" + l.average + "</td><td>" +
      l.opponents_strength.toFixed(3) + "</td></tr>").join("");
    const rounds = document.getElementById("rounds");
    if (rounds) rounds.innerHTML = t.rounds.map(renderRound).join("") || '<p class="muted">No round yet.</p>';
    renderDisputes(t);
    current = t;
    fillGames();
  }

  // -- table slips: one per game of a round, printed (print CSS shows only the slips) -------
  function printSlips(number) {
    const round = current.rounds.find((r) => r.round === number);
    if (!round) return;
    document.getElementById("slips").innerHTML = round.games.map((g) => '<div class="slip"><h2>' + esc(current.name) +
      " · round " + round.round + " · game " + g.id + '</h2><div class="where">' + (g.table ? "Table " + esc(g.table) : "Any free table") +
      "</div><table><tr><th>player</th><th>score</th><th>signature</th></tr>" +
      g.players.map((p) => "<tr><td>" + esc(p) + '</td><td class="blank"></td><td class="blank"></td></tr>').join("") +
      "</table></div>").join("") + (round.byes.length ? '<div class="slip"><h2>' + esc(current.name) + " · round " + round.round +
      "</h2>Bye (a win): " + esc(round.byes.join(", ")) + "</div>" : "");
    window.print();
  }
  document.addEventListener("click", (event) => {
    const button = event.target.closest(".print-slips");
    if (button) printSlips(Number(button.dataset.round));
  });

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

  // -- entering a result by hand (the tournament page only, not the projector) --------------
  const form = document.getElementById("result-form");
  const tokenInput = document.getElementById("organiser-token");
  const gameSelect = document.getElementById("result-game");
  const rows = document.getElementById("result-rows");
  const message = document.getElementById("result-message");
  const TOKEN_KEY = "packref-organiser-token";

  function games() { return current.rounds.flatMap((r) => r.games.map((g) => Object.assign({ round: r.round }, g))); }
  function selectedGame() { return games().find((g) => String(g.id) === gameSelect.value); }

  function say(text, kind) {
    message.textContent = text;
    message.className = "message" + (kind ? " " + kind : "");
  }

  function fillGames() {
    if (!form) return;
    const chosen = gameSelect.value;
    const list = games();
    gameSelect.innerHTML = list.map((g) => '<option value="' + g.id + '">round ' + g.round + " · game " + g.id + ": " +
      esc(g.players.join(", ")) + (g.result && g.result.source === "hand" ? " (entered)" : "") + "</option>").join("");
    if (list.some((g) => String(g.id) === chosen)) gameSelect.value = chosen;
    document.getElementById("result-save").disabled = list.length === 0;
    if (list.length === 0) say("No game yet: add one to a round first.", "");
    else if (message.textContent.startsWith("No game yet")) say("", "");
    if (gameSelect.value !== rows.dataset.game) fillRows();
  }

  function fillRows() {
    const game = selectedGame();
    rows.dataset.game = game ? String(game.id) : "";
    if (!game) { rows.innerHTML = ""; return; }
    const hand = game.result && game.result.source === "hand" ? game.result : null;
    rows.innerHTML = game.players.map((p, i) => {
      const score = hand ? hand.scores[p] : "";
      const won = hand && hand.winners.includes(p) ? " checked" : "";
      return '<div class="score-row"><label class="score-player" for="score-' + i + '">' + esc(p) + "</label>" +
        '<input type="number" inputmode="numeric" step="1" id="score-' + i + '" data-player="' + esc(p) + '" value="' + esc(score) + '">' +
        '<label class="winner-box"><input type="checkbox" data-winner="' + esc(p) + '" aria-label="' + esc(p) + ' is a winner"' + won + "> winner</label></div>";
    }).join("");
  }

  async function save(event) {
    event.preventDefault();
    const game = selectedGame();
    const token = tokenInput.value.trim();
    if (!game) return say("Choose a game first.", "error");
    if (!token) { tokenInput.focus(); return say("Enter the organiser's token first.", "error"); }
    const scores = {};
    for (const input of rows.querySelectorAll("input[data-player]")) {
      if (!/^-?\d+$/.test(input.value.trim())) {
        input.focus();
        return say("Enter a whole-number score for " + input.dataset.player + ".", "error");
      }
      scores[input.dataset.player] = Number(input.value.trim());
    }
    const body = { scores: scores };
    const winners = Array.from(rows.querySelectorAll("input[data-winner]:checked"), (box) => box.dataset.winner);
    if (winners.length) body.winners = winners;
    const button = document.getElementById("result-save");
    button.disabled = true;
    say("Saving…", "");
    try {
      const response = await fetch("/api/tournaments/" + encodeURIComponent(id) + "/games/" + game.id + "/result", {
        method: "PUT",
        headers: { "Content-Type": "application/json", Authorization: "Bearer " + token },
        body: JSON.stringify(body),
      });
      const answer = await response.json().catch(() => ({}));
      if (response.ok) {
        say("Saved: game " + game.id + " — " + Object.entries(answer.result.scores).map(([p, s]) => p + " " + s).join(", ") + ".", "ok");
        refresh();  // the WebSocket says so too; this is for a page whose socket is down
      } else {
        const detail = typeof answer.detail === "string" ? answer.detail : response.statusText;
        say("Not saved (" + response.status + "): " + detail, "error");
      }
    } catch (error) {
      say("Not saved: the station did not answer (" + error.message + ").", "error");
    } finally {
      button.disabled = games().length === 0;
    }
  }

  // -- pairing the next round --------------------------------------------------------------
  const pairForm = document.getElementById("pair-form");
  async function pair(event) {
    event.preventDefault();
    const note = document.getElementById("pair-message");
    const game = document.getElementById("pair-game").value.trim();
    const size = document.getElementById("pair-size").value.trim();
    const token = tokenInput.value.trim();
    if (!game) { note.textContent = "Choose the game first."; return; }
    if (!token) { tokenInput.focus(); note.textContent = "Enter the organiser's token first (below)."; return; }
    const body = { game: game, force: document.getElementById("pair-force").checked };
    if (size) body.size = Number(size);
    const response = await fetch("/api/tournaments/" + encodeURIComponent(id) + "/rounds", {
      method: "POST", headers: { "Content-Type": "application/json", Authorization: "Bearer " + token }, body: JSON.stringify(body),
    });
    const answer = await response.json().catch(() => ({}));
    note.textContent = response.ok ? "Round " + answer.round + " paired: " + answer.games.length + " games" +
      (answer.byes.length ? ", bye: " + answer.byes.join(", ") : "") + "." :
      "Not paired (" + response.status + "): " + (typeof answer.detail === "string" ? answer.detail : response.statusText);
    if (response.ok) refresh();
  }
  if (pairForm) {
    pairForm.addEventListener("submit", pair);
    fetch("/api/games").then((r) => r.json()).then((list) => {
      document.getElementById("pair-games").innerHTML = list.map((g) => '<option value="' + esc(g.name || g) + '">').join("");
    }).catch(() => {});
  }

  if (form) {
    tokenInput.value = sessionStorage.getItem(TOKEN_KEY) || "";
    tokenInput.addEventListener("input", () => {
      if (tokenInput.value) sessionStorage.setItem(TOKEN_KEY, tokenInput.value);
      else sessionStorage.removeItem(TOKEN_KEY);
    });
    gameSelect.addEventListener("change", () => { fillRows(); say("", ""); });
    form.addEventListener("submit", save);
    fillGames();
  }
})();
