// The table page's scoreboard (templates/_scoreboard.html): the totals in digits read from 2 m,
// whose turn it is, the last ruling in one line, an open flag as a band. It is what a phone
// shows first (style.css: at most 600 px wide); a button switches to the full view and back,
// and the choice is kept for this tab. live.js passes each live message on ("packref:live").
"use strict";
(function () {
  const root = document.querySelector(".table-view[data-mode]");
  const board = document.getElementById("scoreboard");
  if (!root || !board) return;
  const esc = window.PackrefDraw.escape;
  const KEY = "packref-table-mode";
  let shownSeq = JSON.parse(document.getElementById("snapshot").textContent).seq;

  // the newest ruling in words: a move, a flag, a correction, an undo; not the sightings
  function lastRuling(recent) {
    const event = (recent || []).find((e) => e.text && e.kind !== "observation");
    return event ? event.text : "No move yet";
  }
  function flagWords(flags, recent) {
    if (!flags.length) return "";
    const flag = flags[flags.length - 1];
    const event = (recent || []).find((e) => e.seq === flag.seq && e.text);
    return "Under review: " + (event ? event.text : flag.reason) + (flags.length > 1 ? " (and " + (flags.length - 1) + " more)" : "");
  }
  function turnWords(game) {
    if (!game) return "No game yet";
    if (game.over) return "Game over";
    return game.players[game.current_player] + " to play";
  }
  function playerLine(game, score, seat) {
    const acting = game.current_player === seat && !game.over;
    const winner = game.winners.includes(score.player);
    return '<li class="sb-player' + (acting ? " sb-acting" : "") + (winner ? " sb-winner" : "") + '"><span class="sb-name">' + esc(score.player) +
      (acting ? ' <span class="sb-tag">to play</span>' : "") + (winner ? ' <span class="sb-tag">winner</span>' : "") +
      '</span><span class="sb-total" data-player="' + esc(score.player) + '">' + esc(score.total) + "</span></li>";
  }

  function render(snapshot) {
    const game = snapshot.game;
    const band = document.getElementById("sb-flag");
    band.textContent = flagWords(snapshot.flags, snapshot.recent);
    band.hidden = snapshot.flags.length === 0;
    document.getElementById("sb-turn").textContent = turnWords(game);
    document.getElementById("sb-players").innerHTML = game ? game.scores.map((s, i) => playerLine(game, s, i)).join("") : "";
    const ruling = document.getElementById("sb-ruling");
    ruling.textContent = lastRuling(snapshot.recent);
    ruling.title = ruling.textContent;  // the whole of it, where one line cuts it short
  }

  // auto: the scoreboard on a phone, the full view wider (style.css decides, so a page drawn
  // before any script already shows the right one); a tap on a switch chooses for this tab
  function setMode(mode) {
    root.dataset.mode = mode;
    try { sessionStorage.setItem(KEY, mode); } catch (e) { /* private mode */ }
  }
  try { const kept = sessionStorage.getItem(KEY); if (kept === "full" || kept === "scoreboard") root.dataset.mode = kept; } catch (e) { /* private mode */ }
  document.addEventListener("click", (event) => {
    const target = event.target instanceof HTMLElement ? event.target.closest(".mode-switch") : null;
    if (!target) return;
    setMode(target.dataset.mode);
    const other = document.getElementById(target.dataset.mode === "full" ? "to-scoreboard" : "to-full-view");
    if (other) other.focus();  // the keyboard stays on the switch, now the other one
  });

  document.addEventListener("packref:live", (event) => {
    const update = event.detail || {};
    if (update.type !== "snapshot" || !update.snapshot || update.seq < shownSeq) return;
    shownSeq = update.seq;
    render(update.snapshot);
  });
})();
