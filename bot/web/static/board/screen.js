// The room's screen (bot/web/screen.py): draws the panel the state names, ticks its
// clocks from the server's times, and follows the pushed versions. Nothing to click:
// a lost connection comes back by itself (the mark in the corner says so meanwhile).
//
// A panel is a function `draw(main, state)` in PANELS, named as the state's `panel`;
// a new kind of activity adds its own with `addPanel` (and its data in screen.py).
// Clocks are elements with `data-until` (a countdown to that time), or `data-since`
// with `data-extra` (time since then, plus the extra milliseconds: Henyo's running
// time with its penalties); `data-limit` beside `data-since` counts down the rest.

import { follow, initialState, refresher } from "./common.js";

const main = document.getElementById("screen");
let state = initialState;
let offset = 0;  // the server's clock minus this one's, in ms

/** An element with a class and its text (text, never markup). */
export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) { node.className = className; }
  if (text !== undefined && text !== null) { node.textContent = String(text); }
  return node;
}

/** A table of rows (arrays of strings); columns after the second align right. */
export function table(rows) {
  const node = el("table");
  const body = el("tbody");
  for (const row of rows) {
    const tr = el("tr");
    row.forEach((cell, i) => tr.append(el("td", i >= 2 ? "num" : "", cell)));
    body.append(tr);
  }
  node.append(body);
  return node;
}

function section(heading, ...children) {
  const col = el("section", "col");
  if (heading) { col.append(el("h2", "", heading)); }
  col.append(...children.filter(Boolean));
  return col;
}

/** "2:05" (a countdown), never below zero. */
export function minutes(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** "1:23.4" or "9.5 s": tenths, as a Henyo stopwatch reads. */
export function tenths(ms) {
  const t = Math.max(0, Math.floor(ms / 100));
  const m = Math.floor(t / 600);
  const s = Math.floor((t % 600) / 10);
  return m ? `${m}:${String(s).padStart(2, "0")}.${t % 10}` : `${s}.${t % 10} s`;
}

function henyo(main, s) {
  main.append(el("h1", "", s.heading));
  if (s.tie_break) { main.append(el("p", "big soft", s.tie_break)); }
  main.append(el("p", "big", s.pair));
  const row = el("div", "row");
  const time = el("p", "huge", tenths(s.penalties * s.penalty_ms));
  time.id = "henyo-time";
  const left = el("p", "huge", minutes(s.limit_ms));
  left.id = "henyo-left";
  if (s.started_at) {
    for (const node of [time, left]) {
      node.dataset.since = s.started_at;
      node.dataset.limit = s.limit_ms;
    }
    time.dataset.extra = s.penalties * s.penalty_ms;
    time.dataset.show = "time";
    left.dataset.show = "left";
  }
  row.append(
    section(s.time_label, time, el("p", "big bad", s.penalty_text)),
    section(s.left_label, left, s.started_at ? null : el("p", "big soft", s.ready_text)),
  );
  main.append(row);
  if (s.word) { main.append(el("p", "big", s.word)); }
}

function grid(faces) {
  const node = el("div", "grid");
  const n = faces.length || 1;
  node.style.setProperty("--n", n);
  node.style.gridTemplateColumns = `repeat(${n}, 1fr)`;
  node.setAttribute("role", "img");
  node.setAttribute("aria-label", faces.map((r) => r.join(" ")).join(" / "));
  for (const row of faces) {
    for (const face of row) { node.append(el("div", face.length > 1 ? "cell two" : "cell", face)); }
  }
  return node;
}

function boggle(main, s) {
  main.append(el("h1", "", s.heading));
  const row = el("div", "row");
  const clock = el("div", "clock col");
  const left = el("p", "huge", s.ends_at ? "" : "–:––");
  left.id = "boggle-left";
  const note = el("p", "big", s.status === "open" ? s.playing_text : s.closed_text);
  note.id = "boggle-note";
  if (s.ends_at && s.status === "open") {
    left.dataset.until = s.ends_at;
    left.dataset.after = s.closed_text;
  } else {
    left.textContent = minutes(0);
  }
  clock.append(el("h2", "", s.left_label), left, note);
  row.append(grid(s.grid), clock);
  main.append(row);
}

function henyoResult(main, s) {
  main.append(el("h1", "", s.heading));
  if (s.tie_break) { main.append(el("p", "big soft", s.tie_break)); }
  main.append(el("p", "big", s.pair));
  main.append(el("p", s.status === "guessed" ? "big good" : "big bad", s.outcome));
  main.append(el("p", "", s.penalty_text));
  if (s.word) { main.append(el("p", "big", s.word)); }
  if (s.standings) { main.append(section(s.standings.heading, table(s.standings.rows))); }
}

function boggleResult(main, s) {
  main.append(el("h1", "", s.heading));
  const row = el("div", "row");
  row.append(section(s.results_label, s.nobody ? el("p", "", s.nobody) : table(s.rows)));
  if (s.missed.length) {
    const words = el("div", "words");
    for (const w of s.missed) { words.append(el("span", "", w)); }
    row.append(section(s.missed_label, words));
  }
  main.append(row);
}

function session(main, s) {
  const top = el("div", "row");
  const title = el("h1", "", s.heading);
  top.append(title);
  if (s.deadline) {
    const left = el("p", "big", "");
    left.id = "session-left";
    left.dataset.until = s.deadline;
    top.append(el("p", "big soft", s.deadline_label), left);
  }
  main.append(top);
  const row = el("div", "row");
  const boards = el("div", "boards col");
  for (const b of s.boards) {
    const card = el("section", "board");
    card.append(el("h2", "", b.heading));
    const seats = el("ul");
    for (const seat of b.seats) { seats.append(el("li", "", seat)); }
    card.append(seats);
    if (b.turn) {
      const turn = el("p", "turn", b.turn);
      const clock = el("span", "", "");
      if (b.turn_due) { clock.dataset.until = b.turn_due; }
      turn.append(" ", clock);
      card.append(turn);
    } else if (b.over) {
      card.append(el("p", "soft", b.over));
    }
    boards.append(card);
  }
  row.append(boards);
  if (s.ranking.length) { row.append(section(s.ranking_label, table(s.ranking))); }
  main.append(row);
}

function tournament(main, s) {
  main.append(el("h1", "", s.heading));
  main.append(el("p", "big soft", s.round));
  const row = el("div", "row");
  row.append(section(s.pairings_label, table(s.pairings)));
  row.append(section(s.standings_label, table(s.standings)));
  main.append(row);
}

function gamesEvent(main, s) {
  main.append(el("h1", "", s.heading));
  const row = el("div", "row");
  for (const t of s.tables) { row.append(section(t.heading, table(t.rows))); }
  main.append(row);
}

function henyoEvent(main, s) {
  main.append(el("h1", "", s.heading));
  main.append(section(s.standings.heading, table(s.standings.rows)));
}

function idle(main, s) {
  main.append(el("h1", "", s.heading));
  main.append(el("p", "big soft", s.nothing));
  const row = el("div", "row");
  if (s.leaderboard.length) { row.append(section(s.leaderboard_label, table(s.leaderboard))); }
  if (s.upcoming.length) {
    const list = el("ul");
    for (const line of s.upcoming) { list.append(el("li", "", line)); }
    row.append(section(s.upcoming_label, list));
  }
  main.append(row);
  main.append(el("p", "soft", s.priority));
}

const PANELS = {
  henyo, boggle, henyo_result: henyoResult, boggle_result: boggleResult,
  session, tournament, event: gamesEvent, henyo_event: henyoEvent, idle,
};

/** Another kind of activity's panel (named as its state's `panel`). */
export function addPanel(name, draw) { PANELS[name] = draw; }

function serverNow() { return Date.now() + offset; }

function tick() {
  const now = serverNow();
  for (const node of main.querySelectorAll("[data-until]")) {
    const left = Date.parse(node.dataset.until) - now;
    node.textContent = minutes(left);
    if (left <= 0 && node.dataset.after) {
      const note = document.getElementById("boggle-note");
      if (note) { note.textContent = node.dataset.after; }
    }
  }
  for (const node of main.querySelectorAll("[data-since]")) {
    const elapsed = Math.min(now - Date.parse(node.dataset.since), Number(node.dataset.limit));
    node.textContent = node.dataset.show === "left"
      ? minutes(Number(node.dataset.limit) - elapsed)
      : tenths(elapsed + Number(node.dataset.extra || 0));
  }
}

function show(next) {
  state = next;
  offset = Date.parse(next.now) - Date.now();
  document.title = next.title;
  const draw = PANELS[next.panel] || PANELS.idle;
  main.replaceChildren();
  draw(main, next);
  main.dataset.panel = next.panel;
  main.dataset.version = String(next.version);
  tick();
}

const refresh = refresher(() => state, show, () => true);

/** The pushed versions; a stream the server closed (a restart behind a proxy) is
 *  opened again after a pause, and the state asked for then. */
function watch() {
  const source = follow(() => refresh());
  source.addEventListener("error", () => {
    if (source.readyState === EventSource.CLOSED) {
      setTimeout(() => { watch(); refresh(true); }, 5000);
    }
  });
}

show(initialState);
setInterval(tick, 100);
watch();
