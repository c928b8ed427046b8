/* "Play again" (issue 40 item 4): under a finished game's result, a seat's
   page offers a rematch; the click asks POST /v1/games/{id}/rematch with the
   seat's token (the first ask deals the next game, every later one answers
   with the same) and goes to the seat the next game kept for this person,
   its new token in the fragment only. A spectator gets a link to watch the
   next game once someone asked, and every page says the game's place in a
   series. */
import { RefereeProblem } from "../client/index.js";
import { el } from "./dom.js";

/** what the last click came to, kept across redraws: null, "asking", or a refusal's words */
let said = null;

function watchLink(id, text) {
  const a = el("a", "rematch-link", text);
  a.href = "/watch/" + encodeURIComponent(id);
  return a;
}

/** "Game 2 of a best of 3 series" (null for a game of no series) */
function seriesWords(series) {
  if (!series) return null;
  const count = series.best_of ? "a best of " + series.best_of + " series" : "a series of " + series.games + " games";
  return "Game " + series.game + " of " + count + ".";
}

async function ask(referee, id, redraw) {
  said = "asking";
  redraw();
  try {
    const next = await referee.games.rematch(id);
    if (next.token) {
      location.assign("/watch/" + encodeURIComponent(next.id) + "#token=" + encodeURIComponent(next.token));
      return;
    }
    said = "Your seat in game " + next.id + " was taken already (its token was shown once).";
  } catch (err) {
    said = err instanceof RefereeProblem ? "No rematch (" + err.code + "): " + (err.detail || err.title)
      : "No rematch: " + (err && err.message ? err.message : String(err));
  }
  redraw();
}

/** The rematch box of a finished game's view (null while it is on and it is no series' game).
    `seated`: the page holds a person's seat token; `referee`: the page's client (with that token). */
export function rematchBox(view, seated, referee, redraw) {
  const words = seriesWords(view.series);
  if (view.status !== "finished" && !words) return null;
  const box = el("div", "rematch");
  box.id = "rematch";
  if (words) box.appendChild(el("p", "series-place", words));
  if (view.status !== "finished") return box;
  if (seated) {
    const button = el("button", "primary", view.next_game ? "Join the rematch" : "Play again");
    button.type = "button";
    button.id = "rematch-button";
    button.disabled = said === "asking";
    button.addEventListener("click", () => ask(referee, view.id, redraw));
    box.appendChild(button);
  }
  if (view.next_game) box.appendChild(watchLink(view.next_game, "Watch the next game"));
  if (said && said !== "asking") box.appendChild(el("p", "refusal", said));
  return box;
}
