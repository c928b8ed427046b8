"""`make bench`: every benchmark, each reporting ratios measured in one run."""
from __future__ import annotations

import sys

from bench import http_bench


def main(argv: list[str]) -> int:
    which = set(argv) or {"http"}
    if "http" in which:
        http_bench.report(http_bench.run())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
