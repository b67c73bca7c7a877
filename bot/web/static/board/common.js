// What every board page shares (bot/web/boards.py): its state, its changes sent
// with the session's CSRF token, and the pushed versions that say when to look
// again. A page that loses its connection says so, and catches up when it is back.

const app = document.getElementById("board-app");

/** The page's root element, its path (`/board/<kind>/<id>`) and the state it was served with. */
export const root = app;
export const path = app.dataset.path;
export const initialState = JSON.parse(app.dataset.state);

/** Says `text` in the page's alert line (read out by screen readers); empty clears it. */
export function notice(text, tone = "error") {
  // A refusal by default; ``tone`` "ok" for a confirmation ("Counted."), which is
  // not shown in the refusals' red.
  const line = document.getElementById("notice");
  line.textContent = text || "";
  line.classList.toggle("ok", tone === "ok");
}

/** The board's state, as the server has it now (for this member only). */
export async function fetchState() {
  const response = await fetch(`${path}/state`, { cache: "no-store", credentials: "same-origin" });
  const data = await response.json();
  if (!response.ok) { throw new BoardError(data); }
  return data;
}

/** A refusal from the server: `code` for the page, `message` in the club's language. */
export class BoardError extends Error {
  constructor(data) {
    super((data && data.message) || "");
    this.code = (data && data.code) || "failed";
  }
}

/** Asks for a change (`action` is the route's last part); resolves with the answer,
 *  rejects with a BoardError carrying the server's words. */
export async function act(action, body = {}) {
  let response;
  try {
    response = await fetch(`${path}/${action}`, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": app.dataset.csrf },
      body: JSON.stringify(body),
    });
  } catch (error) {
    throw new BoardError({ code: "offline", message: app.dataset.lost });
  }
  let data = null;
  try { data = await response.json(); } catch (error) { data = null; }
  if (!response.ok || !data || data.ok === false) { throw new BoardError(data); }
  return data;
}

/** Calls `onVersion(version)` whenever the board changed, pushed by the server (a
 *  move in Discord or on another page); after a lost connection, once it is back. */
export function follow(onVersion) {
  const line = document.getElementById("connection");
  let lost = false;
  let last = null;
  const source = new EventSource(`${path}/events`);
  source.addEventListener("version", (event) => {
    const version = Number(event.data);
    if (version !== last) { last = version; onVersion(version); }
  });
  source.addEventListener("open", () => {
    if (lost) {
      lost = false;
      line.textContent = app.dataset.back;
      line.classList.remove("lost");
      onVersion(last);  // whatever happened meanwhile
    }
  });
  source.addEventListener("error", () => {
    lost = true;
    line.textContent = app.dataset.lost;
    line.classList.add("lost");
  });
  return source;
}

/** A page's `refresh(force)`: asks for the state again (after a pushed version or a
 *  change), one request at a time (a version pushed meanwhile asks once more after
 *  it), and hands a newer state to `show`; a refusal is said, the board kept.
 *  `current()` is the state shown; `live(state)` whether it can still change
 *  (unless `force`, a finished board is not asked about again). */
export function refresher(current, show, live) {
  let refreshing = null;
  let again = false;
  return function refresh(force = false) {
    if (!force && !live(current())) { return Promise.resolve(); }
    if (refreshing) { again = true; return refreshing; }
    refreshing = (async () => {
      do {
        again = false;
        try {
          const next = await fetchState();
          if (force || next.version !== current().version) { show(next); }
        } catch (error) {
          notice(error.message);
        }
      } while (again);
      refreshing = null;
    })();
    return refreshing;
  };
}
