// The camera check page: the latest frame of the table's camera with its reading drawn on it,
// asked for a few times a second. Every camera answer is the organiser's (the frame shows the
// whole table), so each request sends the token; the picture is fetched as a blob (an <img>
// cannot send a header) and only when the frame changed.
"use strict";
(() => {
  const root = document.querySelector(".camera-view");
  if (!root) return;
  const base = `/api/tables/${encodeURIComponent(root.dataset.table)}/`;
  const width = Number(root.dataset.width) || 960;
  const POLL_MS = 300;
  const $ = (id) => document.getElementById(id);
  const picture = $("camera-picture"), overlay = $("camera-overlay"), statusLine = $("camera-status");
  let shown = null;  // "frame number/overlay" of the picture on the page
  let pictureUrl = null;
  let busy = false;

  window.PackrefToken.bind($("token"));
  const headers = () => {
    const token = window.PackrefToken.get();
    return token ? { Authorization: `Bearer ${token}` } : {};
  };
  async function ask(path, options = {}) {
    const answer = await fetch(base + path, { ...options, headers: { ...headers(), ...(options.headers || {}) } });
    if (!answer.ok) {
      let detail = `${answer.status}`;
      try { detail = (await answer.json()).detail || detail; } catch (e) { /* not JSON */ }
      const error = new Error(detail);
      error.status = answer.status;
      throw error;
    }
    return answer;
  }
  const say = (text, bad) => { statusLine.textContent = text; statusLine.classList.toggle("bad", !!bad); };
  const live = (on) => $("camera-live").classList.toggle("on", on);

  function showMats(reading) {
    const labels = {};
    for (const mat of reading.looked_for.mats) labels[mat.id] = mat.label;
    const list = $("camera-mats");
    list.replaceChildren();
    const mats = reading.frame === null ? [] : reading.mats;
    if (!mats.length) {
      const li = document.createElement("li");
      li.className = "muted";
      li.textContent = reading.looked_for.mats.length ? "no frame read yet" : "no mats looked for";
      list.append(li);
    }
    for (const mat of mats) {
      const li = document.createElement("li");
      li.dataset.mat = mat.id;
      const label = labels[mat.id] ? ` (${labels[mat.id]})` : "";
      if (mat.found) {
        const unknown = mat.cells.join("").split("?").length - 1;
        const tags = mat.tags.length ? `, tags ${mat.tags.map((t) => t.id).join(" ")}` : "";
        li.className = "found";
        li.textContent = `mat ${mat.id}${label}: found, ${unknown ? unknown + " cells ?" : "every cell read"}${tags}`;
      } else {
        li.className = "lost";
        li.textContent = `mat ${mat.id}${label}: not found`;
      }
      list.append(li);
    }
    const looked = reading.looked_for;
    $("camera-looked-for").textContent = looked.because === "game"
      ? `the mats of the game at the table (${looked.game})`
      : looked.because === "chosen" ? `no game at the table: the kit's mats of ${looked.game}`
        : "no game at the table and no mats chosen: the picture alone";
    $("camera-choose").hidden = looked.because === "game";
    const select = $("camera-game");
    // A game picked but not yet chosen stays picked: a poll must not put the old one back.
    if (document.activeElement !== select && !select.dataset.picked) {
      select.value = reading.chosen || "";
    }
  }

  async function showPicture(reading) {
    const wanted = `${reading.frame}/${overlay.checked ? 1 : 0}`;
    if (reading.frame === null || wanted === shown) return;
    const answer = await ask(`camera.png?overlay=${overlay.checked ? 1 : 0}&width=${width}`);
    const url = URL.createObjectURL(await answer.blob());
    picture.src = url;
    picture.hidden = false;
    picture.dataset.frame = answer.headers.get("X-Packref-Frame") || String(reading.frame);
    if (pictureUrl) URL.revokeObjectURL(pictureUrl);
    pictureUrl = url;
    shown = wanted;
  }

  async function poll() {
    if (busy) return;
    busy = true;
    try {
      const reading = await (await ask("camera")).json();
      say(reading.status);
      showMats(reading);
      await showPicture(reading);
      $("camera-frame").textContent = reading.frame === null ? "no frame yet"
        : `frame ${reading.frame}, ${reading.width} × ${reading.height}, read ${reading.age_s.toFixed(1)} s ago`;
      live(reading.frame !== null && reading.age_s < 5);
    } catch (error) {
      live(false);
      say(error.status === 401 ? "paste the organiser's token above to see the camera" : error.message, true);
    } finally {
      busy = false;
    }
  }

  $("camera-game").addEventListener("change", () => { $("camera-game").dataset.picked = "1"; });

  $("camera-choose-button").addEventListener("click", async () => {
    const game = $("camera-game").value || null;
    delete $("camera-game").dataset.picked;
    try {
      await ask("camera/mats", { method: "PUT", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ game }) });
      $("camera-message").textContent = game ? `looking for the kit's mats of ${game}` : "looking for no mats";
    } catch (error) {
      $("camera-message").textContent = error.message;
    }
  });

  for (const button of document.querySelectorAll("[data-download]")) {
    button.addEventListener("click", async () => {
      try {
        const answer = await ask(button.dataset.download);
        const link = document.createElement("a");
        link.href = URL.createObjectURL(await answer.blob());
        link.download = button.dataset.name;
        document.body.append(link);
        link.click();
        link.remove();
        setTimeout(() => URL.revokeObjectURL(link.href), 10000);
      } catch (error) {
        $("camera-message").textContent = error.message;
      }
    });
  }
  overlay.addEventListener("change", poll);
  poll();
  setInterval(poll, POLL_MS);
})();
