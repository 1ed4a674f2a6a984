// The sign-in page: the token typed is checked against the station (GET /api/session) before it
// is kept for the session; then back to the page that asked (?next=).
"use strict";
(function () {
  const form = document.getElementById("sign-in-form");
  if (!form) return;
  const input = document.getElementById("sign-in-token");
  const error = document.getElementById("sign-in-error");
  const done = document.getElementById("signed-in");
  const next = document.querySelector(".sign-in").dataset.next || "/setup";

  function show() {
    const signed = window.PackrefToken.signedIn();
    form.hidden = signed;
    done.hidden = !signed;
    document.getElementById("sign-in-message").textContent = signed ? "You are signed in as the organiser." : "";
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const token = input.value.trim();
    error.textContent = "";
    if (!token) { error.textContent = "Type the organiser's token."; input.focus(); return; }
    let response;
    try {
      response = await fetch("/api/session", { headers: { Authorization: "Bearer " + token } });
    } catch (e) {
      error.textContent = "The station cannot be reached: is it running?";
      return;
    }
    if (!response.ok) {
      error.textContent = response.status === 401 ? "That is not the organiser's token: check it (a new one may have been issued)." :
        "The station answered " + response.status + ".";
      input.select();
      return;
    }
    window.PackrefToken.set(token);
    input.value = "";
    location.assign(next);
  });

  document.getElementById("sign-out-button").addEventListener("click", () => {
    window.PackrefToken.set("");
    show();
    input.focus();
  });
  show();
})();
