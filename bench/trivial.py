"""The trivial endpoint `make bench` measures the referee against: Flask,
one JSON route, nothing else — served by `referee serve --app
bench.trivial:app`, so gunicorn's settings are the referee's own."""
from flask import Flask

app = Flask(__name__)


@app.get("/")
def hello() -> dict[str, bool]:
    return {"ok": True}
