// A member's own chess board (bot/web/board_chess.py). The server decides
// everything: the legal moves come in the state (python-chess's, on the member's
// turn only), a move is sent as from/to/promotion with the version it was made
// on, and the state is asked for again after every change, ours or pushed.
// Here: drawing it, choosing a move by tap, drag or keyboard, the clocks ticking.
// Every word shown comes from the page (the template's data- attributes) or the state.
// A chess puzzle's page (bot/web/board_puzzle.py, board_puzzle_chess.html) is drawn by
// this module too: the solver's moves are its answers, the bot's reply is shown after
// the move it answers; no players, clocks, draws or resigning.

import { act, follow, initialState, notice, refresher } from "./common.js";

const FILES = "abcdefgh";
const root = document.getElementById("chess");
const words = root.dataset;
const boardEl = document.getElementById("board");
const promotion = document.getElementById("promotion");
const resignDialog = document.getElementById("resign-dialog");
const lang = document.documentElement.lang || "en";
const puzzle = root.classList.contains("puzzle");
const REPLY_MS = 700;     // a puzzle's move stays on the board this long before the bot's reply

let state = initialState;
let received = performance.now();
let orientation = state.me || "white";
let selected = null;      // the square of the piece chosen to move
let focused = null;       // the square that takes the keyboard's focus (roving tabindex)
let busy = false;         // a change is on its way: no second one meanwhile
let missed = false;       // a version pushed while a change was on its way: asked for after it
let drag = null;          // a piece being dragged: {from, id, x, y, moved, ghost}
let clickAfterDrag = 0;   // the click a drag's release makes is not a tap
const squares = new Map();

// ------------------------------------------------------------------ the squares

function squareName(file, rank) { return FILES[file] + String(rank + 1); }

function pieceOn(square) {
  const file = FILES.indexOf(square[0]);
  const rank = Number(square[1]) - 1;
  return state.board[7 - rank][file];
}

function isWhite(piece) { return piece === piece.toUpperCase(); }

function pieceName(piece) {
  return isWhite(piece) ? words["piece" + piece] : words["pieceB" + piece];
}

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (all, key) => (key in values ? values[key] : all));
}

function targetsFrom(square) { return (state.legal && state.legal[square]) || []; }

function targetOf(from, to) { return targetsFrom(from).find((t) => t.to === to) || null; }

function pieceSvg(piece, extra) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("class", `piece ${isWhite(piece) ? "w" : "b"}${extra ? " " + extra : ""}`);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.setAttribute("viewBox", "0 0 100 100");
  const use = document.createElementNS(ns, "use");
  use.setAttribute("href", "#piece-" + piece.toLowerCase());
  svg.append(use);
  return svg;
}

function build() {
  for (let rank = 0; rank < 8; rank++) {
    for (let file = 0; file < 8; file++) {
      const square = squareName(file, rank);
      const button = document.createElement("button");
      button.type = "button";
      button.className = `sq ${(file + rank) % 2 ? "light" : "dark"}`;
      button.dataset.square = square;
      button.tabIndex = -1;
      squares.set(square, button);
    }
  }
  boardEl.addEventListener("click", onClick);
  boardEl.addEventListener("keydown", onKey);
  boardEl.addEventListener("pointerdown", onPointerDown);
  boardEl.addEventListener("pointermove", onPointerMove);
  boardEl.addEventListener("pointerup", onPointerUp);
  boardEl.addEventListener("pointercancel", endDrag);
}

/** The squares top-left to bottom-right as the board is shown (the member's side below). */
function visualOrder() {
  const order = [];
  for (let row = 0; row < 8; row++) {
    for (let col = 0; col < 8; col++) {
      const rank = orientation === "white" ? 7 - row : row;
      const file = orientation === "white" ? col : 7 - col;
      order.push(squareName(file, rank));
    }
  }
  return order;
}

function drawBoard() {
  const order = visualOrder();
  const hadFocus = boardEl.contains(document.activeElement);
  const last = state.last_move;
  const targets = selected ? targetsFrom(selected) : [];
  if (!focused || !squares.has(focused)) {
    focused = state.me ? firstOwnSquare() : order[56];
  }
  boardEl.replaceChildren();
  order.forEach((square, index) => {
    const button = squares.get(square);
    const piece = pieceOn(square);
    const extras = [];
    button.replaceChildren();
    button.classList.toggle("selected", square === selected);
    const target = targets.find((t) => t.to === square);
    button.classList.toggle("target", Boolean(target) && !piece);
    button.classList.toggle("capture", Boolean(target) && Boolean(piece));
    const inLast = Boolean(last) && (last.from === square || last.to === square);
    button.classList.toggle("last", inLast);
    button.classList.toggle("check", state.check === square);
    button.classList.toggle("movable", targetsFrom(square).length > 0);
    if (piece) { button.append(pieceSvg(piece)); }
    // The coordinates along the shown edges, as a printed board has them.
    if (index % 8 === 0) { button.append(label("rank", square[1])); }
    if (index >= 56) { button.append(label("file", square[0])); }
    if (square === selected) { extras.push(words.selected); }
    if (target) { extras.push(words.target); }
    if (inLast) { extras.push(words.last); }
    if (state.check === square) { extras.push(words.check); }
    const base = piece
      ? fill(words.on, { piece: pieceName(piece), square })
      : fill(words.empty, { square });
    button.setAttribute("aria-label", [base, ...extras].join(", "));
    button.tabIndex = square === focused ? 0 : -1;
    boardEl.append(button);
  });
  if (hadFocus) { squares.get(focused).focus(); }
}

function label(kind, text) {
  const span = document.createElement("span");
  span.className = `coord ${kind}`;
  span.setAttribute("aria-hidden", "true");
  span.textContent = text;
  return span;
}

function firstOwnSquare() {
  const movable = Object.keys(state.legal || {});
  if (movable.length) { return movable[0]; }
  return orientation === "white" ? "e1" : "e8";
}

// ------------------------------------------------------------------ choosing a move

function choose(square) {
  if (busy) { return; }
  if (selected && square === selected) { selected = null; drawBoard(); return; }
  if (selected && targetOf(selected, square)) { play(selected, square); return; }
  selected = targetsFrom(square).length ? square : null;
  drawBoard();
}

async function play(from, to) {
  const target = targetOf(from, to);
  if (!target) { return; }
  let piece = null;
  if (target.promotion) {
    piece = await askPromotion();
    if (!piece) { selected = null; drawBoard(); return; }
  }
  await change("move", { from, to, promotion: piece, version: state.version });
}

function askPromotion() {
  return new Promise((resolve) => {
    const chosen = (event) => {
      const button = event.target.closest("button[data-piece]");
      if (!button) { return; }
      promotion.removeEventListener("click", chosen);
      promotion.removeEventListener("cancel", cancelled);
      promotion.close();
      resolve(button.dataset.piece || null);
    };
    const cancelled = () => {
      promotion.removeEventListener("click", chosen);
      promotion.removeEventListener("cancel", cancelled);
      resolve(null);
    };
    const colour = state.me === "black" ? "b" : "w";
    promotion.querySelectorAll("svg.piece").forEach((svg) => svg.setAttribute("class", `piece ${colour}`));
    promotion.addEventListener("click", chosen);
    promotion.addEventListener("cancel", cancelled);
    promotion.showModal();
  });
}

/** Sends a change; shows the state it leaves (in its answer), or the refusal and the board as it is. */
async function change(action, body) {
  busy = true;
  selected = null;
  notice("");
  setText("said", "");
  try {
    const answer = await act(action, body);
    if (answer.played) {
      // A puzzle's right move: the board after it first, then the bot's reply (the
      // state's last move), each marked as the last move.
      show({ ...state, board: answer.played.board, last_move: answer.played.last_move,
        check: answer.played.check, legal: {}, my_turn: false, sans: [...state.sans, answer.played.last_move.san] });
      await new Promise((resolve) => setTimeout(resolve, REPLY_MS));
    }
    setText("said", answer.message || "");
    if (answer.state) { show(answer.state); }
  } catch (error) {
    notice(error.message);
    await refresh(true);
  } finally {
    busy = false;
    if (missed) { missed = false; refresh(); }
  }
}

// ------------------------------------------------------------------ mouse, touch, keyboard

function onClick(event) {
  const button = event.target.closest(".sq");
  if (!button) { return; }
  if (event.detail > 0 && performance.now() < clickAfterDrag) { return; }
  focused = button.dataset.square;
  choose(button.dataset.square);
}

function onKey(event) {
  const button = event.target.closest(".sq");
  if (!button) { return; }
  const steps = { ArrowUp: -8, ArrowDown: 8, ArrowLeft: -1, ArrowRight: 1 };
  if (event.key === "Escape" && selected) {
    selected = null; drawBoard(); event.preventDefault(); return;
  }
  if (!(event.key in steps)) { return; }  // Enter and Space press the button: a click
  event.preventDefault();
  const order = visualOrder();
  const index = order.indexOf(button.dataset.square);
  const row = Math.floor(index / 8);
  const col = index % 8;
  const next = index + steps[event.key];
  if (next < 0 || next > 63) { return; }
  if ((event.key === "ArrowLeft" && col === 0) || (event.key === "ArrowRight" && col === 7)) { return; }
  if (Math.floor(next / 8) !== row && steps[event.key] % 8 !== 0) { return; }
  squares.get(focused).tabIndex = -1;
  focused = order[next];
  const target = squares.get(focused);
  target.tabIndex = 0;
  target.focus();
}

function onPointerDown(event) {
  const button = event.target.closest(".sq");
  if (!button || busy || event.button !== 0) { return; }
  const square = button.dataset.square;
  if (!targetsFrom(square).length) { return; }
  drag = { from: square, id: event.pointerId, x: event.clientX, y: event.clientY, moved: false, ghost: null };
}

function onPointerMove(event) {
  if (!drag || event.pointerId !== drag.id) { return; }
  if (!drag.moved) {
    if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 6) { return; }
    drag.moved = true;
    boardEl.setPointerCapture(event.pointerId);
    selected = drag.from;
    drawBoard();
    const size = squares.get(drag.from).getBoundingClientRect().width;
    drag.ghost = pieceSvg(pieceOn(drag.from), "ghost");
    drag.ghost.style.width = drag.ghost.style.height = `${size}px`;
    document.body.append(drag.ghost);
    squares.get(drag.from).classList.add("lifted");
  }
  const half = drag.ghost.getBoundingClientRect().width / 2;
  drag.ghost.style.transform = `translate(${event.clientX - half}px, ${event.clientY - half}px)`;
}

function onPointerUp(event) {
  if (!drag || event.pointerId !== drag.id) { return; }
  const { from, moved } = drag;
  endDrag();
  if (!moved) { return; }  // a tap: its click chooses
  clickAfterDrag = performance.now() + 100;  // the release's own click comes at once
  const under = document.elementFromPoint(event.clientX, event.clientY);
  const button = under && under.closest ? under.closest(".sq") : null;
  const to = button ? button.dataset.square : null;
  if (to && targetOf(from, to)) {
    focused = to;
    play(from, to);
  } else {
    selected = to === from ? from : null;
    drawBoard();
  }
}

function endDrag() {
  if (!drag) { return; }
  if (drag.ghost) { drag.ghost.remove(); }
  const source = squares.get(drag.from);
  if (source) { source.classList.remove("lifted"); }
  if (boardEl.hasPointerCapture(drag.id)) { boardEl.releasePointerCapture(drag.id); }
  drag = null;
}

// ------------------------------------------------------------------ the rest of the page

function side(colour) { return colour === "white" ? words.white : words.black; }

function drawSides() {
  if (!state.players) { return; }  // a puzzle: nobody's sides
  const top = orientation === "white" ? "black" : "white";
  const bottom = orientation === "white" ? "white" : "black";
  for (const [id, colour] of [["side-top", top], ["side-bottom", bottom]]) {
    const box = document.getElementById(id);
    const player = state.players[colour];
    box.dataset.colour = colour;
    box.classList.toggle("to-move", state.status === "active" && state.turn === colour);
    box.querySelector(".chess-name").textContent =
      `${player.name} (${side(colour)})${player.you ? " " + words.you : ""}`;
  }
  tick();
}

const units = new Map();
function days(count) {
  if (!units.has(lang)) {
    try {
      units.set(lang, new Intl.NumberFormat(lang, { style: "unit", unit: "day", unitDisplay: "long" }));
    } catch (error) {
      units.set(lang, new Intl.NumberFormat("en", { style: "unit", unit: "day", unitDisplay: "long" }));
    }
  }
  return units.get(lang).format(count);
}

function face(ms) {
  const total = Math.max(0, ms);
  const seconds = Math.floor(total / 1000);
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const two = (n) => String(n).padStart(2, "0");
  if (d > 0) { return `${days(d)} ${h}:${two(m)}:${two(s)}`; }
  if (h > 0) { return `${h}:${two(m)}:${two(s)}`; }
  if (total < 10000 && total > 0) { return `${m}:${two(s)}.${Math.floor((total % 1000) / 100)}`; }
  return `${m}:${two(s)}`;
}

function tick() {
  const clock = state.clock;
  for (const id of ["side-top", "side-bottom"]) {
    const box = document.getElementById(id);
    if (!box) { continue; }
    const shown = box.querySelector(".chess-clock");
    if (!clock) { shown.textContent = ""; continue; }
    const colour = box.dataset.colour;
    const running = clock.running === colour;
    let ms = clock[`${colour}_ms`];
    if (running) { ms -= performance.now() - received; }
    shown.textContent = face(ms);
    shown.classList.toggle("running", running);
    shown.classList.toggle("low", running && ms < 20000 && clock.live);
  }
}

/** Sets the text of the element `id`, when the page has it. */
function setText(id, text) {
  const element = document.getElementById(id);
  if (element) { element.textContent = text; }
}

function drawMoves() {
  // A puzzle starts where its game was: its move number, and "…" when Black moves first.
  const first = state.first_move || { number: 1, black: false };
  const sans = first.black ? ["…", ...state.sans] : state.sans;
  const list = document.getElementById("moves");
  const items = [];
  for (let ply = 0; ply < sans.length; ply += 2) {
    const li = document.createElement("li");
    li.textContent = sans.slice(ply, ply + 2).join(" ");
    items.push(li);
  }
  list.start = first.number;
  list.replaceChildren(...items);
}

function drawPuzzlePanel() {
  setText("status", state.status_text);
  setText("last", state.last_text);
  setText("result", state.result ? state.result.text : "");
  setText("solution-text", state.solution || "");
  document.getElementById("solution").hidden = !state.can.solution;
  document.getElementById("board-help").hidden = !state.can.move;
  document.getElementById("moves-h").hidden = !state.sans.length;  // none found yet
  drawMoves();
}

function drawPanel() {
  if (puzzle) { drawPuzzlePanel(); return; }
  document.getElementById("status").textContent = [state.last_text, state.status_text]
    .filter(Boolean).join(" ");
  const draw = state.draw;
  document.getElementById("draw-note").textContent = draw.text;
  const offered = draw.offered_by;
  const mine = Boolean(offered) && offered === state.me;
  const theirs = Boolean(offered) && Boolean(state.me) && offered !== state.me;
  document.getElementById("offer-draw").hidden = !draw.can_offer;
  document.getElementById("withdraw-draw").hidden = !mine;
  document.getElementById("accept-draw").hidden = !theirs;
  document.getElementById("decline-draw").hidden = !theirs;
  document.getElementById("claim-draw").hidden = !draw.can_claim;
  document.getElementById("resign").hidden = !state.can_resign;
  document.getElementById("control").textContent = state.clock ? state.clock.label : "";
  drawMoves();
}

function show(next) {
  if (next.version !== state.version) { selected = null; }
  state = next;
  received = performance.now();
  root.dataset.version = String(state.version);
  root.dataset.status = state.status;
  drawBoard();
  drawSides();
  drawPanel();
}

/** Asks for the state again (after a pushed version); a refusal is said, the board kept. */
const refresh = refresher(() => state, (next) => show(next), (s) => s.status === "active" || s.status === "invited");

/** Listens to the button `id`'s clicks, when the page has it (a puzzle has fewer). */
function on(id, listener) {
  const button = document.getElementById(id);
  if (button) { button.addEventListener("click", listener); }
}

function hook(id, action, body) {
  on(id, () => { if (!busy) { change(action, body); } });
}

hook("offer-draw", "draw", { action: "offer" });
hook("accept-draw", "draw", { action: "accept" });
hook("decline-draw", "draw", { action: "decline" });
hook("withdraw-draw", "draw", { action: "decline" });
hook("claim-draw", "draw", { action: "claim" });
hook("solution", "solution", {});  // a puzzle's Show solution: given up, as in Discord
on("resign", () => resignDialog.showModal());
on("resign-no", () => resignDialog.close());
on("resign-yes", () => {
  resignDialog.close();
  if (!busy) { change("resign", {}); }
});
on("flip", () => {
  orientation = orientation === "white" ? "black" : "white";
  drawBoard();
  drawSides();
});

build();
show(state);
setInterval(tick, 200);
// A version pushed while our own change is on its way waits for its answer (which
// carries the state; a game it ended opens no more state).
follow((version) => {
  if (version === state.version) { return; }
  if (busy) { missed = true; return; }
  refresh();
});
