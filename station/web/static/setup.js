// The set-up page: each form sends what the API takes (POST /api/tables, /api/tables/ID/games,
// PUT /api/tables/ID/camera and /drone, POST /api/tournaments, /players, /players/NAME/drop)
// with the organiser's token kept by token.js, and shows the API's one-line answer next to the
// field it names ("$.name: ..." beside the name), or beside the button when it names none.
"use strict";
(function () {
  const root = document.querySelector(".setup[data-games]");
  if (!root) return;
  const T = window.PackrefToken;
  const games = Object.fromEntries(JSON.parse(root.dataset.games).map((g) => [g.name, g]));
  const $ = (id) => document.getElementById(id);
  const enc = encodeURIComponent;

  // -- talking to the API -------------------------------------------------------------
  async function api(method, path, body) {
    const options = { method, headers: T.headers(body !== undefined) };
    if (body !== undefined) options.body = JSON.stringify(body);
    let response;
    try { response = await fetch(path, options); } catch (e) {
      return { ok: false, status: 0, detail: "the station cannot be reached: is it running?" };
    }
    const answer = response.status === 204 ? {} : await response.json().catch(() => ({}));
    return { ok: response.ok, status: response.status, answer,
             detail: typeof answer.detail === "string" ? answer.detail : response.statusText };
  }

  // where a refusal goes: the field its JSON path names (longest prefix first), else the form's
  function showRefusal(result, places, formError) {
    const all = Object.values(places).concat([formError]);
    all.forEach((id) => { const e = $(id); if (e) e.textContent = ""; });
    if (result.status === 401) { T.explain($(formError), 401); return; }
    const path = (result.detail.match(/^(\$[^:\s]*):/) || [])[1];
    let target = formError;
    if (path) {
      const key = Object.keys(places).filter((p) => path === p || path.startsWith(p + ".") || path.startsWith(p + "["))
        .sort((a, b) => b.length - a.length)[0];
      if (key) target = places[key];
    } else if (places.players && /player/i.test(result.detail)) {
      target = places.players;
    }
    T.explain($(target), result.status, result.detail);
  }
  function clear(ids) { ids.forEach((id) => { const e = $(id); if (e) e.textContent = ""; }); }

  const names = (text) => text.split(/[\n,]/).map((s) => s.trim()).filter(Boolean);
  const deal = (prefix) => (document.querySelector('input[name="' + prefix + '-deal"]:checked') || {}).value || "table";
  function say(id, parts) {  // a status line of text and elements
    const box = $(id);
    box.textContent = "";
    parts.forEach((part) => box.append(part));
  }
  function link(href, text) { const a = document.createElement("a"); a.href = href; a.textContent = text; return a; }
  function button(id, text, onClick) {
    const b = document.createElement("button");
    b.type = "button"; b.id = id; b.className = "quiet"; b.textContent = text;
    b.addEventListener("click", onClick);
    return b;
  }
  function hintPlayers(select, hint) {
    const g = games[select.value];
    hint.textContent = g ? "one a line, in seat order: " + (g.min_players === g.max_players ? g.min_players :
      g.min_players + " to " + g.max_players) + " players" : "one a line, in seat order";
  }

  // -- what the station sees: cameras and serial ports -----------------------------------
  let devices = { cameras: [], serial_ports: [] };
  function fillDevices() {
    document.querySelectorAll("select.camera-choice").forEach((select) => {
      const first = select.options[0].outerHTML;
      select.innerHTML = first + devices.cameras.map((c) => '<option value="' + esc(c.source) + '">' +
        esc(c.name + (c.kind === "camera" ? " (" + c.path + ")" : "") + (c.table ? " — feeds " + c.table : "") +
        (c.owner ? " — owned by " + c.owner : "")) + "</option>").join("");
    });
    document.querySelectorAll("select.drone-choice").forEach((select) => {
      const first = select.options[0].outerHTML;
      select.innerHTML = first + devices.serial_ports.map((p) => '<option value="' + esc(p.port) + '">' +
        esc(p.name + (p.name !== p.port ? " (" + p.port + ")" : "") + (p.table ? " — feeds " + p.table : "")) + "</option>").join("");
    });
  }
  function esc(text) {
    return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  }
  async function loadDevices() {
    if (!T.signedIn()) return;
    const result = await api("GET", "/api/devices");
    if (result.ok) { devices = result.answer; fillDevices(); }
  }
  const chosen = (selectId, typedId) => $(typedId).value.trim() || $(selectId).value;

  // -- tables ---------------------------------------------------------------------------
  let tables = [];
  async function loadTables(select) {
    const result = await api("GET", "/api/tables");
    if (!result.ok) return;
    tables = result.answer;
    const box = $("at-table");
    const keep = select || box.value;
    box.innerHTML = tables.length ? tables.map((t) => '<option value="' + esc(t.id) + '">' + esc(t.name) + "</option>").join("")
      : '<option value="">(no table yet)</option>';
    if (keep && tables.some((t) => t.id === keep)) box.value = keep;
    showTable();
  }
  function sourceWords(kind, bound) {
    if (!bound) return "no " + kind;
    return kind + " " + bound.source + (bound.by === "serve" ? " (given when the station started)" : "") +
      (bound.error ? " — stopped: " + bound.error : bound.running ? "" : " — ended");
  }
  async function showTable() {
    const id = $("at-table").value;
    const table = tables.find((t) => t.id === id);
    $("remove-table").disabled = !table || table.game !== null;
    if (!table) { $("at-table-sources").textContent = ""; return; }
    const result = await api("GET", "/api/tables/" + enc(id) + "/sources");
    const game = table.game ? (games[table.game.name] || { title: table.game.name }).title + ": " + table.game.players.join(", ") : "no game yet";
    say("at-table-sources", [link("/tables/" + enc(id), table.name), " · " + game +
      (result.ok ? " · " + sourceWords("camera", result.answer.camera) + " · " + sourceWords("drone", result.answer.drone) : "")]);
    $("at-table-sources").dataset.camera = result.ok && result.answer.camera ? result.answer.camera.source : "";
    $("at-table-sources").dataset.drone = result.ok && result.answer.drone ? result.answer.drone.source : "";
  }

  async function bind(tableId, kind, source, errorId) {
    const body = kind === "camera" ? { source } : { port: source };
    const result = await api("PUT", "/api/tables/" + enc(tableId) + "/" + kind, body);
    if (!result.ok) showRefusal(result, {}, errorId);
    return result.ok;
  }

  $("table-game").addEventListener("change", () => hintPlayers($("table-game"), $("table-players-hint")));
  $("game-game").addEventListener("change", () => hintPlayers($("game-game"), $("game-players-hint")));
  hintPlayers($("game-game"), $("game-players-hint"));

  $("new-table").addEventListener("submit", async (event) => {
    event.preventDefault();
    const places = { "$.name": "table-name-error", "$.id": "table-name-error", "$.game.players": "table-players-error",
      players: "table-players-error", "$.game": "table-game-error" };
    clear(["table-camera-error", "table-drone-error"]);
    $("table-done").textContent = "";
    const body = { name: $("table-name").value.trim() };
    const game = $("table-game").value;
    const players = names($("table-players").value);
    if (!game && players.length) {
      showRefusal({ status: 400, detail: "$.game: choose the game these players play (or leave the players empty)" }, places, "table-error");
      return;
    }
    if (game) body.game = { game, players, deal: deal("table") };
    const result = await api("POST", "/api/tables", body);
    if (!result.ok) { showRefusal(result, places, "table-error"); return; }
    clear(Object.values(places).concat(["table-error"]));
    const id = result.answer.table.id;
    const camera = chosen("table-camera", "table-camera-path");
    const drone = chosen("table-drone", "table-drone-port");
    const cameraOk = !camera || await bind(id, "camera", camera, "table-camera-error");
    const droneOk = !drone || await bind(id, "drone", drone, "table-drone-error");
    const parts = ["Table ", link("/tables/" + enc(id), result.answer.table.name), " is ready" +
      (game ? " (" + games[game].title + ", dealt " + (deal("table") === "table" ? "by hand" : "by the station") + ")" : "") +
      (camera && cameraOk ? ", read by camera " + camera : "") + (drone && droneOk ? ", drone on " + drone : "") +
      ((camera && !cameraOk) || (drone && !droneOk) ? "; see the note above about its camera or drone" : "") + ". "];
    if (!game) parts.push(button("table-undo", "Remove this table", async () => {
      const removed = await api("DELETE", "/api/tables/" + enc(id));
      if (removed.ok) { say("table-done", ["Table " + result.answer.table.name + " is removed."]); loadTables(); }
      else T.explain($("table-done"), removed.status, removed.detail);
    }));
    else parts.push("Wrong game or players? Start a new game at it under “At a table”.");
    say("table-done", parts);
    $("new-table").reset();
    hintPlayers($("table-game"), $("table-players-hint"));
    await loadTables(id);
    loadDevices();
  });

  $("at-table").addEventListener("change", showTable);

  $("new-game").addEventListener("submit", async (event) => {
    event.preventDefault();
    const id = $("at-table").value;
    const places = { "$.game": "game-game-error", "$.players": "game-players-error", players: "game-players-error" };
    if (!id) { showRefusal({ status: 400, detail: "make a table first (New table, above)" }, places, "game-error"); return; }
    const result = await api("POST", "/api/tables/" + enc(id) + "/games",
      { game: $("game-game").value, players: names($("game-players").value), deal: deal("game") });
    if (!result.ok) { showRefusal(result, places, "game-error"); return; }
    clear(Object.values(places).concat(["game-error"]));
    say("at-table-done", ["A new game of " + games[$("game-game").value].title + " started at ",
      link("/tables/" + enc(id), result.answer.table.name), "."]);
    loadTables(id);
  });

  function bindForm(kind, choice, typed) {
    $("bind-" + kind).addEventListener("submit", async (event) => {
      event.preventDefault();
      const id = $("at-table").value;
      const source = chosen(choice, typed);
      const errorId = "bind-" + kind + "-error";
      clear([errorId]);
      if (!id) { $(errorId).textContent = "make a table first (New table, above)"; return; }
      if (!source) { $(errorId).textContent = kind === "camera" ? "choose a camera or type a replay's path" : "choose a serial port or type one"; return; }
      if (await bind(id, kind, source, errorId)) {
        say("at-table-done", ["The " + kind + " " + source + " now feeds this table."]);
        $(typed).value = "";
        showTable();
        loadDevices();
      }
    });
    $("unbind-" + kind + "-button").addEventListener("click", async () => {
      const id = $("at-table").value;
      const errorId = "bind-" + kind + "-error";
      clear([errorId]);
      if (!id) return;
      const result = await api("DELETE", "/api/tables/" + enc(id) + "/" + kind);
      if (!result.ok) { showRefusal(result, {}, errorId); return; }
      say("at-table-done", ["The table's " + kind + " is stopped."]);
      showTable();
      loadDevices();
    });
  }
  bindForm("camera", "bind-camera-choice", "bind-camera-path");
  bindForm("drone", "bind-drone-choice", "bind-drone-port");

  $("remove-table").addEventListener("click", async () => {
    const id = $("at-table").value;
    clear(["remove-table-error"]);
    if (!id) return;
    const result = await api("DELETE", "/api/tables/" + enc(id));
    if (!result.ok) { showRefusal(result, {}, "remove-table-error"); return; }
    say("at-table-done", ["The table is removed."]);
    loadTables();
  });

  // -- tournaments ----------------------------------------------------------------------
  const tournamentGame = $("tournament-game");
  if (tournamentGame) tournamentGame.addEventListener("change", () => {
    const g = games[tournamentGame.value];
    $("tournament-tie-breakers").placeholder = g ? g.tie_breakers.join(", ") : "";
  });

  async function loadTournaments(select) {
    const result = await api("GET", "/api/tournaments");
    if (!result.ok) return;
    const box = $("players-tournament");
    const keep = select || box.value;
    box.innerHTML = result.answer.length ? result.answer.map((t) => '<option value="' + esc(t.id) + '">' + esc(t.name) + "</option>").join("")
      : '<option value="">(no tournament yet)</option>';
    if (keep && result.answer.some((t) => t.id === keep)) box.value = keep;
    showPlayers();
  }

  async function showPlayers() {
    const id = $("players-tournament").value;
    const list = $("player-list");
    list.innerHTML = "";
    if (!id) return;
    const result = await api("GET", "/api/tournaments/" + enc(id));
    if (!result.ok) return;
    const dropped = result.answer.dropped || {};  // each dropped player: the last round played
    result.answer.players.forEach((name) => {
      const item = document.createElement("li");
      item.dataset.player = name;
      const out = Object.prototype.hasOwnProperty.call(dropped, name);
      item.append(name + (out ? " (dropped)" : ""));
      if (!out) {
        const drop = button("", "Drop " + name, () => dropPlayer(id, name));
        drop.removeAttribute("id");
        drop.classList.add("player-drop");
        item.append(" ", drop);
      }
      list.append(item);
    });
  }

  async function dropPlayer(id, name) {
    clear(["player-error"]);
    const result = await api("POST", "/api/tournaments/" + enc(id) + "/players/" + enc(name) + "/drop");
    if (!result.ok) { showRefusal(result, {}, "player-error"); return; }
    say("players-done", [name + " is dropped from later rounds (their results so far stay)."]);
    showPlayers();
  }

  $("new-tournament").addEventListener("submit", async (event) => {
    event.preventDefault();
    const places = { "$.name": "tournament-name-error", "$.id": "tournament-name-error", "$.players": "tournament-players-error",
      players: "tournament-players-error", "$.tie_breakers": "tournament-tie-breakers-error", "$.game": "tournament-game-error",
      "$.rounds": "tournament-rounds-error" };
    const body = { name: $("tournament-name").value.trim(), players: names($("tournament-players").value) };
    const breakers = names($("tournament-tie-breakers").value);
    if (breakers.length) body.tie_breakers = breakers;
    if (tournamentGame && tournamentGame.value) body.game = tournamentGame.value;
    const rounds = $("tournament-rounds");
    if (rounds && rounds.value.trim()) body.rounds = Number(rounds.value);
    const result = await api("POST", "/api/tournaments", body);
    if (!result.ok) {
      if (!/^\$/.test(result.detail) && /tie.?breaker/i.test(result.detail)) result.detail = "$.tie_breakers: " + result.detail;
      showRefusal(result, places, "tournament-error");
      return;
    }
    clear(Object.values(places).concat(["tournament-error"]));
    say("tournament-done", ["Tournament ", link("/tournaments/" + enc(result.answer.id), result.answer.name),
      " is ready with " + result.answer.players.length + " players (tie-breakers: " + result.answer.tie_breakers.join(", ") + ")."]);
    $("new-tournament").reset();
    loadTournaments(result.answer.id);
  });

  $("players-tournament").addEventListener("change", showPlayers);

  $("add-player").addEventListener("submit", async (event) => {
    event.preventDefault();
    const id = $("players-tournament").value;
    const places = { "$.name": "player-name-error" };
    if (!id) { showRefusal({ status: 400, detail: "make a tournament first (New tournament, above)" }, places, "player-error"); return; }
    const name = $("player-name").value.trim();
    const result = await api("POST", "/api/tournaments/" + enc(id) + "/players", { name });
    if (!result.ok) {
      if (!/^\$/.test(result.detail)) result.detail = "$.name: " + result.detail;  // a name taken, or empty
      showRefusal(result, places, "player-error");
      return;
    }
    clear(["player-name-error", "player-error"]);
    $("player-name").value = "";
    say("players-done", [name + " is added. ", button("player-undo", "Drop " + name + " again", () => dropPlayer(id, name))]);
    showPlayers();
  });

  loadTables(new URLSearchParams(location.search).get("table") || "");  // ?table=ID: that one
  loadTournaments();
  loadDevices();
})();
