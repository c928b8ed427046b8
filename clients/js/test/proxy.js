/* A reverse proxy in front of a real referee, to make of a game's event
   stream what networks and proxies make of one: a stream cut in the middle
   of an event, or a proxy that will not pass a stream at all (it answers
   502 with a page of its own). Everything else passes as is. */
import { createServer, request as forward } from "node:http";

/**
 * @typedef {object} Proxy
 * @property {string} url
 * @property {Array<{url: string, lastEventId: string | undefined}>} streams the stream requests seen
 * @property {() => Promise<void>} stop
 */

/**
 * @param {string} upstream the referee's URL
 * @param {{cutAfter?: number, refuseStreams?: boolean}} behaviour
 *   cutAfter: the first stream is cut after this many events and half of the next;
 *   refuseStreams: every stream request gets a 502 page
 * @returns {Promise<Proxy>}
 */
export function startProxy(upstream, { cutAfter, refuseStreams = false }) {
  const target = new URL(upstream);
  /** @type {Proxy["streams"]} */
  const streams = [];
  const server = createServer((req, res) => {
    const isStream = (req.url ?? "").split("?")[0].endsWith("/events/stream");
    if (isStream) {
      const header = req.headers["last-event-id"];
      streams.push({ url: req.url ?? "", lastEventId: Array.isArray(header) ? header[0] : header });
    }
    if (isStream && refuseStreams) {
      res.writeHead(502, { "Content-Type": "text/html" }).end("<h1>502 Bad Gateway</h1>");
      return;
    }
    const out = forward({ host: target.hostname, port: target.port, path: req.url, method: req.method,
                          headers: { ...req.headers, host: target.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      if (!isStream || cutAfter === undefined || streams.length > 1) {
        answer.pipe(res);
        return;
      }
      let text = "";
      let sent = 0;
      let cut = false;
      res.flushHeaders();
      answer.setEncoding("utf8");
      answer.on("data", (/** @type {string} */ chunk) => {
        if (cut) return;
        text += chunk;
        let end;
        while ((end = text.indexOf("\n\n")) >= 0) {
          const block = text.slice(0, end + 2);
          text = text.slice(end + 2);
          if (block.includes("\nid:") || block.startsWith("id:")) {
            if (sent === cutAfter) { // half of the next event, then the line goes dead (once that is out)
              cut = true;
              res.write(block.slice(0, Math.floor(block.length / 2)), () => {
                answer.destroy();
                res.socket?.end();
              });
              return;
            }
            sent++;
          }
          res.write(block);
        }
      });
      answer.on("end", () => res.end());
    });
    out.on("error", () => res.destroy());
    req.pipe(out);
  });
  return new Promise((done) => {
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      done({
        url: `http://127.0.0.1:${port}`, streams,
        stop: () => new Promise((stopped) => { server.closeAllConnections(); server.close(() => stopped()); }),
      });
    });
  });
}
