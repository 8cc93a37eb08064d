// alfabeta's web page: plain JavaScript, no framework and nothing fetched from the network.
"use strict";

const $ = (selector) => document.querySelector(selector);
const el = (tag, attrs = {}, text = "") => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== "") node.textContent = text;
  return node;
};

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function showError(error) {
  const box = $("#error");
  box.textContent = error.message || String(error);
  box.hidden = false;
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => { box.hidden = true; }, 6000);
}

// ---- tabs -------------------------------------------------------------------------------------
function openTab(name) {
  document.querySelectorAll(".page").forEach((page) => { page.hidden = page.id !== name; });
  document.querySelectorAll("nav .tab").forEach((tab) => {
    tab.classList.toggle("active", tab.dataset.tab === name);
  });
  if (name === "watch") loadRuns();
  if (name === "tree") loadPresets();
}
document.querySelectorAll("nav .tab").forEach((tab) => {
  tab.addEventListener("click", () => openTab(tab.dataset.tab));
});

// ---- play -------------------------------------------------------------------------------------
let game = null;        // the session's last state
let source = null;      // its EventSource
let selected = null;    // the first clicked token
let pending = null;     // a move waiting for its promotion piece

async function loadCatalog() {
  const listing = await api("GET", "/api/catalog");
  for (const g of listing.games) $("#games").append(el("option", { value: g.name }, g.description));
  for (const e of listing.evaluators) $("#evaluators").append(el("option", { value: e.name }, e.description));
}

$("#new-game-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  try {
    const state = await api("POST", "/api/sessions", {
      game: $("#game").value, searcher: $("#searcher").value, evaluator: $("#evaluator").value,
      depth: $("#depth").value, time: $("#time").value, human: $("#human").value,
      start: $("#start").value,
    });
    $("#thinking tbody").replaceChildren();
    follow(state);
  } catch (error) { showError(error); }
});

function follow(state) {
  if (source) source.close();
  render(state);
  source = new EventSource(`/api/sessions/${state.id}/events`);
  source.onmessage = (message) => {
    const event = JSON.parse(message.data);
    if (event.type === "info" || event.type === "done") addThinking(event);
    if (event.type === "thinking") $("#thinking tbody").replaceChildren();
    if (event.type !== "info") render(event);
    if (event.type === "error") showError(new Error(event.message));
  };
}

function addThinking(info) {
  const row = el("tr", { class: info.type === "done" ? "done" : "info" });
  for (const value of [info.depth, info.score, info.nodes, info.nps, (info.pv || []).join(" ")]) {
    row.append(el("td", {}, String(value)));
  }
  $("#thinking tbody").append(row);
}

function render(state) {
  if (!state || !state.id) return;
  // a response and the event stream race: never draw an older state over a newer one, nor
  // redraw the same one (the stream opens with the state just drawn; a redraw would drop the
  // square the user has selected since)
  if (game && game.id === state.id && state.version <= game.version) return;
  game = state;
  selected = null;
  const board = $("#board");
  board.innerHTML = state.svg || "";
  board.querySelectorAll(".cell").forEach((cell) => {
    cell.addEventListener("click", () => clickToken(cell.dataset.token));
  });
  $("#text").textContent = state.svg ? "" : state.text;
  $("#fen").value = state.position;
  const legal = $("#legal");
  legal.replaceChildren();
  if (state.human_to_move) {
    for (const move of state.legal) {
      const button = el("button", { "data-move": move }, move);
      button.addEventListener("click", () => play(move));
      legal.append(button);
    }
  }
  const list = $("#movelist");
  list.replaceChildren(...state.notation.map((m) => el("li", {}, m)));
  let status = state.over ? `Game over: ${state.outcome} for the side to move`
    : state.thinking ? "The computer is thinking…"
    : state.human_to_move ? "Your move" : "The computer's move";
  if (state.error) status += ` — ${state.error}`;
  $("#status").textContent = status;
}

function clickToken(token) {
  if (!game || !game.human_to_move) return;
  const legal = game.legal;
  if (selected === null) {
    if (legal.includes(token)) return play(token);
    const starts = legal.filter((m) => game.join !== null && m.startsWith(token + game.join));
    if (starts.length === 0) return;
    selected = token;
    highlight(token, starts);
    return;
  }
  const candidate = selected + (game.join || "") + token;
  const options = legal.filter((m) => m === candidate || (game.promotion && m.startsWith(candidate) && m.length === candidate.length + 1));
  selected = null;
  clearHighlight();
  if (options.length === 1) return play(options[0]);
  if (options.length > 1) { pending = candidate; $("#promotion").hidden = false; return; }
  clickToken(token);  // another piece of one's own: start again from it
}

function highlight(token, moves) {
  clearHighlight();
  const targets = new Set(moves.map((m) => m.slice(token.length + (game.join || "").length).replace(/[qrbn]$/, "")));
  document.querySelectorAll("#board .cell").forEach((cell) => {
    if (cell.dataset.token === token) cell.classList.add("selected");
    if (targets.has(cell.dataset.token)) cell.classList.add("target");
  });
}

function clearHighlight() {
  document.querySelectorAll("#board .cell").forEach((cell) => cell.classList.remove("selected", "target"));
}

document.querySelectorAll("#promotion button").forEach((button) => {
  button.addEventListener("click", () => {
    $("#promotion").hidden = true;
    if (pending) play(pending + button.dataset.piece);
    pending = null;
  });
});

async function play(move) {
  try { render(await api("POST", `/api/sessions/${game.id}/move`, { move })); }
  catch (error) { showError(error); }
}

$("#undo").addEventListener("click", async () => {
  if (!game) return;
  try { render(await api("POST", `/api/sessions/${game.id}/undo`)); } catch (error) { showError(error); }
});
$("#stop").addEventListener("click", async () => {
  if (!game) return;
  try { render(await api("POST", `/api/sessions/${game.id}/stop`)); } catch (error) { showError(error); }
});
$("#set-position").addEventListener("click", async () => {
  if (!game) return;
  try { render(await api("POST", `/api/sessions/${game.id}/position`, { text: $("#fen").value })); }
  catch (error) { showError(error); }
});

// ---- watch ------------------------------------------------------------------------------------
let watched = null;
let replay = null;

async function loadRuns() {
  try {
    const runs = await api("GET", "/api/runs");
    const body = $("#runs tbody");
    body.replaceChildren();
    $("#watch-note").textContent = runs.length ? "" : "The database has no runs yet.";
    for (const run of runs) {
      const row = el("tr", { class: "clickable", "data-run": run.id });
      for (const v of [run.id, run.kind, run.game, run.players.join(", "), `${run.played}/${run.requested}`, run.status]) row.append(el("td", {}, String(v)));
      row.addEventListener("click", () => openRun(run.id));
      body.append(row);
    }
  } catch (error) { $("#watch-note").textContent = error.message; }
}

async function openRun(id) {
  watched = id;
  const run = await api("GET", `/api/runs/${id}`);
  $("#run-view").hidden = false;
  $("#run-title").textContent = `Run ${run.id}: ${run.kind} of ${run.game} (${run.played}/${run.requested}, ${run.status})`;
  const table = run.match || run.tuning;
  $("#run-summary").textContent = table ? table.summary.join("\n") : "";
  const standings = $("#standings");
  standings.replaceChildren();
  if (run.standings) {
    const head = el("tr");
    for (const h of ["rank", "name", "Elo", "±", "games", "points", ...run.standings.map((_, i) => String(i + 1))]) head.append(el("th", {}, h));
    standings.append(head);
    run.standings.forEach((s, i) => {
      const row = el("tr");
      for (const v of [i + 1, s.name, s.elo ?? "∞", s.error ?? "∞", s.games, s.points, ...s.against.map((a) => a ?? "—")]) row.append(el("td", {}, String(v)));
      standings.append(row);
    });
  }
  const games = $("#run-games tbody");
  games.replaceChildren();
  for (const g of run.games) {
    const row = el("tr", { class: "clickable", "data-game": g.index });
    for (const v of [g.index, g.players[0], g.players[1], g.result, g.termination, g.plies]) row.append(el("td", {}, String(v)));
    row.addEventListener("click", () => openGame(id, g.index));
    games.append(row);
  }
  if (run.status === "running") setTimeout(() => { if (watched === id && !$("#watch").hidden) openRun(id); }, 3000);
}

async function openGame(runId, index) {
  try {
    const found = await api("GET", `/api/runs/${runId}/games/${index}`);
    replay = { game: found, ply: 0 };
    $("#replay").hidden = false;
    $("#replay-title").textContent = `Game ${index}: ${found.players[0]} – ${found.players[1]}, ${found.result} (${found.termination})`;
    showPly();
  } catch (error) { showError(error); }
}

function showPly() {
  const { game: found, ply } = replay;
  const frame = found.plies[ply];
  $("#replay-board").innerHTML = frame.svg || "";
  $("#replay-text").textContent = frame.svg ? "" : frame.text;
  $("#replay-ply").textContent = `ply ${ply} of ${found.moves.length}${frame.last ? ": " + frame.last : ""}`;
}

const step = (to) => () => { if (replay) { replay.ply = Math.max(0, Math.min(replay.game.moves.length, to(replay.ply))); showPly(); } };
$("#replay-first").addEventListener("click", step(() => 0));
$("#replay-prev").addEventListener("click", step((p) => p - 1));
$("#replay-next").addEventListener("click", step((p) => p + 1));
$("#replay-last").addEventListener("click", step(() => Infinity));

// ---- search tree ------------------------------------------------------------------------------
async function loadPresets() {
  if ($("#preset").options.length) return;
  for (const name of await api("GET", "/api/presets")) $("#preset").append(el("option", { value: name }, name));
}

$("#compare").addEventListener("click", async () => {
  try {
    const own = $("#tree-json").value.trim();
    const tree = own ? JSON.parse(own) : $("#preset").value;
    const searchers = $("#tree-searchers").value.split("\n").map((s) => s.trim()).filter(Boolean);
    const found = await api("POST", "/api/tree", { tree, searchers });
    const results = $("#tree-results");
    results.replaceChildren();
    for (const s of found.searchers) {
      const figure = el("figure");
      figure.append(el("figcaption", {}, `${s.searcher}: value ${s.value}, move ${s.move}, ${s.nodes} nodes, ${s.leaves.length} leaf evaluations`));
      figure.insertAdjacentHTML("beforeend", drawTree(found.tree, s));
      results.append(figure);
    }
  } catch (error) { showError(error); }
});

function drawTree(tree, searched) {
  const order = {};
  searched.leaves.forEach((label, i) => { (order[label] = order[label] || []).push(i + 1); });
  const entered = new Set(searched.entered);
  const leaves = [];
  const walk = (node, depth) => { node.depth = depth; if (!node.children.length) leaves.push(node); node.children.forEach((c) => walk(c, depth + 1)); };
  walk(tree, 0);
  const maxDepth = Math.max(...leaves.map((l) => l.depth));
  const dx = 46, dy = 70, width = leaves.length * dx + 20, height = maxDepth * dy + 90;
  leaves.forEach((leaf, i) => { leaf.x = 10 + dx / 2 + i * dx; });
  const place = (node) => { if (node.children.length) { node.children.forEach(place); node.x = (node.children[0].x + node.children[node.children.length - 1].x) / 2; } node.y = 24 + node.depth * dy; };
  place(tree);
  const parts = [];
  const edges = (node) => node.children.forEach((c) => {
    const on = entered.has(c.label);
    parts.push(`<line x1="${node.x}" y1="${node.y}" x2="${c.x}" y2="${c.y}" stroke="${on ? "#222" : "#ccc"}" ${on ? "" : 'stroke-dasharray="4 3"'}/>`);
    edges(c);
  });
  edges(tree);
  const nodes = (node) => {
    const on = entered.has(node.label);
    const shape = node.depth % 2 === 0
      ? `<rect x="${node.x - 13}" y="${node.y - 11}" width="26" height="22"`
      : `<circle cx="${node.x}" cy="${node.y}" r="12"`;
    parts.push(`<g class="node ${on ? "searched" : "cut"}" data-label="${node.label}">${shape} fill="${on ? "#fff" : "#f3f3f3"}" stroke="${on ? "#222" : "#bbb"}"/>`
      + `<text x="${node.x}" y="${node.y + 4}" font-size="11" text-anchor="middle" fill="${on ? "#000" : "#aaa"}">${node.value}</text>`);
    if (order[node.label]) parts.push(`<text x="${node.x}" y="${node.y + 26}" font-size="10" text-anchor="middle" fill="#c22">${order[node.label].join(",")}</text>`);
    const w = searched.windows[node.label];
    if (w) parts.push(`<title>[${w[0]}, ${w[1]}] → ${w[2]}</title><text x="${node.x}" y="${node.y - 15}" font-size="8" text-anchor="middle" fill="#1f4fa8">[${fmt(w[0])},${fmt(w[1])}]→${w[2]}</text>`);
    parts.push("</g>");
    node.children.forEach(nodes);
  };
  nodes(tree);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${parts.join("")}</svg>`;
}
const fmt = (v) => (Math.abs(v) >= 1000000 ? (v > 0 ? "∞" : "-∞") : String(v));

// ---- evaluator --------------------------------------------------------------------------------
$("#explain-go").addEventListener("click", async () => {
  try {
    const found = await api("POST", "/api/explain", { game: $("#explain-game").value, position: $("#explain-position").value, evaluator: $("#explain-evaluator").value });
    $("#explain-board").innerHTML = found.svg || "";
    const appraisal = found.appraisal || {};
    $("#explain-score").textContent = `score ${found.evaluate}` + (appraisal.emotion ? ` — emotion ${appraisal.emotion}, goal ${appraisal.goal}` : "");
    const table = $("#explain-terms");
    table.replaceChildren();
    const terms = Object.entries(found.terms || {});
    const columns = [...new Set(terms.flatMap(([, t]) => Object.keys(t)))];
    const head = el("tr");
    for (const h of ["term", ...columns]) head.append(el("th", {}, h));
    table.append(head);
    for (const [name, t] of terms) {
      const row = el("tr");
      row.append(el("td", {}, name));
      for (const c of columns) row.append(el("td", {}, typeof t[c] === "number" ? t[c].toFixed(3) : String(t[c] ?? "")));
      table.append(row);
    }
    $("#explain-trajectory").innerHTML = found.trajectory ? drawTrajectory(found.trajectory) : "";
  } catch (error) { showError(error); }
});

function drawTrajectory(trajectory) {
  const width = 480, height = 240, left = 40, steps = trajectory.states.length - 1 || 1;
  const colors = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf"];
  const x = (i) => left + (width - left - 90) * i / steps;
  const y = (v) => height - 20 - (height - 40) * (v + 1) / 2;
  const parts = [`<line x1="${left}" y1="${y(0)}" x2="${width - 90}" y2="${y(0)}" stroke="#ccc"/>`,
    `<text x="4" y="${y(1) + 4}" font-size="10">+1</text><text x="4" y="${y(-1) + 4}" font-size="10">-1</text>`];
  trajectory.nodes.forEach((name, n) => {
    const points = trajectory.states.map((state, i) => `${x(i)},${y(state[n])}`).join(" ");
    parts.push(`<polyline points="${points}" fill="none" stroke="${colors[n % colors.length]}" stroke-width="2"/>`);
    parts.push(`<text x="${width - 85}" y="${18 + 14 * n}" font-size="11" fill="${colors[n % colors.length]}">${name}</text>`);
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" role="img" aria-label="FCM trajectory">${parts.join("")}</svg>`;
}

// ---- benchmarks -------------------------------------------------------------------------------
$("#bench-file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (!file) return;
  try {
    const found = await api("POST", "/api/bench", { text: await file.text() });
    $("#bench-chart").innerHTML = found.svg;
    const table = $("#bench-table");
    table.replaceChildren();
    const columns = ["searcher", "position", "depth", "nodes", "leaves", "seconds", "nodes_per_s", "value", "move"];
    const head = el("tr");
    for (const c of columns) head.append(el("th", {}, c));
    table.append(head);
    for (const r of found.records) {
      const row = el("tr");
      for (const c of columns) row.append(el("td", {}, typeof r[c] === "number" && !Number.isInteger(r[c]) ? r[c].toFixed(4) : String(r[c] ?? "")));
      table.append(row);
    }
  } catch (error) { showError(error); }
});

openTab("play");
loadCatalog().catch(showError);
