// A member's own Scrabble board (bot/web/board_scrabble.py). The server decides
// everything: what tiles put down would score (its engine's preview), whether a
// play, an exchange or a challenge stands; a change is sent with the version it
// was made on, and the state is asked for again after every change, ours or pushed.
// Here: drawing the board and the rack, putting tiles down by tap, drag or keyboard.
// Every word shown comes from the page (the template's data- attributes) or the state.
// A puzzle's page (bot/web/board_puzzle.py) is drawn by this module too: the same
// board and rack, an Answer button that plays, Show solution; no seats, bag or clock.

import { act, follow, initialState, notice, refresher } from "./common.js";

const SIZE = 15;
const COLUMNS = "ABCDEFGHIJKLMNO";
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const PREMIUM = { T: "tw", D: "dw", t: "tl", d: "dl" };
const root = document.getElementById("scrabble");
const words = root.dataset;
const boardEl = document.getElementById("board");
const rackEl = document.getElementById("rack");
const previewEl = document.getElementById("preview");
const blankDialog = document.getElementById("blank-dialog");
const exchangeDialog = document.getElementById("exchange-dialog");
const resignDialog = document.getElementById("resign-dialog");
const lang = document.documentElement.lang || "en";

let state = initialState;
let received = performance.now();
let rack = [];              // the rack as shown: [{id, tile}], tile a letter or "?"
const placed = new Map();   // square index -> {id, letter, blank}: put down, not played yet
let order = [];             // the placed squares in the order they were put down
let selected = null;        // the rack tile's id chosen to put down
let focused = 7 * SIZE + 7; // the square with the keyboard's focus (roving tabindex)
let across = true;          // where typing moves next
let busy = false;           // a change is on its way: no second one meanwhile
let missed = false;         // a version pushed meanwhile: asked for after it
let drag = null;            // a tile being dragged
let clickAfterDrag = 0;     // the click a drag's release makes is not a tap
let previewTimer = null;
let previewAsked = 0;       // answers to older previews are dropped
const squares = [];

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (all, key) => (key in values ? values[key] : all));
}

function points(count) { return state.points[String(count)] || String(count); }

function name(index) { return COLUMNS[index % SIZE] + String(Math.floor(index / SIZE) + 1); }

function cell(index) {
  const ch = state.board[Math.floor(index / SIZE)][index % SIZE];
  return ch === "." ? null : ch;
}

function premium(index) {
  return PREMIUM[state.premiums[Math.floor(index / SIZE)][index % SIZE]] || null;
}

function value(tile) { return state.values[tile] || 0; }

function rackTile(id) { return rack.find((t) => t.id === id) || null; }

function used(id) { for (const p of placed.values()) { if (p.id === id) { return true; } } return false; }

// ------------------------------------------------------------------ drawing

function tileFace(letter, blank, small) {
  const face = document.createElement("span");
  face.className = "tile" + (blank ? " blank" : "");
  face.setAttribute("aria-hidden", "true");
  const main = document.createElement("span");
  main.className = "letter";
  main.textContent = letter === "?" ? "" : letter.toUpperCase();
  face.append(main);
  if (!blank && letter !== "?" && small !== false) {
    const sub = document.createElement("span");
    sub.className = "value";
    sub.textContent = String(value(letter.toUpperCase()));
    face.append(sub);
  }
  return face;
}

function build() {
  for (let index = 0; index < SIZE * SIZE; index++) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "sq";
    button.dataset.index = String(index);
    button.tabIndex = -1;
    squares.push(button);
    boardEl.append(button);
  }
  boardEl.addEventListener("click", onBoardClick);
  boardEl.addEventListener("keydown", onBoardKey);
  for (const el of [boardEl, rackEl]) {
    el.addEventListener("pointerdown", onPointerDown);
    el.addEventListener("pointermove", onPointerMove);
    el.addEventListener("pointerup", onPointerUp);
    el.addEventListener("pointercancel", endDrag);
  }
  rackEl.addEventListener("click", onRackClick);
  const letters = document.getElementById("blank-letters");
  for (const letter of LETTERS) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.letter = letter;
    button.textContent = letter;
    letters.append(button);
  }
}

function drawBoard() {
  const last = new Set(state.last || []);
  const hadFocus = boardEl.contains(document.activeElement);
  squares.forEach((button, index) => {
    const tile = cell(index);
    const mine = placed.get(index);
    const kind = premium(index);
    button.className = "sq" + (kind ? " " + kind : "") + (index === 112 ? " centre" : "");
    button.replaceChildren();
    const parts = [name(index)];
    if (tile) {
      const blank = tile === tile.toLowerCase();
      button.classList.add("held");
      if (last.has(name(index))) { button.classList.add("last"); }
      button.append(tileFace(tile, blank));
      parts.push(blank ? fill(words.blankAs, { letter: tile.toUpperCase() }) : tile);
      if (last.has(name(index))) { parts.push(words.last); }
    } else if (mine) {
      button.classList.add("placed");
      button.append(tileFace(mine.letter, mine.blank));
      parts.push(mine.blank ? fill(words.blankAs, { letter: mine.letter }) : mine.letter, words.placed);
    } else {
      if (kind) {
        parts.push(words["premium" + kind[0].toUpperCase() + kind.slice(1)]);
        const label = document.createElement("span");
        label.className = "prem";
        label.setAttribute("aria-hidden", "true");
        label.textContent = index === 112 ? "★" : words["short" + kind[0].toUpperCase() + kind.slice(1)];
        button.append(label);
      }
      if (index === 112) { parts.push(words.centre); }
      parts.push(words.empty);
    }
    if (index === focused) {
      button.classList.add("cursor", across ? "across" : "down");
      if (!tile && !mine && state.can.play) { parts.push(across ? words.cursorAcross : words.cursorDown); }
    }
    button.setAttribute("aria-label", parts.join(", "));
    button.tabIndex = index === focused ? 0 : -1;
  });
  if (hadFocus) { squares[focused].focus(); }
}

function drawRack() {
  const buttons = rack.filter((t) => !used(t.id)).map((t) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "rack-tile";
    button.dataset.id = String(t.id);
    const letter = t.tile === "?" ? words.blank : t.tile;
    let label = fill(words.rackTile, { letter, points: points(value(t.tile)) });
    if (t.id === selected) { label += ", " + words.selected; button.classList.add("selected"); }
    button.setAttribute("aria-label", label);
    button.setAttribute("aria-pressed", String(t.id === selected));
    button.append(tileFace(t.tile, t.tile === "?"));
    return button;
  });
  rackEl.replaceChildren(...buttons);
}

function drawPanel() {
  // A game over says how it ended; its page is then read-only (no action buttons).
  document.getElementById("status").textContent = state.result_text || state.status_text;
  for (const row of document.querySelectorAll(".scrabble-actions")) { row.hidden = ended(state); }
  document.getElementById("board-help").hidden = ended(state);
  document.getElementById("last").textContent = state.last_text;
  // A puzzle's page (board_puzzle_scrabble.html) has no seats, bag or clock: it has the
  // member's answers so far, and the solution once the attempt is over.
  const list = document.getElementById("scores");
  if (list) {
    list.replaceChildren(...state.seats.map((seat) => {
      const li = document.createElement("li");
      li.classList.toggle("to-play", seat.to_play);
      const who = document.createElement("span");
      who.className = "who";
      who.textContent = seat.name + (seat.you ? " " + words.you : "") + (seat.resigned ? " " + words.resigned : "");
      const score = document.createElement("span");
      score.className = "score";
      score.textContent = String(seat.score);
      li.append(who, score);
      if (seat.to_play) { li.setAttribute("aria-current", "true"); li.title = words.toPlay; }
      return li;
    }));
  }
  setText("bag", () => fill(words.bag, { count: state.bag }));
  setText("unseen", () => fill(words.unseen, { count: state.unseen.length, tiles: groupTiles(state.unseen) }));
  setText("deadline", () => (state.deadline
    ? fill(words.deadline, { when: new Date(state.deadline).toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" }) })
    : ""));
  const answers = document.getElementById("answers");
  if (answers) {
    answers.replaceChildren(...(state.answers || []).map((line) => {
      const li = document.createElement("li");
      li.textContent = line;
      return li;
    }));
    document.getElementById("answers-h").hidden = !(state.answers || []).length;
  }
  setText("solution-text", () => state.solution || "");
  const can = state.can;
  for (const [id, may] of [["challenge", can.challenge], ["accept", can.accept]]) {
    const button = document.getElementById(id);
    if (button) { button.hidden = !may; }
  }
  for (const [id, may] of [["exchange", can.exchange], ["pass", can.pass], ["resign", can.resign], ["solution", can.solution]]) {
    const button = document.getElementById(id);
    if (button) { button.disabled = !may; }
  }
  drawButtons();
  tick();
}

/** Sets the text of the element `id`, when the page has it (`text` is asked only then). */
function setText(id, text) {
  const element = document.getElementById(id);
  if (element) { element.textContent = text(); }
}

function drawButtons() {
  document.getElementById("play").disabled = !state.can.play || placed.size === 0;
  document.getElementById("recall").disabled = placed.size === 0;
  const direction = document.getElementById("direction");
  direction.textContent = across ? words.across : words.down;
  direction.setAttribute("aria-pressed", String(!across));
}

function groupTiles(tiles) {
  const groups = [];
  for (const tile of tiles) {
    const shown = tile === "?" ? "?" : tile;
    if (groups.length && groups[groups.length - 1][0] === shown) { groups[groups.length - 1] += shown; }
    else { groups.push(shown); }
  }
  return groups.join(" ");
}

let dayFormat = null;
function days(count) {
  if (!dayFormat) {
    try {
      dayFormat = new Intl.NumberFormat(lang, { style: "unit", unit: "day", unitDisplay: "long" });
    } catch (error) {
      dayFormat = new Intl.NumberFormat("en", { style: "unit", unit: "day", unitDisplay: "long" });
    }
  }
  return dayFormat.format(count);
}

function face(ms) {
  const seconds = Math.floor(Math.max(0, ms) / 1000);
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const two = (n) => String(n).padStart(2, "0");
  const time = `${h}:${two(m)}:${two(s)}`;
  return d > 0 ? `${days(d)} ${time}` : time;
}

function tick() {
  const clock = document.getElementById("clock");
  if (!clock) { return; }
  if (!state.turn_due || state.status !== "active") { clock.textContent = ""; return; }
  const ms = Date.parse(state.turn_due) - Date.parse(state.as_of) - (performance.now() - received);
  clock.textContent = fill(words.clock, { time: face(ms) });
  clock.classList.toggle("low", ms < 20000);
}

function drawAll() {
  drawBoard();
  drawRack();
  drawPanel();
}

// ------------------------------------------------------------------ putting tiles down

function tilesSent() {
  return order.map((index) => {
    const p = placed.get(index);
    return { row: Math.floor(index / SIZE), col: index % SIZE, letter: p.letter, blank: p.blank };
  });
}

async function putDown(id, index) {
  const t = rackTile(id);
  if (!t || used(id) || cell(index) || placed.has(index)) { return false; }
  let letter = t.tile;
  const blank = letter === "?";
  if (blank) {
    letter = await askLetter();
    if (!letter) { return false; }
  }
  placed.set(index, { id, letter, blank });
  order.push(index);
  if (selected === id) { selected = null; }
  changed();
  return true;
}

function takeBack(index) {
  if (!placed.has(index)) { return; }
  placed.delete(index);
  order = order.filter((i) => i !== index);
  changed();
}

function recallAll() {
  placed.clear();
  order = [];
  selected = null;
  changed();
}

function changed() {
  if (order.length >= 2) {
    const [a, b] = [order[0], order[1]];
    across = Math.floor(a / SIZE) === Math.floor(b / SIZE);
  }
  drawBoard();
  drawRack();
  drawButtons();
  askPreview();
}

function askPreview() {
  clearTimeout(previewTimer);
  previewAsked += 1;
  if (!placed.size) { previewEl.textContent = ""; previewEl.classList.remove("bad"); return; }
  const asked = previewAsked;
  previewTimer = setTimeout(async () => {
    try {
      const answer = await act("preview", { tiles: tilesSent() });
      if (asked !== previewAsked) { return; }
      previewEl.textContent = answer.legal ? answer.text : answer.message;
      previewEl.classList.toggle("bad", !answer.legal);
      if (answer.version !== state.version) { refresh(); }
    } catch (error) {
      if (asked === previewAsked) { previewEl.textContent = error.message; previewEl.classList.add("bad"); }
    }
  }, 250);
}

function askLetter() {
  return new Promise((resolve) => {
    const chosen = (event) => {
      const button = event.target.closest("button[data-letter]");
      if (!button) { return; }
      done(button.dataset.letter || null);
    };
    const typed = (event) => {
      const key = event.key.length === 1 ? event.key.toUpperCase() : "";
      if (LETTERS.includes(key) && key) { event.preventDefault(); done(key); }
    };
    const cancelled = () => done(null);
    function done(letter) {
      blankDialog.removeEventListener("click", chosen);
      blankDialog.removeEventListener("keydown", typed);
      blankDialog.removeEventListener("cancel", cancelled);
      if (blankDialog.open) { blankDialog.close(); }
      resolve(letter);
    }
    blankDialog.addEventListener("click", chosen);
    blankDialog.addEventListener("keydown", typed);
    blankDialog.addEventListener("cancel", cancelled);
    blankDialog.showModal();
  });
}

// ------------------------------------------------------------------ changes

/** Sends a change; shows the state it leaves (in its answer), or the refusal and the board as it is. */
async function change(action, body) {
  if (busy) { return; }
  busy = true;
  notice("");
  document.getElementById("said").textContent = "";
  try {
    const answer = await act(action, { ...body, version: state.version });
    document.getElementById("said").textContent = answer.message || "";
    placed.clear();
    order = [];
    selected = null;
    previewEl.textContent = "";
    if (answer.state) { show(answer.state); } else { await refresh(true); }
  } catch (error) {
    notice(error.message);
    await refresh(true);
  } finally {
    busy = false;
    if (missed) { missed = false; refresh(); }
  }
}

function play() {
  if (!placed.size || !state.can.play) { return; }
  change("play", { tiles: tilesSent() });
}

function openExchange() {
  const box = document.getElementById("exchange-rack");
  const buttons = rack.map((t) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "rack-tile";
    button.dataset.tile = t.tile;
    const letter = t.tile === "?" ? words.blank : t.tile;
    button.setAttribute("aria-label", fill(words.rackTile, { letter, points: points(value(t.tile)) }));
    button.setAttribute("aria-pressed", "false");
    button.append(tileFace(t.tile, t.tile === "?"));
    button.addEventListener("click", () => {
      const on = button.getAttribute("aria-pressed") !== "true";
      button.setAttribute("aria-pressed", String(on));
      button.classList.toggle("selected", on);
    });
    return button;
  });
  box.replaceChildren(...buttons);
  exchangeDialog.showModal();
}

function confirmExchange() {
  const chosen = [...document.querySelectorAll('#exchange-rack button[aria-pressed="true"]')]
    .map((b) => b.dataset.tile).join("");
  exchangeDialog.close();
  if (chosen) { recallAll(); change("exchange", { tiles: chosen }); }
}

// ------------------------------------------------------------------ mouse, touch, keyboard

function moveFocus(index) {
  if (index < 0 || index >= SIZE * SIZE) { return; }
  squares[focused].tabIndex = -1;
  focused = index;
  drawBoard();
  squares[focused].focus();
}

async function onBoardClick(event) {
  const button = event.target.closest(".sq");
  if (!button || busy) { return; }
  if (event.detail > 0 && performance.now() < clickAfterDrag) { return; }
  const index = Number(button.dataset.index);
  if (placed.has(index)) { takeBack(index); focused = index; drawBoard(); return; }
  if (selected !== null && !cell(index)) {
    focused = index;
    await putDown(selected, index);
    return;
  }
  // A tap on the square with the cursor turns the typing direction, as Woogles does.
  if (index === focused && !cell(index)) { across = !across; }
  focused = index;
  drawBoard();
  drawButtons();
}

/** The next square from `index` typing runs to, over the tiles already on the board. */
function nextSquare(index, step) {
  let next = index;
  for (;;) {
    const row = Math.floor(next / SIZE);
    const col = next % SIZE;
    if (step === 1 ? col === SIZE - 1 : row === SIZE - 1) { return null; }
    next += step;
    if (!cell(next) && !placed.has(next)) { return next; }
  }
}

async function typeLetter(letter, forceBlank) {
  let index = focused;
  if (cell(index) || placed.has(index)) {
    const next = nextSquare(index, across ? 1 : SIZE);
    if (next === null) { return; }
    index = next;
  }
  const free = rack.filter((t) => !used(t.id));
  let tile = forceBlank ? null : free.find((t) => t.tile === letter);
  let blank = false;
  if (!tile) { tile = free.find((t) => t.tile === "?"); blank = Boolean(tile); }
  if (!tile) { return; }
  placed.set(index, { id: tile.id, letter, blank });
  order.push(index);
  const next = nextSquare(index, across ? 1 : SIZE);
  focused = next === null ? index : next;
  const hadFocus = boardEl.contains(document.activeElement);
  changed();
  if (hadFocus) { squares[focused].focus(); }
}

function backspace() {
  const index = order[order.length - 1];
  if (index === undefined) { return; }
  takeBack(index);
  focused = index;
  drawBoard();
  squares[focused].focus();
}

function onBoardKey(event) {
  const button = event.target.closest(".sq");
  if (!button) { return; }
  const index = Number(button.dataset.index);
  const row = Math.floor(index / SIZE);
  const col = index % SIZE;
  const key = event.key;
  if (key === "ArrowUp" && row > 0) { moveFocus(index - SIZE); }
  else if (key === "ArrowDown" && row < SIZE - 1) { moveFocus(index + SIZE); }
  else if (key === "ArrowLeft" && col > 0) { moveFocus(index - 1); }
  else if (key === "ArrowRight" && col < SIZE - 1) { moveFocus(index + 1); }
  else if (key === "Enter" && placed.size) { play(); }
  else if (key === "Backspace") { backspace(); }
  else if (key === "Escape") { recallAll(); }
  else if (key === "/") { across = !across; drawBoard(); drawButtons(); }
  else if (key.length === 1 && LETTERS.includes(key.toUpperCase()) && !event.ctrlKey && !event.metaKey && !event.altKey) {
    typeLetter(key.toUpperCase(), event.shiftKey);
  } else { return; }  // Space and Enter (nothing placed) press the button: a click
  event.preventDefault();
}

function onRackClick(event) {
  const button = event.target.closest(".rack-tile");
  if (!button || busy) { return; }
  if (event.detail > 0 && performance.now() < clickAfterDrag) { return; }
  const id = Number(button.dataset.id);
  selected = selected === id ? null : id;
  drawRack();
  const again = rackEl.querySelector(`[data-id="${id}"]`);
  if (again) { again.focus(); }
}

function onPointerDown(event) {
  if (busy || event.button !== 0) { return; }
  const rackButton = event.target.closest(".rack-tile");
  const square = event.target.closest(".sq");
  let from = null;
  if (rackButton && rackEl.contains(rackButton)) {
    from = { id: Number(rackButton.dataset.id), square: null, el: rackButton };
  } else if (square && placed.has(Number(square.dataset.index))) {
    const index = Number(square.dataset.index);
    from = { id: placed.get(index).id, square: index, el: square };
  }
  if (!from) { return; }
  drag = { ...from, pointer: event.pointerId, x: event.clientX, y: event.clientY, moved: false, ghost: null, host: event.currentTarget };
}

function onPointerMove(event) {
  if (!drag || event.pointerId !== drag.pointer) { return; }
  if (!drag.moved) {
    if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 6) { return; }
    drag.moved = true;
    drag.host.setPointerCapture(event.pointerId);
    const t = rackTile(drag.id);
    const shown = drag.square !== null ? placed.get(drag.square) : null;
    drag.ghost = tileFace(shown ? shown.letter : t.tile, shown ? shown.blank : t.tile === "?");
    drag.ghost.classList.add("ghost");
    const size = Math.max(32, squares[0].getBoundingClientRect().width * 1.3);
    drag.ghost.style.width = drag.ghost.style.height = `${size}px`;
    document.body.append(drag.ghost);
    drag.el.classList.add("lifted");
  }
  const half = drag.ghost.getBoundingClientRect().width / 2;
  drag.ghost.style.transform = `translate(${event.clientX - half}px, ${event.clientY - half}px)`;
}

async function onPointerUp(event) {
  if (!drag || event.pointerId !== drag.pointer) { return; }
  const { id, square, moved } = drag;
  endDrag();
  if (!moved) { return; }  // a tap: its click chooses
  clickAfterDrag = performance.now() + 400;
  const under = document.elementFromPoint(event.clientX, event.clientY);
  const target = under && under.closest ? under.closest(".sq") : null;
  const onRack = under && under.closest ? under.closest("#rack") : null;
  if (target) {
    const index = Number(target.dataset.index);
    if (index === square || cell(index) || placed.has(index)) { return; }
    if (square !== null) {
      const moving = placed.get(square);
      placed.delete(square);
      order = order.map((i) => (i === square ? index : i));
      placed.set(index, moving);
      focused = index;
      changed();
    } else {
      focused = index;
      await putDown(id, index);
    }
  } else if (onRack && square !== null) {
    takeBack(square);
  }
}

function endDrag() {
  if (!drag) { return; }
  if (drag.ghost) { drag.ghost.remove(); }
  drag.el.classList.remove("lifted");
  if (drag.host.hasPointerCapture(drag.pointer)) { drag.host.releasePointerCapture(drag.pointer); }
  drag = null;
}

// ------------------------------------------------------------------ the state

function sameTiles(a, b) { return [...a].sort().join("") === [...b].sort().join(""); }

let nextId = 0;
function setRack(tiles) {
  if (sameTiles(rack.map((t) => t.tile).join(""), tiles)) { return; }  // keep the member's order
  rack = [...tiles].map((tile) => ({ id: nextId++, tile }));
  placed.clear();
  order = [];
  selected = null;
}

/** Whether the game is over (its page shows the end, and takes no more changes). */
function ended(s) { return s.status === "finished" || s.status === "abandoned"; }

function show(next) {
  state = next;
  received = performance.now();
  if (ended(state)) { placed.clear(); order = []; selected = null; }
  setRack(state.rack);
  for (const index of [...placed.keys()]) {  // a square taken meanwhile gives its tile back
    if (cell(index)) { placed.delete(index); order = order.filter((i) => i !== index); }
  }
  root.dataset.version = String(state.version);
  root.dataset.status = state.status;
  root.dataset.phase = state.phase;
  drawAll();
  if (placed.size) { askPreview(); } else { previewEl.textContent = ""; }
}

/** Asks for the state again (after a pushed version); a refusal is said, the board kept. */
const refresh = refresher(() => state, (next) => show(next), (s) => s.status === "active");

/** Listens to the button `id`'s clicks, when the page has it (a puzzle has fewer). */
function on(id, listener) {
  const button = document.getElementById(id);
  if (button) { button.addEventListener("click", listener); }
}

on("play", play);
on("recall", recallAll);
on("shuffle", () => {
  for (let i = rack.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [rack[i], rack[j]] = [rack[j], rack[i]];
  }
  drawRack();
});
on("direction", () => { across = !across; drawBoard(); drawButtons(); });
on("exchange", openExchange);
on("exchange-yes", confirmExchange);
on("exchange-no", () => exchangeDialog.close());
on("pass", () => { recallAll(); change("pass", {}); });
on("challenge", () => change("challenge", {}));
on("accept", () => change("accept", {}));
on("resign", () => resignDialog.showModal());
on("resign-no", () => resignDialog.close());
on("resign-yes", () => { resignDialog.close(); change("resign", {}); });
on("solution", () => { recallAll(); change("solution", {}); });

build();
show(state);
setInterval(tick, 1000);
// A version pushed while our own change is on its way waits for its answer (which
// carries the state; a game it ended opens no more state).
follow((version) => {
  if (version === state.version) { return; }
  if (busy) { missed = true; return; }
  refresh();
});
