// A table's live page: draws the snapshot embedded in the page at once, then each one the
// WebSocket brings. Referee buttons send the organiser's token (kept in this browser only).
"use strict";
(function () {
  const root = document.querySelector("[data-table]");
  const tableId = root.dataset.table;
  const esc = window.PackrefDraw.escape;
  let current = JSON.parse(document.getElementById("snapshot").textContent);
  const wordsBox = document.getElementById("game-words");
  const gameWords = wordsBox ? JSON.parse(wordsBox.textContent) : {};  // title and legend by game

  function winWords(winners) {
    const names = winners.length > 1 ? winners.slice(0, -1).join(", ") + " and " + winners[winners.length - 1] : winners.join("");
    return names + (winners.length === 1 ? " wins" : " win");
  }
  function set(id, html) { const el = document.getElementById(id); if (el) el.innerHTML = html; }
  function setText(id, text) { const el = document.getElementById(id); if (el) el.textContent = text; }

  const projector = document.body.classList.contains("projector");
  // On the projector the scores are sorted, ranked and the leader marked; at the table they
  // stay in seat order (people find themselves where they sit).
  function renderScores(game) {
    if (!game) return "";
    const seats = game.scores.map((s, i) => [s, i]);
    if (projector) seats.sort((a, b) => b[0].total - a[0].total);
    const best = Math.max(...game.scores.map((s) => s.total));
    const someoneBehind = game.scores.some((s) => s.total < best);  // all level: nobody leads
    return seats.map(([s, i]) => {
      const rank = 1 + game.scores.filter((o) => o.total > s.total).length;
      const lead = projector ? '<span class="rank">' + rank + ".</span> " : "";
      const leader = projector && s.total === best && someoneBehind && !game.over ? ' <span class="turn-tag lead-tag">leader</span>' : "";
      const cls = (game.winners.includes(s.player) ? "winner" : "") + (game.current_player === i ? " to-act" : "");
      const parts = Object.entries(s.parts).map(([k, v]) => '<span class="part">' + esc(k) + " " + esc(v) + "</span>").join(" ");
      const tags = (game.current_player === i && !game.over ? ' <span class="turn-tag">to play</span>' : "") +
        (game.winners.includes(s.player) ? ' <span class="turn-tag win-tag">winner</span>' : "");
      return '<tr class="' + cls + '"><td class="player">' + lead + esc(s.player) + tags + leader + '</td><td class="total" data-player="' + esc(s.player) + '">' + esc(s.total) + '</td><td class="parts">' + parts + "</td></tr>";
    }).join("");
  }

  // On a landscape projector the boards take the screen beside the scores, all in view at once
  const wide = window.matchMedia("(min-width: 900px) and (orientation: landscape)");
  function fitBoards() {
    const box = document.getElementById("board");
    document.body.classList.toggle("fitted", Boolean(box && projector && wide.matches));
    if (!document.body.classList.contains("fitted")) return;
    box.querySelectorAll("svg.grid").forEach((svg) => { svg.style.width = ""; });
    window.PackrefDraw.fit(box, window.innerHeight - box.getBoundingClientRect().top - window.scrollY - 12);
  }
  if (projector) window.addEventListener("resize", fitBoards);

  // a score that changed is said to a screen reader, politely (after what it is reading)
  let lastTotals = null;
  function announceScores(game) {
    const totals = game ? Object.fromEntries(game.scores.map((s) => [s.player, s.total])) : {};
    const news = lastTotals ? Object.entries(totals).filter(([p, t]) => lastTotals[p] !== undefined && lastTotals[p] !== t)
      .map(([p, t]) => p + " now has " + t + " points") : [];
    lastTotals = totals;
    if (news.length) setText("score-news", news.join(". ") + ".");
  }

  // the cells a flagged move names, as its words name them (the station works them out:
  // station/games/views.py flagged_cells), for the board
  function flaggedCells(flags) {
    return flags.flatMap((f) => Array.isArray(f.cells) ? f.cells : []);
  }

  function renderFlags(flags, recent) {
    if (!flags.length) return '<li class="muted">none</li>';
    const words = Object.fromEntries((recent || []).filter((e) => e.text).map((e) => [e.seq, e.text]));
    return flags.map((f) => '<li class="flag" data-seq="' + f.seq + '">' + (words[f.seq] ? esc(words[f.seq]) : "event " + f.seq + ": <strong>" + esc(f.reason) + "</strong>") +
      (f.action ? ' <details class="raw"><summary>as data</summary><code>' + esc(JSON.stringify(f.action)) + "</code></details>" : "") +
      (f.readings || []).map((r, i) => ' <button type="button" data-choose="' + f.seq + '" data-reading="' + i + '">' + esc(r.text) + "</button>").join("") +
      ' <button type="button" data-accept="' + f.seq + '">accept</button>' +
      ' <button type="button" data-correct="' + f.seq + '">correct…</button></li>').join("");
  }

  function renderEntries(entries) {
    if (!entries || !entries.length) return '<li class="muted">none</li>';
    return entries.map((e) => '<li class="entry">' + esc(e.text) +
      ' <button type="button" data-withdraw="' + e.seq + '">withdraw</button></li>').join("");
  }

  // A read-only table's reason and its camera's or drone's faults while they are retried
  function renderSourceFaults(s) {
    const lines = s.quarantined ? ['<li class="source-fault">' + esc(s.quarantined) + "</li>"] : [];
    for (const source of s.sources || []) {
      if (source.words) lines.push('<li class="source-fault">' + esc(source.words) + "</li>");
      if (source.skipped) lines.push('<li class="muted">the ' + esc(source.source) + " skipped " + source.skipped + " bad frame(s)</li>");
    }
    return lines.join("");
  }

  function render(s) {
    const game = s.game;
    document.body.dataset.seq = s.seq;
    setText("seq", s.seq);
    const words = (game && gameWords[game.name]) || {};
    setText("game-name", game ? words.title || game.name : "no game yet");
    setText("legend", words.legend || "");
    setText("game-state", !game ? "" : game.over ? "game over — " + winWords(game.winners) : game.players[game.current_player] + " to act");
    setText("actions", game ? game.actions : 0);
    const body = document.querySelector("#scores tbody");
    if (body) body.innerHTML = renderScores(game);
    announceScores(game);
    set("flags", renderFlags(s.flags, s.recent));
    set("source-faults", renderSourceFaults(s));
    set("entries", renderEntries(s.entries));
    const banner = document.getElementById("review-banner");
    if (banner) banner.hidden = s.flags.length === 0;
    const move = game && game.last_move;
    set("board", game ? window.PackrefDraw.view(game.view, flaggedCells(s.flags), move && move.cells) : "");
    setText("last-move", move ? "Last move: " + (move.text || move.player) : "No move yet");
    fitBoards();
    set("graph", window.PackrefDraw.massGraph(s.readings));
    renderPicker(game);
    set("recent", s.recent.map((e) => '<li class="event event-' + esc(e.kind) + '">' + (e.text ? esc(e.text) :
      "<strong>" + esc(e.kind) + "</strong> " + esc(summary(e))) + ' <span class="muted">(event ' + e.seq + ", " + esc(e.author) + ")</span></li>").join(""));
  }

  // -- the reveal picker: exactly the legal outcomes of the table's chance step (docs/contracts.md §9)
  let pickerSeq = -1;
  function outcomeLabel(outcome) {
    // the game's own words (its record in station/games), else the action's fields as JSON
    const fields = outcome.label || JSON.stringify(Object.fromEntries(Object.entries(outcome.action).filter(([k]) => k !== "type")));
    return fields + (outcome.count > 1 ? " (" + outcome.count + " unseen)" : "");
  }
  function renderPicker(game) {
    const box = document.getElementById("reveal-box");
    if (!box) return;
    const chance = game && !game.over && game.chance;
    box.hidden = !(chance && chance.outcomes);
    if (box.hidden || pickerSeq === current.seq) return;
    pickerSeq = current.seq;
    setText("reveal-why", chance.waiting ? "Play waits for this draw." :
      "The camera cannot see this: enter it when it is turned up (" + chance.unseen + " components unseen).");
    // the list needs the organiser's token (what is not on it would tell a hand's cards)
    const token = window.PackrefToken ? window.PackrefToken.get() : "";
    const select = document.getElementById("reveal-choice");
    if (!token) {
      select.innerHTML = "";
      select.dataset.outcomes = "[]";
      setText("reveal-why", "Enter the organiser's token (the referee's tools) to pick what was drawn.");
      pickerSeq = -1;  // asked again once the token is typed
      return;
    }
    fetch("/tables/" + encodeURIComponent(tableId) + "/reveal-choices",
      { headers: { Authorization: "Bearer " + token } }).then((r) => r.json()).then((a) => {
      select.innerHTML = (a.outcomes || []).map((o, i) => '<option value="' + i + '">' + esc(outcomeLabel(o)) + "</option>").join("");
      select.dataset.outcomes = JSON.stringify((a.outcomes || []).map((o) => o.action));
      set("reveal-pictures", (a.outcomes || []).map(revealButton).join(""));
    });
  }
  // a component to reveal as a picture from the catalogue (its squares, colours, name), with
  // where it goes; tapping it chooses it in the list below (the reveal button sends it)
  function revealButton(outcome, index) {
    if (!outcome.picture && !outcome.words) return "";
    const pic = outcome.picture ? window.PackrefDraw.picture(outcome.picture, "", 22) : "";
    return '<button type="button" class="tap-choice" aria-pressed="false" data-outcome="' + index + '">' + pic +
      "<span>" + esc(outcome.words || "") + '</span> <span class="muted">' + esc(outcomeLabel(outcome)) + "</span></button>";
  }

  function summary(e) {
    if (e.kind === "flag") return e.reason;
    if (e.kind === "game") return e.game + ": " + e.players.join(", ");
    if (e.action) return JSON.stringify(e.action).slice(0, 120);
    if (e.kind === "undo") return "takes back event " + ((e.step && e.step.length > 1) ? e.step[0] + "–" + e.step[e.step.length - 1] : e.undoes);
    if (e.kind === "accept") return "flag " + e.flag;
    return "";
  }

  function connect() {
    const status = document.getElementById("live-status");
    const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws/tables/" + encodeURIComponent(tableId));
    ws.onopen = () => status && status.classList.add("on");
    ws.onmessage = (message) => {
      const update = JSON.parse(message.data);
      document.dispatchEvent(new CustomEvent("packref:live", { detail: update }));  // advice.js
      if (update.type !== "snapshot" || update.seq < current.seq) return;
      current = update.snapshot;
      render(current);
    };
    ws.onclose = () => { status && status.classList.remove("on"); setTimeout(connect, 1500); };
  }

  // -- referee -------------------------------------------------------------------------
  const tokenInput = document.getElementById("token");
  window.PackrefToken.bind(tokenInput);
  if (tokenInput) tokenInput.addEventListener("input", () => { pickerSeq = -1; renderPicker(current.game); });

  async function write(path, body) {
    window.PackrefToken.set(tokenInput.value.trim());
    const response = await fetch("/api/tables/" + encodeURIComponent(tableId) + path, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: "Bearer " + tokenInput.value },
      body: JSON.stringify(body || {}),
    });
    const answer = await response.json().catch(() => ({}));
    if (response.status === 401) window.PackrefToken.explain(document.getElementById("referee-message"), 401);  // a sign-in link
    else setText("referee-message", response.ok ? "done" : (answer.detail || response.statusText));
    return response.ok;
  }

  // the correction picker: the legal actions in words, loaded when the referee needs them and
  // narrowed by the words typed in the filter (every legal action can be found that way)
  let choicesKey = "";
  function loadChoices() {
    const select = document.getElementById("correction-choice");
    const filter = document.getElementById("correction-filter");
    const query = filter ? filter.value.trim() : "";
    const token = tokenInput ? tokenInput.value.trim() : "";
    // the organiser sees every legal action; anyone else sees them as the table does
    if (!select || choicesKey === current.seq + "|" + query + "|" + token) return Promise.resolve();
    choicesKey = current.seq + "|" + query + "|" + token;
    return fetch("/tables/" + encodeURIComponent(tableId) + "/legal-choices?q=" + encodeURIComponent(query),
      { headers: token ? { Authorization: "Bearer " + token } : {} })
      .then((r) => r.ok ? r.text() : r.json().then((answer) => Promise.reject(answer.detail || r.statusText)))
      .then((html) => {
        const chosen = select.value; // a reload (the token typed since) keeps the choice made
        select.innerHTML = html;
        if (chosen && Array.from(select.options).some((option) => option.value === chosen)) select.value = chosen;
      })
      .catch((problem) => { choicesKey = ""; select.innerHTML = ""; setText("referee-message", String(problem)); });
  }
  const referee = document.getElementById("referee");
  if (referee) referee.addEventListener("toggle", () => { if (referee.open) loadChoices(); });
  const choiceBox = document.getElementById("correction-choice");
  if (choiceBox) choiceBox.addEventListener("focus", loadChoices);
  const filterBox = document.getElementById("correction-filter");
  let filterTimer = null;
  if (filterBox) filterBox.addEventListener("input", () => { clearTimeout(filterTimer); filterTimer = setTimeout(loadChoices, 250); });

  document.addEventListener("click", (event) => {
    const target = event.target;
    if (!(target instanceof HTMLElement)) return;
    if (target.dataset.accept) { document.getElementById("referee").open = true; write("/flags/" + target.dataset.accept + "/accept"); }
    if (target.dataset.correct) {
      document.getElementById("referee").open = true;
      document.getElementById("correction").dataset.flag = target.dataset.correct;
      loadChoices().then(() => document.getElementById("correction-choice").focus());
    }
    if (target.dataset.choose) { document.getElementById("referee").open = true; write("/flags/" + target.dataset.choose + "/choose", { reading: Number(target.dataset.reading) }); }
    if (target.dataset.withdraw) { document.getElementById("referee").open = true; write("/entries/" + target.dataset.withdraw + "/withdraw"); }
    if (target.id === "undo") write("/undo");
    const pictured = target.closest("#reveal-pictures [data-outcome]");
    if (pictured) {
      document.getElementById("reveal-choice").value = pictured.dataset.outcome;
      document.querySelectorAll("#reveal-pictures [data-outcome]").forEach((b) => b.setAttribute("aria-pressed", String(b === pictured)));
      setText("reveal-message", "chosen: " + pictured.textContent + " (press reveal to send it)");
    }
    if (target.id === "reveal") {
      const select = document.getElementById("reveal-choice");
      const actions = JSON.parse(select.dataset.outcomes || "[]");
      const action = actions[Number(select.value)];
      if (action) write("/reveals", { action: action }).then((ok) => setText("reveal-message", ok ? "revealed" : document.getElementById("referee-message").textContent));
    }
    if (target.id === "correct") {
      const box = document.getElementById("correction");
      const choice = document.getElementById("correction-choice");
      let action;
      // typed JSON (the advanced box) wins over the picker; else the chosen legal action
      const text = box.value.trim() || choice.value;
      if (!text) { setText("referee-message", "choose what really happened first"); return; }
      try { action = JSON.parse(text); } catch (e) { setText("referee-message", "the correction is not valid JSON"); return; }
      const flag = box.dataset.flag ? Number(box.dataset.flag) : null;
      const replaces = document.getElementById("correction-replaces");
      write("/corrections", { action: action, flag: flag, replace: Boolean(replaces && replaces.checked) }).then((ok) => { if (ok) { box.value = ""; delete box.dataset.flag; if (replaces) replaces.checked = false; } });
    }
    if (target.id === "show-legal") {
      const token = tokenInput ? tokenInput.value.trim() : "";
      fetch("/api/tables/" + encodeURIComponent(tableId) + "/legal-actions?limit=50",
        { headers: token ? { Authorization: "Bearer " + token } : {} }).then((r) => r.json()).then((a) => {
        setText("legal", a.actions.map((x) => JSON.stringify(x)).join("\n") + (a.total > a.actions.length ? "\n… " + a.total + " in all" : ""));
      });
    }
  });

  // the board entry (tap_move.js) reads the snapshot drawn last
  window.PackrefTable = { current: () => current };
  render(current);
  connect();
})();
