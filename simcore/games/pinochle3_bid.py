"""Three-player Pinochle bid analysis: the bidder's discard, his hand's outcome, bidding policies and
whole games to the target.

Rules: shared/rules/pinochle3.md §4.7 (kitty and discard: any 3 of the 18 cards, buried counters
count for the bidder), §4.8 (trump), R4.10 (concede or play), §6 (scoring, game end), §9.1 Q2-Q6.

* `best_discard`: the 3 cards to bury that maximize meld of the 15 kept plus the buried counters'
  points (ties: keep more trumps, then higher ranks), for one trump or the best of the four; or,
  ``meld_first``, the most meld of the 15 kept (ties: more buried counters, then as above); the
  search is `pinochle3_discard.discards`.
* `BidderJob`: deals consistent with a known hand (or random hands), the bidder takes the kitty and
  discards as above, and the hand is played out (greedy play by every seat, and optionally perfect
  play of the last tricks); histograms of meld + trick points (what the bid is compared with, R6.1).
* `defender_outcomes`: the pass of spec Q4 (EV_pass = E[defender score]): in the same deal the next
  seat takes the bid instead, exactly as the bidder above (best discard and trump, greedy play by
  all), and the hand scores as a defender (R6.1-R6.3). `BidderJob` and `ThresholdJob` count it too.
* `concession_values`: conceding against playing (R4.10, spec Q5-Q6): what the defenders score
  either way in the deals of `BidderJob`, which counts it too.
* `CompareJob` (spec Q7, Q9): the deals of `BidderJob` played once per play rule or per discard
  policy (`pinochle3_discard`), each paired deal by deal with the default (rule old, discard best).
* `BID_POLICIES` and `GameJob`: bidding policies as data (optionally conceding, `BidPolicy`) and
  self-play games to the target.

Points are in the main game's units (a counter is 10).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from simcore.dealing import DealSpec, deal
from simcore.errors import CardsimError, is_whole_int, unknown_name
from simcore.games.pinochle3 import (
    DECK,
    HAND_SIZE,
    KITTY_SIZE,
    LAYOUT,
    MAX_MELD,
    MELD_BINS,
    N_SUITS,
    SEATS,
    TRICK_POINTS_TOTAL,
    meld_points,
    meld_values,
    nines_throw_in,
    options_key,
)
from simcore.games.pinochle3_play import (
    COUNTER_POINTS,
    COUNTERS,
    DECISIONS,
    PLAY_RULES,
    SUITS,
    TRICKS,
    game_winner,
    lowest_bid,
    play_out,
    play_rule,
    policy_codes,
    rule_options,
    trusted_play_out,
    score_conceded,
    score_played,
    settle,
)
from simcore.games.pinochle3_discard import DEFAULT_POLICY, DISCARD_POLICIES, discards, kept_meld, policy_discards
from simcore.games.pinochle3_pimc import MAX_SAMPLES, pimc_points
from simcore.games.pinochle3_solve import Table, checked_table, table_bits, trusted_policy_then_solve
from simcore.rng import block_substream, block_words
from simcore.tricks import popcount

GREEDY_ALL = policy_codes("greedy")
"""Greedy play by all three seats, as the engine's own play-outs take it (`trusted_play_out`)."""
NO_DRAWS = np.zeros(DECISIONS)
"""The random draws of one hand's play-out, which greedy play does not read."""


# --- the discard (R4.7) --------------------------------------------------------------------------
@dataclass(frozen=True)
class Discard:
    """The bidder's choice: cards buried and kept (sorted card indices), trump, meld of the kept 15,
    points of the buried counters (credited to the bidder, R4.7c)."""

    discards: tuple[int, ...]
    kept: tuple[int, ...]
    trump: int
    meld: int
    buried: int


def best_discard(cards, trump: int | None = None, options: dict | None = None, meld_first: bool = False) -> Discard:
    """The discard of 3 of 18 physical cards (any 3, R4.7b) that maximizes meld of the 15 kept plus
    the buried counters' points (ties: more trumps kept, then higher ranks), under ``trump`` or the
    best suit; ``meld_first``: the most meld kept (ties: more buried counters, then as before), the
    meld a bidder can declare (R3.9a). options: meld variants (`pinochle3.meld_values`)."""
    cards = sorted(int(c) for c in cards)
    if trump is not None and trump not in range(N_SUITS):
        raise CardsimError(f"trump must be a suit index 0-3 ({'/'.join(DECK.suits)}), got {trump}")
    mask, trumps, melds, buried = discards(np.array([DECK.mask(cards)], dtype=np.uint64), trump, options, meld_first)
    dropped = tuple(c for c in cards if int(mask[0]) >> c & 1)
    return Discard(dropped, tuple(c for c in cards if c not in dropped), int(trumps[0]), int(melds[0]), int(buried[0]))


# --- the bidder's hand played out ------------------------------------------------------------------
MAX_TOTAL = MAX_MELD + TRICK_POINTS_TOTAL
"""Meld + trick points never exceed 2150: no bid above it can be made."""
TOTAL_BINS = MAX_TOTAL // 10 + 1
"""Histogram bins of 10 points for meld + trick points, 0 to `MAX_TOTAL`."""
PIMC_STREAM = 1
"""Sub-stream index (simcore.rng.block_substream) of the PIMC bidder's sampled worlds."""


def _greedy_contract(slots: np.ndarray, trump: int | None, rule: str, options: dict | None,
                     discard: str = DEFAULT_POLICY) -> dict:
    """Seat 0 of slots (n, 4) uint64 (seat0, seat1, seat2, kitty) wins the bid, takes the kitty,
    discards by the ``discard`` policy (`pinochle3_discard.policy_discards`; under ``trump``, or the
    best trump) and leads; every seat plays greedily.

    Returns ``trump``, ``meld`` (of the kept 15), ``buried`` (points of the buried counters): (n,)
    int64; ``hands`` (n, 3) uint64 after the discard; ``points`` (n, 3) int64 trick points with
    the last-trick bonus, buried counters not included; ``counters`` (n, 3) int64 taken in tricks.
    """
    buried_mask, trumps, melds, buried = policy_discards(slots[:, 0] | slots[:, 3], trump, discard, options)
    hands = slots[:, :3].copy()
    hands[:, 0] = (slots[:, 0] | slots[:, 3]) & ~buried_mask
    points, counters = play_out("greedy", hands, trumps, np.zeros(slots.shape[0], dtype=np.int64), rule)
    return {"trump": trumps, "meld": melds, "buried": buried, "hands": hands, "points": points, "counters": counters}


def bidder_outcomes(slots: np.ndarray, rule: str = "old", dd_tricks: int = 0, table: Table | None = None,
                    trump: int | None = None, pimc_samples: int = 0, rng: np.random.Generator | None = None,
                    options: dict | None = None, discard: str = DEFAULT_POLICY) -> dict:
    """Seat 0 wins the bid, takes the kitty, discards (`best_discard`, or the ``discard`` policy of
    `pinochle3_discard`; under ``trump`` or the best trump) and leads (R5.1); options: meld variants
    (`pinochle3.meld_values`), for both melds.

    slots: (n, 4) uint64 dealt places (seat0, seat1, seat2, kitty). Returns (n,) int64 arrays:
    ``meld_before`` (best meld of the 15 dealt cards), ``trump_length`` (cards of the bid trump
    among the 15 dealt cards), ``trump``, ``meld`` (kept 15), ``buried``, ``greedy`` (trick
    points with every seat greedy, buried counters included) and with ``dd_tricks`` > 0 ``dd``
    (greedy first tricks, perfect play of the last ``dd_tricks``, buried included); with
    ``pimc_samples`` > 0 ``pimc`` (the bidder plays by PIMC with that many sampled worlds per card, the
    defenders' melds known, R3.9f; the defenders as in ``dd``; `pinochle3_pimc`; rng: the stream of the sampled
    worlds); and of the
    greedy play (n, 3) int64 ``points`` (trick points per seat, buried counters not included) and
    ``counters`` (taken in tricks per seat).
    """
    from simcore.games.pinochle3 import best_meld

    table = checked_table(table)
    before, _ = best_meld(slots[:, 0], options)
    c = _greedy_contract(slots, trump, rule, options, discard)
    trumps, buried, hands = c["trump"], c["buried"], c["hands"]
    out = {"meld_before": before, "trump": trumps, "meld": c["meld"], "buried": buried,
           "trump_length": np.bitwise_count(slots[:, 0] & SUITS[trumps]).astype(np.int64),
           "greedy": c["points"][:, 0] + buried, "points": c["points"], "counters": c["counters"]}
    if dd_tricks:
        table = table or Table(table_bits(dd_tricks))
        code = play_rule(rule)
        out["dd"] = buried + np.array([trusted_policy_then_solve(h, int(t), 0, dd_tricks, GREEDY_ALL, code, NO_DRAWS,
                                                                 table) for h, t in zip(hands, trumps)], dtype=np.int64)
    if pimc_samples:
        out["pimc"] = buried + pimc_points(hands, trumps, 0, pimc_samples, dd_tricks, rng, rule, table,
                                           melds_known=True, options=options)  # R3.9f: melds are public
    return out


# --- the pass: the same hand as a defender (spec §9.1 Q4, R6.1-R6.3) -------------------------------
PASS_SEAT = 1
"""The seat that takes the bid when the hand valued (seat 0) passes: the next seat, on its left."""
PASS_MODEL = ("EV_pass: the same deals, the next seat bidding the minimum instead (best discard, greedy play); "
              "the hand's score as a defender (R6.1)")
"""One line saying how the pass is modelled, for the commands' output."""


def meld_saved(counters, made, options: dict | None = None) -> np.ndarray:
    """(n,) bool: a defender's meld scores (R6.3): he took a counter in tricks, or the counter rule
    does not apply: ``defender_needs_counter`` False (R6.3), or the bidder set (not ``made``) with
    ``defender_counter_rule_on_set`` False (A3). (``defender_keeps_last_trick_without_counter``, A4,
    is about his trick points, not his meld: `defender_scores` applies it.)
    counters (n,) int64: counters (A, 10, K) the defender took in tricks, a count, not points;
    made (n,) bool: the bidder made his bid; options: pinochle3 rule options (`rule_options`)."""
    opts = rule_options(options)
    counter_rule = opts["defender_needs_counter"] & (np.asarray(made) | opts["defender_counter_rule_on_set"])
    return (np.asarray(counters) > 0) | ~counter_rule


def defender_scores(meld, points, counters, made, options: dict | None = None) -> np.ndarray:
    """(n,) int64 score of defenders (R6.1-R6.3), vectorised `pinochle3_play.score_played`: trick
    points plus meld, the meld only when `meld_saved` (R6.3, A3); without a saved meld the trick
    points (a last-trick 10) only with ``defender_keeps_last_trick_without_counter`` (A4).
    meld, points, counters (n,) int64 of the defender; made (n,) bool: the bidder made his bid."""
    opts = rule_options(options)
    saved = meld_saved(counters, made, options)
    kept = np.where(saved | opts["defender_keeps_last_trick_without_counter"], points, 0)
    return (kept + np.where(saved, meld, 0)).astype(np.int64)


def _meld_under(hands: np.ndarray, trumps: np.ndarray, options: dict | None) -> np.ndarray:
    """(n,) int64 meld of hands (n,) uint64, each under its own trump (n,) int64."""
    out = np.zeros(hands.shape[0], dtype=np.int64)
    for t in range(N_SUITS):
        mine = trumps == t
        if mine.any():
            out[mine] = meld_points(hands[mine], t, options)
    return out


def defender_outcomes(slots: np.ndarray, rule: str = "old", options: dict | None = None) -> dict:
    """Seat 0's hand as a defender, the pass of spec Q4: in the same deals, seat `PASS_SEAT` wins the
    bid at the minimum bid (R4.2a, option ``min_bid``), takes the kitty, discards and names trump by
    `discards` and leads; everyone plays greedily, exactly as `bidder_outcomes` does for seat 0.
    Seat 0 melds its 15 dealt cards under that trump (R3.9b) and scores by `defender_scores` with
    ``options`` (the bid matters only when ``defender_counter_rule_on_set`` is False: made or set).
    No concession (R4.10): the next seat always plays (as `play_hand` does by default).

    slots: (n, 4) uint64 (seat0, seat1, seat2, kitty). Returns (n,) arrays: ``score`` int64 (what
    seat 0 scores, main-game points), ``meld``, ``points`` (its trick points), ``counters`` (taken in
    tricks) int64, ``made`` bool (the bidder made the minimum bid), ``trump`` int64.
    """
    opts = rule_options(options)
    order = [(PASS_SEAT + k) % SEATS for k in range(SEATS)] + [SEATS]
    me = order.index(0)
    c = _greedy_contract(slots[:, order], None, rule, options)
    meld_b = np.where((c["counters"][:, 0] > 0) | (not opts["bidder_needs_counter"]), c["meld"], 0)
    made = meld_b + c["points"][:, 0] + c["buried"] >= lowest_bid(opts)
    meld = _meld_under(slots[:, 0], c["trump"], options)
    points, counters = c["points"][:, me], c["counters"][:, me]
    return {"score": defender_scores(meld, points, counters, made, opts), "meld": meld, "points": points,
            "counters": counters, "made": made, "trump": c["trump"]}


# --- concede or play (spec §9.1 Q5-Q6, R4.10, R6.1-R6.3) -----------------------------------------------
CONCEDE_PARTS = ("score", "score_squares", "extra", "extra_squares", "points", "points_squares")
"""Per-bin sums `BidderJob` keeps of the defenders' total when the bidder plays, for a made and for a
set bid: their score D, D², what playing gives them over conceding D - M (M their melds), its square,
their trick points kept P, P²."""


def concession_values(slots: np.ndarray, o: dict, options: dict | None = None) -> dict:
    """The defenders' side of conceding or playing (R4.10, R6.1) in the deals slots (n, 4) uint64 of
    `bidder_outcomes` o (greedy play, seat 0 the bidder). Returns ``meld`` (n,) int64 M = M_1 + M_2,
    the defenders' melds under the bidder's trump (what they score when he concedes: no counter test);
    ``score``, ``points`` (2, n) int64: their total score D and their trick points kept (R6.3, A4) when
    he plays, row 0 if he makes the bid, row 1 if he is set (they differ only under A3's flag);
    ``saved`` (n, 2) bool: each defender took a counter in tricks, which saves his meld (spec Q5)."""
    melds = np.stack([_meld_under(slots[:, s], o["trump"], options) for s in (1, 2)], axis=1)
    points, counters = o["points"][:, 1:], o["counters"][:, 1:]
    score, kept = np.zeros((2, len(slots)), dtype=np.int64), np.zeros((2, len(slots)), dtype=np.int64)
    for row, made in enumerate((True, False)):
        flags = np.full(len(slots), made)
        for d in (0, 1):
            score[row] += defender_scores(melds[:, d], points[:, d], counters[:, d], flags, options)
            kept[row] += defender_scores(np.zeros_like(melds[:, d]), points[:, d], counters[:, d], flags, options)
    return {"meld": melds.sum(axis=1), "score": score, "points": kept, "saved": counters > 0}


def pass_key(options: dict | None) -> str:
    """The part of a job's `key` the pass makes: its model version and the options that change the
    defender's score (the minimum bid only where made or set matters)."""
    opts = rule_options(options)
    flags = ("defender_needs_counter", "defender_counter_rule_on_set", "defender_keeps_last_trick_without_counter",
             "bidder_needs_counter")
    key = "|pass=v1" + "".join(f"|{f}={opts[f]}" for f in flags if opts[f] != rule_options()[f])
    if opts["defender_needs_counter"] and not opts["defender_counter_rule_on_set"]:
        key += f"|pass_bid={lowest_bid(opts)}"
    return key


def _hist(values, bins: int) -> np.ndarray:
    return np.bincount(np.minimum(np.asarray(values) // 10, bins - 1), minlength=bins).astype(np.int64)


def reaching_auction(slots: np.ndarray, nines_rule: str | None) -> np.ndarray:
    """(n,) bool: the deals of slots (n, 4) uint64 that reach the auction, those where neither
    defender (seats 1, 2) may claim a nines throw-in (V4; he always does, before the auction, as in
    `play_hand`); the bidder (seat 0), whose hand is being valued, plays it."""
    if nines_rule is None:
        return np.ones(slots.shape[0], dtype=bool)
    return ~(nines_throw_in(slots[:, 1], nines_rule) | nines_throw_in(slots[:, 2], nines_rule))


def check_dd_tricks(dd_tricks: int) -> None:
    """CardsimError unless ``dd_tricks`` (tricks solved double-dummy at the end of a hand) is 0-15."""
    if not is_whole_int(dd_tricks) or dd_tricks not in range(TRICKS + 1):
        raise CardsimError(f"--dd-tricks must be a whole number 0-{TRICKS}, got {dd_tricks!r}")


class BidderJob:
    """Counts for the runner over deals where seat 0 holds ``hand`` (15 cards; None: a random hand)
    and the kitty ``kitty`` (3 cards; None: random), trump ``trump`` (None: the best discard's);
    options: the meld variants (`pinochle3.meld_values`) and ``nines_rule`` (deals a defender throws
    in are left out, `reaching_auction`). Counts (`unpack` names them): [deals played, deals thrown
    in, sum of the kitty gain (spec Q2: the most meld a discard keeps - best meld before), sum of its squares, trump
    chosen (4), kitty gain (MELD_BINS, clipped at 0 below), meld + trick points with greedy play
    (TOTAL_BINS), the same with perfect play of the last ``dd_tricks`` tricks (TOTAL_BINS, zeros when
    dd_tricks is 0), the same with the bidder playing by PIMC with ``pimc_samples`` worlds per card
    (TOTAL_BINS, zeros when pimc_samples is 0; the worlds from sub-stream `PIMC_STREAM` of the
    block), then the pass (`defender_outcomes`, same deals): sum of the hand's defender score D,
    sum of D², sum of D per bin of greedy meld + trick points (TOTAL_BINS: pairs D with the bid's
    outcome for the interval of EV_bid - EV_pass), then concede or play (`concession_values`, greedy
    play): the `CONCEDE_PARTS` sums per bin of greedy meld + trick points when the bidder makes the
    bid, then when he is set (2, 6, TOTAL_BINS), the sum of the defenders' melds M and of M², the
    deals where the left, the right, both defenders took a counter (3)], histograms in bins of 10
    main-game points."""

    block_size = 256

    def __init__(self, hand=None, rule: str = "old", dd_tricks: int = 0, trump: int | None = None, kitty=None,
                 pimc_samples: int = 0, options: dict | None = None):
        rule_options({"play_rule": rule})
        if trump is not None and trump not in range(N_SUITS):
            raise CardsimError(f"trump must be a suit index 0-3 ({'/'.join(DECK.suits)}), got {trump}")
        check_dd_tricks(dd_tricks)
        self.hand = tuple(sorted(int(c) for c in hand)) if hand is not None else None
        if self.hand is not None and len(self.hand) != HAND_SIZE:
            raise CardsimError(f"the bidder's hand has {HAND_SIZE} cards, got {len(self.hand)}")
        self.kitty = tuple(sorted(int(c) for c in kitty)) if kitty is not None else None
        if self.kitty is not None and len(self.kitty) != KITTY_SIZE:
            raise CardsimError(f"the kitty has {KITTY_SIZE} cards, got {len(self.kitty)}")
        if pimc_samples and not 1 <= pimc_samples <= MAX_SAMPLES:
            raise CardsimError(f"--samples must be 1-{MAX_SAMPLES}, got {pimc_samples}")
        self.rule, self.dd_tricks, self.trump, self.pimc_samples = rule, dd_tricks, trump, pimc_samples
        self.options = dict(options or {})
        self.values, self.nines_rule = meld_values(options), rule_options(options)["nines_rule"]
        fixed = {"seat0": self.hand} if self.hand else {}
        self.spec = DealSpec(LAYOUT, {**fixed, "kitty": self.kitty} if self.kitty else fixed)
        self.n_counts = 4 + N_SUITS + MELD_BINS + 3 * TOTAL_BINS + 2 + TOTAL_BINS + CONCEDE_COUNTS

    def key(self) -> str:
        return (f"pinochle3|BidderJob|hand={self.hand}|kitty={self.kitty}|trump={self.trump}|rule={self.rule}"
                f"|dd={self.dd_tricks}|pimc={self.pimc_samples}{options_key(self.values, self.nines_rule)}"
                f"{pass_key(self.options)}|concede=v1|gain=most_meld")

    @staticmethod
    def unpack(counts: np.ndarray) -> dict:
        """Name the parts of a count vector: ints deals, thrown_in, gain_sum, gain_squares, pass_sum,
        pass_squares, meld_sum, meld_squares; arrays trump (4,), gain (MELD_BINS,), greedy, dd, pimc,
        pass_by_greedy (TOTAL_BINS,), concede (2, 6, TOTAL_BINS: made / set by `CONCEDE_PARTS`), saved
        (3,: deals where the left, the right, both defenders took a counter)."""
        deals, thrown_in, gain_sum, gain_squares = (int(x) for x in counts[:4])
        trump, rest = counts[4:4 + N_SUITS], counts[4 + N_SUITS:]
        greedy, dd, pimc = rest[MELD_BINS:MELD_BINS + 3 * TOTAL_BINS].reshape(3, TOTAL_BINS)
        rest, tail = rest[MELD_BINS + 3 * TOTAL_BINS:-CONCEDE_COUNTS], counts[-CONCEDE_COUNTS:]
        pass_sum, pass_squares = (int(x) for x in rest[:2])
        return {"deals": deals, "thrown_in": thrown_in, "gain_sum": gain_sum, "gain_squares": gain_squares,
                "trump": trump, "gain": counts[4 + N_SUITS:4 + N_SUITS + MELD_BINS], "greedy": greedy, "dd": dd,
                "pimc": pimc, "pass_sum": pass_sum, "pass_squares": pass_squares, "pass_by_greedy": rest[2:],
                "concede": tail[:-5].reshape(2, len(CONCEDE_PARTS), TOTAL_BINS),
                "meld_sum": int(tail[-5]), "meld_squares": int(tail[-4]), "saved": tail[-3:]}

    def run_block(self, seed: int, block: int, n_deals: int) -> np.ndarray:
        slots = deal(self.spec, block_words(seed, block, n_deals, self.spec.words_per_deal))
        slots = slots[reaching_auction(slots, self.nines_rule)]
        out = np.zeros(self.n_counts, dtype=np.int64)
        out[:2] = len(slots), n_deals - len(slots)
        if not len(slots):
            return out
        rng = block_substream(seed, block, PIMC_STREAM) if self.pimc_samples else None
        o = bidder_outcomes(slots, self.rule, self.dd_tricks, trump=self.trump, pimc_samples=self.pimc_samples,
                            rng=rng, options=self.options)
        gain = kept_meld(slots[:, 0] | slots[:, 3], self.trump, self.options) - o["meld_before"]
        played = [_hist(o["meld"] + o[k], TOTAL_BINS) if k in o else np.zeros(TOTAL_BINS, dtype=np.int64)
                  for k in ("greedy", "dd", "pimc")]
        score = defender_outcomes(slots, self.rule, self.options)["score"]
        out[2:4] = gain.sum(), (gain * gain).sum()
        out[4:] = np.concatenate((np.bincount(o["trump"], minlength=N_SUITS), _hist(np.maximum(gain, 0), MELD_BINS),
                                  *played, [score.sum(), (score * score).sum()],
                                  _bin_sums(o["meld"] + o["greedy"], score, TOTAL_BINS),
                                  _concession_counts(slots, o, self.options)))
        return out


CONCEDE_COUNTS = 2 * len(CONCEDE_PARTS) * TOTAL_BINS + 5
"""Counts `BidderJob` keeps of conceding or playing (`_concession_counts`)."""


def _concession_counts(slots: np.ndarray, o: dict, options: dict | None) -> np.ndarray:
    """(CONCEDE_COUNTS,) int64 of deals slots (n, 4) and their `bidder_outcomes` o, laid out as
    `BidderJob.unpack` names them (concede, meld_sum, meld_squares, saved)."""
    v = concession_values(slots, o, options)
    total, meld = o["meld"] + o["greedy"], v["meld"]
    sums = []
    for d, p in zip(v["score"], v["points"]):  # made, then set
        sums += [_bin_sums(total, x, TOTAL_BINS) for x in (d, d * d, d - meld, (d - meld) ** 2, p, p * p)]
    saved = v["saved"]
    return np.concatenate((*sums, [meld.sum(), (meld * meld).sum()], saved.sum(axis=0), [saved.all(axis=1).sum()]))


def _bin_sums(values, weights, bins: int) -> np.ndarray:
    """(bins,) int64: the sum of ``weights`` over the values in each bin of 10 points (as `_hist`)."""
    return np.bincount(np.minimum(np.asarray(values) // 10, bins - 1), weights=weights,
                       minlength=bins).round().astype(np.int64)


THRESHOLD_MELD_BINS = 13
"""Pre-kitty best meld in bins of 20 points for `ThresholdJob`: [0, 20), ..., [240, +inf)."""
TRUMP_LENGTHS = (4, 9)
"""Trump length classes: <= 4, 5, 6, 7, 8, >= 9 cards of the bid trump among the 15 dealt."""


FIT_TERMS = ("intercept", "meld", "counters", "trump_length")
"""The terms of the bidding rule of thumb `ThresholdJob` fits (spec Q4), all of the 15 dealt cards: 1, the hand's best
meld, its counters (A 10 K) and the cards of its intended trump (`fit_terms`)."""
FIT_PLAYS = ("greedy", "dd")
"""The plays whose meld + trick points the rule of thumb is fitted to: greedy, and with the last tricks solved."""
FIT_COUNTS = len(FIT_TERMS) ** 2 + len(FIT_PLAYS) * (len(FIT_TERMS) + 1)
"""The least-squares sums of `fit_sums`: X'X, then X'y and y'y per play."""


def intended_trumps(hands: np.ndarray, options: dict | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The trump a player plans when he bids, of 15-card hand masks (n,) uint64: his best-meld suit, the longest of
    equally good ones, then the first in S H D C order. Returns ((n,) int64 meld under it, (n,) int64 suit index,
    (n,) int64 its cards in the hand); options: meld variants."""
    hands = np.asarray(hands, dtype=np.uint64)
    melds = np.stack([meld_points(hands, suit, options) for suit in range(N_SUITS)], axis=1)
    lengths = np.stack([np.bitwise_count(hands & SUITS[suit]).astype(np.int64) for suit in range(N_SUITS)], axis=1)
    intended = np.argmax(melds * (HAND_SIZE + 1) + lengths, axis=1)  # argmax: the first of equal keys
    rows = np.arange(len(hands))
    return melds[rows, intended], intended, lengths[rows, intended]


def fit_terms(hands: np.ndarray, options: dict | None = None) -> np.ndarray:
    """(n, len(FIT_TERMS)) int64 of 15-card hand masks (n,) uint64: 1, best meld (options: meld variants), counters
    held, and the cards of the intended trump (`intended_trumps`)."""
    melds, _, lengths = intended_trumps(hands, options)
    return np.stack((np.ones(len(hands), dtype=np.int64), melds, np.bitwise_count(hands & COUNTERS).astype(np.int64),
                     lengths), axis=1)


def fit_sums(terms: np.ndarray, totals: np.ndarray) -> np.ndarray:
    """(FIT_COUNTS,) int64 least-squares sums: X'X (terms (n, k)), then per column of totals (n, len(FIT_PLAYS)):
    X'y and y'y. Whole numbers, so chunks add up exactly in any order."""
    return np.concatenate((terms.T @ terms, terms.T @ totals, (totals * totals).sum(axis=0)[None]), axis=None)


def unpack_fit(counts: np.ndarray) -> dict:
    """The sums of `fit_sums` named: ``xtx`` (k, k), ``xty`` (k, plays), ``yty`` (plays,)."""
    k, plays = len(FIT_TERMS), len(FIT_PLAYS)
    return {"xtx": counts[:k * k].reshape(k, k), "xty": counts[k * k:k * k + k * plays].reshape(k, plays),
            "yty": counts[k * k + k * plays:]}


class ThresholdJob:
    """Counts for the runner over random deals, seat 0 the bidder: the (meld class, trump-length
    class, meld + trick points bin) histogram with greedy play (`bidder_outcomes`); the sum of the
    hand's defender score D when it passes instead (`defender_outcomes`, same deal) per cell of that
    histogram; the sum of D² per (meld class, trump-length class); with ``dd_tricks`` > 0 the same
    histogram with the last ``dd_tricks`` tricks played perfectly (`bidder_outcomes`' ``dd``); the least-squares
    sums of meld + trick points on `FIT_TERMS` (`fit_sums`; the dd column 0 without dd_tricks); then the deals
    thrown in (`reaching_auction`: left out of the rest). All flattened, in that order (`unpack`); options: the
    meld variants (`pinochle3.meld_values`), ``nines_rule`` and the defenders' scoring flags."""

    block_size = 4096

    def __init__(self, rule: str = "old", options: dict | None = None, dd_tricks: int = 0):
        rule_options({"play_rule": rule})
        check_dd_tricks(dd_tricks)
        self.rule, self.dd_tricks = rule, dd_tricks
        self.options = dict(options or {})
        self.values, self.nines_rule = meld_values(options), rule_options(options)["nines_rule"]
        self.spec = DealSpec(LAYOUT)
        self.shape = (THRESHOLD_MELD_BINS, TRUMP_LENGTHS[1] - TRUMP_LENGTHS[0] + 1, TOTAL_BINS)
        self.n_counts = (2 + bool(dd_tricks)) * int(np.prod(self.shape)) + int(np.prod(self.shape[:2])) \
            + FIT_COUNTS + 1

    def key(self) -> str:
        return f"pinochle3|ThresholdJob|rule={self.rule}{options_key(self.values, self.nines_rule)}" \
               f"{pass_key(self.options)}" + (f"|dd={self.dd_tricks}" if self.dd_tricks else "") + "|fit"

    def unpack(self, counts: np.ndarray) -> dict:
        """Name the parts of a count vector: ``hist`` and ``pass_sum`` (shape `shape`: deals, and the
        sum of the defender score D, per meld class, trump-length class, meld + trick points bin),
        ``pass_squares`` (shape[:2]: sum of D²), ``hist_dd`` (shape `shape`, the last tricks played
        perfectly; None without dd_tricks), ``fit`` (`unpack_fit`), ``thrown_in`` (int)."""
        cells, classes = int(np.prod(self.shape)), int(np.prod(self.shape[:2]))
        dd_start = 2 * cells + classes
        fit_start = dd_start + cells * bool(self.dd_tricks)
        return {"hist": counts[:cells].reshape(self.shape), "pass_sum": counts[cells:2 * cells].reshape(self.shape),
                "pass_squares": counts[2 * cells:dd_start].reshape(self.shape[:2]),
                "hist_dd": counts[dd_start:fit_start].reshape(self.shape) if self.dd_tricks else None,
                "fit": unpack_fit(counts[fit_start:fit_start + FIT_COUNTS]), "thrown_in": int(counts[-1])}

    def run_block(self, seed: int, block: int, n_deals: int) -> np.ndarray:
        slots = deal(self.spec, block_words(seed, block, n_deals, self.spec.words_per_deal))
        slots = slots[reaching_auction(slots, self.nines_rule)]
        counts, pass_sum = np.zeros(self.shape, dtype=np.int64), np.zeros(self.shape, dtype=np.int64)
        squares = np.zeros(self.shape[:2], dtype=np.int64)
        counts_dd = np.zeros(self.shape if self.dd_tricks else 0, dtype=np.int64)
        fit = np.zeros(FIT_COUNTS, dtype=np.int64)
        if len(slots):
            o = bidder_outcomes(slots, self.rule, self.dd_tricks, options=self.options)
            score = defender_outcomes(slots, self.rule, self.options)["score"]
            m = np.minimum(o["meld_before"] // 20, THRESHOLD_MELD_BINS - 1)
            t = np.clip(o["trump_length"], *TRUMP_LENGTHS) - TRUMP_LENGTHS[0]
            x = np.minimum((o["meld"] + o["greedy"]) // 10, TOTAL_BINS - 1)
            np.add.at(counts, (m, t, x), 1)
            np.add.at(pass_sum, (m, t, x), score)
            np.add.at(squares, (m, t), score * score)
            if self.dd_tricks:
                np.add.at(counts_dd, (m, t, np.minimum((o["meld"] + o["dd"]) // 10, TOTAL_BINS - 1)), 1)
            solved = o["meld"] + o["dd"] if self.dd_tricks else np.zeros_like(o["meld"])
            totals = np.stack((o["meld"] + o["greedy"], solved), axis=1)
            fit = fit_sums(fit_terms(slots[:, 0], self.options), totals)
        return np.concatenate((counts.ravel(), pass_sum.ravel(), squares.ravel(), counts_dd.ravel(), fit,
                               [n_deals - len(slots)]))


# --- alternatives on the same deals (spec §9.1 Q7, Q9) -------------------------------------------------
COMPARISONS = {"rules": tuple(PLAY_RULES), "discards": tuple(DISCARD_POLICIES)}
"""What `CompareJob` compares: the play rules or the discard policies, the default (old, best) first."""


class CompareJob:
    """Counts for the runner over the deals of `BidderJob` (its deal spec and block size: for a seed,
    the very deals of ``cardsim odds``), seat 0 the bidder, played once per alternative of ``what``
    (`COMPARISONS`): each play rule (discard `best_discard`) or each discard policy
    (`pinochle3_discard`, play rule ``rule``), as `bidder_outcomes` plays them: greedy, and with
    ``dd_tricks`` > 0 greedy then the last tricks solved. Alternative 0, the default, is paired with
    each deal by deal. Counts (`unpack` names them): [deals played, deals thrown in], then per
    alternative and play (greedy, dd): per bid of ``bids`` (main-game points) the deals made (meld +
    trick points >= bid), those made by it but not by the default, by the default but not by it;
    the bidder's trick points P_b (buried counters included): sum, sum of squares, sum of squared
    differences from the default's; then per alternative the same three sums of the meld kept."""

    block_size = BidderJob.block_size

    def __init__(self, hand, what: str, bids, rule: str = "old", dd_tricks: int = 0, trump: int | None = None,
                 kitty=None, options: dict | None = None):
        if what not in COMPARISONS:
            raise CardsimError(f"cannot compare '{what}'; choose one of: {', '.join(COMPARISONS)}")
        self.base = BidderJob(hand, rule, dd_tricks, trump, kitty, 0, options)
        self.what, self.alternatives = what, COMPARISONS[what]
        self.bids = tuple(int(b) for b in bids)
        self.plays = ("greedy", "dd") if dd_tricks else ("greedy",)
        self.n_counts = 2 + len(self.alternatives) * (len(self.plays) * (3 * len(self.bids) + 3) + 3)

    def key(self) -> str:
        return f"{self.base.key()}|compare={self.what}|bids={self.bids}"

    def unpack(self, counts: np.ndarray) -> dict:
        """Name the parts of a count vector: ints deals, thrown_in; arrays (alternatives, plays, bids)
        made, gained, lost; (alternatives, plays, 3) points and (alternatives, 3) meld: sum, sum of
        squares, sum of squared differences from the default's."""
        k, b = len(self.alternatives), len(self.bids)
        plays = counts[2:-3 * k].reshape(k, len(self.plays), 3 * b + 3)
        return {"deals": int(counts[0]), "thrown_in": int(counts[1]), "made": plays[..., :b],
                "gained": plays[..., b:2 * b], "lost": plays[..., 2 * b:3 * b], "points": plays[..., 3 * b:],
                "meld": counts[-3 * k:].reshape(k, 3)}

    def _outcomes(self, slots: np.ndarray, alternative: str) -> dict:
        b = self.base
        rule, discard = (alternative, DEFAULT_POLICY) if self.what == "rules" else (b.rule, alternative)
        return bidder_outcomes(slots, rule, b.dd_tricks, trump=b.trump, options=b.options, discard=discard)

    def run_block(self, seed: int, block: int, n_deals: int) -> np.ndarray:
        spec = self.base.spec
        slots = deal(spec, block_words(seed, block, n_deals, spec.words_per_deal))
        slots = slots[reaching_auction(slots, self.base.nines_rule)]
        out = np.zeros(self.n_counts, dtype=np.int64)
        out[:2] = len(slots), n_deals - len(slots)
        if not len(slots):
            return out
        outcomes = [self._outcomes(slots, a) for a in self.alternatives]
        default, bids = outcomes[0], np.array(self.bids)
        parts, melds = [], []
        for o in outcomes:
            for play in self.plays:
                made = (o["meld"] + o[play])[:, None] >= bids
                made0 = (default["meld"] + default[play])[:, None] >= bids
                diff = o[play] - default[play]
                parts += [made.sum(axis=0), (made & ~made0).sum(axis=0), (made0 & ~made).sum(axis=0),
                          [o[play].sum(), (o[play] ** 2).sum(), (diff * diff).sum()]]
            diff = o["meld"] - default["meld"]
            melds += [o["meld"].sum(), (o["meld"] ** 2).sum(), (diff * diff).sum()]
        out[2:] = np.concatenate(parts + [melds])
        return out


# --- bidding policies and games --------------------------------------------------------------------
@dataclass(frozen=True)
class BidPolicy:
    """A bidding policy as data: the most a player bids is his best meld (15 cards) plus ``base``
    plus ``per_counter`` per counter held plus ``per_trump`` per card of his intended trump (`intended_trumps`:
    the best-meld suit, the longest of equally good ones), rounded down to the bid step; he raises the
    standing bid by one step while it stays within that.

    Having won the bid, he concedes (R4.10) when his meld plus `trick_estimate` falls short of the
    bid by more than ``concede_margin`` points (main-game points; None: he never concedes)."""

    name: str
    base: int
    per_counter: int
    per_trump: int
    help: str
    concede_margin: int | None = None

    def concedes(self, bid: int, meld: int, estimate: int) -> bool:
        """Whether he concedes a bid of ``bid`` with ``meld`` and trick points estimated at ``estimate``."""
        return self.concede_margin is not None and meld + estimate < bid - self.concede_margin


BID_POLICIES = {p.name: p for p in (
    BidPolicy("cautious", 40, 5, 0, "meld + 40 + 5 per counter"),
    BidPolicy("standard", 60, 5, 5, "meld + 60 + 5 per counter + 5 per trump"),
    BidPolicy("bold", 90, 5, 10, "meld + 90 + 5 per counter + 10 per trump"),
    BidPolicy("never", -10_000, 0, 0, "always passes (forced bids excepted)"),
)}


def bid_policy(name: str, concede_margin: int | None = None) -> BidPolicy:
    """The policy named ``name`` in any case (Bold = bold), conceding with ``concede_margin`` (main-game
    points; None: never, `BidPolicy`); CardsimError for an unknown name or a bad margin (`checked_margin`)."""
    if str(name).strip().lower() not in BID_POLICIES:
        raise unknown_name("bidding policy", name, BID_POLICIES)
    return replace(BID_POLICIES[str(name).strip().lower()], concede_margin=checked_margin(concede_margin))


def checked_margin(margin) -> int | None:
    """A concession margin as an int (None: never concedes); CardsimError unless a whole number >= 0. A
    bidder concedes only when he expects to fall short by more than the margin (R4.10: conceding gives up
    the bid, so a negative margin would concede contracts he expects to make)."""
    if margin is None:
        return None
    if not isinstance(margin, (int, np.integer)) or isinstance(margin, bool) or margin < 0:
        raise CardsimError(f"a concession margin is a whole number of points >= 0, got {margin!r}")
    return int(margin)


def trick_estimate(kept, buried) -> int:
    """The bidder's trick points as a conceding policy estimates them (`BidPolicy.concedes`): the
    counters he buried (``buried`` points, R4.7c) plus 10 per counter among his 15 ``kept`` cards (mask)."""
    return int(buried) + COUNTER_POINTS * popcount(np.uint64(kept) & COUNTERS)


def max_bids(policies, hands, options: dict | None = None) -> np.ndarray:
    """(3,) int64: the most each seat bids; policies (3,) BidPolicy, hands (3,) uint64 of 15 cards,
    options: meld variants. A policy's trump cards are those of the seat's intended trump (`intended_trumps`)."""
    hands = np.asarray(hands, dtype=np.uint64)
    melds, _, lengths = intended_trumps(hands, options)
    counters = np.bitwise_count(hands & COUNTERS).astype(np.int64)
    limits = [melds[s] + p.base + p.per_counter * counters[s] + p.per_trump * lengths[s]
              for s, p in enumerate(policies)]
    return np.array(limits, dtype=np.int64) // 10 * 10


def auction(limits, dealer: int, opts: dict) -> tuple[int | None, int]:
    """(bidder or None when all pass, bid) of an auction where every seat raises by one step while
    the bid stays within its limit (R4.2; forced bids of V2 and V3 at the minimum, A21)."""
    step, lowest = opts["bid_step"], lowest_bid(opts)
    high, bidder, passed, seat, first = None, None, set(), (dealer + 1) % SEATS, True
    while len(passed) < SEATS and not (high is not None and len(passed) == SEATS - 1):
        bid = lowest if high is None else high + step
        forced = (opts["forced_open"] and first) or (opts["dealer_stuck"] and seat == dealer and high is None
                                                     and len(passed) == 2)
        if forced or bid <= limits[seat]:
            high, bidder = bid, seat
        else:
            passed.add(seat)
        first = False
        seat = (seat + 1) % SEATS
        while seat in passed and len(passed) < SEATS:
            seat = (seat + 1) % SEATS
    return bidder, high or 0


PASS = 0
"""An auction limit below every bid: the seat passes (`play_hand`'s override)."""
MAX_HANDS = 300
"""Hands after which a game with no winner is abandoned (counted, not scored)."""


def game_hands(rng, policies, opts: dict, scores=(0, 0, 0), dealer: int | None = None, override=None):
    """The hands of one game to the target (R6.5; or of ``n_hands`` hands, V11) from ``scores`` (3,), dealt from
    ``rng`` one permutation a hand; the first dealer ``dealer`` (None: drawn from rng first), then the next seat
    each hand. Yields (hand number from 1, dealer, `HandScore` or None when thrown in, bidder, winner or None),
    and stops after the hand that finds the winner (`game_winner`) or after `MAX_HANDS`. ``override``: (seat,
    bid) of the first hand, `play_hand` (a pass or a sacrifice)."""
    scores = list(scores)
    dealer = int(rng.integers(SEATS)) if dealer is None else dealer
    limit_broken = False  # V10: a score below neg_limit while nobody was positive
    for hand in range(1, MAX_HANDS + 1):
        first = override if hand == 1 else None
        score, bidder = play_hand(rng.permutation(DECK.n_cards), policies, dealer, opts, first)
        if score is not None:
            scores = [s + d for s, d in zip(scores, score.delta)]
        winner = game_winner(scores, bidder, score is not None and score.made, opts, hand, limit_broken)
        limit_broken = limit_broken or (opts["neg_limit"] is not None and min(scores) < opts["neg_limit"])
        yield hand, dealer, score, bidder, winner
        if winner is not None:
            return
        dealer = (dealer + 1) % SEATS


def play_hand(cards: np.ndarray, policies, dealer: int, opts: dict, override=None):
    """One hand: cards (48,) a shuffled pack (15 per seat from the dealer's left, then the kitty).

    Returns (HandScore or None when the hand is thrown in, bidder). A hand is thrown in when a seat
    may claim it under ``nines_rule`` (V4; he always does, before the auction, A19), when all three agree
    under ``unanimous_throw_in`` (V4f; a seat agrees when his limit is below the opening bid, so the hand
    nobody would bid is thrown in rather than forced on a seat by ``forced_open`` or ``dealer_stuck``), or
    all pass.
    Discard by `best_discard`; after the melds the bidder concedes when his policy says so
    (`BidPolicy.concedes`, `score_conceded`: 1 set unit, R4.10, ``HandScore.conceded``), else the
    hand is played greedily. ``override``: (seat, bid): that seat bids up to at least ``bid`` (a sacrifice),
    or passes with ``bid`` `PASS` (forced bids excepted).
    """
    from simcore.games.pinochle3 import meld_points

    hands = np.array([DECK.mask(cards[HAND_SIZE * s:HAND_SIZE * (s + 1)]) for s in range(SEATS)], dtype=np.uint64)
    hands = np.roll(hands, dealer + 1)
    kitty = np.uint64(DECK.mask(cards[SEATS * HAND_SIZE:]))
    if nines_throw_in(hands, opts["nines_rule"]).any():
        return None, None
    limits = max_bids(policies, hands, opts)
    if override is not None:
        seat, most = override
        limits[seat] = PASS if most == PASS else max(limits[seat], most)
    if opts["unanimous_throw_in"] and (limits < lowest_bid(opts)).all():
        return None, None
    bidder, bid = auction(limits, dealer, opts)
    if bidder is None:
        return None, None
    buried_mask, trumps, melds, buried = discards(np.array([hands[bidder] | kitty], dtype=np.uint64), None, opts)
    trump = int(trumps[0])
    hands[bidder] = (hands[bidder] | kitty) & ~buried_mask[0]
    meld = np.array([meld_points(hands[s:s + 1], trump, opts)[0] for s in range(SEATS)])
    if policies[bidder].concedes(bid, int(meld[bidder]), trick_estimate(hands[bidder], buried[0])):
        return score_conceded(bid, bidder, meld, opts), bidder
    points, counters = trusted_play_out(GREEDY_ALL, hands[None], np.array([trump]), np.array([bidder]),
                                        play_rule(opts["play_rule"]), NO_DRAWS[None])
    points[0, bidder] += buried[0]
    return score_played(bid, bidder, meld, points[0], counters[0], opts), bidder


STAKES = ("game_stake", "set_stake")
"""The money-play options (R6.6): `GameJob` counts the money in stake units, so they change no count."""
SET_UNITS = ("concede_units", "set_units")
"""The options of the set units a hand costs (R6.6): they change `GameJob`'s money counts, read only with a stake."""
MONEY_COUNTS = ("money_games", "money_sets", "money_games_sq", "money_sets_sq", "money_cross", "money_games_k",
                "money_sets_k")
"""The money counts of `GameJob` per side: x, y, x², y², x·y, x·k, y·k (its docstring)."""


def _money_counts(winner: int, units, is_a: np.ndarray) -> np.ndarray:
    """(14,) int64: `MONEY_COUNTS` of side a, then of side b, of one finished game won by ``winner``;
    units (3,): the set units every seat incurred in the game, is_a (3,) bool: the seats of policy a."""
    per_game = np.array(settle(winner, units, 1, 0), dtype=np.int64)
    per_set = np.array(settle(winner, units, 0, 1), dtype=np.int64)
    out = []
    for seats in (is_a, ~is_a):
        x, y, k = int(per_game[seats].sum()), int(per_set[seats].sum()), int(seats.sum())
        out += [x, y, x * x, y * y, x * y, x * k, y * k]
    return np.array(out, dtype=np.int64)


POSITION_COUNTS = ("position_points", "position_squares", "position_contracts")
"""The auction-position counts of `GameJob`, each per position (the dealer's left, the next, the dealer): sums of
the score change per hand and of its square, contracts won (spec Q8)."""


class GameJob:
    """Counts for the runner over self-play games to the target, every seat greedy in play. Game g
    gives the lone seat g mod 3 policy ``a`` and the other two ``b`` when (g // 3) is even, the other
    way round when odd, so each policy sits in half the seats over every 6 games. Counts:
    [games, games won by an a seat, by a b seat, abandoned (MAX_HANDS), seat-games of a, of b,
    seat-hands of a, of b, points of a's seats, of b's, squared points per seat-hand of a, of b,
    (seats of a)², (seats of b)², seats of a if an a seat won, seats of b if a b seat won] (the last
    four per game: they give the win rates' intervals over games as clusters of seats,
    `analysis.stats.ratio_share`), then hands dealt per finished game: their sum and sum of squares
    (every deal counts, thrown in or not, R2.5; spec Q12). Seat-games, the cluster sums and the hands
    per game count finished games only: an abandoned game has no winner, so it is no trial of the win
    rate; its hands count in the points. Then, of every game, per side (a, then b): contracts won by
    its seats t, those conceded s (R4.10, ``HandScore.conceded`` of `play_hand`: a policy with
    ``a_concede`` / ``b_concede`` concedes, `BidPolicy`; None never does), s², t², s·t (the game is the
    cluster of the concession rate s / t). Then, of every finished game, per side (a, then b), the money
    (R6.6) its seats settle as x game stakes plus y set stakes (`settle`: each loser pays the winner the
    game stake plus the set stake per set unit he incurred; x, y whole numbers, so any stakes G, S give the
    side's money G x + S y at analysis time): x, y, x², y², x·y, x·k, y·k (k: the side's seats, the game
    the cluster). Last, over every hand dealt (spec Q8, R4.2a, R4.4), per auction position (the dealer's left,
    who speaks first; the next; the dealer, who speaks last): the score change's sum and sum of squares and
    the contracts won, `POSITION_COUNTS`. `unpack` names the counts."""

    block_size = 12
    n_counts = 51

    def __init__(self, a: str, b: str, options: dict | None = None, a_concede: int | None = None,
                 b_concede: int | None = None):
        self.a, self.b = bid_policy(a, a_concede), bid_policy(b, b_concede)
        self.opts = rule_options(options)
        if self.a.name == self.b.name == "never":
            bidders = "give --a or --b a policy that bids (cautious, standard, bold)"
            if not (self.opts["forced_open"] or self.opts["dealer_stuck"]):
                raise CardsimError("both policies are 'never' and no bid is forced, so every hand is thrown in and "
                                   f"no game can finish; {bidders} or add --option forced_open=True or "
                                   "dealer_stuck=True")
            if self.opts["unanimous_throw_in"]:
                raise CardsimError("both policies are 'never', so all three agree to throw every hand in "
                                   f"(unanimous_throw_in, V4f) and no game can finish; {bidders} or drop "
                                   "unanimous_throw_in")

    def key(self) -> str:
        games = {k: v for k, v in self.opts.items() if k not in STAKES}  # the stakes change no count
        return (f"pinochle3|GameJob|v6|{self.a.name}|{self.b.name}|concede={self.a.concede_margin},"
                f"{self.b.concede_margin}|{sorted(games.items(), key=str)}")

    @staticmethod
    def unpack(counts: np.ndarray) -> dict:
        """Name the counts (ints; pairs are (a, b)): games, wins (2), abandoned, seat_games (2),
        seat_hands (2), points (2), points_squares (2), seats_squares (2), seats_of_winner (2),
        hands_sum, hands_squares (hands dealt per finished game), contracts (2), conceded (2),
        conceded_squares (2), contracts_squares (2), conceded_cross (2) (sums over games of s², t², s·t),
        then the money counts `MONEY_COUNTS` (2 each) and `POSITION_COUNTS` (3 each: the dealer's left, the next,
        the dealer)."""
        c = [int(x) for x in counts]
        return {"games": c[0], "wins": c[1:3], "abandoned": c[3], "seat_games": c[4:6], "seat_hands": c[6:8],
                "points": c[8:10], "points_squares": c[10:12], "seats_squares": c[12:14],
                "seats_of_winner": c[14:16], "hands_sum": c[16], "hands_squares": c[17], "contracts": c[18:28:5],
                "conceded": c[19:28:5], "conceded_squares": c[20:28:5], "contracts_squares": c[21:28:5],
                "conceded_cross": c[22:28:5], **{name: c[28 + i:42:7] for i, name in enumerate(MONEY_COUNTS)},
                **{name: c[42 + 3 * i:45 + 3 * i] for i, name in enumerate(POSITION_COUNTS)}}

    def run_block(self, seed: int, block: int, n_games: int) -> np.ndarray:
        rng = block_substream(seed, block, 1)
        out = np.zeros(self.n_counts, dtype=np.int64)
        for g in range(block * self.block_size, block * self.block_size + n_games):
            lone, flip = g % SEATS, (g // SEATS) % 2
            is_a = np.array([(s == lone) != bool(flip) for s in range(SEATS)])
            out += self._game(rng, is_a)
        return out

    def _game(self, rng, is_a: np.ndarray) -> np.ndarray:
        """One game; is_a (3,) bool: the seats playing policy a."""
        policies = [self.a if a else self.b for a in is_a]
        units = np.zeros(SEATS, dtype=np.int64)
        out = np.zeros(self.n_counts, dtype=np.int64)
        out[0], out[3] = 1, 1  # abandoned until a hand finds the winner
        for hand, dealer, score, bidder, winner in game_hands(rng, policies, self.opts):
            delta = np.zeros(SEATS, dtype=np.int64) if score is None else np.array(score.delta)
            by_position = np.roll(delta, -(dealer + 1))  # the dealer's left first, the dealer last
            out[42:45] += by_position
            out[45:48] += by_position ** 2
            for side, seats in ((0, is_a), (1, ~is_a)):
                out[6 + side] += seats.sum()
                out[8 + side] += delta[seats].sum()
                out[10 + side] += (delta[seats] ** 2).sum()
            if score is not None:
                out[48 + (bidder - dealer - 1) % SEATS] += 1
                at = 18 if is_a[bidder] else 23  # the bidder's side's contracts, then its concessions
                out[at] += 1
                out[at + 1] += score.conceded
                units += score.set_units
            if winner is not None:  # after a thrown-in hand too: the last of n_hands (V11)
                out[3] = 0
                out[4], out[5] = is_a.sum(), SEATS - is_a.sum()
                out[12], out[13] = out[4] ** 2, out[5] ** 2
                out[1 if is_a[winner] else 2] += 1
                out[14 if is_a[winner] else 15] = out[4 if is_a[winner] else 5]
                out[16], out[17] = hand, hand * hand
                out[28:42] = _money_counts(winner, units, is_a)
        for at in (18, 23):  # the game's cluster sums of the concession rate s / t: s², t², s·t
            out[at + 2:at + 5] = out[at + 1] ** 2, out[at] ** 2, out[at] * out[at + 1]
        return out


class SacrificeJob:
    """Counts for the runner over games played on from given scores (spec Q10, "near 1500: should I
    sacrifice-bid?" against a pass). Seat 0 is "you", bidding by policy ``you``; seats 1 and 2 bid by ``others``;
    everyone plays greedily and never concedes. Each game is played with you passing this hand (the baseline),
    with you bidding by your policy, and once per sacrifice bid S with you bidding up to at least S (`play_hand`'s
    override), all on the same cards (game g of a block draws from its own stream, `block_substream` index 1 + g,
    in every branch); from the next hand on everyone follows the policies. Counts: [games, you win after the
    pass, abandoned after the pass, an opponent goes out in this hand after the pass], then per choice of
    `choices` (your policy, then each S): [you win, only this choice wins, only the pass wins, you hold the
    contract, you hold it and are set, abandoned, only this choice wins against your policy, only your policy
    wins against it]."""

    block_size = 16
    per_choice = 8

    def __init__(self, scores, dealer: int, you: str, others: str, sacrifices, options: dict | None = None):
        self.scores, self.dealer = tuple(int(s) for s in scores), int(dealer)
        self.policies = [bid_policy(you), bid_policy(others), bid_policy(others)]
        self.sacrifices = tuple(int(b) for b in sacrifices)
        self.opts = rule_options(options)

    def key(self) -> str:
        return (f"pinochle3|SacrificeJob|v3|{self.scores}|{self.dealer}|{self.policies[0].name}|"
                f"{self.policies[1].name}|{self.sacrifices}|{sorted(self.opts.items(), key=str)}")

    @property
    def choices(self) -> tuple:
        """The first-hand overrides compared with the pass: None (your policy's own bid), then each sacrifice."""
        return (None, *self.sacrifices)

    @property
    def n_counts(self) -> int:
        return 4 + self.per_choice * len(self.choices)

    def _play(self, seed: int, block: int, index: int, override) -> tuple:
        """(winner or None when abandoned, hands played, first hand's bidder or None, he made it) of one game."""
        rng = block_substream(seed, block, index)
        first = None
        for hand, _, score, bidder, winner in game_hands(rng, self.policies, self.opts, self.scores, self.dealer,
                                                         override):
            if hand == 1:
                first = (bidder, bool(score is not None and score.made))
        return winner, hand, *first

    def run_block(self, seed: int, block: int, n_games: int) -> np.ndarray:
        out = np.zeros(self.n_counts, dtype=np.int64)
        for index in range(1, n_games + 1):
            passed, hands, _, _ = self._play(seed, block, index, (0, PASS))
            out[:4] += (1, passed == 0, passed is None, passed not in (None, 0) and hands == 1)
            policy = None
            for k, choice in enumerate(self.choices):
                winner, _, bidder, made = self._play(seed, block, index, None if choice is None else (0, choice))
                policy = winner if choice is None else policy
                at = 4 + self.per_choice * k
                out[at:at + self.per_choice] += (winner == 0, winner == 0 and passed != 0, passed == 0 and winner != 0,
                                                 bidder == 0, bidder == 0 and not made, winner is None,
                                                 winner == 0 and policy != 0, policy == 0 and winner != 0)
        return out
