// A member's own Boggle board (bot/web/board_boggle.py): the grid as buttons, a word
// traced by tapping or sliding through adjacent cells (the server says which cells
// touch), the member's own list saved as they go, the countdown, and the results once
// the round is scored. Every word shown comes from the server (the state, or the
// template's data- attributes).

import { initialState, fetchState, act, follow, notice, BoardError } from "./common.js";

const root = document.getElementById("boggle");
const text = root.dataset;
const gridEl = document.getElementById("grid");
const tracedEl = document.getElementById("traced");
const addButton = document.getElementById("add-word");
const clearButton = document.getElementById("clear-path");
const typeForm = document.getElementById("type-form");
const typeInput = document.getElementById("type-word");
const wordsEl = document.getElementById("words");
const savingEl = document.getElementById("saving");

let state = initialState;
let gridKey = "";
let path = [];          // cell indices of the word being traced
let focused = 0;        // the cell that takes the keyboard (roving tabindex)
let clockOffset = 0;    // server time minus this browser's
let pending = { add: [], remove: [] };  // changes not sent yet
let sending = false;
let list = [];          // the list as the page shows it: {word, note}

// ------------------------------------------------------------------ the grid

function cells() { return state.cells || []; }

function faceWord(indices) {
  return indices.map((i) => cells()[i].face).join("").toLowerCase();
}

function canExtend(index) {
  if (path.includes(index)) { return false; }
  if (path.length === 0) { return true; }
  return cells()[path[path.length - 1]].next.includes(index);
}

function drawGrid() {
  const key = JSON.stringify([state.width, cells().map((c) => c.face)]);
  if (key !== gridKey) {
    gridKey = key;
    gridEl.replaceChildren();
    gridEl.className = `boggle-grid side-${state.width || 4}`;
    cells().forEach((cell, index) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "boggle-cell";
      button.dataset.index = String(index);
      button.textContent = cell.face;
      button.setAttribute("aria-label", cell.label);
      gridEl.append(button);
    });
    path = [];
    focused = Math.min(focused, Math.max(0, cells().length - 1));
  }
  const playing = state.taking;
  gridEl.querySelectorAll(".boggle-cell").forEach((button, index) => {
    const at = path.indexOf(index);
    button.setAttribute("aria-pressed", at >= 0 ? "true" : "false");
    button.classList.toggle("last", at >= 0 && at === path.length - 1);
    button.tabIndex = index === focused ? 0 : -1;
    button.disabled = !playing;
  });
  const word = faceWord(path);
  tracedEl.textContent = word ? text.traced.replace("{word}", word.toUpperCase()) : "";
  addButton.disabled = !playing || path.length === 0;
  clearButton.disabled = path.length === 0;
}

/** A cell picked by a tap, a click or the keyboard: extend the path through it, take
 *  back the last cell, or start again from it. */
function pick(index) {
  if (!state.taking) { return; }
  if (path.length && path[path.length - 1] === index) {
    path.pop();
  } else if (canExtend(index)) {
    path.push(index);
  } else {
    path = [index];
  }
  focused = index;
  drawGrid();
}

/** A cell reached by sliding: extend through it, or step back to the cell before. */
function slideTo(index) {
  if (path.length >= 2 && path[path.length - 2] === index) {
    path.pop();
  } else if (canExtend(index)) {
    path.push(index);
  } else {
    return;
  }
  focused = index;
  drawGrid();
}

function cellAt(x, y) {
  const element = document.elementFromPoint(x, y);
  const button = element && element.closest(".boggle-cell");
  if (!button || !gridEl.contains(button)) { return null; }
  // Only the cell's middle counts while sliding, so a diagonal does not catch a corner.
  const box = button.getBoundingClientRect();
  const inset = box.width * 0.18;
  if (x < box.left + inset || x > box.right - inset || y < box.top + inset || y > box.bottom - inset) {
    return null;
  }
  return Number(button.dataset.index);
}

let pressed = null;  // the pointer sliding through the grid: {id, start, moved}

gridEl.addEventListener("pointerdown", (event) => {
  const button = event.target.closest(".boggle-cell");
  if (!button || !state.taking || event.button > 0) { return; }
  event.preventDefault();
  const index = Number(button.dataset.index);
  gridEl.setPointerCapture(event.pointerId);
  const undo = path.length > 0 && path[path.length - 1] === index;
  pressed = { id: event.pointerId, start: index, moved: false, undo };
  if (!undo) { pick(index); }
  button.focus({ preventScroll: true });
});

gridEl.addEventListener("pointermove", (event) => {
  if (!pressed || event.pointerId !== pressed.id) { return; }
  const index = cellAt(event.clientX, event.clientY);
  if (index === null || index === path[path.length - 1]) { return; }
  pressed.moved = true;
  slideTo(index);
});

function release(event) {
  if (!pressed || event.pointerId !== pressed.id) { return; }
  if (pressed.undo && !pressed.moved) { pick(pressed.start); }
  pressed = null;
}
gridEl.addEventListener("pointerup", release);
gridEl.addEventListener("pointercancel", () => { pressed = null; });

// A click from the keyboard (Enter or Space on a cell) has no pointer before it.
gridEl.addEventListener("click", (event) => {
  const button = event.target.closest(".boggle-cell");
  if (button && event.detail === 0) { pick(Number(button.dataset.index)); }
});

gridEl.addEventListener("keydown", (event) => {
  const side = state.width || 4;
  const count = cells().length;
  const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -side, ArrowDown: side };
  if (event.key in moves) {
    event.preventDefault();
    const column = focused % side;
    let next = focused + moves[event.key];
    if ((event.key === "ArrowLeft" && column === 0) || (event.key === "ArrowRight" && column === side - 1)) {
      next = focused;
    }
    if (next >= 0 && next < count) {
      focused = next;
      drawGrid();
      gridEl.children[focused].focus();
    }
  } else if (event.key === "Escape") {
    clearPath();
  } else if (event.key === "Backspace" && path.length) {
    event.preventDefault();
    path.pop();
    drawGrid();
  }
});

function clearPath() {
  path = [];
  drawGrid();
  tracedEl.textContent = text.cleared;
}

clearButton.addEventListener("click", clearPath);
addButton.addEventListener("click", () => {
  const word = faceWord(path);
  if (!word) { return; }
  const fromKeyboard = document.activeElement === addButton;
  path = [];
  drawGrid();
  addWord(word);
  // The button is disabled until the next word: the keyboard goes back to the grid.
  if (fromKeyboard) { gridEl.children[focused].focus(); }
});

typeForm.addEventListener("submit", (event) => {
  event.preventDefault();
  const word = typeInput.value.trim();
  if (!word || !state.taking) { return; }
  typeInput.value = "";
  addWord(word);
});

// ------------------------------------------------------------------ the list

function addWord(word) {
  const key = word.toLowerCase();
  pending.remove = pending.remove.filter((w) => w !== key);
  if (!pending.add.includes(word)) { pending.add.push(word); }
  if (!list.some((item) => item.word === key)) { list.push({ word: key, note: "" }); }
  drawList();
  save();
}

function removeWord(word) {
  pending.add = pending.add.filter((w) => w.toLowerCase() !== word);
  if (!pending.remove.includes(word)) { pending.remove.push(word); }
  list = list.filter((item) => item.word !== word);
  drawList();
  save();
}

function drawList() {
  const active = document.activeElement;
  const focusedWord = active && wordsEl.contains(active) ? active.dataset.word : null;
  const focusedAt = focusedWord ? [...wordsEl.querySelectorAll(".boggle-remove")].indexOf(active) : -1;
  wordsEl.replaceChildren();
  for (const item of list) {
    const li = document.createElement("li");
    const word = document.createElement("span");
    word.className = "boggle-word";
    word.textContent = item.word.toUpperCase();
    li.append(word);
    if (item.note) {
      const note = document.createElement("span");
      note.className = "boggle-note";
      note.textContent = item.note;
      li.append(note);
    }
    if (state.taking) {
      const remove = document.createElement("button");
      remove.type = "button";
      remove.className = "quiet boggle-remove";
      remove.dataset.word = item.word;
      remove.textContent = "×";
      remove.setAttribute("aria-label", text.remove.replace("{word}", item.word.toUpperCase()));
      remove.addEventListener("click", () => removeWord(item.word));
      li.append(remove);
    }
    wordsEl.append(li);
  }
  document.getElementById("empty").hidden = list.length > 0;
  document.getElementById("word-count").textContent = list.length ? `(${list.length})` : "";
  if (focusedWord) {
    // The same word's button keeps the focus; a removed word's goes to its neighbour.
    const buttons = [...wordsEl.querySelectorAll(".boggle-remove")];
    const same = buttons.find((button) => button.dataset.word === focusedWord);
    (same || buttons[Math.min(focusedAt, buttons.length - 1)] || typeInput).focus();
  }
}

/** The server's list, with the changes still on their way shown on top of it. */
function showServerList(words) {
  const removed = new Set(pending.remove);
  list = words.filter((item) => !removed.has(item.word));
  for (const word of pending.add) {
    const key = word.toLowerCase();
    if (!list.some((item) => item.word === key)) { list.push({ word: key, note: "" }); }
  }
  drawList();
}

async function save() {
  if (sending || (!pending.add.length && !pending.remove.length)) { return; }
  sending = true;
  const change = pending;
  pending = { add: [], remove: [] };
  savingEl.textContent = text.saving;
  try {
    const answer = await act("words", change);
    savingEl.textContent = text.saved;
    notice(answer.note || "");
    document.getElementById("pair-note").textContent = answer.pair_note || "";
    showServerList(answer.words);
  } catch (error) {
    savingEl.textContent = text.notSaved;
    notice(error instanceof BoardError ? error.message : String(error));
    // Refused: the list shown is the server's again (the words of the refused change
    // go), so the state asked for now is drawn as a save's answer would be.
    sending = false;
    await refresh();
  } finally {
    sending = false;
  }
  if (pending.add.length || pending.remove.length) { save(); }
}

// ------------------------------------------------------------------ the round

let ticking = null;
let askedAtZero = false;
let countingTo = null;

// The countdown counts to the state's ``countdown_to``: in a round played in the room,
// pens down, then the end of the time to type the lists; else the round's end.
function tick() {
  const countdown = document.getElementById("countdown");
  const target = state.round.countdown_to || state.round.ends_at;
  if (target !== countingTo) { countingTo = target; askedAtZero = false; }
  const ends = target ? Date.parse(target) : null;
  if (ends === null) { countdown.textContent = "–:––"; return; }
  const left = Math.max(0, Math.ceil((ends - (Date.now() + clockOffset)) / 1000));
  const shown = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  if (countdown.textContent !== shown) { countdown.textContent = shown; }
  countdown.classList.toggle("low", left <= 15 && state.taking);
  if (left === 0 && state.taking && !askedAtZero) {
    askedAtZero = true;
    refresh();  // the server says what comes next: the time to type, or the end
    // Asked a little early (the clocks differ by a moment): ask again shortly.
    setTimeout(() => { askedAtZero = false; }, 2000);
  }
}

function drawResults() {
  const section = document.getElementById("results");
  const results = state.results;
  section.hidden = !results;
  if (!results) { return; }
  const ranking = document.getElementById("ranking");
  ranking.replaceChildren();
  for (const player of results.players) {
    const li = document.createElement("li");
    const head = document.createElement("p");
    head.className = "boggle-player";
    head.textContent = text.points.replace("{points}", player.points).replace("{name}", player.name);
    li.value = player.rank;
    li.append(head);
    if (player.words.length) {
      const words = document.createElement("ul");
      words.className = "boggle-verdicts";
      for (const [word, verdict, points] of player.words) {
        const item = document.createElement("li");
        item.textContent = `${word.toUpperCase()} — ${verdict} (${points})`;
        words.append(item);
      }
      li.append(words);
    }
    ranking.append(li);
  }
  const missed = results.missed.map(([word, points]) => `${word.toUpperCase()} (${points})`).join(", ");
  document.getElementById("missed-h").hidden = !missed;
  document.getElementById("missed").textContent = missed;
  const link = document.getElementById("results-link");
  link.hidden = !results.url;
  if (results.url) { link.href = results.url; }
}

function draw() {
  clockOffset = Date.parse(state.now) - Date.now();
  root.dataset.version = String(state.version);
  root.dataset.status = state.round.status;
  document.getElementById("status").textContent = state.status_text;
  document.getElementById("pair-note").textContent = state.pair_note || "";
  root.classList.toggle("over", !state.taking);
  typeInput.disabled = !state.taking;
  document.getElementById("type-add").disabled = !state.taking;
  if (!state.taking) { path = []; }
  drawGrid();
  if (!sending) { showServerList(state.words); }
  drawResults();
  tick();
}

async function refresh() {
  try {
    state = await fetchState();
    draw();
  } catch (error) {
    notice(error instanceof BoardError ? error.message : "");
  }
}

draw();
ticking = setInterval(tick, 250);
follow(() => { refresh(); });
window.addEventListener("pagehide", () => clearInterval(ticking));
