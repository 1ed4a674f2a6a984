// Win chances and hints (docs/advisor.md, "At the table"): the advice embedded in the page,
// then each "advice" message of the live channel (live.js passes every message on as a
// "packref:live" event). An answer is shown only for the position the page shows; while a
// newer one is studied the bar stays, marked as updating, and the hints go.
"use strict";
(function () {
  const box = document.getElementById("advice");
  if (!box) return;
  const root = document.querySelector("[data-table]");
  const tableId = root.dataset.table;
  const esc = (text) => String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
  const read = (id) => { const el = document.getElementById(id); return el ? JSON.parse(el.textContent) : null; };
  let game = (read("snapshot") || {}).game || null;
  let shown = read("advice-data");

  const percent = (chance) => Math.round(chance * 100);
  function sameGame(advice) {
    return advice && game && !game.over && advice.game === game.seq && advice.actions === game.actions;
  }

  function render() {
    const fresh = sameGame(shown);
    const chances = shown && shown.win_chances;
    const hiddenWhy = shown && !chances ? shown.chances_hidden : null;  // before the first move, or too uncertain
    box.hidden = !(game && !game.over && (chances || hiddenWhy));
    if (!chances) document.getElementById("win-chances").innerHTML = "";
    box.classList.toggle("updating", !fresh);
    box.setAttribute("aria-busy", fresh ? "false" : "true");
    if (chances) {
      document.getElementById("win-chances").innerHTML = chances.map((line) =>
        '<li><span class="who">' + esc(line.player) + '</span><span class="chance-bar" aria-hidden="true"><span style="width: ' +
        (line.chance * 100).toFixed(1) + '%"></span></span><span class="chance">' + percent(line.chance) + " %</span>" +
        (line.low === undefined ? "" : '<span class="chance-range">95 % sure: ' + percent(line.low) + "–" + percent(line.high) + " %</span>") + "</li>").join("");
    }
    const note = document.getElementById("advice-note");
    if (note) note.textContent = hiddenWhy ? "Not shown: " + hiddenWhy : !chances ? "" : fresh ? "the advisor's estimate from " + shown.playouts + (shown.playouts === 1 ? " game" : " games") + " played out" : "updating after the last move…";
    const hints = document.getElementById("hints");
    if (hints) {
      const list = fresh && shown.hints ? shown.hints : [];
      hints.hidden = list.length === 0;
      hints.innerHTML = list.map((hint) => "<li>" + esc(hint.words) +
        (hint.win_chance === null || hint.win_chance === undefined ? "" : ' <span class="muted">(' + percent(hint.win_chance) + " % to win)</span>") + "</li>").join("");
    }
    if (fresh) document.body.dataset.advice = shown.position;
  }

  document.addEventListener("packref:live", (event) => {
    const update = event.detail || {};
    if (update.type === "snapshot" && update.snapshot) {
      game = update.snapshot.game;
      const toggle = document.getElementById("hints-switch");
      if (toggle) toggle.checked = !!update.snapshot.hints;
      render();
    } else if (update.type === "advice" && (sameGame(update) || update.position === null)) {
      shown = update;
      render();
    }
  });

  // -- the organiser's hints switch (the organiser's token, as every write of this page)
  const toggle = document.getElementById("hints-switch");
  if (toggle) toggle.addEventListener("change", async () => {
    const tokenInput = document.getElementById("token");
    const token = (tokenInput && tokenInput.value.trim()) || window.PackrefToken.get();
    const message = document.getElementById("hints-message");
    const wanted = toggle.checked;
    if (!token) {
      toggle.checked = !wanted;
      message.textContent = "Enter the organiser's token (under Referee) to switch hints.";
      return;
    }
    const response = await fetch("/api/tables/" + encodeURIComponent(tableId) + "/hints", {
      method: "PUT", headers: { "Content-Type": "application/json", Authorization: "Bearer " + token },
      body: JSON.stringify({ on: wanted }),
    });
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) toggle.checked = !wanted;
    message.textContent = response.ok ? (answer.shown ? "Hints are on." : answer.on ? answer.refusal || "Hints are on but not shown." : "Hints are off.") : (answer.detail || response.statusText);
  });

  render();
})();
