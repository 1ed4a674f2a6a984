// A player's phone page: Agree / Disagree post the player's word on the final scores with
// their own code (no token on this page); the answer says whether it was taken.
"use strict";
(function () {
  const box = document.getElementById("sign");
  const form = document.getElementById("sign-form");
  if (!box || !form) return;
  const message = document.getElementById("sign-message");
  const code = document.getElementById("sign-code");
  // the link carries the code after '#' (never sent to the station, so never in its logs)
  const given = new URLSearchParams(location.hash.slice(1)).get("code");
  if (given && !code.value) code.value = given;

  function say(text, kind) {
    message.textContent = text;
    message.className = "message" + (kind ? " " + kind : "");
  }

  async function sign(agree) {
    if (!code.value.trim()) { code.focus(); return say("Enter your code first.", "error"); }
    const url = "/api/tournaments/" + encodeURIComponent(box.dataset.tournament) + "/games/" + box.dataset.game + "/confirm";
    say("Saving…", "");
    try {
      const response = await fetch(url, {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ player: form.dataset.player, agree: agree, code: code.value.trim() }),
      });
      const answer = await response.json().catch(() => ({}));
      if (!response.ok) return say("Not saved (" + response.status + "): " + (typeof answer.detail === "string" ? answer.detail : response.statusText), "error");
      document.getElementById("sign-said").textContent = agree ? " (you agreed)" : " (you disagreed)";
      document.getElementById("sign-disputed").hidden = !(answer.result && answer.result.disputed);
      say(agree ? "Saved: you agree with these scores." : "Saved: you disagree. The organiser has been told.", "ok");
    } catch (error) {
      say("Not saved: the station did not answer (" + error.message + ").", "error");
    }
  }
  form.querySelectorAll("button[data-agree]").forEach((button) =>
    button.addEventListener("click", () => sign(Boolean(button.dataset.agree))));
})();
