/* Spectator tiers on the table (issue 40 item 6): a game created with the
   option spectator_delay shows its spectators the running game that many
   versions late (and, with spectator_omniscient, every hand as late on the
   broadcast, GET /v1/games/{id}/broadcast). Every view of such a game says
   so (view.spectator_delay); the table says it in words under the status,
   to the seats (who see their own view live) and to the spectators alike. */
import { el } from "./dom.js";

/** Whether `view` is a spectator's of a running game still inside its delay: no state to draw yet. */
export function insideDelay(view) {
  return Boolean(view && view.spectator_delay) && view.status === "active" &&
    (view.seat === null || view.seat === undefined) && view.version === 0;
}

/** the delay in words ("" for a game without one) */
export function delayWords(view) {
  const delay = view && view.spectator_delay;
  if (!delay) return "";
  const versions = delay.versions + (delay.versions === 1 ? " version" : " versions");
  if (view.status !== "active") return "Spectators saw this game " + versions + " late while it ran; it is over, so all of it is shown.";
  let words = "Spectators see this game " + versions + " late";
  if (delay.omniscient) words += ", and every hand as late on its broadcast";
  if (insideDelay(view)) words += ": nothing of it is shown until it is " + versions + " old";
  return words + ".";
}

/** Draws the delay under the status line (the element is made the first time it is needed). */
export function drawDelay(view) {
  let note = document.getElementById("spectator-delay");
  const words = delayWords(view);
  if (!note && !words) return;
  if (!note) {
    note = el("p", "spectator-delay muted");
    note.id = "spectator-delay";
    document.getElementById("status").after(note);
  }
  note.textContent = words;
  note.hidden = !words;
}
