"""Elo, LOS, pentanomial and SPRT against values worked by hand from the published formulas
(anchors-ecosystem §1.7)."""

import math

import pytest

from alfabeta.arena.rating import (
    SPRT,
    WDL,
    Pentanomial,
    elo_estimate,
    elo_from_score,
    expected_score,
    los,
)
from alfabeta.core import InvalidOptionError


def test_a_score_of_0_508_is_5_6_elo():
    # D = -400·log10(1/0.508 - 1) = -400·log10(0.968504) = 5.559
    assert elo_from_score(0.508) == pytest.approx(5.559444, abs=1e-6)
    assert expected_score(elo_from_score(0.508)) == pytest.approx(0.508)


def test_elo_with_its_interval_from_ten_wins_five_draws_five_losses():
    # N = 20, s = (10 + 5/2)/20 = 0.625
    # σ² = (10·0.375² + 5·0.125² + 5·0.625²)/20 = 3.4375/20 = 0.171875
    # s ± 1.959964·√(0.171875/20) = 0.625 ± 0.181693 = [0.443307, 0.806693]
    # Elo: -400·log10(0.6) = 88.7395; bounds -39.5648 and 248.1849; ± (248.18 + 39.56)/2
    estimate = elo_estimate(WDL(wins=10, draws=5, losses=5))
    assert estimate.elo == pytest.approx(88.739500, abs=1e-5)
    assert estimate.lower == pytest.approx(-39.564838, abs=1e-5)
    assert estimate.upper == pytest.approx(248.184867, abs=1e-5)
    assert estimate.error == pytest.approx(143.874852, abs=1e-5)
    assert str(estimate) == "88.7 +/- 143.9"


def test_los_is_the_normal_cdf_of_the_decisive_margin():
    # Φ((10 - 5)/√15) = Φ(1.290994) = 0.901647
    assert los(WDL(10, 5, 5)) == pytest.approx(0.901647, abs=1e-6)
    # Φ(4/√4) = Φ(2) = 0.977250
    assert los(WDL(4, 0, 0)) == pytest.approx(0.977250, abs=1e-6)


def test_all_wins_is_plus_infinity_with_no_finite_interval():
    estimate = elo_estimate(WDL(4, 0, 0))
    assert estimate.elo == math.inf and estimate.lower == math.inf
    assert estimate.error == math.inf
    assert str(estimate) == "+inf +/- inf"


def test_all_draws_is_exactly_even():
    estimate = elo_estimate(WDL(0, 6, 0))
    assert (estimate.elo, estimate.lower, estimate.upper, estimate.error) == (0, 0, 0, 0)
    assert estimate.los == 0.5
    assert str(estimate) == "0.0 +/- 0.0"


def test_no_games_says_nothing():
    estimate = elo_estimate(WDL())
    assert estimate.elo == 0.0
    assert (estimate.lower, estimate.upper) == (-math.inf, math.inf)
    assert estimate.los == 0.5
    assert SPRT().llr(WDL()) == 0.0


def test_pentanomial_counts_pairs_by_their_score():
    pairs = [(0, 0), (0, 0.5), (0.5, 0), (1, 0), (0.5, 0.5), (0.5, 1), (1, 1)]
    assert Pentanomial.from_pairs(pairs).counts == (1, 2, 2, 1, 1)


def test_elo_from_pairs_uses_the_pair_variance():
    # counts (0,1,2,1,0): pair scores ¼, ½, ½, ¾: s = ½, σ² = (¼² + ¼²)/4 = 0.03125
    # ½ ± 1.959964·√(0.03125/4) = ½ ± 0.173238 → ±(-400·log10(1/0.673238 - 1)) = ±125.575
    estimate = elo_estimate(WDL(), Pentanomial((0, 1, 2, 1, 0)))
    assert estimate.elo == 0.0
    assert estimate.error == pytest.approx(125.5748, abs=1e-3)


def test_sprt_bounds_for_five_percent_errors_are_2_944():
    sprt = SPRT(elo0=0, elo1=10, alpha=0.05, beta=0.05)
    assert sprt.lower_bound == pytest.approx(-2.944439, abs=1e-6)
    assert sprt.upper_bound == pytest.approx(2.944439, abs=1e-6)
    assert sprt.decision(2.95) == "H1" and sprt.decision(-2.95) == "H0"
    assert sprt.decision(0.0) is None


def test_trinomial_llr_by_the_gsprt_approximation():
    # s0 = E(0) = 0.5, s1 = E(10) = 0.514387; s = 0.625, σ² = 0.171875, N = 20
    # LLR = 20·0.014387·(1.25 - 0.5 - 0.514387)/(2·0.171875) = 0.197225
    assert SPRT(0, 10).llr(WDL(10, 5, 5)) == pytest.approx(0.197225, abs=1e-6)


def test_pentanomial_llr_of_a_symmetric_sample_is_slightly_negative():
    # counts (1,2,4,2,1): s = ½, σ² = (2·½² + 4·¼²)/10 = 0.75/10 = 0.075, N = 10
    # LLR = 10·0.014387·(1 - 1.014387)/(2·0.075) = -0.013799
    llr = SPRT(0, 10).llr(WDL(), Pentanomial((1, 2, 4, 2, 1)))
    assert llr == pytest.approx(-0.013799, abs=1e-6)


def test_normalized_model_maps_the_bounds_through_sigma():
    # σ = √0.171875 = 0.414578; s1 = ½ + 10/(800/ln 10)·σ = 0.511933
    # LLR = 20·0.011933·(1.25 - 1.011933)/(2·0.171875) = 0.165280
    llr = SPRT(0, 10, model="normalized").llr(WDL(10, 5, 5))
    assert llr == pytest.approx(0.165280, abs=1e-6)


def test_empty_cells_are_regularised_but_one_kind_of_result_decides_nothing():
    sprt = SPRT(0, 10)
    only_wins = Pentanomial((0, 0, 0, 0, 3))
    assert sprt.llr(WDL(6, 0, 0), only_wins) > sprt.upper_bound  # fishtest's 1e-3 cells
    assert sprt.test(WDL(6, 0, 0), only_wins) is None
    mixed = Pentanomial((0, 0, 2, 0, 40))
    assert sprt.test(WDL(82, 0, 2), mixed) == "H1"


def test_sprt_options_are_parsed_and_checked():
    assert SPRT.parse("elo0=0 elo1=5 alpha=0.05 beta=0.1") == SPRT(0, 5, 0.05, 0.1)
    with pytest.raises(InvalidOptionError, match=r"elo0=10.0 must be below elo1=5.0"):
        SPRT.parse("elo0=10 elo1=5")
    with pytest.raises(InvalidOptionError, match="alpha"):
        SPRT.parse("elo0=0 elo1=5 alpha=1.5")
    with pytest.raises(InvalidOptionError, match="gamma"):
        SPRT.parse("gamma=3")
