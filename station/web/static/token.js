// The organiser's token: one for every page (tables, tournaments, catalogue), kept in this
// browser only (localStorage) and sent only in the Authorization header of a write.
"use strict";
window.PackrefToken = {
  KEY: "packref-token",
  get() { try { return localStorage.getItem(this.KEY) || ""; } catch (e) { return ""; } },
  set(value) {
    try { if (value) localStorage.setItem(this.KEY, value); else localStorage.removeItem(this.KEY); } catch (e) { /* private mode */ }
  },
  // fill ``input`` from the stored token and keep the store up to date as it is typed
  bind(input) {
    if (!input) return;
    input.value = this.get();
    input.addEventListener("input", () => this.set(input.value.trim()));
  },
};
