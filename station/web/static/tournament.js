// A tournament page: on each "changed" from the WebSocket, fetch the standings again (at most
// every two seconds) and redraw the table. For the organiser, a form enters a game's result by
// hand: the token is the one stored for every page (token.js) and is sent only in the
// Authorization header of that request. Rounds are paired at real tables: the pairing form
// lists every table and its state (free ones ticked), and a game waiting for a table is
// started at one from its line.
"use strict";
(function () {
  const root = document.querySelector("[data-tournament]");
  const id = root.dataset.tournament;
  let waiting = false;
  let current = JSON.parse(document.getElementById("tournament").textContent);

  // tables by their names ("Table 1", not its id): as the page was drawn, then as /api/tables says
  let tableNames = JSON.parse((document.getElementById("table-names") || { textContent: "{}" }).textContent);
  let namesAsked = false;
  function tableName(tableId) {
    if (!(tableId in tableNames) && !namesAsked) {  // a table made since: ask once, then redraw
      namesAsked = true;
      fetch("/api/tables").then((r) => r.json()).then((list) => {
        list.forEach((t) => { tableNames[t.id] = t.name; });
        render(current);
      }).catch(() => {}).finally(() => { setTimeout(() => { namesAsked = false; }, 5000); });
    }
    return tableNames[tableId] || tableId;
  }

  function esc(text) { return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]); }

  // "Ben", "Ana and Cas", "Ana, Ben and Cas": names as people say them
  function names(people) {
    return people.length > 1 ? people.slice(0, -1).join(", ") + " and " + people[people.length - 1] : people.join("");
  }
  function winWords(winners) { return names(winners) + (winners.length === 1 ? " wins" : " win"); }
  // pending: no result yet; live: a game still being played at a table; disputed: a player
  // disagreed and the organiser has not settled it; done: a final result
  function status(g) {
    return !g.result ? "pending" : g.result.final === false ? "live" : g.result.disputed ? "disputed" : "done";
  }

  function scoreWords(scores) { return Object.entries(scores).map(([p, s]) => p + " " + s).join(", "); }
  function when(at) { return at.replace("T", " ").slice(0, 16) + " UTC"; }

  // a corrected result says so: each earlier result, what it became, by whom and when
  function renderCorrections(result) {
    const list = result.corrections || [];
    if (!list.length) return "";
    return ' <span class="corrected">corrected</span><ul class="corrections">' + list.map((c) => "<li>" +
      esc(scoreWords(c.old.scores)) + " → " + esc(scoreWords(c.new.scores)) + " · " + esc(when(c.at)) + " by " + esc(c.author) +
      "</li>").join("") + "</ul>";
  }

  // a game with no table waits: the organiser starts it at a free table (dealt as the pairing form says)
  function renderWaiting(g) {
    const free = tablesNow.filter((t) => !busy(t));
    const options = free.map((t) => '<option value="' + esc(t.id) + '">' + esc(t.id) + (t.name !== t.id ? " (" + esc(t.name) + ")" : "") + "</option>").join("");
    let html = ' <span class="waiting">waiting for a table</span>';
    if (!document.getElementById("result-form")) return html;
    return html + ' <span class="start-at"><label for="start-table-' + g.id + '">start at table</label> <select id="start-table-' + g.id +
      '" class="start-table" data-game="' + g.id + '">' + (options || '<option value="">no free table</option>') + "</select>" +
      ' <button type="button" class="start-game" data-game="' + g.id + '"' + (options ? "" : " disabled") + ">start</button></span>";
  }

  function renderGame(g) {
    const state = status(g);
    let html = '<li class="game game-' + state + '" data-game="' + g.id + '">game ' + g.id + ": " + esc(g.players.join(", "));
    if (g.table) html += ' at <a href="/tables/' + encodeURIComponent(g.table) + '">' + esc(tableName(g.table)) + "</a>";
    else if (!g.result) html += renderWaiting(g);
    html += ' <span class="status-tag status-' + state + '">' + state + "</span>";
    if (g.result) {
      html += " — " + Object.entries(g.result.scores).map(([p, s]) => esc(p) + " " + esc(s)).join(", ");
      html += " (" + esc(g.result.source) + ")";
      if (g.result.tie_break && current.tie_break) html += " · " + esc(current.tie_break.words) + ": " + esc(scoreWords(g.result.tie_break));
      if (g.result.winners && g.result.winners.length) {
        html += ' · <strong class="winners">' + esc(winWords(g.result.winners)) + (state === "live" ? " so far" : "") + "</strong>";
      }
      html += renderCorrections(g.result);
    }
    if (document.getElementById("result-form") && g.result?.source !== "bye") {
      html += ' <button type="button" class="enter-result" data-game="' + g.id + '">enter result</button>';
      html += ' <button type="button" class="show-codes" data-game="' + g.id + '">players\' codes</button>';
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
    // a note being typed survives a redraw (another table's result may arrive meanwhile)
    const typed = {};
    box.querySelectorAll(".settle-note").forEach((input) => { typed[input.dataset.game] = input.value; });
    const focused = document.activeElement && document.activeElement.classList.contains("settle-note") ? document.activeElement.dataset.game : null;
    document.getElementById("dispute-list").innerHTML = t.disputes.map((d) => '<li class="flag">round ' + d.round + " · game " + d.game +
      (d.table ? " at " + esc(tableName(d.table)) : "") + ": " + esc(d.disagree.join(", ")) + (d.disagree.length === 1 ? " disagrees" : " disagree") +
      ' with the final scores <span class="settle"><label for="settle-note-' + d.game + '">note</label> <input id="settle-note-' + d.game +
      '" class="settle-note" data-game="' + d.game + '" autocomplete="off"> <button type="button" class="settle-game" data-game="' + d.game +
      '">settle</button></span></li>').join("");
    box.querySelectorAll(".settle-note").forEach((input) => {
      input.value = typed[input.dataset.game] || "";
      if (input.dataset.game === focused) input.focus();
    });
  }

  // the projector: the last round's pairings by table and its progress, then the standings
  function renderPairings(t) {
    const list = document.getElementById("pairing-list");
    const last = t.rounds[t.rounds.length - 1];
    if (!list || !last) return;
    const done = last.games.filter((g) => g.result && g.result.final !== false).length;
    document.getElementById("round-progress").textContent = done + " of " + last.games.length + " results in";
    const progress = (g) => g.result && g.result.winners && g.result.winners.length ?
      winWords(g.result.winners) + (status(g) === "live" ? " so far" : "") : status(g) === "live" ? "playing now" : "result to come";
    list.innerHTML = last.games.map((g) => "<li>" + esc(g.table ? tableName(g.table) : "Game " + g.id + (g.result ? "" : " (waiting for a table)")) + ": " + esc(g.players.join(", ")) +
      " · " + esc(progress(g)) + "</li>").join("") +
      last.byes.map((p) => "<li>" + esc(p) + ": bye</li>").join("");
  }
  if (document.body.classList.contains("projector") && document.getElementById("pairings")) {
    // the slides in turn: the round's live tables (the main one, 20 s, while any plays),
    // the pairings and the standings (12 s each), so the room sees all three
    const ORDER = ["room", "pairings", "standings"], SECONDS = { room: 20, pairings: 12, standings: 12 };
    const live = () => document.querySelector("#round-room .tile") !== null;
    let showing = live() ? "room" : "pairings";
    const show = () => document.querySelectorAll("[data-slide]").forEach((el) => { el.hidden = el.dataset.slide !== showing; });
    const next = () => {
      let at = ORDER.indexOf(showing);
      do { at = (at + 1) % ORDER.length; } while (ORDER[at] === "room" && !live());
      showing = ORDER[at];
      show();
      setTimeout(next, SECONDS[showing] * 1000);
    };
    show();
    setTimeout(next, SECONDS[showing] * 1000);
  }

  function render(t) {
    renderPairings(t);
    document.querySelector("#standings tbody").innerHTML = t.standings.map((l) =>
      "<tr" + (l.player in t.dropped ? ' class="dropped"' : "") + "><td>" + l.rank + '</td><td class="player">' + esc(l.player) +
      "</td><td>" + l.played + "</td><td>" + l.wins + "</td><td>" + l.points + "</td><td>" + Number(Number(l.average).toPrecision(6)) + "</td><td>" +
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
      " · round " + round.round + " · game " + g.id + '</h2><div class="where">' + (g.table ? esc(tableName(g.table)) : "Waiting for a table") +
      "</div><table><tr><th>player</th><th>score</th><th>signature</th></tr>" +
      g.players.map((p) => "<tr><td>" + esc(p) + '</td><td class="blank"></td><td class="blank"></td></tr>').join("") +
      "</table></div>").join("") + (round.byes.length ? '<div class="slip"><h2>' + esc(current.name) + " · round " + round.round +
      "</h2>Bye (a win): " + esc(round.byes.join(", ")) + "</div>" : "");
    window.print();
  }
  document.addEventListener("click", (event) => {
    const button = event.target.closest(".print-slips");
    if (button) printSlips(Number(button.dataset.round));
    const codes = event.target.closest(".show-codes");
    if (codes) showCodes(Number(codes.dataset.game));
    const start = event.target.closest(".start-game");
    if (start) startWaiting(Number(start.dataset.game));
    const settleButton = event.target.closest(".settle-game");
    if (settleButton) settle(Number(settleButton.dataset.game));
    const enter = event.target.closest(".enter-result");
    if (enter && gameSelect) {
      gameSelect.value = enter.dataset.game;
      fillRows();
      say("", "");
      form.scrollIntoView({ block: "start" });
      const first = rows.querySelector("input[data-player]");
      if (first) first.focus({ preventScroll: true });
    }
  });

  // A change that arrives while a fetch is under way is fetched again after it: the last
  // change (a saved correction) is never lost behind an earlier one.
  let again = false;
  function refresh() {
    if (waiting) { again = true; return; }
    waiting = true;
    setTimeout(() => {
      fetch("/api/tournaments/" + encodeURIComponent(id)).then((r) => r.json()).then(render).finally(() => {
        waiting = false;
        if (again) { again = false; refresh(); }
      });
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
  const override = document.getElementById("result-override");

  function games() { return current.rounds.flatMap((r) => r.games.map((g) => Object.assign({ round: r.round }, g))); }
  function selectedGame() { return games().find((g) => String(g.id) === gameSelect.value); }

  function say(text, kind) {
    message.textContent = text;
    message.className = "message" + (kind ? " " + kind : "");
  }

  function fillGames() {
    if (!form) return;
    const chosen = gameSelect.dataset.filled ? gameSelect.value : null;  // first time: the next game
    gameSelect.dataset.filled = "yes";
    const list = games();
    gameSelect.innerHTML = list.map((g) => '<option value="' + g.id + '">round ' + g.round + " · game " + g.id + ": " +
      esc(g.players.join(", ")) + (g.result && g.result.source === "hand" ? " (entered)" : "") + "</option>").join("");
    const next = list.find((g) => !g.result);
    if (list.some((g) => String(g.id) === chosen)) gameSelect.value = chosen;
    else if (next) gameSelect.value = String(next.id);
    document.getElementById("result-save").disabled = list.length === 0;
    if (list.length === 0) say("No game yet: add one to a round first.", "");
    else if (message.textContent.startsWith("No game yet")) say("", "");
    if (gameSelect.value !== rows.dataset.game) fillRows();
  }

  // The form starts from the stored scores but never from the stored winners: a correction
  // must not send the old winners back as an override (the highest total wins unless the
  // organiser ticks "choose the winners myself").
  function fillRows() {
    const game = selectedGame();
    rows.dataset.game = game ? String(game.id) : "";
    override.checked = false;
    if (!game) { rows.innerHTML = ""; preview(); return; }
    const hand = game.result && game.result.source === "hand" ? game.result : null;
    rows.innerHTML = game.players.map((p, i) => {
      const score = hand ? hand.scores[p] : "";
      return '<div class="score-row"><label class="score-player" for="score-' + i + '">' + esc(p) + "</label>" +
        '<input type="number" inputmode="numeric" step="1" id="score-' + i + '" data-player="' + esc(p) + '" value="' + esc(score) + '">' +
        '<label class="winner-box" hidden><input type="checkbox" data-winner="' + esc(p) + '" aria-label="' + esc(p) + ' is a winner"> winner</label>' +
        tieBreakInput(p, i, hand) + "</div>";
    }).join("");
    showWinnerBoxes();
  }

  // the game's rulebook tie-break (Moving Day: snack points), asked for when the top totals tie
  function tieBreakInput(player, i, hand) {
    const rule = current.tie_break;
    if (!rule) return "";
    const value = hand && hand.tie_break && player in hand.tie_break ? hand.tie_break[player] : "";
    return '<span class="tie-break" hidden><label for="tie-' + i + '">' + esc(player) + " " + esc(rule.words) + "</label>" +
      '<input type="number" inputmode="numeric" step="1" id="tie-' + i + '" data-tiebreak="' + esc(player) + '" value="' + esc(value) + '"></span>';
  }

  function tiedOnTop() {
    const scores = enteredScores();
    if (!scores || !Object.keys(scores).length) return [];
    const best = Math.max(...Object.values(scores));
    const tied = Object.keys(scores).filter((p) => scores[p] === best);
    return tied.length > 1 ? tied : [];
  }

  // only the tied players' figures are asked for (and sent)
  function enteredTieBreak() {
    const tied = tiedOnTop();
    const figures = {};
    for (const input of rows.querySelectorAll("input[data-tiebreak]")) {
      const wanted = Boolean(current.tie_break) && tied.includes(input.dataset.tiebreak) && !chosenWinners().length;
      input.parentElement.hidden = !wanted;
      if (wanted && /^-?\d+$/.test(input.value.trim())) figures[input.dataset.tiebreak] = Number(input.value.trim());
    }
    return figures;
  }

  function enteredScores() {
    const scores = {};
    for (const input of rows.querySelectorAll("input[data-player]")) {
      if (!/^-?\d+$/.test(input.value.trim())) return null;
      scores[input.dataset.player] = Number(input.value.trim());
    }
    return scores;
  }

  function chosenWinners() {
    if (!override.checked) return [];
    return Array.from(rows.querySelectorAll("input[data-winner]:checked"), (box) => box.dataset.winner);
  }

  // The winners the station will record for what is on the form (the same rule as the server).
  function expectedWinners() {
    const chosen = chosenWinners();
    if (chosen.length) return chosen;
    const scores = enteredScores();
    if (!scores || !Object.keys(scores).length) return [];
    const best = Math.max(...Object.values(scores));
    const top = Object.keys(scores).filter((p) => scores[p] === best);
    const rule = current.tie_break;
    if (top.length < 2 || !rule) return top;
    const figures = enteredTieBreak();
    if (top.some((p) => !(p in figures))) return [];  // the rulebook needs them first
    const rank = (p) => (rule.better === "higher" ? figures[p] : -figures[p]);
    const bestFigure = Math.max(...top.map(rank));
    return top.filter((p) => rank(p) === bestFigure);
  }

  function preview() {
    const box = document.getElementById("result-preview");
    if (!box) return;
    const winners = expectedWinners();
    const tied = chosenWinners().length ? [] : tiedOnTop();
    const rule = current.tie_break;
    if (!winners.length && tied.length && rule) {
      box.textContent = names(tied) + " are tied: enter their " + rule.words + " (" + rule.better + " wins).";
      return;
    }
    if (!winners.length) { box.textContent = override.checked ? "Tick at least one winner, or the highest total wins." : "Enter every score to see who wins."; return; }
    const why = chosenWinners().length ? " (chosen by the organiser)." : tied.length && rule ? " (the tie broken on " + rule.words + ")." :
      " (the highest total).";
    box.textContent = "On saving: " + winWords(winners) + why;
  }

  function showWinnerBoxes() {
    for (const label of rows.querySelectorAll(".winner-box")) label.hidden = !override.checked;
    if (!override.checked) for (const box of rows.querySelectorAll("input[data-winner]")) box.checked = false;
    preview();
  }

  async function save(event) {
    event.preventDefault();
    const game = selectedGame();
    const token = tokenInput.value.trim();
    if (!game) return say("Choose a game first.", "error");
    if (!token) { tokenInput.focus(); return say("Enter the organiser's token first.", "error"); }
    const scores = enteredScores();
    if (!scores) {
      const input = Array.from(rows.querySelectorAll("input[data-player]")).find((i) => !/^-?\d+$/.test(i.value.trim()));
      input.focus();
      return say("Enter a whole-number score for " + input.dataset.player + ".", "error");
    }
    const body = { scores: scores };
    const winners = chosenWinners();
    if (winners.length) body.winners = winners;
    const figures = enteredTieBreak();
    if (!winners.length && Object.keys(figures).length) body.tie_break = figures;
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
        say("Saved: game " + game.id + " — " + Object.entries(answer.result.scores).map(([p, s]) => p + " " + s).join(", ") + ". " +
          winWords(answer.result.winners) + ".", "ok");
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

  // -- the players' codes of a game and its signing record (the organiser's token) ----------
  function organiserToken(note) {
    const token = tokenInput ? tokenInput.value.trim() : "";
    if (!token && tokenInput) { tokenInput.focus(); note.textContent = "Enter the organiser's token first (under Enter a result)."; }
    return token;
  }

  function signingRows(steps) {
    const what = { agree: "agrees", disagree: "disagrees", settle: "settles" };
    return steps.map((s) => "<tr><td>" + esc(s.at.replace("T", " ").slice(0, 19)) + "</td><td>" + esc(s.who) + "</td><td>" +
      esc(what[s.kind] || s.kind) + "</td><td>" + esc(s.host || "") + "</td><td>" +
      esc(s.scores ? Object.entries(s.scores).map(([p, v]) => p + " " + v).join(", ") : "") + "</td><td>" + esc(s.note || "") + "</td></tr>").join("");
  }

  async function showCodes(game) {
    const box = document.getElementById("codes-box");
    const view = document.getElementById("codes-view");
    box.hidden = false;
    view.innerHTML = '<p class="message" id="codes-message" role="status"></p>';
    const note = document.getElementById("codes-message");
    const token = organiserToken(note);
    if (!token) return;
    const response = await fetch("/api/tournaments/" + encodeURIComponent(id) + "/games/" + game + "/codes", {
      headers: { Authorization: "Bearer " + token } });
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) { note.textContent = "Not shown (" + response.status + "): " + (typeof answer.detail === "string" ? answer.detail : response.statusText); return; }
    view.innerHTML = "<h2>Game " + answer.game + " · round " + answer.round + (answer.table ? " · " + esc(tableName(answer.table)) : "") +
      (answer.disputed ? ' <span class="status-tag status-disputed">disputed</span>' : "") + '</h2><ul class="codes-list">' +
      answer.codes.map((c) => "<li>" + esc(c.player) + ' <span class="code">' + esc(c.code) + '</span><a href="' + esc(c.sign) + '">' +
        esc(location.origin + c.sign) + "</a></li>").join("") + "</ul>" +
      (answer.signing.length ? '<h2>Signed</h2><div class="table-scroll" tabindex="0" role="region" aria-label="Signing record">' +
        '<table class="signing-record"><thead><tr><th>when (UTC)</th><th>who</th><th>what</th><th>from</th><th>scores</th><th>note</th></tr></thead><tbody>' +
        signingRows(answer.signing) + "</tbody></table></div>" : '<p class="muted">Nobody has signed yet.</p>');
    box.scrollIntoView({ block: "start" });
  }

  async function settle(game) {
    const note = document.getElementById("settle-message");
    const input = document.getElementById("settle-note-" + game);
    const token = organiserToken(note);
    if (!token) return;
    if (!input.value.trim()) { input.focus(); note.textContent = "Write a note: why the result stands, or what was corrected."; return; }
    const response = await fetch("/api/tournaments/" + encodeURIComponent(id) + "/games/" + game + "/settle", {
      method: "POST", headers: { "Content-Type": "application/json", Authorization: "Bearer " + token },
      body: JSON.stringify({ note: input.value.trim() }),
    });
    const answer = await response.json().catch(() => ({}));
    note.textContent = response.ok ? "Game " + game + " settled." :
      "Not settled (" + response.status + "): " + (typeof answer.detail === "string" ? answer.detail : response.statusText);
    if (response.ok) refresh();
  }

  // -- the tables, for pairing and for the games waiting for one ---------------------------
  let tablesNow = [];
  const pairChoice = {};  // the organiser's own ticks survive a redraw (a table's game may end meanwhile)
  function busy(t) { return Boolean(t.game && !t.game.over); }
  // a game by its title ("Moving Day"), as the page's game words say; else its engine's name
  const gameWords = JSON.parse((document.getElementById("game-words") || { textContent: "{}" }).textContent);
  const gameTitle = (name) => (gameWords[name] && gameWords[name].title) || name;
  function tableWords(t) {
    return busy(t) ? "playing " + gameTitle(t.game.name) + ": " + t.game.players.join(", ") : t.game ? "free (" + gameTitle(t.game.name) + " over)" : "free";
  }

  function renderTables() {
    const list = document.getElementById("pair-table-list");
    if (!list) return;
    list.innerHTML = tablesNow.length ? tablesNow.map((t) => {
      const ticked = t.id in pairChoice ? pairChoice[t.id] : !busy(t);
      return '<label class="winner-box table-choice' + (busy(t) ? " busy" : "") + '"><input type="checkbox" data-table="' + esc(t.id) + '"' +
        (ticked ? " checked" : "") + "> " + esc(t.id) + (t.name !== t.id ? " (" + esc(t.name) + ")" : "") + " · " + esc(tableWords(t)) +
        (busy(t) && ticked ? ' <strong class="replace-note">its game will be ended</strong>' : "") + "</label>";
    }).join("") : '<span class="muted">No table yet: every game will wait (or enter its result by hand).</span>';
  }

  let tablesWaiting = false;
  function loadTables() {
    if (tablesWaiting) return;
    tablesWaiting = true;
    setTimeout(() => {
      fetch("/api/tables").then((r) => r.json()).then((list) => {
        tablesNow = list;
        list.forEach((t) => { tableNames[t.id] = t.name; });
        renderTables();
        const rounds = document.getElementById("rounds");
        if (rounds && current.rounds.some((r) => r.games.some((g) => !g.table && !g.result))) {
          rounds.innerHTML = current.rounds.map(renderRound).join("");
        }
      }).catch(() => {}).finally(() => { tablesWaiting = false; });
    }, 300);
  }

  function connectTables() {
    const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws/tables");
    ws.onmessage = loadTables;
    ws.onclose = () => setTimeout(connectTables, 2000);
  }

  function refusal(response, answer) {
    return "(" + response.status + "): " + (typeof answer.detail === "string" ? answer.detail : response.statusText);
  }

  async function startWaiting(game) {
    const note = document.getElementById("pair-message");
    const token = organiserToken(note);
    if (!token) return;
    const table = document.getElementById("start-table-" + game).value;
    const deal = document.getElementById("pair-deal").value;
    const response = await fetch("/api/tournaments/" + encodeURIComponent(id) + "/games/" + game + "/start", {
      method: "POST", headers: { "Content-Type": "application/json", Authorization: "Bearer " + token },
      body: JSON.stringify({ table: table, deal: deal }),
    });
    const answer = await response.json().catch(() => ({}));
    note.textContent = response.ok ? "Game " + game + " started at " + tableName(answer.table) + (answer.deal === "table" ? ", dealt by hand." : ", dealt by the station.") :
      "Not started " + refusal(response, answer);
    if (response.ok) { refresh(); loadTables(); }
  }

  // -- pairing the next round --------------------------------------------------------------
  const pairForm = document.getElementById("pair-form");
  async function pair(event) {
    event.preventDefault();
    const note = document.getElementById("pair-message");
    const gameInput = document.getElementById("pair-game");
    const game = gameInput ? gameInput.value.trim() : "";
    const size = document.getElementById("pair-size").value.trim();
    const token = tokenInput.value.trim();
    if (gameInput && !game) { note.textContent = "Choose the game first."; return; }
    if (!token) { tokenInput.focus(); note.textContent = "Enter the organiser's token first (under Enter a result)."; return; }
    const body = { force: document.getElementById("pair-force").checked, deal: document.getElementById("pair-deal").value };
    if (game) body.game = game;
    if (size) body.size = Number(size);
    const boxes = Array.from(document.querySelectorAll("#pair-table-list input[data-table]"));
    if (boxes.length) {
      body.tables = boxes.filter((b) => b.checked).map((b) => b.dataset.table);
      const taken = tablesNow.filter((t) => busy(t) && body.tables.includes(t.id));
      if (taken.length) body.replace = true;
    }
    const response = await fetch("/api/tournaments/" + encodeURIComponent(id) + "/rounds", {
      method: "POST", headers: { "Content-Type": "application/json", Authorization: "Bearer " + token }, body: JSON.stringify(body),
    });
    const answer = await response.json().catch(() => ({}));
    const waitingCount = response.ok ? answer.games.filter((g) => !g.table).length : 0;
    note.textContent = response.ok ? "Round " + answer.round + " paired: " + answer.games.length + " games" +
      (answer.byes.length ? ", bye: " + answer.byes.join(", ") : "") + (waitingCount ? ", " + waitingCount + " waiting for a table" : "") + "." :
      "Not paired " + refusal(response, answer);
    if (response.ok) { Object.keys(pairChoice).forEach((k) => delete pairChoice[k]); refresh(); loadTables(); }
  }
  if (pairForm) {
    pairForm.addEventListener("submit", pair);
    document.getElementById("pair-table-list").addEventListener("change", (event) => {
      const box = event.target.closest("input[data-table]");
      if (box) { pairChoice[box.dataset.table] = box.checked; renderTables(); }
    });
    const datalist = document.getElementById("pair-games");
    if (datalist) {
      fetch("/api/games").then((r) => r.json()).then((list) => {
        datalist.innerHTML = list.map((g) => '<option value="' + esc(g.name || g) + '">').join("");
      }).catch(() => {});
    }
    loadTables();
    connectTables();
  }

  if (form) {
    window.PackrefToken.bind(tokenInput);
    gameSelect.addEventListener("change", () => { fillRows(); say("", ""); });
    rows.addEventListener("input", preview);
    if (document.getElementById("rounds")) render(current);  // waiting games get their start buttons
    rows.addEventListener("change", preview);
    override.addEventListener("change", showWinnerBoxes);
    form.addEventListener("submit", save);
    fillGames();
  }
})();
