/* The new-game form's table options (trial of issue 40 by a new user): the
   options every ruleset takes beside its own (openapi.yaml, CreateGame
   `options`: clock, chat, spectator_delay and spectator_omniscient,
   away_grace_s and away_bot, series; docs/clocks.md, chat.md,
   spectators.md, presence.md, rematch.md), each a choice in words a person
   understands. Their first choice is the referee's default and sends
   nothing: a game made without touching them is the game made before. */

/** [label, [[words, value (undefined: send nothing)], …], hint]: each a select; value an object of options */
const CHOICES = [
  ["Clock", [
    ["no clock", undefined],
    ["3:00 a seat, +2 s a move", { clock: { bank_s: 180, increment_s: 2 } }],
    ["5:00 a seat, +5 s a move", { clock: { bank_s: 300, increment_s: 5 } }],
    ["10:00 a seat, +10 s a move", { clock: { bank_s: 600, increment_s: 10 } }],
    ["30:00 a seat, +30 s a move", { clock: { bank_s: 1800, increment_s: 30 } }],
  ], "each seat's time for the whole game; an answer to a shot or a claim has its own 15 s; out of time, " +
     "the referee plays the seat's default move"],
  ["Table chat", [
    ["the players may talk", undefined],
    ["players and spectators may talk", { chat: "everyone" }],
    ["no chat", { chat: "off" }],
  ], "every message is kept in the game's signed log"],
  ["Spectators see", [
    ["the game live", undefined],
    ["the game 10 steps late", { spectator_delay: 10 }],
    ["the game 50 steps late", { spectator_delay: 50 }],
    ["the game 50 steps late, with every hand (a broadcast)", { spectator_delay: 50, spectator_omniscient: true }],
  ], "a step is a move or an event of the game; once it is over, all of it is shown"],
  ["A person who leaves", [
    ["when away a while: their turns play their default move", undefined],
    ["when away a while: a built-in bot (heuristic) plays for them", { away_bot: "heuristic" }],
    ["is waited for", { away_grace_s: null }],
  ], "until they come back (open their link again)"],
  ["Play", [
    ["one game", undefined],
    ["a best of 3 series", { series: { best_of: 3 } }],
    ["a best of 5 series", { series: { best_of: 5 } }],
  ], "a series: \"Play again\" at the end deals its next game"],
];

let made = 0;

/** The table options as controls: {box, read() -> the options chosen (an object, maybe empty)}. */
export function tableOptions(el) {
  const box = el("div", "table-options");
  box.appendChild(el("p", "options-head", "At the table:"));
  const picks = CHOICES.map(([label, choices, hint]) => {
    const row = el("p", "option");
    const id = "table-option-" + (++made);
    const lab = el("label", null, label);
    lab.htmlFor = id;
    const pick = el("select");
    pick.id = id;
    choices.forEach(([words], k) => { const o = el("option", null, words); o.value = String(k); pick.appendChild(o); });
    row.append(lab, document.createTextNode(" "), pick, el("span", "option-hint muted", " — " + hint));
    box.appendChild(row);
    return [pick, choices];
  });
  const read = () => Object.assign({}, ...picks.map(([pick, choices]) => choices[Number(pick.value)][1] || {}));
  return { box, read };
}
