"""Issue 17: the server's memory after 100 games played through the API. Starts
``alfabeta serve`` on a free port, plays N games (engine against engine, so each game runs to
its end on the server), and prints the server's resident memory before and after, with the
games kept in memory and after deleting them. Run: python benchmarks/web_memory.py [games] [game]
"""

import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request


def call(base: str, method: str, path: str, body: dict | None = None) -> dict:
    """One JSON request."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base + path, data=data, method=method, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def rss_mb(pid: int) -> float:
    """The process's resident memory in MB (Linux)."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    """Play the games and print the memory at each stage."""
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    game = sys.argv[2] if len(sys.argv) > 2 else "connect-four"
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "alfabeta.cli", "serve", "--port", str(port)])
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                call(base, "GET", "/api/presets")
                break
            except OSError:
                time.sleep(0.1)
        start = rss_mb(server.pid)
        started, ids, plies = time.perf_counter(), [], 0
        for _ in range(games):
            state = call(base, "POST", "/api/sessions", {"game": game, "depth": 3, "human": "none"})
            while not state["over"]:
                time.sleep(0.02)
                state = call(base, "GET", f"/api/sessions/{state['id']}")
            ids.append(state["id"])
            plies += len(state["moves"])
        seconds = time.perf_counter() - started
        kept = rss_mb(server.pid)
        for sid in ids:
            try:
                call(base, "DELETE", f"/api/sessions/{sid}")
            except urllib.error.HTTPError as error:  # beyond 200 games the oldest were dropped
                assert error.code == 404, error
        deleted = rss_mb(server.pid)
        print(f"{games} games of {game} ({plies} plies) in {seconds:.1f} s through the API")
        print(
            f"server RSS: {start:.1f} MB at start, {kept:.1f} MB with the games kept, "
            f"{deleted:.1f} MB after deleting them"
        )
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
