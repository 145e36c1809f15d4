"""Giltspiel: four players in two partnerships, five cards each, scored on Gleich, Hanger and Spiel.

Rules: shared/rules/giltspiel.md. This module declares the pack, the deal layout and the figure
classes as data, and the counting jobs behind ``cardsim odds`` and ``cardsim stats``.

Seats are 0-3 clockwise with the dealer at seat 0; seat 1 (forehand) leads; team = seat % 2.
Gleich and Hanger are judged on the whole original hand (spec A-5) and the turn-up counts for no
hand. A figure nobody holds is VOID and scores nothing (spec A-1); equal best figures of opposing
teams STAND (A-2); equal best figures of partners win for their team (A-3); runs do not wrap from
Ace to 7 (A-4).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from math import comb, perm, prod

import numpy as np

from simcore.cards import Deck, subset_masks
from simcore.config import njit
from simcore.dealing import DealSpec, Layout, accepted, deal
from simcore import checks, counting
from simcore.errors import CardsimError
from simcore.figures import (
    relative_outcome,
    resolve,
    run_code,
    run_table,
    set_code_four_suits,
    top_bit_table,
    wild_run_code,
    wild_set_code,
)
from simcore.tricks import lowest_card, popcount
from simcore.betting import AUS_SCORINGS, MAX_TARGET, SPEECH_ORDERS
from simcore.registry import AnyNumber, Game, Option, default_only, register
from simcore.rng import block_words

DECK = Deck(
    name="giltspiel",
    suits=("E", "L", "H", "S"),
    ranks=("7", "8", "9", "10", "U", "O", "K", "A"),
    rank_aliases={"T": "10"},
    suit_names=("Eichel", "Laub", "Herz", "Schell"),
)
SEATS = 4
HAND_SIZE = 5
LAYOUT = Layout(DECK, tuple((f"seat{s}", HAND_SIZE) for s in range(SEATS)) + (("turnup", 1), ("stock", 11)))
TURNUP = LAYOUT.index("turnup")

N_SUITS, N_RANKS = DECK.n_suits, DECK.n_ranks
RUN_TABLE = run_table(N_RANKS)
TOP_BIT = top_bit_table(N_RANKS)
RANK_NAMES = ("7s", "8s", "9s", "10s", "Unters", "Obers", "Kings", "Aces")
RANK_SHORT = DECK.ranks

PERLIQUE_RANKS = (DECK.ranks.index("7"), DECK.ranks.index("U"), DECK.ranks.index("O"))
"""§8 "Giltspiel mit 3 Perlique" (option ``perlique``): the trump suit's 7, Unter and Ober are wild for the Gleich
and the Hanger, each standing for any card its hand does not hold."""
PERLIQUE = np.array([sum(1 << (s * N_RANKS + r) for r in PERLIQUE_RANKS) for s in range(N_SUITS)], dtype=np.uint64)
"""(4,) uint64: the wild cards under each trump suit."""


def wild_table(perlique: bool) -> np.ndarray | None:
    """`PERLIQUE` with ``perlique``, else None: the kernels' argument ``wilds`` (None compiles them for natural cards
    only, with no cost for the wild ones)."""
    return PERLIQUE if checks.flag(perlique, "perlique") else None


GLEICH_BINS = 1 + 3 * N_RANKS  # none, then codes 0..23
HANGER_BINS = 1 + (HAND_SIZE - 1) * N_RANKS  # none, then codes 0..31 (22 of them possible)
FIGURES = ("gleich", "hanger")

OPTIONS = (
    Option("target", 11, (AnyNumber(2, MAX_TARGET, whole=True),),
           "points that win a game, agreed before it, usually 11 or 15 (spec §3 step 0); used by betting and scoring"),
    Option("void_policy", "nobody_scores", ("nobody_scores", "second_shower_scores"),
           "A-1: a figure nobody holds scores for nobody, or (the literal showing) the first team to show "
           "concedes it to the second; used by betting (the policies' estimates count a void as no score); odds "
           "report VOID separately either way"),
    default_only("tie_break", "stands", "A-2: no tie-break beyond rank and length: equal best figures stand"),
    default_only("partners_tie", "team_wins", "A-3: equal best figures of both partners win for their team"),
    default_only("hanger_wraps", False, "A-4: no Hanger wraps from the Ace to the 7"),
    default_only("played_cards_count", True, "A-5: the whole original hand counts for Gleich and Hanger"),
    default_only("final_stand", "freeze_rule", "A-6: a tied figure finally stands by the §7.8 freeze rule"),
    default_only("showing_pass_behind", False, "A-7: a team behind in the showing must improve, bet or concede"),
    default_only("penalty", "minus_2_per_team_figure",
                 "A-8: -2 per team and failed figure, counted first; totals may go below 0"),
    Option("fifth_trick_bet", "fifth_card_rule", ("fifth_card_rule", "unplayed_only"),
           "A-9: who may bet the Spiel in trick 5: a player whose fifth card follows the led suit or is a trump "
           "(the leader always), or only players who have not played to it; used by betting"),
    default_only("fifth_trick_raise", "raise_only",
                 "A-10: the fifth-trick restriction applies to raising a Spiel bet, not to holding it"),
    default_only("example_holder", "answering_seat", "A-11: the seat answering a G/H bet must hold the example"),
    Option("speech_order", "clockwise_from_next", SPEECH_ORDERS,
           "A-12: a betting window polls the seats clockwise from the next player to act (§7.5), or random_priority: "
           "each round of polling in a fresh random order, so that of the players wanting to speak at once a random "
           "one speaks first; used by betting"),
    default_only("concede_pending", False, "A-13: a team may not concede a figure while its own bet on it is pending"),
    Option("spiel_aus_held", "ends_game", AUS_SCORINGS,
           "A-14: a held Spiel aus, once decided, ends the game at once for its winner, overriding the scoring order "
           "(§7.13), or category_2: it wins the game at its place in the scoring order (bet and held: category 2, by "
           "first bet), unless a team reached the target earlier in that order; used by betting"),
    default_only("gestrichen_after_bet", "normal_resolution",
                 "A-15: with G or H already bet and held, the both-gestrichen rule does not apply"),
    default_only("gestrichen_oracle", True,
                 "A-16: both gestrichen with a >= 3-card figure: the game ends at once, no trick play"),
    default_only("first_dealer", "random", "A-17: random first dealer, uniform shuffle, packets start at forehand"),
    Option("stop_on_target", False, (False, True),
           "A-18: the deal is finished when concessions reach the target, then the scoring order decides; True: the "
           "deal ends at once when the winner is certain: a team's score plus the points conceded to it reach the "
           "target after the verification of examples as it stands (§7.9: its penalties come first), or a held "
           "Spiel aus is decided under spiel_aus_held=ends_game; only the figures decided so far score; used by "
           "betting"),
    Option("strict_examples", True, (True, False),
           "A-19: forbid G/H bets and holds without an example (False: allowed, penalised at verification); "
           "used by betting (--permissive)"),
    default_only("answer_pending_first", True, "A-20: a team answers every pending bet before it bets itself"),
    default_only("spiel_aus_reading", "conceded_scores_7",
                 "C-1: a Spiel aus conceded (gut), not accepted, scores 7 for the bettor"),
    default_only("first_shower", "spiel_winner",
                 "C-3: the team that won the Spiel shows first (P's general sentence: the team that named it)"),
    default_only("showdown_other_figure", "other_figure",
                 "C-9: a team betting on one figure in the showing first concedes, contests or bets on the other "
                 "undecided one"),
    default_only("gut_bei_farbe", "plain_gut",
                 "C-10, §7.6: 'gut bei Farbe' is a plain gut; the fifth-card condition is checked when the bet is "
                 "made"),
    default_only("contest_meaning", "as_good_as_best",
                 "§7.8: contesting needs an example at least as good as the opponents' best displayed one (any "
                 "example when they displayed none); a team already that good passes"),
    default_only("frozen_winners", "concede_or_bluff",
                 "§7.8: frozen Spiel winners facing an improved figure may only concede, or bet and concede if held"),
    default_only("figure_order", "gleich_then_hanger", "§7.8: a showing turn handles Gleich before Hanger"),
    default_only("gestrichen_one_open", "resolved_normally",
                 "§7.12: a figure still open when both teams become gestrichen is resolved normally (2 cards "
                 "suffice; void or stand: the Spiel decides)"),
    Option("communication", "partner", ("partner", "none", "auer_channel"),
           "§7.14: what a player knows when betting: partner = his team's hands (open signals), none = his own "
           "hand, auer_channel = his own hand and the partner's signalled trumps, has-Gleich and has-Hanger; used by "
           "betting (--communication)"),
    Option("perlique", False, (False, True),
           "§8 variant 'Giltspiel mit 3 Perlique': the trump suit's 7, Unter and Ober are wild for the Gleich and the "
           "Hanger, each standing for any card its hand does not hold (each figure with its best substitution), and "
           "in tricks for the card its owner declares when he plays it, never a visible one (the turn-up, a card "
           "played, one of his own); read by odds (also with --spiel), stats and solve (with --turnup); the "
           "betting commands refuse it"),
    Option("perlique_tie", "wild", ("wild", "natural"),
           "§8 (a gap of the source): with perlique=true, a trick holding a wild declared as a card another hand "
           "still hid and that natural card: wild = the wild, played first, takes it (as a baptised Perlagg beats "
           "its natural card in Perlaggen, B7), natural = the natural card does; read by odds --spiel and by solve"),
)


# --- figure classes -------------------------------------------------------------------------
def gleich_name(code: int) -> str:
    """'pair of Aces', 'three 7s', 'four Kings' or 'none'."""
    if code < 0:
        return "none"
    size, rank = divmod(int(code), N_RANKS)
    return ("pair of ", "three ", "four ")[size] + RANK_NAMES[rank]


def hanger_name(code: int) -> str:
    """'A-K-O', '8-7' or 'none' (ranks from the top of the run down)."""
    if code < 0:
        return "none"
    extra, top = divmod(int(code), N_RANKS)
    return "-".join(RANK_SHORT[r] for r in range(top, top - extra - 2, -1))


def possible_hanger_codes() -> list[int]:
    """The 22 run codes a five-card hand can have (the top leaves room for the run)."""
    return [code for code in range(HANGER_BINS - 1) if code % N_RANKS >= code // N_RANKS + 1]


def hand_figures(cards, wild: int = 0) -> tuple[int, int]:
    """(gleich code, hanger code) of one hand given as physical cards; ``wild``: the mask of the cards that are wild
    (a trump suit's `PERLIQUE`)."""
    g, h = _hand_codes(np.uint64(DECK.mask(cards)), np.uint64(wild), TOP_BIT, RUN_TABLE)
    return int(g), int(h)


# --- kernels --------------------------------------------------------------------------------
@njit
def _hand_codes(mask, wild, top_bit, table):
    """(gleich, hanger) code of one hand mask (uint64) whose cards in ``wild`` (uint64 mask) are wild."""
    held = popcount(mask & wild)
    if held == 0:
        return set_code_four_suits(mask, 8, top_bit), run_code(mask, 4, 8, table)
    naturals = mask & ~wild
    return wild_set_code(naturals, held, 4, 8), wild_run_code(naturals, held, 4, 8)


@njit
def mask_codes(masks, wild, top_bit, table):
    """(m, 2) int64 Gleich and Hanger codes of the hand masks (m,) uint64 whose cards in ``wild`` are wild."""
    out = np.empty((masks.shape[0], 2), dtype=np.int64)
    for i in range(masks.shape[0]):
        out[i, 0], out[i, 1] = _hand_codes(masks[i], wild, top_bit, table)
    return out


@njit
def _deal_codes(slots, d, table, top_bit, wilds, g, h):
    """Gleich and Hanger codes of the four hands of deal ``d`` into g, h (4,) int64; wilds: None (natural cards), or
    (4,) uint64 the wild cards under each trump suit, the turn-up's suit being trump (`wild_table`)."""
    if wilds is None:
        for s in range(4):
            g[s] = set_code_four_suits(slots[d, s], 8, top_bit)
            h[s] = run_code(slots[d, s], 4, 8, table)
    else:
        wild = wilds[lowest_card(slots[d, TURNUP]) // 8]
        for s in range(4):
            g[s], h[s] = _hand_codes(slots[d, s], wild, top_bit, table)


@njit
def _seat_codes(slots, seats, figure, table, top_bit, wilds):
    """(n,) int64: the best ``figure`` code (0 Gleich, 1 Hanger) over ``seats`` of each deal of slots (n, slots);
    wilds as in `_deal_codes`."""
    codes = np.empty((2, 4), dtype=np.int64)
    out = np.empty(slots.shape[0], dtype=np.int64)
    for d in range(slots.shape[0]):
        _deal_codes(slots, d, table, top_bit, wilds, codes[0], codes[1])
        out[d] = max([codes[figure, s] for s in seats])
    return out


@njit
def _odds_counts(slots, keep, team, seat, table, top_bit, wilds, categories, accepted, counts, opponents):
    """Tallies of the accepted deals by the opponents' bet category (`simcore.betting.bet_categories`, or
    `hold_categories` for a figure whose bet they held), index 3 x Gleich's + Hanger's: categories (2, bins, bins)
    int8 by the two opponents' own codes + 1 ((2, 1, 1): every deal in category 0); accepted (9,) += deals; counts
    (9, 2, 4) += outcome of Gleich and Hanger seen from ``team`` (win/stand/lose/void); with a ``seat`` (-1: none)
    opponents (9, 2, OPPONENT_STATS) += an opponent's best figure above the seat's own (none: -1), equal to it (a
    figure)."""
    g = np.empty(4, dtype=np.int64)
    h = np.empty(4, dtype=np.int64)
    left, right = 1 - team, 3 - team
    for d in range(slots.shape[0]):
        if not keep[d]:
            continue
        _deal_codes(slots, d, table, top_bit, wilds, g, h)
        cell = 0
        if categories.shape[1] > 1:
            cell = (3 * categories[0, g[left] + 1, g[right] + 1] + categories[1, h[left] + 1, h[right] + 1])
        accepted[cell] += 1
        counts[cell, 0, relative_outcome(resolve(g[0], g[1], g[2], g[3]), team)] += 1
        counts[cell, 1, relative_outcome(resolve(h[0], h[1], h[2], h[3]), team)] += 1
        if seat >= 0:
            for figure, codes in enumerate((g, h)):
                best = max(codes[left], codes[right])
                opponents[cell, figure, 0] += best > codes[seat]
                opponents[cell, figure, 1] += best == codes[seat] and best >= 0


GESTRICHEN = ("gleich", "hanger", "play", "hanger_tied", "gleich_tied")
"""Both teams gestrichen (§7.12): the game decided by a Gleich of 3+ cards, by a Hanger of 3+ cards, or by playing
the cards; and (counted apart, the deal is also in one of the three) the best Hanger, or Gleich, of 3+ cards tied
between the teams, which then drops out. Natural Gleichs of 3+ cards never tie; with the Perlique (§8) they can,
and a tied best Gleich drops out as a tied Hanger does (a chosen default: the spec is silent)."""


@njit
def gestrichen_class(g0, g1, g2, g3, h0, h1, h2, h3):
    """Index into `GESTRICHEN[:3]` of how §7.12 decides a deal from the seats' Gleich and Hanger codes: the best
    figure of 3+ cards wins, more cards first, then Gleich over Hanger; a best 3+ figure held by both teams drops
    out (as `giltspiel_betting`'s ``both_gestrichen_winner`` for the Hanger; its betting game has no wild cards, so
    no Gleich tie)."""
    gleich_0, gleich_1 = max(g0, g2), max(g1, g3)
    g = max(gleich_0, gleich_1) if gleich_0 != gleich_1 else -1
    hanger_0, hanger_1 = max(h0, h2), max(h1, h3)
    h = max(hanger_0, hanger_1) if hanger_0 != hanger_1 else -1
    gleich_size = g // N_RANKS + 2 if g >= N_RANKS else 0
    hanger_size = h // N_RANKS + 2 if h >= N_RANKS else 0
    if gleich_size == 0 and hanger_size == 0:
        return 2
    return 0 if gleich_size >= hanger_size else 1


@njit
def _stats_counts(slots, keep, seat, table, top_bit, wilds, outcome, best_g, best_h, by_g, by_h, gestrichen, joint):
    """Table-level tallies of the accepted deals.

    outcome (2, 4): absolute outcome per figure; best_g (25,), best_h (33,): table's best class
    (index code + 1); by_g (25, 4), by_h (33, 4): seat's own class x outcome for the seat's team;
    gestrichen (4,): `GESTRICHEN` counts; joint (4, 4): the Gleich's outcome x the Hanger's.
    """
    g = np.empty(4, dtype=np.int64)
    h = np.empty(4, dtype=np.int64)
    team = seat % 2
    for d in range(slots.shape[0]):
        if not keep[d]:
            continue
        _deal_codes(slots, d, table, top_bit, wilds, g, h)
        og = resolve(g[0], g[1], g[2], g[3])
        oh = resolve(h[0], h[1], h[2], h[3])
        outcome[0, og] += 1
        outcome[1, oh] += 1
        joint[og, oh] += 1
        best_g[max(max(g[0], g[1]), max(g[2], g[3])) + 1] += 1
        best_h[max(max(h[0], h[1]), max(h[2], h[3])) + 1] += 1
        by_g[g[seat] + 1, relative_outcome(og, team)] += 1
        by_h[h[seat] + 1, relative_outcome(oh, team)] += 1
        gestrichen[gestrichen_class(g[0], g[1], g[2], g[3], h[0], h[1], h[2], h[3])] += 1
        if max(h[0], h[2]) == max(h[1], h[3]) >= N_RANKS:
            gestrichen[3] += 1
        if max(g[0], g[2]) == max(g[1], g[3]) >= N_RANKS:
            gestrichen[4] += 1


@njit
def _facing_counts(slots, keep, seat, table, top_bit, wilds, categories, counts):
    """Tallies of the accepted deals for `FacingJob`: categories (k, 2, bins, bins) int8, the opponents' category of
    each figure in each of k histories by their own codes + 1; counts (k, 2, 3, 2 bins, 3, 4) += per history, figure
    (G, H), view (`FACING_VIEWS`: the seat's own best code + 1, its team's, its own + bins when its partner holds an
    example), class, the opponents' category and the figure's outcome for the seat's team (win/stand/lose/void).
    No bounds are checked: the shapes must be these (`FacingJob` checks them)."""
    g = np.empty(4, dtype=np.int64)
    h = np.empty(4, dtype=np.int64)
    team, partner = seat % 2, (seat + 2) % 4
    left, right = 1 - team, 3 - team
    for d in range(slots.shape[0]):
        if not keep[d]:
            continue
        _deal_codes(slots, d, table, top_bit, wilds, g, h)
        for figure in range(2):
            codes = g if figure == 0 else h
            outcome = relative_outcome(resolve(codes[0], codes[1], codes[2], codes[3]), team)
            own, best = codes[seat] + 1, max(codes[seat], codes[partner]) + 1
            signal = own + (categories.shape[2] if codes[partner] >= 0 else 0)
            for k in range(categories.shape[0]):
                category = categories[k, figure, codes[left] + 1, codes[right] + 1]
                counts[k, figure, 0, own, category, outcome] += 1
                counts[k, figure, 1, best, category, outcome] += 1
                counts[k, figure, 2, signal, category, outcome] += 1


# --- jobs -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Known:
    """Public and private facts a question is conditioned on.

    seat_cards: seat -> cards known to be in that seat's hand (own hand, cards seen played);
    turnup: the turned-up card or None.
    """

    seat_cards: dict[int, tuple[int, ...]] = field(default_factory=dict)
    turnup: int | None = None

    def deal_spec(self, accept=()) -> DealSpec:
        fixed = {f"seat{s}": tuple(cards) for s, cards in self.seat_cards.items() if cards}
        if self.turnup is not None:
            fixed["turnup"] = (self.turnup,)
        return DealSpec(LAYOUT, fixed, tuple(accept))

    def key(self) -> str:
        seats = ";".join(f"{s}:{','.join(map(str, sorted(c)))}" for s, c in sorted(self.seat_cards.items()))
        return f"seats={seats}|turnup={self.turnup}"


@dataclass(frozen=True)
class FigureCondition:
    """Accept predicate: the best ``figure`` code over ``seats`` is >= ``code`` (or < it if ``below``).

    Models what a bet reveals, e.g. "the opponents hold at least a pair of Obers". Called on a dealt
    block ``slots: (n, n_slots) uint64`` it returns ``(n,) bool``.
    """

    seats: tuple[int, ...]
    figure: str
    code: int
    below: bool = False
    perlique: bool = False
    """Codes with the trump's Perlique wild (§8)."""

    @property
    def key(self) -> str:
        return (f"{self.figure}{'<' if self.below else '>='}{self.code}@{','.join(map(str, self.seats))}"
                + ("|perlique" if self.perlique else ""))

    def __call__(self, slots: np.ndarray) -> np.ndarray:
        codes = _seat_codes(slots, np.array(self.seats, dtype=np.int64), FIGURES.index(self.figure), RUN_TABLE,
                            TOP_BIT, wild_table(self.perlique))
        return codes < self.code if self.below else codes >= self.code

    def possible(self, known: Known) -> bool:
        """False only when no deal under ``known`` can meet this condition, found by enumerating every hand
        each seat of ``seats`` can still be dealt (`possible_hands`): for a ">=" condition no seat can reach
        the class, for a "<" some seat cannot stay below it. Each seat is checked on its own, so seats that
        can meet it only one at a time, or conditions that exclude each other through the cards, pass here
        and are found by dealing (never a wrong refusal). With the Perlique and the turn-up unknown, a hand counts
        under any trump."""
        column = FIGURES.index(self.figure)
        trumps = (0,) if not self.perlique else range(N_SUITS) if known.turnup is None else (known.turnup // N_RANKS,)
        for seat in self.seats:
            hands = possible_hands(known, seat)
            codes = np.concatenate([mask_codes(hands, PERLIQUE[t] if self.perlique else np.uint64(0), TOP_BIT,
                                               RUN_TABLE)[:, column] for t in trumps])
            able = (codes < self.code).any() if self.below else (codes >= self.code).any()
            if able != self.below:  # settled: a seat that can reach a ">=", or one that cannot stay below a "<"
                return bool(able)
        return self.below


class DealJob:
    """Deal a block under ``known`` and the accept predicates, then tally it (subclasses); ``perlique``: the figures
    with the trump's Perlique wild (§8)."""

    def __init__(self, known: Known, accept: tuple[FigureCondition, ...] = (), perlique: bool = False):
        self.known = known
        self.spec = known.deal_spec(accept)
        self.wilds = wild_table(perlique)
        self.perlique = perlique

    def key(self) -> str:
        conditions = ";".join(p.key for p in self.spec.accept)
        return (f"giltspiel|{type(self).__name__}|{self.known.key()}|{self.extra_key()}|accept={conditions}"
                + ("|perlique" if self.perlique else ""))

    def extra_key(self) -> str:
        return ""

    def deal_block(self, seed: int, block: int, n_deals: int):
        slots = deal(self.spec, block_words(seed, block, n_deals, self.spec.words_per_deal))
        return slots, accepted(self.spec, slots)


BET_CELLS = 9
"""Pairs of the opponents' bet categories for the Gleich and the Hanger (`OddsJob`), 3 x 3."""
OPPONENT_STATS = ("opponent_better", "opponent_equal")
"""Counts per figure of `OddsJob` with a seat (spec §10.1 Q4): deals where an opponent of the seat holds a better
figure than the seat's own best (any figure when the seat holds none), and where the opponents' best equals it."""


def odds_parts(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`OddsJob`'s counts as (accepted (k,), outcomes (k, 2, 4), opponents (k, 2, OPPONENT_STATS)) from its rows
    (k, 9 or 13), one row per cell (k = 1 without bet categories); opponents are zero without a seat."""
    k = rows.shape[0]
    stats = len(OPPONENT_STATS)
    opponents = rows[:, 9:].reshape(k, 2, stats) if rows.shape[1] > 9 else np.zeros((k, 2, stats), dtype=rows.dtype)
    return rows[:, 0], rows[:, 1:9].reshape(k, 2, 4), opponents


class OddsJob(DealJob):
    """Counts: [accepted deals, then Gleich (win, stand, lose, void), Hanger (...)] for ``team``; with a ``seat`` (of
    ``team``) then `OPPONENT_STATS` for Gleich and for Hanger. With ``categories`` (the opponents' categories per
    figure, `simcore.betting.bet_categories` or `hold_categories`), those counts for each of the 9 pairs of
    categories (`BET_CELLS`), one after the other."""

    def __init__(self, known: Known, team: int, accept: tuple[FigureCondition, ...] = (), perlique: bool = False,
                 seat: int | None = None, categories: np.ndarray | None = None):
        super().__init__(known, accept, perlique)
        seat = None if seat is None else check_seat(seat)
        if seat is not None and seat % 2 != team:
            raise CardsimError(f"seat {seat} is not in team {team}: give a seat of the team (team 0: seats 0 and 2, "
                               "team 1: seats 1 and 3)")
        self.team, self.seat = team, seat
        if categories is not None and categories.shape != (2, HANGER_BINS, HANGER_BINS):
            raise CardsimError(f"categories of the opponents' bets must be (2, {HANGER_BINS}, {HANGER_BINS}) by the "
                               f"codes + 1 (`simcore.betting.bet_categories`), got {categories.shape}")
        self.categories = np.zeros((2, 1, 1), dtype=np.int8) if categories is None else categories.astype(np.int8)
        self.cells = 1 if categories is None else BET_CELLS
        self.n_counts = self.cells * (1 + 2 * 4 + (0 if seat is None else 2 * len(OPPONENT_STATS)))

    def extra_key(self) -> str:
        bets = "" if self.cells == 1 else f"|bets={hashlib.sha1(self.categories.tobytes()).hexdigest()[:16]}"
        return f"team={self.team}" + ("" if self.seat is None else f"|seat={self.seat}|opponents") + bets

    def run_block(self, seed: int, block: int, n_deals: int) -> np.ndarray:
        slots, keep = self.deal_block(seed, block, n_deals)
        accepted = np.zeros(BET_CELLS, dtype=np.int64)
        counts = np.zeros((BET_CELLS, 2, 4), dtype=np.int64)
        opponents = np.zeros((BET_CELLS, 2, len(OPPONENT_STATS)), dtype=np.int64)
        _odds_counts(slots, keep, self.team, -1 if self.seat is None else self.seat, RUN_TABLE, TOP_BIT, self.wilds,
                     self.categories, accepted, counts, opponents)
        cells = slice(0, self.cells)
        parts = [accepted[cells, None], counts[cells].reshape(self.cells, -1)]
        if self.seat is not None:
            parts.append(opponents[cells].reshape(self.cells, -1))
        return np.concatenate(parts, axis=1).ravel()


FACING_VIEWS = ("own", "team", "signal")
"""`FacingJob`'s classes of the seat's side: its own best code (it knows its hand), its team's (both hands), or its
own and whether its partner holds an example (Auer's signal; the class + `HANGER_BINS` when he does)."""


def facing_view(communication: str) -> str:
    """The `FACING_VIEWS` class a side answers by under a communication model (`simcore.betting.COMMUNICATION`): the
    team's under ``partner``, its own under ``none``, its own with the partner's signal under ``auer_channel``."""
    return {"partner": "team", "none": "own"}.get(communication, "signal")


class FacingJob(DealJob):
    """Counts (k, 2, 3, 2 `HANGER_BINS`, 3, 4) of uniform deals for the seat's team facing the opponents' bets: per
    history (``categories`` (k, 2, bins, bins), the opponents' category of G and H by their own codes + 1, such as
    `simcore.betting.chain_categories` of a bet from each value), figure, view (`FACING_VIEWS`), the view's class
    (code + 1), the opponents' category and the figure's outcome (win/stand/lose/void)."""

    def __init__(self, categories: np.ndarray, seat: int = 1):
        super().__init__(Known())
        self.seat = check_seat(seat)
        categories = np.asarray(categories)
        if categories.ndim != 4 or categories.shape[1:] != (2, HANGER_BINS, HANGER_BINS):
            raise CardsimError(f"categories of the opponents' bets must be (k, 2, {HANGER_BINS}, {HANGER_BINS}) by "
                               "history and the codes + 1 (`simcore.betting.chain_categories`), got "
                               f"{categories.shape}")
        self.categories = categories.astype(np.int8)
        self.shape = (len(categories), 2, len(FACING_VIEWS), 2 * HANGER_BINS, 3, 4)
        self.n_counts = prod(self.shape)

    def extra_key(self) -> str:
        return f"seat={self.seat}|views=3|facing={hashlib.sha1(self.categories.tobytes()).hexdigest()[:16]}"

    def run_block(self, seed: int, block: int, n_deals: int) -> np.ndarray:
        slots, keep = self.deal_block(seed, block, n_deals)
        counts = np.zeros(self.shape, dtype=np.int64)
        _facing_counts(slots, keep, self.seat, RUN_TABLE, TOP_BIT, self.wilds, self.categories, counts)
        return counts.ravel()


class StatsJob(DealJob):
    """Counts: accepted deals, outcome (2x4), best Gleich (25), best Hanger (33), by own class for ``seat``, the
    both-gestrichen resolution (`GESTRICHEN`) and the joint outcome of Gleich and Hanger (4 x 4)."""

    n_counts = 1 + 8 + GLEICH_BINS + HANGER_BINS + 4 * GLEICH_BINS + 4 * HANGER_BINS + len(GESTRICHEN) + 16

    def __init__(self, known: Known, seat: int, accept: tuple[FigureCondition, ...] = (), perlique: bool = False):
        super().__init__(known, accept, perlique)
        self.seat = seat

    def extra_key(self) -> str:
        return f"seat={self.seat}|gestrichen5|joint"

    def run_block(self, seed: int, block: int, n_deals: int) -> np.ndarray:
        slots, keep = self.deal_block(seed, block, n_deals)
        parts = self.empty_parts()
        _stats_counts(slots, keep, self.seat, RUN_TABLE, TOP_BIT, self.wilds, parts["outcome"], parts["best_gleich"],
                      parts["best_hanger"], parts["gleich_by_class"], parts["hanger_by_class"], parts["gestrichen"],
                      parts["joint"])
        return np.concatenate([[keep.sum()]] + [p.ravel() for p in parts.values()])

    @staticmethod
    def empty_parts() -> dict[str, np.ndarray]:
        return {
            "outcome": np.zeros((2, 4), dtype=np.int64),
            "best_gleich": np.zeros(GLEICH_BINS, dtype=np.int64),
            "best_hanger": np.zeros(HANGER_BINS, dtype=np.int64),
            "gleich_by_class": np.zeros((GLEICH_BINS, 4), dtype=np.int64),
            "hanger_by_class": np.zeros((HANGER_BINS, 4), dtype=np.int64),
            "gestrichen": np.zeros(len(GESTRICHEN), dtype=np.int64),
            "joint": np.zeros((4, 4), dtype=np.int64),
        }

    @classmethod
    def split(cls, counts: np.ndarray) -> tuple[int, dict[str, np.ndarray]]:
        """(accepted deals, named count arrays) from a total count vector."""
        parts = cls.empty_parts()
        pos = 1
        for name, arr in parts.items():
            parts[name] = counts[pos:pos + arr.size].reshape(arr.shape)
            pos += arr.size
        return int(counts[0]), parts


# --- exact enumeration ----------------------------------------------------------------------
def all_hands() -> np.ndarray:
    """Every 5-card hand of the pack as masks: (201376,) uint64."""
    return subset_masks(range(DECK.n_cards), HAND_SIZE)


def possible_hands(known: Known, seat: int) -> np.ndarray:
    """Every hand ``seat`` can be dealt under ``known`` as masks: (m,) uint64, its known cards plus any
    cards not placed elsewhere (C(27, 5) = 80,730 hands when only your own hand is known)."""
    placed = {c for cards in known.seat_cards.values() for c in cards}
    if known.turnup is not None:
        placed.add(known.turnup)
    pool = [c for c in range(DECK.n_cards) if c not in placed]
    own = known.seat_cards.get(seat, ())
    return subset_masks(pool, HAND_SIZE - len(own)) | np.uint64(DECK.mask(own))


def rank_counts(masks: np.ndarray) -> np.ndarray:
    """(n, n_ranks) int64: cards of every rank in every hand mask."""
    counts = np.zeros((masks.shape[0], N_RANKS), dtype=np.int64)
    for r in range(N_RANKS):
        for s in range(N_SUITS):
            counts[:, r] += ((masks >> np.uint64(s * N_RANKS + r)) & np.uint64(1)).astype(np.int64)
    return counts


def exact_hands(perlique: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(masks (m,) uint64, codes (m, 2) int64 Gleich and Hanger): every hand, equally likely. Plain: all C(32,5) =
    201,376 hands. With the Perlique (§8) the trump's 7, Unter and Ober are wild and the turn-up, which no hand
    holds, names the trump: every (turn-up, hand) pair of one trump suit, the turn-up any of its 8 cards and the hand
    any 5 of the other 31 cards (8 x 169,911 = 1,359,288; the other suits give the same counts)."""
    if not checks.flag(perlique, "perlique"):
        masks = all_hands()
        return masks, mask_codes(masks, np.uint64(0), TOP_BIT, RUN_TABLE)
    masks = np.concatenate([subset_masks([c for c in range(DECK.n_cards) if c != turnup], HAND_SIZE)
                            for turnup in range(N_RANKS)])  # suit 0's cards are 0..7
    return masks, mask_codes(masks, PERLIQUE[0], TOP_BIT, RUN_TABLE)


def single_hand_facts(perlique: bool = False) -> dict[str, int]:
    """Exact hand counts of the spec's single-hand events (§10.2) over the hands of `exact_hands`; with the
    Perlique the events of a hand's best codes only (a wild card has no rank of its own to count)."""
    masks, codes = exact_hands(perlique)
    g, h = codes[:, 0], codes[:, 1]
    run_len = np.where(h >= 0, h // N_RANKS + 2, 0)
    has_g, has_h = g >= 0, h >= 0
    by_ranks = {}
    if not perlique:
        counts = rank_counts(masks)
        pairs = (counts == 2).sum(axis=1)
        triples = (counts == 3).sum(axis=1)
        by_ranks = {
            "exactly one pair": int(((pairs == 1) & (triples == 0)).sum()),
            "two pairs": int((pairs == 2).sum()),
            "three of a kind (no pair)": int(((triples == 1) & (pairs == 0)).sum()),
            "full house (3+2)": int(((triples == 1) & (pairs == 1)).sum()),
        }
    return {
        "hands": int(masks.size),
        "no Gleich": int((~has_g).sum()),
        "has a Gleich": int(has_g.sum()),
        **by_ranks,
        "four of a kind": int((g >= 2 * N_RANKS).sum()),
        "Gleich of 3+ cards": int((g >= N_RANKS).sum()),
        "no Hanger": int((~has_h).sum()),
        "has a Hanger": int(has_h.sum()),
        "Hanger of exactly 2": int((run_len == 2).sum()),
        "Hanger of exactly 3": int((run_len == 3).sum()),
        "Hanger of 3+": int((run_len >= 3).sum()),
        "Hanger of exactly 4": int((run_len == 4).sum()),
        "Hanger of 4+": int((run_len >= 4).sum()),
        "Hanger of 5": int((run_len == 5).sum()),
        "both a Gleich and a Hanger": int((has_g & has_h).sum()),
        "Gleich only": int((has_g & ~has_h).sum()),
        "Hanger only": int((~has_g & has_h).sum()),
        "neither figure": int((~has_g & ~has_h).sum()),
        "some figure of 3+ cards": int(((g >= N_RANKS) | (run_len >= 3)).sum()),
    }


def single_hand_classes(perlique: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Exact hand counts per best class: (GLEICH_BINS,), (HANGER_BINS,) int64, index code + 1 (hands of
    `exact_hands`)."""
    codes = exact_hands(perlique)[1]
    return (np.bincount(codes[:, 0] + 1, minlength=GLEICH_BINS),
            np.bincount(codes[:, 1] + 1, minlength=HANGER_BINS))


def pair_free_deals(hands: int, hand_size: int = HAND_SIZE, ranks: int = N_RANKS, suits: int = N_SUITS) -> int:
    """Deals of ``hands`` disjoint hands of ``hand_size`` cards (hands told apart by seat) from a pack of ``ranks`` x
    ``suits`` in which no hand holds two cards of one rank (no Gleich). Rank by rank, the k hands that take the rank
    take k distinct suits of it, in suits! / (suits - k)! ways; the state is how many cards each hand has so far."""
    ways = {(0,) * hands: 1}
    for _ in range(ranks):
        after: dict[tuple[int, ...], int] = {}
        for held, count in ways.items():
            for takes in product((0, 1), repeat=hands):
                new = tuple(h + t for h, t in zip(held, takes))
                if max(new, default=0) <= hand_size and sum(takes) <= suits:
                    after[new] = after.get(new, 0) + count * perm(suits, sum(takes))
        ways = after
    return ways.get((hand_size,) * hands, 0)


def ordered_deals(hands: int, hand_size: int = HAND_SIZE, cards: int = DECK.n_cards) -> int:
    """Deals of ``hands`` disjoint hands of ``hand_size`` cards from ``cards``, hands told apart by seat."""
    return prod(comb(cards - i * hand_size, hand_size) for i in range(hands))


def table_facts() -> dict[str, Fraction]:
    """Spec §10.3: P(no player at the table holds a Gleich) and P(a given team's two hands hold none)."""
    return {"no player holds a Gleich": Fraction(pair_free_deals(SEATS), ordered_deals(SEATS)),
            "a given team holds no Gleich": Fraction(pair_free_deals(2), ordered_deals(2))}


TRUMPS_UNSEEN = N_RANKS - 1
"""Trumps among the 31 cards other than the turn-up (a trump that no hand holds)."""


def trump_count_distribution(cards: int) -> dict[int, Fraction]:
    """P(k trumps among ``cards`` of the 31 cards other than the turn-up): hypergeometric, 7 trumps among them."""
    unseen = DECK.n_cards - 1
    return counting.hypergeometric(TRUMPS_UNSEEN, unseen, checks.whole(cards, "cards", 0, unseen))


def trump_ace_dealt() -> Fraction:
    """P(the trump Ace is in some hand): the turn-up is not the Ace, and the Ace is among the 20 cards dealt."""
    unseen, dealt = DECK.n_cards - 1, SEATS * HAND_SIZE
    return Fraction(N_RANKS - 1, N_RANKS) * Fraction(dealt, unseen)


# --- input ------------------------------------------------------------------------------------
def check_seat(seat) -> int:
    """``seat`` as an int from 0 to 3 (2.0 is 2); CardsimError otherwise."""
    if checks.whole(seat, "--seat") not in range(SEATS):
        raise CardsimError(f"--seat must be 0, 1, 2 or 3 (dealer 0, forehand 1), got {seat}")
    return int(seat)


def parse_known(hand: str, seat: int, turnup: str | None = None, seen: dict[int, str] | None = None) -> Known:
    """Validate a user's hand, seat, turn-up and cards seen in other hands into a `Known`; the cards as texts or
    lists of card names."""
    seat = check_seat(seat)
    if not isinstance(seen, (dict, type(None))):
        raise CardsimError(f"known must be a dict of seat -> cards such as {{3: 'HA'}}, got {seen!r}")
    groups = {"--hand": checks.card_text(hand, "--hand", "LA SA H10 E9 E8")}
    seen = {checks.whole(other, "--known seat"): text for other, text in (seen or {}).items()}
    for other, text in seen.items():
        if other not in range(SEATS):
            raise CardsimError(f"--known names seat {other}; seats are 0-3")
        if other == seat:
            raise CardsimError(f"--known names your own seat {seat}; put your cards in --hand")
        groups[f"--known {other}"] = checks.card_text(text, f"--known {other}", "HA")
    if turnup is not None:
        groups["--turnup"] = checks.card_text(turnup, "--turnup", "HK")
    parsed = DECK.parse_groups(groups)
    if len(parsed["--hand"]) != HAND_SIZE:
        raise CardsimError(f"--hand must list exactly {HAND_SIZE} cards, got {len(parsed['--hand'])}")
    if turnup is not None and len(parsed["--turnup"]) != 1:
        raise CardsimError(f"--turnup must be exactly one card, got {len(parsed['--turnup'])}")
    seat_cards = {seat: tuple(parsed["--hand"])}
    for other in (seen or {}):
        cards = parsed[f"--known {other}"]
        if len(cards) > HAND_SIZE:
            raise CardsimError(f"--known {other} lists {len(cards)} cards; a hand has {HAND_SIZE}")
        seat_cards[other] = tuple(cards)
    return Known(seat_cards, parsed["--turnup"][0] if turnup is not None else None)


def parse_condition(text: str, seat: int, perlique: bool = False) -> FigureCondition:
    """'opponents gleich >= pair of Obers' (who: opponents, partner, team, seat0-3; op: >= or <); ``perlique``: the
    figures count the trump's Perlique wild (§8)."""
    import re

    match = re.fullmatch(r"\s*(opponents|partner|team|seat[0-3])\s+(gleich|hanger)\s*(>=|<)\s*([^=<>\s].*?)\s*", text,
                         re.I)
    if not match:
        raise CardsimError(f"--given '{text}' is not understood; write e.g. 'opponents gleich >= pair of Obers' "
                           "(who: opponents, partner, team, seat0-seat3; figure: gleich or hanger; >= or <)")
    who, figure, op, name = match.group(1).lower(), match.group(2).lower(), match.group(3), match.group(4)
    seats = {"opponents": ((seat + 1) % 4, (seat + 3) % 4), "partner": ((seat + 2) % 4,),
             "team": (seat, (seat + 2) % 4)}.get(who) or (int(who[-1]),)
    namer = gleich_name if figure == "gleich" else hanger_name
    codes = range(3 * N_RANKS) if figure == "gleich" else possible_hanger_codes()
    by_name = {namer(c).lower(): c for c in codes}
    if name.lower() not in by_name:
        raise CardsimError(f"--given: '{name}' is not a {figure} class; choose one of: "
                           + ", ".join(namer(c) for c in codes))
    return FigureCondition(tuple(sorted(seats)), figure, by_name[name.lower()], below=(op == "<"),
                           perlique=checks.flag(perlique, "perlique"))


GAME = register(Game(
    name="giltspiel",
    title="Giltspiel",
    deck=DECK,
    rules_file="giltspiel.md",
    options=OPTIONS,
))
