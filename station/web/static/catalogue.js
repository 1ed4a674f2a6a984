// The catalogue page: one piece at a time; each answer is sent to the station, which checks
// it against the engine's limits and answers with the one-line error when it is refused.
// The organiser's token is the one stored for every page (token.js).
(() => {
  const root = document.getElementById("catalogue");
  if (!root) return;
  const game = root.dataset.game;
  const tokenInput = document.getElementById("organiser-token");
  const message = document.getElementById("message");
  const pieces = Array.from(document.querySelectorAll("form.piece"));
  let current = 0;

  const say = (text, kind) => { message.textContent = text; message.className = "message " + (kind || ""); };
  window.PackrefToken.bind(tokenInput);

  async function send(method, url, body) {
    const token = tokenInput.value.trim();
    if (!token) { tokenInput.focus(); throw new Error("Enter the organiser's token first."); }
    const answer = await fetch(url, { method, body: JSON.stringify(body),
      headers: { "Content-Type": "application/json", Authorization: "Bearer " + token } });
    const data = await answer.json();
    if (!answer.ok) throw new Error(data.detail || answer.statusText);
    return data;
  }

  function show(index) {
    current = Math.max(0, Math.min(index, pieces.length - 1));
    pieces.forEach((form, i) => { form.hidden = i !== current; });
    const position = document.getElementById("position");
    if (position) position.textContent = ` ${current + 1} of ${pieces.length} `;
  }

  function verdict(view) {
    document.getElementById("open-count").textContent = view.open;
    const text = view.playable ? "The engine can play this copy." : "Not playable yet: " + view.reason;
    document.getElementById("verdict").firstChild.textContent = text + " ";
  }

  pieces.forEach((form) => {
    const where = { list: form.dataset.list, index: Number(form.dataset.index) };
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        let view = null;
        for (const input of form.querySelectorAll("input:not([name=table])")) {
          view = await send("POST", `/api/catalogues/${game}/answers`,
                            { ...where, field: input.name, answer: input.value });
          input.classList.remove("open");
        }
        if (view) verdict(view);
        say("Saved.", "ok");
        show(current + 1);
      } catch (error) { say(error.message, "error"); }
    });
    const weigh = form.querySelector("button.weigh");
    if (weigh) weigh.addEventListener("click", async () => {
      try {
        const table = form.querySelector("input[name=table]").value.trim();
        const view = await send("POST", `/api/catalogues/${game}/presents/${where.index}/weigh`, { table });
        form.querySelector("input[name=mass_g]").value = view.pieces.find(
          (p) => p.list === "presents" && p.index === where.index).entry.mass_g;
        verdict(view);
        say("Weighed on the drone.", "ok");
      } catch (error) { say(error.message, "error"); }
    });
  });

  const upload = document.getElementById("upload");
  upload.addEventListener("change", async () => {
    try {
      const text = await upload.files[0].text();
      await send("PUT", `/api/catalogues/${game}`, JSON.parse(text));
      window.location.reload();
    } catch (error) { say(error.message, "error"); }
  });
  const previous = document.getElementById("previous");
  if (previous) {
    previous.addEventListener("click", () => show(current - 1));
    document.getElementById("next").addEventListener("click", () => show(current + 1));
    show(0);
  }
})();
