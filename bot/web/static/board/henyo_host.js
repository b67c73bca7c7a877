// A Henyo host's console on a phone (bot/web/board_henyo_host.py): the presses go to
// the server with the version the page shows (a double tap counts once), the clock is
// drawn from the server's times, and pushed versions bring presses made in Discord.
import { act, follow, initialState, notice, refresher } from "./common.js";

const box = document.getElementById("henyo_host");
let state = initialState;
let offset = 0;  // the server's clock minus this phone's
let sending = false;

function fmt(ms) {
  if (ms === null || ms === undefined) { return "–"; }
  const tenths = Math.floor(Math.max(0, ms) / 100);
  const minutes = Math.floor(tenths / 600);
  const rest = tenths % 600;
  const seconds = Math.floor(rest / 10);
  const text = `${seconds}.${rest % 10}`;
  return minutes ? `${minutes}:${String(seconds).padStart(2, "0")}.${rest % 10}` : `${text} s`;
}

function onClock() {
  if (state.status === "guessed") { return state.elapsed_ms; }
  if (state.status === "timed_out") { return state.time_limit_ms; }
  if (state.status !== "running" || !state.started_at) { return 0; }
  const now = Date.now() + offset;
  return Math.min(state.time_limit_ms, Math.max(0, now - Date.parse(state.started_at)));
}

function tick() {
  const running = onClock();
  const penalties = state.penalties * state.penalty_ms;
  const shown = state.status === "guessed" ? state.final_ms : running + penalties;
  document.getElementById("clock").textContent = fmt(shown);
  const left = state.status === "running" ? state.time_limit_ms - running : null;
  document.getElementById("left").textContent = state.status === "waiting" ? fmt(state.time_limit_ms) : fmt(left);
}

function show(next) {
  state = next;
  offset = Date.parse(state.now) - Date.now();
  document.getElementById("title").textContent = state.title;
  document.getElementById("pair").textContent = state.pair_text;
  document.getElementById("word").textContent = state.word;
  document.getElementById("category").textContent = state.category;
  document.getElementById("status").textContent = state.status_text;
  document.getElementById("penalties").textContent = String(state.penalties);
  document.getElementById("screen-text").textContent = state.screen_text;
  document.getElementById("screen-word").checked = state.shown_on_screen;
  document.getElementById("press-penalty").textContent = state.penalty_label;
  for (const button of box.querySelectorAll("button[data-press]")) {
    button.disabled = sending || !state.can.includes(button.dataset.press);
  }
  box.dataset.status = state.status;
  box.dataset.version = String(state.version);
  tick();
}

const refresh = refresher(() => state, show, () => true);

async function press(name) {
  if (sending) { return; }
  sending = true;
  const version = state.version;
  show(state);
  try {
    const answer = await act("press", { press: name, version });
    sending = false;
    show(answer.state);
    notice(answer.counted ? box.dataset.counted : answer.note, "ok");
  } catch (error) {
    sending = false;
    show(state);
    notice(error.message);
    refresh(true);
  }
}

for (const button of box.querySelectorAll("button[data-press]")) {
  button.addEventListener("click", () => press(button.dataset.press));
}
document.getElementById("screen-word").addEventListener("change", async (event) => {
  try {
    const answer = await act("screen", { shown: event.target.checked });
    show(answer.state);
  } catch (error) {
    notice(error.message);
    refresh(true);
  }
});

show(state);
setInterval(tick, 100);
follow(() => refresh());
