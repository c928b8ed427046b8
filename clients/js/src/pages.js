/* A listing's pages: `list(query)` answers one page `{<items>, next}`
   (a ladder's: `{items, next_cursor}`); `every` walks them, following the
   cursor until it is null. */

/**
 * Every item of a listing, page after page.
 * @template T
 * @param {(cursor: string | null) => Promise<Record<string, unknown>>} page one page at `cursor`
 * @param {string} key the page's list of items (`games`, `bots`, `tournaments`, `items`)
 * @param {string} [nextKey] the page's cursor of the next (`next`, a ladder's `next_cursor`)
 * @returns {AsyncGenerator<T, void, undefined>}
 */
export async function* every(page, key, nextKey = "next") {
  /** @type {string | null} */
  let cursor = null;
  for (;;) {
    const body = await page(cursor);
    const items = /** @type {T[]} */ (body[key] ?? []);
    yield* items;
    const next = /** @type {string | null | undefined} */ (body[nextKey]) ?? null;
    if (next === null || (!items.length && next === cursor)) return;
    cursor = next;
  }
}
