// A table's page: what feeds the table (its camera, its drone: GET /api/tables/ID/sources),
// asked again every few seconds, with a link to change it on the set-up page.
"use strict";
(function () {
  const box = document.getElementById("table-sources");
  if (!box) return;
  const table = box.dataset.table;
  function words(kind, bound) {
    if (!bound) return "no " + kind;
    return kind + " " + bound.source + (bound.error ? " (stopped: " + bound.error + ")" : bound.running ? "" : " (ended)");
  }
  function show() {
    fetch("/api/tables/" + encodeURIComponent(table) + "/sources").then((r) => r.ok ? r.json() : null).then((a) => {
      if (!a) return;
      box.textContent = "Fed by: " + words("camera", a.camera) + " · " + words("drone", a.drone) + " · ";
      const link = document.createElement("a");
      link.href = "/setup?table=" + encodeURIComponent(table) + "#at-table-section";
      link.id = "table-sources-change";
      link.textContent = "change";
      box.append(link);
    }).catch(() => { /* offline: the live dot says so */ });
  }
  show();
  setInterval(show, 5000);
})();
