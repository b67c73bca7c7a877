// A board's tally in the room (bot/web/board_tally.py): a side enters its play as a
// word and a position, a pass, an exchange or a challenge; at the end the tiles left
// on its rack. The server checks and scores each entry; this page only draws.
import { act, follow, initialState, notice, refresher } from "./common.js";

const el = (id) => document.getElementById(id);
const words = el("tally").dataset;
let state = initialState;
let correcting = false;
let ticking = null;

function say(text) { el("saving").textContent = text || ""; }

function draw(next) {
  state = next;
  const root = el("tally");
  root.dataset.version = String(state.version);
  root.dataset.status = state.status;
  el("board-title").textContent = state.title;
  el("status").textContent = state.status_text;
  const scores = el("scores");
  scores.replaceChildren(...state.seats.map((seat) => {
    const item = document.createElement("li");
    item.textContent = `${seat.label}: ${seat.score}`;
    if (seat.seat === state.to_move) { item.classList.add("turn"); }
    if (seat.mine) { item.classList.add("mine"); }
    return item;
  }));
  const lines = el("lines");
  lines.replaceChildren(...state.lines.map((line) => {
    const item = document.createElement("li");
    item.value = line.number;
    const sign = line.score >= 0 ? "+" : "−";
    item.append(`${line.who}: ${line.text} (${sign}${Math.abs(line.score)}) → `);
    const total = document.createElement("span");
    total.className = "total";
    total.textContent = String(line.total);
    item.append(total);
    return item;
  }));
  el("bag").textContent = state.status === "playing" ? `· ${state.bag_text}` : "";
  const playing = state.status === "playing";
  const mayEnter = playing && (state.my_turn || correcting);
  for (const id of ["word", "position", "play"]) { el(id).disabled = !mayEnter; }
  el("pass").disabled = !mayEnter;
  el("exchange").disabled = !mayEnter;
  el("count").disabled = !mayEnter;
  el("challenge").disabled = !state.can_challenge || correcting;
  el("correct").hidden = correcting || !state.can_correct;
  el("cancel").hidden = !correcting;
  el("rack-form").hidden = !state.rack_due;
  const note = el("correcting");
  note.hidden = !correcting;
  if (correcting && state.lines.length) {
    note.textContent = words.correcting.replace("{number}", state.lines[state.lines.length - 1].number);
  }
  drawGrid();
  clock();
}

function drawGrid() {
  const grid = el("grid");
  const last = new Set(state.last_squares);
  const cells = [];
  for (let r = 0; r < 15; r++) {
    for (let c = 0; c < 15; c++) {
      const cell = document.createElement("span");
      const letter = state.rows[r][c];
      const square = `${"ABCDEFGHIJKLMNO"[c]}${r + 1}`;
      if (letter !== ".") {
        cell.textContent = letter.toUpperCase();
        cell.className = "tile" + (letter === letter.toLowerCase() ? " blank" : "");
        if (last.has(square)) { cell.classList.add("last"); }
      } else {
        const premium = state.premiums[r][c];
        if (premium !== ".") { cell.className = premium; }
      }
      cells.push(cell);
    }
  }
  grid.replaceChildren(...cells);
}

function clock() {
  clearInterval(ticking);
  const wrap = el("clock-wrap");
  if (!state.turn_due || state.status !== "playing") { wrap.hidden = true; return; }
  wrap.hidden = false;
  const due = Date.parse(state.turn_due);
  const tick = () => {
    const left = Math.max(0, Math.round((due - Date.now()) / 1000));
    el("clock").textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  };
  tick();
  ticking = setInterval(tick, 1000);
}

const refresh = refresher(() => state, draw, (s) => s.status !== "finished");

async function send(action, body) {
  const route = correcting ? "correct" : action;
  say(words.saving);
  notice("");
  try {
    const answer = await act(route, { ...body, version: state.version });
    correcting = false;
    say(words.saved);
    el("word").value = "";
    el("position").value = "";
    draw(answer.state);
  } catch (error) {
    say("");
    notice(error.message);
    if (error.code === "stale_board") { refresh(true); }
  }
}

el("play-form").addEventListener("submit", (event) => {
  event.preventDefault();
  send("play", { word: el("word").value.trim(), position: el("position").value.trim() });
});
el("pass").addEventListener("click", () => send("pass", correcting ? { pass: true } : {}));
el("exchange").addEventListener("click", () => send("exchange", { count: Number(el("count").value) }));
el("challenge").addEventListener("click", () => send("challenge", {}));
el("correct").addEventListener("click", () => { correcting = true; draw(state); el("word").focus(); });
el("cancel").addEventListener("click", () => { correcting = false; draw(state); });
el("rack-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const before = correcting;
  correcting = false;
  send("rack", { tiles: el("tiles").value.trim() }).then(() => { correcting = before && correcting; });
});

draw(state);
follow(() => refresh());
