// The room's screen (/room): the tiles kept live (the socket /ws/tables says when a table is
// added or moves; the page fetches /room/tiles again, at most every half second), and one
// tile featured in turn, every 10 seconds. The tournament projector's main slide is the same
// tiles, of its round's tables only (data-tables).
"use strict";
(function () {
  const box = document.getElementById("room-tiles");
  if (!box) return;
  const ROTATE_MS = 10000;
  let featured = 0, waiting = false, again = false;

  function feature() {
    const tiles = Array.from(box.querySelectorAll(".tile"));
    if (!tiles.length) return;
    featured %= tiles.length;
    tiles.forEach((tile, i) => tile.classList.toggle("featured", i === featured));
  }
  setInterval(() => { featured += 1; feature(); }, ROTATE_MS);

  function refresh() {
    if (waiting) { again = true; return; }
    waiting = true;
    setTimeout(() => {
      const shown = box.querySelector(".tile.featured");
      const keep = shown ? shown.dataset.table : null;  // the featured table stays featured
      const only = box.dataset.tables;  // a tournament round's tables (its projector's slide)
      fetch("/room/tiles" + (only !== undefined ? "?tables=" + encodeURIComponent(only) : "")).then((r) => r.text()).then((html) => {
        box.innerHTML = html;
        document.dispatchEvent(new CustomEvent("packref:room"));  // the tournament's slides
        const tiles = Array.from(box.querySelectorAll(".tile"));
        const index = tiles.findIndex((tile) => tile.dataset.table === keep);
        featured = index >= 0 ? index : featured;
        feature();
      }).finally(() => { waiting = false; if (again) { again = false; refresh(); } });
    }, 500);
  }

  let connections = 0;
  function connect() {
    const status = document.getElementById("live-status");
    const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws/tables");
    let first = true;
    ws.onopen = () => { if (status) status.classList.add("on"); if (connections++ > 0) refresh(); };
    ws.onmessage = () => { if (first) { first = false; return; } refresh(); };
    ws.onclose = () => { status && status.classList.remove("on"); setTimeout(connect, 2000); };
  }
  connect();
})();
