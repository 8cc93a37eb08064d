"""What ``alfabeta explain`` and ``alfabeta fcm`` show a person: an evaluator's terms on a
position (for the emotional evaluator, the whole appraisal behind them), an FCM run as
Table 5 of the article prints it, and its plot."""

from __future__ import annotations

from typing import IO, TYPE_CHECKING, Any

from alfabeta.console import print_table
from alfabeta.core.errors import InvalidOptionError
from alfabeta.evaluators.appraisal import AVATARS, SHORT, label
from alfabeta.evaluators.fcm import NODES, Trajectory

if TYPE_CHECKING:
    from alfabeta.core import Position

SIDES = ("white", "black")


def explanation(evaluator: Any, position: Position) -> dict[str, Any]:
    """A JSON-ready account of ``evaluator`` on ``position``: its score, and its terms (raw,
    multiplier, weighted and the appraisal when it has ``report``, else ``explain``'s)."""
    account: dict[str, Any] = {
        "position": position.to_string(),
        "evaluator": repr(evaluator),
        "evaluate": evaluator.evaluate(position),
    }
    report = getattr(evaluator, "report", None)
    if report is not None:
        details = report(position)
        details["program"] = SIDES[details["program"]]
        return {**account, **details}
    explain = getattr(evaluator, "explain", None)
    if explain is None:
        raise InvalidOptionError(f"evaluator {evaluator!r} does not explain its score")
    return {**account, "terms": {k: {"value": v} for k, v in explain(position).items()}}


def _number(value: float) -> str:
    return f"{value:.6f}".rstrip("0").rstrip(".") if value != int(value) else f"{value:g}"


def print_explanation(account: dict[str, Any], out: IO[str], plain: bool | None = None) -> None:
    """The account of :func:`explanation` as tables."""
    print(f"position: {account['position']}", file=out)
    print(f"evaluator: {account['evaluator']}", file=out)
    appraisal = account.get("appraisal")
    if appraisal is not None:
        print(f"program: {account['program']} (the side to move at the search's root)", file=out)
        measures = appraisal["measures"]
        raw = {
            "BM": f"{measures['material']:g} cp",
            "Mov": f"{measures['moves']} moves",
            "SegR": f"shield {measures['shield']:g}, tropism {measures['tropism']:g}"
            + (", in check" if measures["in_check"] else ""),
            "IndROp": f"shield {measures['opponent_shield']:g}, "
            f"tropism {measures['opponent_tropism']:g}",
        }
        rows = []
        for concept in NODES:
            start = appraisal["inputs"][concept]
            final = appraisal["final"]
            rows.append(
                [
                    concept,
                    raw.get(concept, ""),
                    f"{start:g}",
                    label(concept, start),
                    "" if final is None else f"{final[concept]:.6f}",
                    "" if final is None else label(concept, final[concept]),
                ]
            )
        updates = appraisal["updates"]
        title = "fuzzified inputs and the FCM's final state" + (
            f" ({updates} updates)" if updates is not None else " (ε fixed: no FCM run)"
        )
        print_table(
            ["Concept", "Measured", "Input", "Label", "Final", "Label"],
            rows,
            out,
            title,
            plain,
        )
        epsilon = appraisal["epsilon"]
        print(
            f"emotion ε = {epsilon:.6f} ({appraisal['emotion']}), avatar "
            f"{appraisal['avatar']} ({AVATARS[appraisal['avatar']]})",
            file=out,
        )
        print(f"goal: {appraisal['goal']}", file=out)
        factors = appraisal["relevance"]
        print(
            "relevance r: " + ", ".join(f"{k} {factors[k]:.6f}" for k in SHORT),
            file=out,
        )
        rows = [
            [name, short, _number(t["raw"]), f"{t['multiplier']:.6f}", f"{t['weighted']:.2f}"]
            for (name, t), short in zip(account["terms"].items(), SHORT, strict=True)
        ]
        print_table(["Term", "", "Raw", "Multiplier", "Weighted"], rows, out, "", plain)
        print(f"total (program's view): {account['total']:.2f}", file=out)
    else:
        rows = [[name, "", _number(t["value"])] for name, t in account["terms"].items()]
        print_table(["Term", "", "Value"], rows, out, "", plain)
    print(f"evaluate (side to move): {account['evaluate']}", file=out)


def print_trajectory(trajectory: Trajectory, out: IO[str], plain: bool | None = None) -> None:
    """Every state of the run, one row per update (Table 5's layout), then the final one."""
    rows = [[f"V[{k}]", *(f"{v:.6f}" for v in state)] for k, state in enumerate(trajectory.states)]
    print_table(["", *NODES], rows, out, "", plain)
    final = trajectory.final
    state = "converged" if trajectory.converged else "stopped at the update cap"
    print(f"{state} after {trajectory.updates} updates", file=out)
    print(
        "final: "
        + ", ".join(f"{n} {v:.6f} ({label(n, v)})" for n, v in zip(NODES, final, strict=True)),
        file=out,
    )
    print(f"ε = {trajectory.epsilon:.6f} ({label('Aliv', trajectory.epsilon)})", file=out)


def plot_trajectory(trajectory: Trajectory, path: str, title: str = "") -> None:
    """Each concept over the updates, as a PNG (needs the plot extra)."""
    from alfabeta.plotting import pyplot

    plt = pyplot()
    figure, axes = plt.subplots(figsize=(7, 4))
    for i, name in enumerate(NODES):
        axes.plot(range(len(trajectory.states)), trajectory.states[:, i], marker=".", label=name)
    axes.set_xlabel("update")
    axes.set_ylabel("value")
    axes.set_ylim(-1.05, 1.05)
    axes.axhline(0, color="grey", linewidth=0.8)
    axes.legend(loc="best", fontsize="small")
    axes.set_title(title or "FCM run")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
