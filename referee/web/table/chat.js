/* The table chat (issue 40 item 5; docs/chat.md): the messages of the game,
   each shown as text only (a message is player input: never HTML), and, for a
   seat, a box to say something. Each message is an event of the game's chain
   (chat_posted {seat, said}); its text comes from GET /v1/games/{id}/chat,
   read again whenever the game's version moves on (a message posted or
   hidden is an event too). A hidden message shows as hidden, its text gone. */
import { RefereeProblem } from "../client/index.js";
import { el } from "./dom.js";

const C = { referee: null, id: null, mySeat: null, seatName: null, version: -1, loading: null, dirty: false,
  notice: "", finished: false, late: 0 };

function $(id) { return document.getElementById(id); }

/** The chat section, made once, after the table. */
function section() {
  let wrap = $("chat");
  if (wrap) return wrap;
  wrap = el("section", "chat");
  wrap.id = "chat";
  wrap.setAttribute("aria-labelledby", "chat-head");
  const head = el("h3", null, "Table chat");
  head.id = "chat-head";
  /* in the heading's line: a line more under the table moves the page a redraw keeps in place */
  const empty = el("span", "chat-empty muted", " — nothing said yet");
  empty.id = "chat-empty";
  head.appendChild(empty);
  const list = el("ol", "chat-messages");
  list.id = "chat-messages";
  list.setAttribute("aria-live", "polite");
  const form = el("form", "chat-form");
  form.id = "chat-form";
  const input = el("input");
  input.id = "chat-text";
  input.type = "text";
  input.maxLength = 280;
  input.autocomplete = "off";
  input.setAttribute("aria-label", "Say something at the table");
  input.placeholder = "Say something at the table";
  const send = el("button", null, "Say");
  send.type = "submit";
  send.id = "chat-send";
  const closed = el("p", "chat-closed muted", "The game is over: the table chat is closed.");
  closed.id = "chat-closed";
  closed.hidden = true;
  const off = el("p", "chat-off muted", "The chat is off at this table.");
  off.id = "chat-off";
  off.hidden = true;
  const notice = el("p", "chat-notice muted");
  notice.id = "chat-notice";
  form.append(input, send);
  form.addEventListener("submit", (e) => { e.preventDefault(); say(); });
  wrap.append(head, list, off, form, closed, notice);
  const table = $("table");
  table.parentNode.insertBefore(wrap, table.nextSibling);
  return wrap;
}

function who(seat) {
  return typeof seat === "number" ? C.seatName(seat) : "a spectator";
}

/** Draws the messages (text only) and the box (a seat's, while the game is on). */
function drawMessages(messages) {
  const list = $("chat-messages");
  list.replaceChildren(...messages.map((m) => {
    const li = el("li", m.hidden ? "chat-message hidden" : "chat-message");
    li.setAttribute("data-seq", String(m.seq));
    li.append(el("strong", null, who(m.seat) + ": "));
    li.append(el("span", "chat-text", m.hidden && m.text === null ? "(hidden by the game's host)" : m.text));
    return li;
  }));
  list.scrollTop = list.scrollHeight;
  $("chat-empty").hidden = messages.length > 0;
}

async function load() {
  if (C.loading) { C.dirty = true; return C.loading; }
  C.loading = (async () => {
    try {
      do {
        C.dirty = false;
        const page = await C.referee.games.chatMessages(C.id);
        drawMessages(page.messages);
      } while (C.dirty);
    } catch (e) {
      C.notice = "The chat could not be read: " + (e && e.message ? e.message : String(e));
    } finally {
      C.loading = null;
      $("chat-notice").textContent = C.notice;
    }
  })();
  return C.loading;
}

async function say() {
  const input = $("chat-text");
  const text = input.value;
  if (!text.trim()) return;
  $("chat-send").disabled = true;
  C.notice = "";
  try {
    await C.referee.games.chat(C.id, text);
    input.value = "";
    if (C.mySeat === null && C.late) {  /* a spectator reads the chat as late as the game (docs/spectators.md) */
      C.notice = "Sent. Spectators see this table " + C.late + " versions late: your message shows here once " +
        "the game is that much further on.";
    }
  } catch (e) {
    C.notice = e instanceof RefereeProblem ? "Not sent (" + e.code + "): " + (e.detail || e.title) :
      "Not sent: " + (e && e.message ? e.message : String(e));
  } finally {
    $("chat-send").disabled = false;
  }
  await load();
}

/** The chat of game `id`, read through `referee` (the page's client, with the seat's token if any). */
export function openChat(referee, id, mySeat, seatName) {
  Object.assign(C, { referee, id, mySeat, seatName, version: -1 });
  section();
}

/** A view was drawn: read the messages again if the game moved on; the box is a seat's, while the game is on. */
export function chatSeen(view) {
  if (!C.referee || view.id !== C.id) return;
  section().hidden = false;
  /* who may talk (the view's `chat`, where the creator said; else every person's seat) */
  C.late = view.spectator_delay && view.status === "active" ? view.spectator_delay.versions : 0;
  const mode = view.chat || "seats";
  const mayTalk = mode === "everyone" || (mode === "seats" && C.mySeat !== null);
  $("chat-form").hidden = !mayTalk || view.status !== "active";
  $("chat-off").hidden = mode !== "off";
  $("chat-closed").hidden = view.status === "active" || mode === "off";  /* a game over takes no more messages (410 game_over) */
  if (typeof view.version === "number" && view.version > C.version) {
    C.version = view.version;
    load();
  }
}
