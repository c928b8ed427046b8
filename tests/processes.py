"""Real processes the tests start (servers, workers, Redis)."""
from __future__ import annotations

import subprocess


def stop(*procs: subprocess.Popen[bytes], timeout: float = 15) -> None:
    """Terminate real processes, in order; kill one that will not go."""
    for proc in procs:
        proc.terminate()
    for proc in procs:
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
