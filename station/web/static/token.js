// The organiser's sign-in: the token, typed once at /sign-in (or in a page's token field), kept
// for this browser session only (sessionStorage: gone when the tab is closed) and sent only in
// the Authorization header of a write. The header's "Sign in" link says whether it is kept.
"use strict";
window.PackrefToken = {
  KEY: "packref-token",
  get() { try { return sessionStorage.getItem(this.KEY) || ""; } catch (e) { return ""; } },
  set(value) {
    try { if (value) sessionStorage.setItem(this.KEY, value); else sessionStorage.removeItem(this.KEY); } catch (e) { /* private mode */ }
    this.showState();
  },
  signedIn() { return Boolean(this.get()); },
  // the headers of an organiser's request (JSON body); none without a token
  headers(json) {
    const headers = json ? { "Content-Type": "application/json" } : {};
    const token = this.get();
    if (token) headers.Authorization = "Bearer " + token;
    return headers;
  },
  // the sign-in page, coming back here afterwards
  signInUrl() { return "/sign-in?next=" + encodeURIComponent(location.pathname + location.search); },
  // put a refusal in ``element``: a 401 becomes a sign-in link, anything else the API's line
  explain(element, status, detail) {
    if (!element) return;
    element.textContent = "";
    if (status === 401) {
      element.append(this.signedIn() ? "That token is not the organiser's (a new one was issued?): " : "Only the organiser can do this: ");
      const link = document.createElement("a");
      link.href = this.signInUrl();
      link.className = "sign-in-prompt";
      link.textContent = "sign in";
      element.append(link);
      return;
    }
    element.textContent = detail || ("the station answered " + status);
  },
  // fill ``input`` from the kept token and keep it as it is typed
  bind(input) {
    if (!input) return;
    input.value = this.get();
    input.addEventListener("input", () => this.set(input.value.trim()));
  },
  // the header's link, and each ``.needs-sign-in`` note beside a button that needs it
  showState() {
    const link = document.getElementById("sign-in-link");
    const signed = this.signedIn();
    if (link) {
      link.textContent = signed ? "Signed in ✓" : "Sign in";
      link.href = signed ? "/sign-in" : this.signInUrl();
    }
    document.querySelectorAll(".needs-sign-in").forEach((note) => { note.hidden = signed; });
  },
};
try { localStorage.removeItem("packref-token"); } catch (e) { /* an earlier version kept it there */ }
document.addEventListener("DOMContentLoaded", () => window.PackrefToken.showState());
