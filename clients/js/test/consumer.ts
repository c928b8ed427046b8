// A table app in TypeScript, as a user of the published package writes it:
// checked by `npm run lint` against the declarations `npm pack` ships
// (types/, built from the JSDoc), so every call is typed from openapi.yaml.
// The @ts-expect-error lines prove the types bite: each is an error tsc must find.
import { MoveRefused, Referee, RefereeProblem, VersionConflict } from "@referee/client";

export async function table(referee: Referee): Promise<number> {
  const game = await referee.games.create({ ruleset: "bang-dice", players: 3 });
  const token: string | null = game.seats[0].token;
  const view = await referee.games.view(game.id, { token });
  const seats: number[] = view.to_act;
  try {
    const accepted = await referee.games.move(game.id, view.legal_moves[0], { token, expectedVersion: view.version });
    const version: number = accepted.version;
    for await (const event of referee.games.stream(game.id, { after: version })) {
      const seq: number = event.seq;
      if (seq > version) break;
    }
  } catch (error) {
    if (error instanceof MoveRefused) return error.rule === null ? 0 : error.status;
    if (error instanceof VersionConflict) return error.currentVersion ?? -1;
    if (error instanceof RefereeProblem) return error.status;
    throw error;
  }
  const { rules } = await referee.rulesets.rules("bang-dice");
  const first: string | undefined = rules[0]?.title;
  // @ts-expect-error a view's version is a number
  const wrong: string = view.version;
  // @ts-expect-error a move needs its type
  await referee.games.move(game.id, { pile: 0 });
  // @ts-expect-error a game's body names its ruleset
  await referee.games.create({ players: 3 });
  return seats.length + (first ? 1 : 0) + wrong.length;
}
