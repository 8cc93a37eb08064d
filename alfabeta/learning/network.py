"""A discrete Bayesian network (seed-002 §0.1, eq. 1): the joint probability as the product
of each variable's table given its parents, and the parameter counts that make the case for
factorising (Cuadro 1: 11 free parameters against 31 for the full joint)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
from attrs import frozen

from alfabeta.core import InvalidOptionError


@frozen
class Node:
    """A variable with ``states`` values, its ``parents`` and its table
    ``cpt[parent states…, state]`` (each row sums to 1)."""

    name: str
    states: int
    parents: tuple[str, ...]
    cpt: np.ndarray


class BayesianNetwork:
    """Nodes given in an order where parents come first."""

    def __init__(self, nodes: Sequence[Node]) -> None:
        self.nodes = {node.name: node for node in nodes}
        for node in nodes:
            shape = (*(self.nodes[p].states for p in node.parents), node.states)
            if any(p not in self.nodes for p in node.parents) or node.cpt.shape != shape:
                raise InvalidOptionError(f"node {node.name}: table of shape {shape} expected")
            if not np.allclose(node.cpt.sum(axis=-1), 1.0):
                raise InvalidOptionError(f"node {node.name}: a row does not sum to 1")

    def joint(self, assignment: Mapping[str, int]) -> float:
        """p(x1, …, xn) = Π p(xi | pa(xi)) (eq. 1)."""
        probability = 1.0
        for node in self.nodes.values():
            index = (*(assignment[p] for p in node.parents), assignment[node.name])
            probability *= float(node.cpt[index])
        return probability

    def free_parameters(self) -> int:
        """Values the factorised form needs: (states − 1) per row of each table."""
        return sum(
            math.prod(self.nodes[p].states for p in node.parents) * (node.states - 1)
            for node in self.nodes.values()
        )

    def joint_parameters(self) -> int:
        """Values the full joint table needs: Π states − 1."""
        return math.prod(node.states for node in self.nodes.values()) - 1
