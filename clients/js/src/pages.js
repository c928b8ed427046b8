/* A listing's pages: `list(query)` answers one page `{<items>, next}`;
   `every` walks them, following `next` until it is null. */

/**
 * Every item of a listing, page after page.
 * @template T
 * @param {(cursor: string | null) => Promise<{ next?: string | null } & Record<string, unknown>>} page one page at `cursor`
 * @param {string} key the page's list of items (`games`, `bots`, `tournaments`)
 * @returns {AsyncGenerator<T, void, undefined>}
 */
export async function* every(page, key) {
  /** @type {string | null} */
  let cursor = null;
  for (;;) {
    const body = await page(cursor);
    const items = /** @type {T[]} */ (body[key] ?? []);
    yield* items;
    const next = body.next ?? null;
    if (next === null || (!items.length && next === cursor)) return;
    cursor = next;
  }
}
