"""Issue 12: what keeping the transposition table between moves saves. The UCI engine plays
the first move of a game (after 1.e4), then searches the second (after its move and 2.Nf3) to
the same depth, once with the table kept (keep_table=on) and once rebuilt; it prints the nodes
each needed. Run: python benchmarks/tt_reuse.py [depth]
"""

import subprocess
import sys

SEARCHER = (
    "negascout(tt=on, iterative=on, killers=on, history=on, quiescence=on, null_move=2, "
    "aspiration=50, keep_table={keep})"
)


def uci_session(keep: str, depth: int) -> tuple[int, int]:
    """(nodes of the first search, nodes of the second) reported by ``alfabeta uci``."""
    engine = subprocess.Popen(
        [sys.executable, "-m", "alfabeta.cli", "uci"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )

    def send(line: str) -> None:
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    def search(moves: str) -> tuple[int, str]:
        send(f"position startpos moves {moves}")
        send(f"go depth {depth}")
        nodes = 0
        for line in engine.stdout:
            words = line.split()
            if words[:1] == ["info"] and "nodes" in words and "depth" in words:
                nodes = int(words[words.index("nodes") + 1])
            if words[:1] == ["bestmove"]:
                return nodes, words[1]
        raise RuntimeError("the engine stopped")

    send("uci")
    send(f"setoption name Searcher value {SEARCHER.format(keep=keep)}")
    send("isready")
    first, reply = search("e2e4")
    second, _ = search(f"e2e4 {reply} g1f3")
    send("quit")
    engine.wait(timeout=30)
    return first, second


def main() -> None:
    """Print the nodes of both searches with the table kept and rebuilt."""
    depth = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    print(f"{'table':<10} {'first move':>12} {'second move':>12}   (depth {depth})")
    for keep, label in (("on", "kept"), ("off", "rebuilt")):
        first, second = uci_session(keep, depth)
        print(f"{label:<10} {first:>12,} {second:>12,}")


if __name__ == "__main__":
    main()
