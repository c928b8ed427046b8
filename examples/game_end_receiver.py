"""A game-end webhook receiver (docs/webhooks.md): it checks each delivery's
signature with the game's ``callback_secret``, refuses a stale one, counts
a delivery id once however often it comes, and checks the final head's
signature with the referee's published keys (``GET /v1/keys``) before it
believes the result. Python's standard library and ``cryptography``.

    python examples/game_end_receiver.py --port 9200 --secret=<callback_secret> [--once]
"""
import argparse
import base64
import hashlib
import hmac
import json
import os
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, HTTPServer

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, required=True)
parser.add_argument("--secret", required=True, help="the game's callback_secret (POST /v1/games's answer)")
parser.add_argument("--once", action="store_true", help="exit after the first delivery accepted")
args = parser.parse_args()
REFEREE = os.environ["REFEREE_URL"]  # where the referee serves, for its keys
seen: set[str] = set()  # delivery ids already accepted: a retry of one is answered 200 and ignored


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def head_is_signed(end: dict) -> str:
    """The key that signed the final head; raises if none of the published keys did."""
    keys = json.load(urllib.request.urlopen(f"{REFEREE}/v1/keys"))["keys"]
    kid = end["signature"]["kid"]
    statement = json.dumps({"purpose": "referee.final", "game": end["game"], "version": end["version"],
                            "head": end["head"], "kid": kid}, sort_keys=True, separators=(",", ":"))
    key = next(k for k in keys if k["kid"] == kid)
    Ed25519PublicKey.from_public_bytes(unb64(key["x"])).verify(unb64(end["signature"]["sig"]), statement.encode())
    return kid


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        stamp = self.headers.get("X-Referee-Timestamp", "0")
        mac = hmac.new(args.secret.encode(), stamp.encode() + b"." + body, hashlib.sha256).hexdigest()
        if not hmac.compare_digest("sha256=" + mac, self.headers.get("X-Referee-Signature", "")) \
                or abs(time.time() - int(stamp)) > 300:
            return self.answer(401)  # not the referee's, or replayed: refused
        delivery = self.headers["X-Referee-Delivery"]
        if delivery not in seen:
            end = json.loads(body)
            kid = head_is_signed(end)
            seen.add(delivery)
            print(f"accepted {delivery}: game {end['game']} finished at version {end['version']}, "
                  f"winners {end['result']['winners']}, head signed by key {kid}", flush=True)
        self.answer(200)
        if args.once:
            self.server.done = True

    def answer(self, status: int) -> None:
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *_) -> None:
        pass


server = HTTPServer(("127.0.0.1", args.port), Receiver)
server.done = False
while not server.done:
    server.handle_request()
