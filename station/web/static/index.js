// The front page: its table cards kept live. The socket /ws/tables says when a table is added
// or moves; the page then fetches the cards again (/table-cards, the same markup the page was
// served with), at most every half second, and says a changed score politely.
"use strict";
(function () {
  const box = document.getElementById("table-cards");
  if (!box) return;
  let waiting = false, again = false;

  // each card's score line, by table id: what a screen reader is told when it changes
  function scoreLines(root) {
    return Object.fromEntries(Array.from(root.querySelectorAll(".card[data-table]"), (card) =>
      [card.dataset.table, (card.querySelector(".card-title") || card).textContent.trim() + ": " +
        ((card.querySelector(".card-scores") || {}).textContent || "").trim()]));
  }

  function refresh() {
    if (waiting) { again = true; return; }
    waiting = true;
    setTimeout(() => {
      fetch("/table-cards").then((r) => r.text()).then((html) => {
        const before = scoreLines(box);
        box.innerHTML = html;
        const after = scoreLines(box);
        const news = Object.keys(after).filter((id) => before[id] !== undefined && before[id] !== after[id]).map((id) => after[id]);
        if (news.length) document.getElementById("table-news").textContent = news.join(". ") + ".";
      }).finally(() => {
        waiting = false;
        if (again) { again = false; refresh(); }
      });
    }, 500);
  }

  let connections = 0;
  function connect() {
    const status = document.getElementById("live-status");
    const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws/tables");
    let first = true;
    ws.onopen = () => {
      if (status) status.classList.add("on");
      if (connections++ > 0) refresh();  // back after an outage: what moved meanwhile
    };
    ws.onmessage = () => { if (first) { first = false; return; } refresh(); };  // the first says "live"
    ws.onclose = () => { status && status.classList.remove("on"); setTimeout(connect, 2000); };
  }
  connect();
})();
