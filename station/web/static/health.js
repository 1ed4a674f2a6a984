// The health page's details (each check's technical line, the data folder) are the
// organiser's: asked for with the token this browser keeps, and shown collapsed.
"use strict";
(async () => {
  const token = window.PackrefToken ? window.PackrefToken.get() : "";
  if (!token) return;
  let report;
  try {
    const answer = await fetch("/api/health", { headers: { Authorization: `Bearer ${token}` } });
    if (!answer.ok) return;  // a stale token: the page stays as anyone sees it
    report = await answer.json();
  } catch (error) {
    return;
  }
  // a path breaks after a slash on a phone (a <wbr> after each), never inside a name
  function breakable(element, text) {
    element.textContent = "";
    String(text).split("/").forEach((part, i, parts) => {
      element.append(part + (i < parts.length - 1 ? "/" : ""));
      if (i < parts.length - 1) element.append(document.createElement("wbr"));
    });
  }
  for (const check of report.checks || []) {
    const item = document.querySelector(`[data-check="${check.name}"]`);
    const details = item && item.querySelector(".health-detail");
    if (!details) continue;
    breakable(details.querySelector("code"), check.detail);
    details.hidden = false;
  }
  const data = document.getElementById("health-data");
  breakable(data.querySelector("code"), report.data);
  data.hidden = false;
  document.getElementById("health-organiser").hidden = true;
})();
