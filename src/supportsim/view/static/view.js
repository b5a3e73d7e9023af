// supportsim view: live pages and auto-applied filters. Loaded from /static (the page's
// Content-Security-Policy allows no inline script). Text from runs is never put in the
// page by this script: it only moves server-rendered, escaped nodes between documents.
(() => {
  "use strict";
  const body = document.body;

  // Filters apply as soon as a select changes (the form works without this, by its button).
  const filters = document.getElementById("unit-filters");
  if (filters) {
    for (const select of filters.querySelectorAll("select")) {
      select.addEventListener("change", () => filters.requestSubmit());
    }
  }

  // Live pages: poll the run folder's version; when it changes, fetch this same URL and
  // swap every [data-live] element for its new version (ticked boxes are kept).
  const poll = body.dataset.poll;
  if (!poll) return;
  let version = body.dataset.version;
  let busy = false;
  const swap = async () => {
    const response = await fetch(location.href, { headers: { Accept: "text/html" } });
    if (!response.ok) return;
    const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
    const ticked = new Set(Array.from(document.querySelectorAll("input[type=checkbox]:checked"), (b) => b.value));
    for (const old of document.querySelectorAll("[data-live][id]")) {
      const next = fresh.getElementById(old.id);
      if (next) old.replaceWith(document.importNode(next, true));
    }
    for (const box of document.querySelectorAll("input[type=checkbox]")) box.checked = ticked.has(box.value);
    version = fresh.body.dataset.version || version;
    body.dataset.version = version;
    body.dataset.refreshes = String(Number(body.dataset.refreshes || "0") + 1);
    const note = document.getElementById("live-note");
    if (note) { note.hidden = false; note.textContent = "updated " + new Date().toLocaleTimeString(); }
  };
  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      const response = await fetch(poll, { headers: { Accept: "application/json" } });
      if (response.ok) {
        const state = await response.json();
        if (state.version !== version) await swap();
      }
    } catch (e) {
      // the viewer stopped, or a request failed: try again at the next tick
    } finally {
      busy = false;
    }
  };
  setInterval(tick, 1000);
})();
