(() => {
  "use strict";
  // Sortable tables: a cell's data-sort (number or text) decides; empty values sort last.
  // One listener on the document, so a table put in later (the viewer's live refresh)
  // sorts too.
  document.addEventListener("click", (event) => {
    const th = event.target.closest("table.sortable > thead th");
    if (!th) return;
    const table = th.closest("table");
    const heads = Array.from(table.tHead.rows[0].cells);
    const col = heads.indexOf(th);
    const asc = th.dataset.dir !== "asc";
    heads.forEach((h) => delete h.dataset.dir);
    th.dataset.dir = asc ? "asc" : "desc";
    const key = (row) => {
      const cell = row.cells[col];
      const raw = cell.dataset.sort !== undefined ? cell.dataset.sort : cell.textContent.trim();
      if (raw === "") return null;
      const n = Number(raw);
      return Number.isNaN(n) ? raw.toLowerCase() : n;
    };
    const body = table.tBodies[0];
    const rows = Array.from(body.rows);
    rows.sort((a, b) => {
      const x = key(a), y = key(b);
      if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
      const c = x < y ? -1 : x > y ? 1 : 0;
      return asc ? c : -c;
    });
    for (const r of rows) body.appendChild(r);
  });

  // Scenario grid filter.
  const filter = document.getElementById("grid-filter");
  const failing = document.getElementById("grid-failing");
  const applyFilter = () => {
    const q = filter.value.trim().toLowerCase();
    for (const row of document.querySelectorAll("#grid tbody tr")) {
      const text = row.cells[0].textContent + " " + row.cells[1].textContent;
      const show = text.toLowerCase().includes(q) && (!failing.checked || row.dataset.failing === "yes");
      row.hidden = !show;
    }
  };
  if (filter) { filter.addEventListener("input", applyFilter); failing.addEventListener("change", applyFilter); }

  // Conversation drill-down: built with createElement/textContent only, never innerHTML,
  // so model and scenario text is always shown as text.
  const dataNode = document.getElementById("transcripts");
  if (!dataNode) return;
  const records = JSON.parse(dataNode.textContent);
  const dialog = document.getElementById("conversation");
  const el = (tag, cls, text) => {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  };
  const fmtMs = (v) => (v === null || v === undefined ? null : (v >= 100 ? Math.round(v).toLocaleString("en-US") : v.toFixed(1)) + " ms");
  const pct = (v) => (v === null || v === undefined ? "–" : (v * 100).toFixed(0) + "%");
  const pretty = (args) => {
    try { return JSON.stringify(JSON.parse(args), null, 2); } catch (e) { return String(args); }
  };
  const timing = (m) => {
    const parts = [];
    if (m.response_ms !== null) parts.push("response " + fmtMs(m.response_ms));
    if (m.llm_ms !== null) parts.push("llm " + fmtMs(m.llm_ms));
    if (m.tool_ms !== null) parts.push("tool " + fmtMs(m.tool_ms));
    if (m.ttft_ms !== null) parts.push("ttft " + fmtMs(m.ttft_ms));
    if (m.input_tokens !== null || m.output_tokens !== null) parts.push("tokens " + (m.input_tokens ?? "?") + " / " + (m.output_tokens ?? "?"));
    return parts.join(" · ");
  };
  const message = (m, findings) => {
    const box = el("div", "msg " + m.role);
    box.appendChild(el("span", "timing", timing(m)));
    const who = el("div", "who", m.role === "tool" ? "tool result · " + (m.name || "") : m.role);
    who.appendChild(el("span", "badge", "turn " + m.turn));
    if (m.fault) who.appendChild(el("span", "badge fault", "injected fault: " + m.fault));
    if (m.is_error) who.appendChild(el("span", "badge err", "error"));
    for (const f of findings || []) who.appendChild(el("span", "badge fault", "customer: " + f.kind + (f.critical ? " (critical)" : "")));
    box.appendChild(who);
    if (m.reasoning) box.appendChild(el("div", "content sub", "reasoning: " + m.reasoning));
    if (m.content) box.appendChild(el("div", "content", m.content));
    for (const call of m.tool_calls || []) {
      const pre = el("pre", "mono", "→ " + call.name + "(" + pretty(call.arguments) + ")");
      box.appendChild(pre);
    }
    return box;
  };
  const open = (unitId) => {
    const r = records[unitId];
    if (!r) return;
    document.getElementById("conv-title").textContent = r.scenario_id + " · " + r.agent + " · trial " + r.trial;
    document.getElementById("conv-sub").textContent =
      r.status + " · ended by " + r.termination + (r.end_reason ? " (" + r.end_reason + ")" : "") +
      (r.status === "completed" ? " · strict " + (r.strict ? "pass" : "fail") + " · partial " + pct(r.partial) : "") +
      (r.customer_hindered ? " · customer-hindered (the Customer's error, shown apart)" : "") +
      " · " + r.domain + " / " + r.category +
      (r.cost_usd !== null ? " · $" + r.cost_usd.toFixed(4) : " · cost unknown");
    const body = document.getElementById("conv-body");
    body.replaceChildren();
    if (r.error) { body.appendChild(el("h4", null, "error")); body.appendChild(el("pre", "mono", r.error)); }
    if ((r.simulator_faults || []).length) body.appendChild(el("p", "ko", "simulator faults: " + r.simulator_faults.join("; ")));
    body.appendChild(el("h4", null, "checks"));
    const list = el("ul", "checks");
    if (!r.checks.length) list.appendChild(el("li", "sub", "not scored"));
    for (const c of r.checks) {
      const li = el("li");
      li.appendChild(el("span", c.passed ? "ok" : "ko", c.passed ? "✓ " : "✗ "));
      li.appendChild(el("span", "mono", c.id + " (" + c.kind + (c.weight !== 1 ? ", weight " + c.weight : "") + ")"));
      li.appendChild(el("span", "reason", " — " + c.reason));
      list.appendChild(li);
    }
    body.appendChild(list);
    const review = r.customer_review;
    const at = {};
    if (review && review.findings.length) {
      body.appendChild(el("h4", null, "customer review"));
      const found = el("ul", "checks customer-findings");
      for (const f of review.findings) {
        (at[f.message_index] = at[f.message_index] || []).push(f);
        const li = el("li");
        li.appendChild(el("span", f.critical ? "ko" : "sub", f.critical ? "✗ " : "· "));
        li.appendChild(el("span", "mono", f.kind + " (message " + f.message_index + ", " + f.source + (f.critical ? ", critical" : "") + ")"));
        li.appendChild(el("span", "reason", " — " + f.detail));
        found.appendChild(li);
      }
      body.appendChild(found);
    }
    body.appendChild(el("h4", null, "transcript"));
    r.messages.forEach((m, i) => body.appendChild(message(m, at[i])));
    if (!dialog.open) dialog.showModal();
    dialog.scrollTop = 0;
  };
  document.addEventListener("click", (event) => {
    const button = event.target.closest("button.trial");
    if (button) open(button.dataset.unit);
  });
  document.getElementById("conv-close").addEventListener("click", () => dialog.close());
  dialog.addEventListener("click", (event) => { if (event.target === dialog) dialog.close(); });
})();
