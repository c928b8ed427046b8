/* Playing a game through the client: every seat plays its first legal move
   until the game is over. */

/** @typedef {import("../src/index.js").Referee} Referee */
/** @typedef {import("../src/types.js").Ok<"createGame">} Created */

/**
 * Play `moves` moves of `game` (all of them by default: to the end).
 * @param {Referee} referee
 * @param {Created} game
 * @param {number} [moves]
 * @returns {Promise<number>} the game's version when done
 */
export async function play(referee, game, moves = Infinity) {
  for (let played = 0; played < moves; played++) {
    const spectator = await referee.games.view(game.id);
    if (spectator.status !== "active") return spectator.version;
    const seat = spectator.to_act[0];
    const token = game.seats[seat].token ?? null;
    const mine = await referee.games.view(game.id, { token });
    await referee.games.move(game.id, mine.legal_moves[0], { token, expectedVersion: mine.version });
  }
  return (await referee.games.view(game.id)).version;
}
