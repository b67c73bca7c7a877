"""Glicko-2 ratings for chess and Scrabble (RULES.md, "Leaderboard").

The maths follows Mark Glickman's "Example of the Glicko-2 system" step by step:
ratings are converted to the Glicko-2 scale (μ, φ), the estimated variance ``v``
and improvement ``Δ`` are computed from the period's results, the new volatility
σ' is found with the Illinois algorithm (ε = 0.000001), and the new deviation
and rating follow. A player without games in a period keeps rating and
volatility while the deviation grows: φ' = sqrt(φ² + σ²).

Rating periods: Glicko-2 is defined over rating periods in which every player
plays several games. A club plays too few games for fixed periods to be useful,
so the leaderboard applies **each finished game as its own rating period for the
players in it** (``rate_game`` / ``rate_multiplayer_game``). This is the common
simplification of online servers; idle time is not charged to a player's
deviation unless the caller applies ``glicko2`` with no results for the periods
it chooses to count (e.g. once per idle month).

Every function is pure: same inputs, same outputs; no clock, no randomness.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
DEFAULT_VOLATILITY = 0.06
MAX_RD = 350.0
DEFAULT_TAU = 0.5
# A rating whose deviation is above this is shown as provisional ("1500?").
PROVISIONAL_RD = 110.0

# Glicko-2 scale factor: 400 / ln(10), given as 173.7178 in the paper.
GLICKO2_SCALE = 173.7178
CONVERGENCE_EPSILON = 0.000001
# Opponents tens of thousands of points away make a game carry (numerically)
# no information; this floor keeps the estimated variance v finite.
_MIN_INFORMATION = 1e-12
# The Illinois iteration converges in a few dozen steps; the cap only guards
# against a non-terminating loop on pathological floating-point input.
_MAX_ITERATIONS = 1000

Result = tuple[float, float, float]
"""``(opponent_rating, opponent_rd, score)`` with score 1 (win), 0.5 (draw) or 0 (loss)."""


class RatingError(ValueError):
    """An impossible rating input (a negative deviation, a score above 1, ...)."""


@dataclass(frozen=True, slots=True)
class RatingState:
    """One player's Glicko-2 rating in display units (1500 / 350 / 0.06 at the start)."""

    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY

    @property
    def provisional(self) -> bool:
        """Whether the deviation is still too large for the rating to mean much."""
        return is_provisional(self.rd)

    def after_period(
        self, results: Sequence[tuple[RatingState, float]], tau: float = DEFAULT_TAU
    ) -> RatingState:
        """This player's rating after one period against ``(opponent, score)`` pairs."""
        rating, rd, volatility = glicko2(
            self.rating,
            self.rd,
            self.volatility,
            [(opponent.rating, opponent.rd, score) for opponent, score in results],
            tau=tau,
        )
        return RatingState(rating, rd, volatility)


def is_provisional(rd: float) -> bool:
    """True while the deviation is too large for the rating to mean much."""
    return rd > PROVISIONAL_RD


def expected_score(rating: float, opponent_rating: float, opponent_rd: float = 0.0) -> float:
    """Glicko-2's E: the expected score of ``rating`` against the opponent.

    The opponent's deviation pulls the expectation towards 0.5; with
    ``opponent_rd=0`` this is the familiar logistic Elo curve.
    """
    _check_rating(rating, "rating")
    _check_rating(opponent_rating, "opponent rating")
    _check_rd(opponent_rd, "opponent rating deviation", allow_zero=True)
    return _expected(
        (rating - DEFAULT_RATING) / GLICKO2_SCALE,
        (opponent_rating - DEFAULT_RATING) / GLICKO2_SCALE,
        opponent_rd / GLICKO2_SCALE,
    )


def glicko2(
    rating: float,
    rd: float,
    volatility: float,
    results: Iterable[Result],
    tau: float = DEFAULT_TAU,
) -> tuple[float, float, float]:
    """One Glicko-2 rating period: ``(rating, rd, volatility)`` after ``results``.

    ``results`` holds ``(opponent_rating, opponent_rd, score)`` for every game
    of the period, opponents taken at their pre-period ratings. The returned
    deviation never exceeds ``MAX_RD``.
    """
    _check_rating(rating, "rating")
    _check_rd(rd, "rating deviation", allow_zero=False)
    _check_positive(volatility, "volatility")
    _check_positive(tau, "tau")
    results = list(results)  # iterated twice below; an iterator would come back empty
    for opponent_rating, opponent_rd, score in results:
        _check_rating(opponent_rating, "opponent rating")
        _check_rd(opponent_rd, "opponent rating deviation", allow_zero=True)
        _check_score(score)

    mu = (rating - DEFAULT_RATING) / GLICKO2_SCALE
    phi = rd / GLICKO2_SCALE
    if not results:
        idle_phi = math.sqrt(phi * phi + volatility * volatility)
        return rating, _capped_rd(idle_phi * GLICKO2_SCALE), volatility

    # Steps 3-4: estimated variance v and the sum behind the improvement Δ.
    information = 0.0
    weighted_surprise = 0.0
    for opponent_rating, opponent_rd, score in results:
        mu_j = (opponent_rating - DEFAULT_RATING) / GLICKO2_SCALE
        phi_j = opponent_rd / GLICKO2_SCALE
        g_j = _g(phi_j)
        e_j = _expected(mu, mu_j, phi_j)
        information += g_j * g_j * e_j * (1.0 - e_j)
        weighted_surprise += g_j * (score - e_j)
    v = 1.0 / max(information, _MIN_INFORMATION)
    delta = v * weighted_surprise

    # Steps 5-8.
    new_volatility = _new_volatility(phi, volatility, delta, v, tau)
    phi_star = math.sqrt(phi * phi + new_volatility * new_volatility)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * weighted_surprise
    return (
        GLICKO2_SCALE * new_mu + DEFAULT_RATING,
        _capped_rd(GLICKO2_SCALE * new_phi),
        new_volatility,
    )


def rate_game(
    a: RatingState, b: RatingState, score_a: float, tau: float = DEFAULT_TAU
) -> tuple[RatingState, RatingState]:
    """Both players' ratings after one game, played as its own rating period.

    ``score_a`` is 1 when ``a`` won, 0.5 for a draw, 0 when ``b`` won.
    """
    _check_score(score_a)
    return (
        a.after_period([(b, score_a)], tau),
        b.after_period([(a, 1.0 - score_a)], tau),
    )


def rate_multiplayer_game(
    players: Sequence[RatingState], points: Sequence[float], tau: float = DEFAULT_TAU
) -> list[RatingState]:
    """Ratings after a game of three or more (e.g. a 4-player Scrabble game).

    The game is one rating period in which each player met every other one:
    a higher final score than that opponent is a win, an equal one a draw.
    """
    if len(players) != len(points):
        raise RatingError("Each player needs exactly one final score.")
    if len(players) < 2:
        raise RatingError("A rated game needs at least two players.")
    updated = []
    for i, player in enumerate(players):
        results = [
            (opponent, _pairwise_score(points[i], points[j]))
            for j, opponent in enumerate(players)
            if j != i
        ]
        updated.append(player.after_period(results, tau))
    return updated


def _pairwise_score(mine: float, theirs: float) -> float:
    if mine > theirs:
        return 1.0
    if mine < theirs:
        return 0.0
    return 0.5


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return _logistic(_g(phi_j) * (mu - mu_j))


def _logistic(x: float) -> float:
    # Written both ways so that exp never overflows for extreme rating gaps.
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    ex = math.exp(x)
    return ex / (1.0 + ex)


def _new_volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5: σ' as the root of f by the Illinois algorithm (regula falsi variant)."""
    a = math.log(sigma * sigma)
    phi2 = phi * phi
    delta2 = delta * delta
    tau2 = tau * tau

    def f(x: float) -> float:
        ex = math.exp(x)
        denominator = phi2 + v + ex
        return ex * (delta2 - phi2 - v - ex) / (2.0 * denominator * denominator) - (x - a) / tau2

    lower = a
    if delta2 > phi2 + v:
        upper = math.log(delta2 - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        upper = a - k * tau

    f_lower, f_upper = f(lower), f(upper)
    for _ in range(_MAX_ITERATIONS):
        if abs(upper - lower) <= CONVERGENCE_EPSILON or f_upper == f_lower:
            break
        candidate = lower + (lower - upper) * f_lower / (f_upper - f_lower)
        f_candidate = f(candidate)
        if f_candidate * f_upper <= 0:
            lower, f_lower = upper, f_upper
        else:
            # The Illinois step: halving keeps the retained end from stalling.
            f_lower /= 2.0
        upper, f_upper = candidate, f_candidate
    return math.exp(lower / 2.0)


def _capped_rd(rd: float) -> float:
    return min(rd, MAX_RD)


def _check_rating(value: float, name: str) -> None:
    if not math.isfinite(value):
        raise RatingError(f"The {name} must be a finite number, not {value!r}.")


def _check_rd(value: float, name: str, *, allow_zero: bool) -> None:
    if not math.isfinite(value) or value < 0 or (value == 0 and not allow_zero):
        raise RatingError(f"The {name} must be a positive number, not {value!r}.")


def _check_positive(value: float, name: str) -> None:
    if not math.isfinite(value) or value <= 0:
        raise RatingError(f"The {name} must be a positive number, not {value!r}.")


def _check_score(score: float) -> None:
    if not (0.0 <= score <= 1.0):
        raise RatingError(f"A game score must be between 0 and 1, not {score!r}.")
