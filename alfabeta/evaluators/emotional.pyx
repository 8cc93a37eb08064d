# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The emotional evaluator of seed-000/001 ("Deep Feeling"): ``f = Σ (1 + r_i·ε)·p_i`` over
the cpw terms (BM, Mov, SegR, IndROp) measured from the program's side.

``prepare(root)`` appraises the root once per search (the program is the side to move there):
it fuzzifies the position, picks the goal, runs the fuzzy cognitive map for ε and freezes the
four multipliers ``1 + r_i·ε``. ``evaluate`` then measures the four terms in compiled code and
weighs them with no Python object per node, and returns the score from the side to move's
view (the program's score negated when its opponent is to move). With ε = 0 it is exactly the
four-term base evaluation from the program's side.
"""

from libc.math cimport floor

from alfabeta.core.evaluator cimport EVAL_ERROR
from alfabeta.core.position cimport Position
from alfabeta.evaluators.chess_eval cimport CPW
from alfabeta.games.chess.board cimport Chess

from alfabeta.core.errors import InvalidOptionError
from alfabeta.core.scores import MAX_PLY, WIN
from alfabeta.evaluators.appraisal import (
    GOALS,
    SHORT,
    TERMS,
    Fuzzifier,
    Goal,
    Measures,
    appraise,
    goal_named,
    relevance,
    select_goal,
)
from alfabeta.evaluators.fcm import FCM

cdef double SCORE_LIMIT = WIN - MAX_PLY - 1  # a weighted score never reads as a proven result
cdef double FACTOR_LIMIT = 10000.0           # |r| above this is a typo, not a preference


cdef inline int _round_half_away(double value) noexcept:
    if value > SCORE_LIMIT:
        value = SCORE_LIMIT
    elif value < -SCORE_LIMIT:
        value = -SCORE_LIMIT
    return <int> floor(value + 0.5) if value >= 0 else -<int> floor(-value + 0.5)


def _per_goal(value, check):
    """An option given once for every goal or as {goal: value}: a function of the goal."""
    if isinstance(value, dict):
        for name, item in value.items():
            goal_named(name)
            check(item)
        return lambda goal: value.get(goal.name)
    if value is not None:
        check(value)
    return lambda goal: value


cdef class Emotional(CPW):
    """Seed-000's emotional evaluation (module docstring). Options:

    * ``matrix``: the FCM's matrix, ``printed`` (A Table 2) or ``table5`` (reproduces Table 5);
    * ``goal``: ``auto`` (Cuadro 4.3 + escape check) or a fixed goal: ``escape-check``,
      ``safe-position``, ``gain-advantage``, ``enclose``;
    * ``eta`` (four proportions) and ``epsilon_ref``, each for every goal or as
      ``{goal: value}``; or ``relevance`` (four factors r given directly);
    * ``epsilon``: a fixed emotion instead of the map's (e.g. T's recorded values);
    * ``clamp``: a negative multiplier becomes 0 (off: the formula as published);
    * ``magnitude``: weigh with |ε| (fear and relief both push toward the goal; off: the
      published signed ε, under which fear inverts the weights of a goal with ε_ref > 0);
    * the fuzzifier's thresholds ``material_band``, ``immobile``, ``shield_safe``,
      ``shield_unsafe``, ``tropism_safe``, ``tropism_unsafe`` (see ``Fuzzifier``);
    * the base terms' ``tropism`` (``seed``/``cpw``) and ``mobility`` (``own``/``difference``).
    """

    name = "emotional"
    games = ("chess",)
    root_dependent = True  # its weights change with each search's root: no table carries over
    cdef double[4] weight
    cdef int program
    cdef readonly object appraisal
    cdef object settings, fuzzifier, fcm, fixed_goal, eta_for, epsilon_ref_for
    cdef object fixed_relevance, fixed_epsilon
    cdef bint clamp, magnitude

    def __init__(self, matrix="printed", goal="auto", eta=None, epsilon_ref=None,
                 relevance=None, epsilon=None, clamp=False, magnitude=False, tolerance=1e-6,  # no-cython-lint
                 material_band=200.0, immobile=10.0, shield_safe=16.0, shield_unsafe=0.0,
                 tropism_safe=55.0, tropism_unsafe=70.0, tropism="seed", mobility="own"):
        super().__init__(tropism=tropism, mobility=mobility)
        self.settings = {
            "matrix": matrix, "goal": goal, "eta": eta, "epsilon_ref": epsilon_ref,
            "relevance": relevance, "epsilon": epsilon, "clamp": clamp,
            "magnitude": magnitude,
            "tolerance": tolerance, "material_band": material_band, "immobile": immobile,
            "shield_safe": shield_safe, "shield_unsafe": shield_unsafe,
            "tropism_safe": tropism_safe, "tropism_unsafe": tropism_unsafe,
        }
        self.fcm = FCM(matrix, tolerance=tolerance)
        self.fuzzifier = Fuzzifier(material_band, immobile, shield_safe, shield_unsafe,
                                   tropism_safe, tropism_unsafe)
        self.fixed_goal = None if goal == "auto" else goal_named(goal)
        self.eta_for = _per_goal(eta, _check_eta)
        self.epsilon_ref_for = _per_goal(epsilon_ref, _check_epsilon_ref)
        if relevance is not None and (eta is not None or epsilon_ref is not None):
            raise InvalidOptionError(
                "emotional: give relevance (the factors r) or eta/epsilon_ref, not both")
        self.fixed_relevance = None if relevance is None else _factors(relevance)
        if epsilon is not None and (isinstance(epsilon, bool) or not isinstance(
                epsilon, (int, float)) or not -1 <= epsilon <= 1):
            raise InvalidOptionError(f"emotional option epsilon={epsilon!r}: expected −1 … 1")
        self.fixed_epsilon = epsilon
        for flag, value in (("clamp", clamp), ("magnitude", magnitude)):
            if not isinstance(value, bool):
                raise InvalidOptionError(f"emotional option {flag}={value!r}: expected on or off")
        self.clamp, self.magnitude = clamp, magnitude
        self.unprepare()

    def options(self):
        return {**self.settings, **super().options()}

    def goal_settings(self, goal):
        """``goal`` with this evaluator's eta/epsilon_ref overrides applied."""
        eta = self.eta_for(goal)
        epsilon_ref = self.epsilon_ref_for(goal)
        return Goal(goal.name, goal.source_name,
                    goal.eta if eta is None else tuple(float(x) for x in eta),
                    goal.epsilon_ref if epsilon_ref is None else float(epsilon_ref))

    def measures(self, Position position):
        """What the appraisal looks at, from the side to move's (the program's) side."""
        cdef Chess board = <Chess?> position
        cdef int us = board.side_to_move
        cdef int[4] t
        self.terms_for(board, us, t)
        return Measures(
            material=t[0] / 4.0, moves=board.mobility(us),
            shield=self.shield(board, us), tropism=self.tropism_quarters(board, us) / 4.0,
            opponent_shield=self.shield(board, us ^ 1),
            opponent_tropism=self.tropism_quarters(board, us ^ 1) / 4.0,
            in_check=board.in_check())

    def appraise(self, Position position):
        """The appraisal of ``position`` with the side to move as the program."""
        if not isinstance(position, Chess):
            raise TypeError(f"emotional evaluates chess positions, not {position.name}")
        measures = self.measures(position)
        inputs = self.fuzzifier.inputs(measures)
        goal = self.fixed_goal
        if goal is None:
            goal = select_goal(inputs[3], inputs[5], measures.in_check)
        return appraise(measures, self.fuzzifier, self.fcm, self.goal_settings(goal),
                        self.fixed_relevance, self.clamp, self.fixed_epsilon, self.magnitude)

    cpdef prepare(self, Position root):
        """Appraise ``root`` and freeze ε, the goal and the multipliers for this search."""
        self.set_appraisal(self.appraise(root), root.side_to_move)

    def set_appraisal(self, appraisal, int program):
        """Use ``appraisal`` (e.g. one built by hand) with ``program`` (0 white, 1 black)."""
        if program not in (0, 1):
            raise InvalidOptionError(f"program side {program!r}: expected 0 (white) or 1")
        self.appraisal = appraisal
        self.program = program
        for i in range(4):
            self.weight[i] = appraisal.multipliers[i]

    def unprepare(self):
        """Forget the search's appraisal: each position is then appraised as its own root."""
        self.appraisal = None
        self.program = -1

    cpdef int evaluate(self, Position position) except? EVAL_ERROR:
        cdef int[4] t
        cdef double score
        if not isinstance(position, Chess):
            raise TypeError(f"emotional evaluates chess positions, not {position.name}")
        if self.program < 0:  # no search prepared a root: this position is its own
            self.prepare(position)
            try:
                return self.evaluate(position)
            finally:
                self.unprepare()
        self.terms_for(<Chess> position, self.program, t)
        score = (self.weight[0] * t[0] + self.weight[1] * t[1] + self.weight[2] * t[2]
                 + self.weight[3] * t[3]) / 4.0
        if position.side_to_move != self.program:
            score = -score
        return _round_half_away(score)

    def explain(self, Position position):
        """The four weighted terms from the side to move's view; their sum, rounded, is
        ``evaluate(position)``."""
        report = self.report(position)
        sign = 1 if report["program"] == position.side_to_move else -1
        return {name: sign * term["weighted"] for name, term in report["terms"].items()}

    def report(self, Position position):
        """Everything behind the score: each term's raw value, multiplier and weighted value
        (program's side), their total, and the appraisal in force (``position`` appraised as
        its own root if no search prepared one)."""
        cdef int[4] t
        cdef Chess board = <Chess?> position
        if self.program < 0:
            self.prepare(position)
            try:
                return self.report(position)
            finally:
                self.unprepare()
        self.terms_for(board, self.program, t)
        terms = {}
        for i in range(4):
            raw = t[i] / 4.0
            terms[TERMS[i]] = {"raw": raw, "multiplier": self.weight[i],
                               "weighted": self.weight[i] * raw}
        return {"program": self.program, "terms": terms,
                "total": sum(term["weighted"] for term in terms.values()),
                "appraisal": self.appraisal.to_dict()}

    def plain(self):
        """The base evaluation this one reweighs: the same terms with ε = 0."""
        return Emotional(epsilon=0.0, tropism=self.tropism, mobility=self.mobility_mode)


def _factors(values):
    factors = tuple(values) if isinstance(values, (list, tuple)) else None
    if factors is None or len(factors) != 4 or any(
            isinstance(r, bool) or not isinstance(r, (int, float)) or not -FACTOR_LIMIT <= r
            <= FACTOR_LIMIT for r in factors):
        raise InvalidOptionError(
            f"emotional option relevance={values!r}: expected four factors ({', '.join(SHORT)})"
            f" within ±{FACTOR_LIMIT:g}")
    return tuple(float(r) for r in factors)


def _check_eta(value):
    if not isinstance(value, (list, tuple)) or any(
            isinstance(x, bool) or not isinstance(x, (int, float)) for x in value):
        raise InvalidOptionError(
            f"emotional option eta={value!r}: expected four proportions ({', '.join(SHORT)})")
    relevance(value, 1.0)


def _check_epsilon_ref(value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidOptionError(f"emotional option epsilon_ref={value!r}: expected a number")
    relevance(GOALS["gain-advantage"].eta, value)
