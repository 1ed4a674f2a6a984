// The organiser's "allow hints" switch of a tournament (PUT /api/tournaments/ID/hints), with
// the token of this browser (the page's token box keeps it).
"use strict";
(function () {
  const box = document.getElementById("allow-hints");
  if (!box) return;
  const tournament = JSON.parse(document.getElementById("tournament").textContent);
  const message = document.getElementById("allow-hints-message");
  box.addEventListener("change", async () => {
    const input = document.getElementById("organiser-token");
    const token = (input && input.value.trim()) || window.PackrefToken.get();
    const wanted = box.checked;
    if (!token) {
      box.checked = !wanted;
      message.textContent = "Enter the organiser token first.";
      return;
    }
    const response = await fetch("/api/tournaments/" + encodeURIComponent(tournament.id) + "/hints", {
      method: "PUT", headers: { "Content-Type": "application/json", Authorization: "Bearer " + token },
      body: JSON.stringify({ on: wanted }),
    });
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) box.checked = !wanted;
    message.textContent = response.ok ? (answer.allow_hints ? "Hints are allowed at this tournament's tables." :
      "Hints are not allowed at this tournament's tables.") : (answer.detail || response.statusText);
  });
})();
