"""Three-player Pinochle (Bison, South Dakota): 48 cards, 15 each and a 3-card kitty, all three meld.

Rules: shared/rules/pinochle3.md. This module declares the pack, the deal layout, counter points,
the spec's defaults (Appendix A, §8) and the meld table as data, and evaluates melds (spec §3):

* `meld_points(hands, trump)`: vectorized meld of many holdings under one trump;
* `best_meld(hands)`: the best trump of every holding and its meld (the bidder's view);
* `meld_breakdown(cards, trump)`: the melds of one holding, with the physical cards of each.

Encoding (simcore.cards): suits S H D C, ranks 9 J Q K 10 A weakest first, two copies of every
face; ``face = 6 * suit + rank``, ``card = 2 * face + copy``, so a face's copies are the two bits
``2 * face`` and ``2 * face + 1`` of a hand mask and its count is the popcount of those bits.
Holdings may have any size (15 cards, or 18 with the kitty); melds depend only on face counts.

Meld value (R3.5): the maximum over all legal declarations. The three meld types use cards
independently (R3.4a), so the maximum is a sum over types; type 1 splits further by suit. In the
trump suit the declarer may count ``u`` ropes and then marriages from the K and Q left over, so its
type-1 value is ``max_u rope[u] + royal[min(K, Q) - u] + deece[N]``. A roundhouse (K and Q of
every suit) is not a meld of its own in the main game (R3.8): it scores as its parts.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simcore.cards import Deck
from simcore.config import njit, njit_inline
from simcore.dealing import Layout
from simcore import checks
from simcore.errors import CardsimError, is_whole_int, unknown_name
from simcore.registry import AnyNumber, AnySubset, Game, Option, chosen_options, default_only, register

DECK = Deck(
    name="pinochle3",
    suits=("S", "H", "D", "C"),
    ranks=("9", "J", "Q", "K", "10", "A"),
    copies=2,
    rank_aliases={"T": "10", "N": "9", "B": "J", "D": "Q"},
    suit_names=("spades", "hearts", "diamonds", "clubs"),
)
SEATS = 3
HAND_SIZE = 15
KITTY_SIZE = 3
LAYOUT = Layout(DECK, tuple((f"seat{s}", HAND_SIZE) for s in range(SEATS)) + (("kitty", KITTY_SIZE),))

N_SUITS, N_RANKS = DECK.n_suits, DECK.n_ranks
SPADES, HEARTS, DIAMONDS, CLUBS = range(N_SUITS)
NINE, JACK, QUEEN, KING, TEN, ACE = range(N_RANKS)

RANK_POINTS = {"A": 10, "10": 10, "K": 10, "Q": 0, "J": 0, "9": 0}
"""Trick points of every rank (R1.3): the counters A, 10, K are worth 10 each."""
FACE_POINTS = np.array([RANK_POINTS[DECK.ranks[DECK.rank_of_face(f)]] for f in range(DECK.n_faces)], dtype=np.int64)
"""(24,) int64: trick points of every face (both copies alike)."""
LAST_TRICK_BONUS = 10
TRICK_POINTS_TOTAL = 250
"""24 counters x 10 plus the last trick (R1.5)."""
MAX_FIXED_HANDS = 100
"""The most hands option ``n_hands`` (V11) takes: games of more hands than a session holds are games to a target."""
MAX_SET_UNITS = 10
"""The most set units options ``concede_units`` and ``set_units`` give one set (R6.6: 1 and 2)."""
SCORE_STEP = 10
"""Scores move in tens (counters and melds, R4.2b): a target or negative limit is a multiple of it."""
MAX_GAME_TARGET = 10_000
"""The largest target and the lowest negative limit (a game to 10,000 takes about 70 hands)."""
BONUS_MELDS = ("rope", "pinochle", "aces", "kings", "queens", "jacks")
"""The melds whose double scores a bonus over 2 x single (R3.1), as option ``double_bonus`` names them (V5)."""
MAX_MELD = 1900
"""The most meld 15 cards hold (R3.7: double rope, double pinochle and aces around)."""


# --- meld table (R3.1) --------------------------------------------------------------------------
@dataclass(frozen=True)
class MeldKind:
    """One line of the meld table: its type (card re-use class, R3.4) and its value in points when
    held once (single) or with both copies of every card (double, which replaces the single)."""

    name: str
    type: int
    single: int
    double: int


ROPE, ROYAL, MARRIAGE, DEECE, PINOCHLE, ACES, KINGS, QUEENS, JACKS = range(9)
MELD_KINDS = (
    MeldKind("rope", 1, 150, 1500),
    MeldKind("royal marriage", 1, 40, 80),
    MeldKind("marriage", 1, 20, 40),
    MeldKind("deece", 1, 10, 20),
    MeldKind("pinochle", 2, 40, 300),
    MeldKind("aces around", 3, 100, 1000),
    MeldKind("kings around", 3, 80, 800),
    MeldKind("queens around", 3, 60, 600),
    MeldKind("jacks around", 3, 40, 400),
)
ROPE_DOUBLE_ROYAL, ROUNDHOUSE_ROPE = 9, 10
"""Extra rows of a meld value table (variants): [0, 0, bonus] for one rope with both trump K and Q
twice (V6: 150 + 240 = 390 counts the rope's K Q again, +200 over 150 + 40) and [0, bonus, 0] for a
roundhouse whose trump K Q sit in the single rope (V7 with roundhouse_with_rope 390: +40 over 350)."""
MELD_VALUES = np.array([(0, k.single, k.double) for k in MELD_KINDS] + [(0, 0, 0), (0, 0, 0)], dtype=np.int64)
"""(11, 3) int64: value of every meld kind held 0, 1 or 2 times (row index = kind constant above),
then the variant rows (0 in the main game)."""
AROUND_RANKS = ((ACES, ACE), (KINGS, KING), (QUEENS, QUEEN), (JACKS, JACK))
ROPE_RANKS = (ACE, TEN, KING, QUEEN, JACK)

OPTIONS = (
    Option("min_bid", 250, (None, 100, 200, 250, 300),
           "smallest opening bid (R4.2a, V1; None: no minimum, the smallest bid is the step, 10); default 250"),
    Option("bid_step", 10, (10,), "bids are multiples of 10, jumps allowed (R4.2b-c); the only step the spec gives"),
    Option("forced_open", False, (False, True), "True: dealer's left must open at min_bid (V2, A21); default False"),
    Option("dealer_stuck", False, (False, True),
           "True: the dealer must bid min_bid after two passes (V3, A21); default False: all may pass (R4.5)"),
    Option("nines_rule", None, (None, "5_no_meld", "6_any", "7_any", "5_no_ace", "6_max1ace"),
           "throw-in for many nines, 'at least' n nines (V4, A11, A19); default None: no throw-in (V4g)"),
    Option("unanimous_throw_in", False, (False, True),
           "True: any hand may be thrown in if all three agree (V4f); a simulated player agrees when his bidding "
           "policy would not open, so it matters only with forced_open or dealer_stuck; read by match; default "
           "False"),
    Option("double_bonus", True, (True, False, AnySubset(BONUS_MELDS)),
           "False: doubles score 2 x single (double rope 300, pinochle 80, arounds 200/160/120/80; V5); a list "
           "such as rope,pinochle: only those doubles keep their bonus; default True: the table's bonus values "
           "(R3.1)"),
    Option("double_royal_marriage", 80, (80, 240),
           "K K Q Q of trumps: 240 is St. Joseph's, 390 with a rope (V6, A13); default 80 (R3.1)"),
    Option("roundhouse_meld", False, (False, True),
           "True: a roundhouse (K and Q of every suit) is one meld of 240, its parts' sum, so it changes points "
           "only with roundhouse_with_rope=390 (V7); default False: it scores only as its parts (R3.8)"),
    Option("roundhouse_with_rope", 350, (350, 390),
           "390: a roundhouse with a rope sharing the trump K Q scores 390, only with roundhouse_meld=True (V7); "
           "default 350: its parts"),
    default_only("discard_restrictions", "none",
                 "restrictions on the 3 cards the bidder buries (A8); default none: any 3 of his 18 (R4.7b)"),
    Option("trump_requires_marriage", False, (False, True),
           "True: the bidder names only a suit in which his 15 kept cards hold a marriage (R4.8, A9); default "
           "False: any suit. Honoured by pinochle3_play.name_trump; every command refuses True (the simulated "
           "bidder names the best trump for his discard)"),
    Option("allow_partial_meld", False, (False, True),
           "True: a player may declare less than his full meld (R3.9d, A10); default False: each declares his "
           "full meld. No function reads it and every command refuses True"),
    Option("play_rule", "old", ("old", "old_strict", "new1945", "new1945_alt"),
           "duty to head the trick (R5.2; V8, A1, A2); default old"),
    Option("defender_needs_counter", True, (True, False),
           "False: a defender keeps his meld without taking a counter; default True: only with one (R6.3)"),
    Option("defender_counter_rule_on_set", True, (True, False),
           "False: no counter rule when the bidder is set; default True: the rule applies then too (A3)"),
    Option("defender_keeps_last_trick_without_counter", True, (True, False),
           "False: a defender with no counter loses a last-trick 10 too; default True: he keeps it (A4)"),
    Option("bidder_needs_counter", False, (False, True),
           "True: the bidder keeps his meld only with a counter taken (A5); default False: no counter needed "
           "(R6.2). Read by match and pinochle3_play.score_played; odds and thresholds refuse True"),
    Option("renege_defender_bidder_award", "bid_plus_meld", ("bid_plus_meld", "bid", "max_bid_meld"),
           "the bidder's score when a defender reneges (R6.7, A6, A7); default bid_plus_meld. Honoured by "
           "pinochle3_play.score_renege; every command refuses another value (nobody reneges in a simulation)"),
    Option("misdeal_redeal", "same_dealer", ("same_dealer", "next_dealer"),
           "who deals after a misdeal (R2.4, A12); default same_dealer (a nines throw-in passes the deal). No "
           "function reads it and every command refuses next_dealer (nobody misdeals in a simulation)"),
    default_only("meld_order", "clockwise_from_bidder",
                 "order the defenders meld in, no scoring effect (R3.9c, A18); default clockwise from the bidder"),
    default_only("renege_points", "bid_once",
                 "a renege subtracts the bidder's bid once, and a reneging defender loses his meld and scores 0; "
                 "'(double) set' counts only in money set units (A7)"),
    default_only("nines_count", "at_least", "'five 9s' (six, seven) under nines_rule means at least that many (A11)"),
    default_only("nines_redeal", "next_dealer",
                 "after a nines throw-in the next player deals, as after four passes (A12; a misdeal: misdeal_redeal)"),
    default_only("nines_claim", "before_auction",
                 "the holder claims a nines throw-in before the auction starts; the simulation always claims (A19)"),
    default_only("st_joseph_double_rope", 1500,
                 "with double_royal_marriage=240 a double rope still scores as a double rope (1500, or 300 with "
                 "double_bonus=False), not as a rope and the 240: V6 applies only when trumps are not a double rope "
                 "(A13)"),
    default_only("roundhouse_overlap", "component_sum",
                 "a roundhouse overlapping double queens or kings around scores the sum of its parts, e.g. all 8 "
                 "queens and a king a suit 780 (A14)"),
    default_only("tie_above_target", "play_on",
                 "a tie above the target between non-bidders, or after n_hands hands, plays another hand (A15, A17)"),
    default_only("neg_limit_strict", True, "'exceeds' the negative limit (neg_limit) means strictly below it (A16)"),
    default_only("target_reached", "at_least", "a score reaches the target when it is at least the target (A20)"),
    default_only("forced_bid", "min_bid", "a forced opening bid (forced_open, dealer_stuck) is exactly min_bid (A21)"),
    Option("target", 1500, (AnyNumber(SCORE_STEP, MAX_GAME_TARGET, whole=True, step=SCORE_STEP),),
           "score that wins the game, reached with >= (R6.5, A15, A20); default 1500; V9 names 1000 (a shorter "
           "game) and 2500 (a longer one)"),
    Option("neg_limit", None, (None, AnyNumber(-MAX_GAME_TARGET, -SCORE_STEP, whole=True, step=SCORE_STEP)),
           "a negative limit such as -1000 (V10's example): the game ends when a score falls strictly below it "
           "while one is positive, else as soon as one turns positive; the highest wins (V10, A16); default None: "
           "no limit"),
    Option("n_hands", None, (None, AnyNumber(1, MAX_FIXED_HANDS, whole=True)),
           "V11: the game ends after this many completed hands (R2.5: thrown-in deals count) and the single highest "
           "score wins; a tie plays one more hand at a time (A17); target and neg_limit do not apply; default None: "
           "play to the target"),
    Option("scale", 1, (1, 0.1),
           "0.1: every value divided by 10 (V12; other options' values stay in the main game's points); default 1"),
    Option("game_stake", None, (None, AnyNumber(0)),
           "money play (R6.6): the game stake G each loser pays the winner (None: no money play; with set_stake "
           "alone, 0); read by match"),
    Option("set_stake", None, (None, AnyNumber(0)),
           "money play (R6.6): the set stake S a loser adds per set unit (concede_units for a concession, "
           "set_units for a set; None: 0); read by match"),
    Option("concede_units", 1, (AnyNumber(0, MAX_SET_UNITS, whole=True),),
           "money play (R6.6): set units of a bidder who concedes without play; default 1; read by match with "
           "a stake and a concession margin"),
    Option("set_units", 2, (AnyNumber(0, MAX_SET_UNITS, whole=True),),
           "money play (R6.6): set units of a bidder who plays and fails, the double set; default 2; read by "
           "match with a stake"),
)


# --- kernels ------------------------------------------------------------------------------------
@njit
def _face_counts(hand, counts):
    """Fill counts (24,) int64 with the copies (0-2) of every face in one hand mask (uint64).

    ``hand - ((hand >> 1) & 0x55..55)`` turns every 2-bit field into its own popcount.
    """
    pairs = hand - ((hand >> np.uint64(1)) & np.uint64(0x5555555555555555))
    for f in range(24):
        counts[f] = np.int64((pairs >> np.uint64(2 * f)) & np.uint64(3))


@njit_inline
def _trump_split(counts, s, values, roundhouse):
    """(points, ropes) of trump suit s's best rope/royal-marriage split (R3.5; of equal splits the fewest ropes),
    with the variant bonuses of ``values`` (V6 rope + double royal marriage, not on a double rope's suit (A13); V7
    roundhouse sharing the rope's K Q; ``roundhouse``: the holding has a K and a Q of every suit)."""
    base = 6 * s
    k = min(counts[base + KING], counts[base + QUEEN])
    ropes = min(min(counts[base + ACE], counts[base + TEN]), min(k, counts[base + JACK]))
    best, best_u = -1, 0
    for u in range(ropes + 1):
        value = values[ROPE, u] + values[ROYAL, k - u]
        if u == 1 and k == 2 and ropes < 2:
            value += values[ROPE_DOUBLE_ROYAL, 2]
        if u == 1 and k == 1 and roundhouse:
            value += values[ROUNDHOUSE_ROPE, 1]
        if value > best:
            best, best_u = value, u
    return best, best_u


@njit
def _trump_suit_value(counts, s, values, roundhouse):
    """Type-1 meld of suit s as trump: best rope/royal-marriage split (`_trump_split`) plus the deece (R3.5)."""
    return _trump_split(counts, s, values, roundhouse)[0] + values[DEECE, counts[6 * s + NINE]]


@njit
def _base_and_gains(counts, values, gains):
    """Trump-free meld of a holding; gains (4,) int64 receives the extra meld of each trump (R3.6)."""
    base = values[PINOCHLE, min(counts[6 * SPADES + QUEEN], counts[6 * DIAMONDS + JACK])]
    for kind, rank in AROUND_RANKS:
        held = min(min(counts[rank], counts[6 + rank]), min(counts[12 + rank], counts[18 + rank]))
        base += values[kind, held]
    roundhouse = True
    for s in range(4):
        roundhouse = roundhouse and min(counts[6 * s + KING], counts[6 * s + QUEEN]) > 0
    for s in range(4):
        plain = values[MARRIAGE, min(counts[6 * s + KING], counts[6 * s + QUEEN])]
        base += plain
        gains[s] = _trump_suit_value(counts, s, values, roundhouse) - plain
    return base


@njit
def _trump_values_monotone(values):
    """Whether a trump suit's meld (`_trump_suit_value`) never falls when a card of the suit is added, and never
    falls when the holding becomes a roundhouse, over every holding of the suit (3^6 patterns)."""
    counts = np.zeros(24, dtype=np.int64)
    for code in range(3 ** N_RANKS):
        rest = code
        for rank in range(N_RANKS):
            counts[rank] = rest % 3
            rest //= 3
        if _trump_suit_value(counts, 0, values, True) < _trump_suit_value(counts, 0, values, False):
            return False
        for roundhouse in (False, True):
            value = _trump_suit_value(counts, 0, values, roundhouse)
            for rank in range(N_RANKS):
                if counts[rank] < 2:
                    counts[rank] += 1
                    more = _trump_suit_value(counts, 0, values, roundhouse)
                    counts[rank] -= 1
                    if more < value:
                        return False
    return True


def meld_is_monotone(values: np.ndarray) -> bool:
    """Whether a card added to any holding never lowers its best meld under the meld value table ``values``
    (`meld_values`). True for the main game and most variants; False where a double rope scores less than a rope
    with St. Joseph's (V5 without the rope's bonus, V6 240, which A13 keeps off a double rope): there burying a
    trump J can raise the meld. Checked as the meld is built: every count-indexed meld worth no less held more
    often, and every trump suit's value (`_trump_values_monotone`)."""
    counted = values[[MARRIAGE, DEECE, PINOCHLE, ACES, KINGS, QUEENS, JACKS]]
    return bool((np.diff(counted, axis=1) >= 0).all() and _trump_values_monotone(values))


@njit
def _meld_fixed(hands, trump, values, out):
    """out (n,) int64: meld of every hand mask in hands (n,) uint64 under trump suit ``trump``."""
    counts = np.empty(24, dtype=np.int64)
    gains = np.empty(4, dtype=np.int64)
    for i in range(hands.shape[0]):
        _face_counts(hands[i], counts)
        out[i] = _base_and_gains(counts, values, gains) + gains[trump]
    return out


@njit
def _meld_best(hands, values, points, trumps):
    """points, trumps (n,) int64: best meld of every hand and the first suit reaching it."""
    counts = np.empty(24, dtype=np.int64)
    gains = np.empty(4, dtype=np.int64)
    for i in range(hands.shape[0]):
        _face_counts(hands[i], counts)
        base = _base_and_gains(counts, values, gains)
        best = 0
        for s in range(1, 4):
            if gains[s] > gains[best]:
                best = s
        points[i] = base + gains[best]
        trumps[i] = best


@njit
def laid_faces(counts, trump, values, laid):
    """laid (24,) int64: the copies of every face a holding lays down as meld under ``trump`` (R3.9c: only the cards
    that form meld, a card once however many melds it is in); counts (24,) int64 its copies per face
    (`_face_counts`), values the meld table. The same cards as `meld_breakdown` declares: per plain suit the
    marriages' K Q, in trumps the rope's cards as often as its ropes, every K Q of trumps (royal marriages) and the
    nines (deece), both pinochle cards as often as the pinochle, each around's four faces as often as it."""
    laid[:] = 0
    roundhouse = True
    for s in range(4):
        roundhouse = roundhouse and min(counts[6 * s + KING], counts[6 * s + QUEEN]) > 0
    for s in range(4):
        base = 6 * s
        k = min(counts[base + KING], counts[base + QUEEN])
        laid[base + KING], laid[base + QUEEN] = k, k
        if s == trump:
            u = _trump_split(counts, s, values, roundhouse)[1]
            for rank in (ACE, TEN, JACK):
                laid[base + rank] = u
            laid[base + NINE] = counts[base + NINE]
    p = min(counts[6 * SPADES + QUEEN], counts[6 * DIAMONDS + JACK])
    laid[6 * SPADES + QUEEN] = max(laid[6 * SPADES + QUEEN], p)
    laid[6 * DIAMONDS + JACK] = max(laid[6 * DIAMONDS + JACK], p)
    for _, rank in AROUND_RANKS:
        held = min(min(counts[rank], counts[6 + rank]), min(counts[12 + rank], counts[18 + rank]))
        for s in range(4):
            laid[6 * s + rank] = max(laid[6 * s + rank], held)


@njit
def _meld_cards(hands, trumps, values, out):
    """out (n,) uint64: the cards of every hand mask laid down as meld (`laid_faces`; of a face's copies the
    lowest)."""
    counts = np.empty(24, dtype=np.int64)
    laid = np.empty(24, dtype=np.int64)
    for i in range(hands.shape[0]):
        _face_counts(hands[i], counts)
        laid_faces(counts, trumps[i], values, laid)
        for f in range(24):
            pair = hands[i] & (np.uint64(3) << np.uint64(2 * f))
            if laid[f] == 2:
                out[i] |= pair
            elif laid[f] == 1:
                out[i] |= pair & (~pair + np.uint64(1))  # the lower copy held
    return out


def _as_hands(hands) -> np.ndarray:
    """Validate hand masks: (n,) uint64 (one mask: (1,)) with no bit beyond the 48-card pack; CardsimError for
    another shape, negative, float or text masks (a float was truncated, a negative one raised OverflowError)."""
    if len(checks.shape_of(hands)) > 1:
        raise CardsimError(f"hands must be (n,) card masks of the {DECK.n_cards} cards, got shape "
                           f"{checks.shape_of(hands)}")
    return np.ascontiguousarray(np.atleast_1d(checks.card_masks(hands, "hands", DECK.n_cards, disjoint=False)))


def _check_trump(trump: int) -> int:
    """``trump`` as an int 0-3 (a whole float too); CardsimError otherwise (True, 1.5, "1", an array)."""
    if not checks.is_whole_number(trump) or trump not in range(N_SUITS):
        raise CardsimError(f"trump must be a suit index 0-3 ({'/'.join(DECK.suits)}), got {checks.shown(trump)}")
    return int(trump)


def _numbers_alike(value, choice) -> bool:
    """Numbers match a choice of either numeric type (scale 1.0 is 1), bools only bools (True is not 1)."""
    return isinstance(value, bool) == isinstance(choice, bool)


def rule_options(options: dict | None = None) -> dict:
    """Every pinochle3 option (Appendix A) with ``options`` overriding the defaults.

    Raises CardsimError for an unknown option or a value outside its choices (`chosen_options`).
    """
    return chosen_options("pinochle3", OPTIONS, checks.options_dict(options), _numbers_alike)


DOUBLED_WITHOUT_BONUS = (ROPE, PINOCHLE, ACES, KINGS, QUEENS, JACKS)
"""Melds whose double is worth just 2 x single under V5 (marriages and deece are 2 x already), as named in
`BONUS_MELDS`."""


def meld_values(options: dict | None = None) -> np.ndarray:
    """The (11, 3) int64 meld value table (`MELD_VALUES` layout) of the meld options (defaults: the
    main game). V5 ``double_bonus`` False: every double is 2 x single (double rope 300, pinochle 80,
    aces 200, ...); a list of `BONUS_MELDS`: only those keep their double's bonus. V6
    ``double_royal_marriage`` 240: K K Q Q of trumps 240, with a rope 390 (not on a double rope, A13). V7
    ``roundhouse_meld`` with ``roundhouse_with_rope`` 390: a roundhouse whose trump K Q are the rope's scores 390
    instead of 350; otherwise the roundhouse scores as its parts, 240, also next to double kings or queens
    (component sum, A14).
    Raises CardsimError for an unknown option or value.
    """
    chosen = rule_options(options)
    values = MELD_VALUES.copy()
    bonus = chosen["double_bonus"]
    kept = BONUS_MELDS if bonus is True else () if bonus is False else bonus.split(",")
    plain = [kind for kind, name in zip(DOUBLED_WITHOUT_BONUS, BONUS_MELDS) if name not in kept]
    values[plain, 2] = 2 * values[plain, 1]
    if chosen["double_royal_marriage"] != values[ROYAL, 2]:
        values[ROYAL, 2] = chosen["double_royal_marriage"]
        values[ROPE_DOUBLE_ROYAL, 2] = chosen["double_royal_marriage"] - values[ROYAL, 1]
    if chosen["roundhouse_meld"]:
        values[ROUNDHOUSE_ROPE, 1] = chosen["roundhouse_with_rope"] - 350
    return values


def meld_points(hands, trump: int, options: dict | None = None) -> np.ndarray:
    """Meld of every holding under ``trump`` (suit index, S H D C = 0-3).

    hands: (n,) uint64 card masks of any size; options: meld variants (`meld_values`). Returns (n,)
    int64 meld points.
    """
    arr = _as_hands(hands)
    out = np.empty(arr.shape[0], dtype=np.int64)
    return _meld_fixed(arr, _check_trump(trump), meld_values(options), out)


def best_meld(hands, options: dict | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Best trump of every holding: ((n,) int64 meld points, (n,) int64 trump suit index).

    Among equally good trumps the first in S H D C order is reported. options: as `meld_points`.
    """
    arr = _as_hands(hands)
    points = np.empty(arr.shape[0], dtype=np.int64)
    trumps = np.empty(arr.shape[0], dtype=np.int64)
    _meld_best(arr, meld_values(options), points, trumps)
    return points, trumps


def meld_cards(hands, trumps, options: dict | None = None) -> np.ndarray:
    """(n,) uint64: the cards each holding lays down as meld under its trump (R3.9c; `laid_faces`, of a face's two
    copies the lower when one is laid): hands (n,) uint64 masks, trumps (n,) suit indices or one. The meld of these
    cards alone is the holding's meld (`meld_points`)."""
    arr = _as_hands(hands)
    trumps = checks.column(trumps, arr.shape[0], f"trumps (suit indices 0-3, {'/'.join(DECK.suits)})", N_SUITS)
    return _meld_cards(arr, trumps, meld_values(options), np.zeros(arr.shape[0], dtype=np.uint64))


# --- nines throw-in (V4) and the ÷10 scale (V12) ---------------------------------------------------
NINES = np.uint64(sum(3 << (2 * (6 * s + NINE)) for s in range(N_SUITS)))
ACES_MASK = np.uint64(sum(3 << (2 * (6 * s + ACE)) for s in range(N_SUITS)))
NINES_RULES = {  # rule -> (nines at least, aces at most, no meld but deece)
    "5_no_meld": (5, 8, True), "6_any": (6, 8, False), "7_any": (7, 8, False),
    "5_no_ace": (5, 0, False), "6_max1ace": (6, 1, False),
}


def nines_throw_in(hands, rule: str | None) -> np.ndarray:
    """(n,) bool: may each 15-card hand (n,) uint64 have the deal thrown in under ``nines_rule``
    ``rule`` (V4, "at least" A11; None: never)? "5_no_meld": at least 5 nines and no meld but
    deece under any trump (no marriage, pinochle or around); "6_any", "7_any"; "5_no_ace";
    "6_max1ace" (at most one ace). The deal then passes to the left (A12)."""
    arr = _as_hands(hands)
    if rule is None:
        return np.zeros(arr.shape[0], dtype=bool)
    if not isinstance(rule, str) or rule not in NINES_RULES:
        raise unknown_name("nines_rule", rule, NINES_RULES, or_else="None")
    nines, aces, no_meld = NINES_RULES[rule]
    ok = (np.bitwise_count(arr & NINES) >= nines) & (np.bitwise_count(arr & ACES_MASK) <= aces)
    if no_meld:
        spade_nines = np.bitwise_count(arr & np.uint64(3 << (2 * NINE))).astype(np.int64)
        ok &= meld_points(arr, SPADES) == 10 * spade_nines  # nothing but the deece of spades
    return ok


def point_divisor(options: dict | None = None) -> int:
    """What every point value of the main game is divided by under option ``scale``: 10 for V12's
    0.1, else 1. Every value of the game is a multiple of 10, so V12 changes no decision, only the
    numbers: the simulations count main-game points and divide what they report."""
    return round(1 / rule_options(options)["scale"])


# --- exact meld distribution (spec §9.2) ----------------------------------------------------------
MIN_STATES = 81
"""Running minimum copies over the suits so far of A, K, Q, J: base-3 digits a*27 + k*9 + q*3 + j."""


PAT_WAYS, PAT_SIZE, PAT_AROUND, PAT_MARRIAGE, PAT_GAIN, PAT_QUEEN, PAT_JACK = 0, 1, 2, 6, 7, 8, 9
"""Columns of the suit pattern table: holdings of the pattern's cards (product of C(2, copies)),
cards, copies of A K Q J (columns 2-5), plain marriage / 10, trump gain index, copies of Q and J."""


def suit_patterns() -> tuple[np.ndarray, np.ndarray]:
    """Every count pattern of one suit (3**6, copies of 9 J Q K 10 A) and its meld features.

    Returns ((729, 10) int64 table, columns PAT_*; (g,) int64 distinct trump gains ascending (R3.6)).
    """
    counts = np.array(np.meshgrid(*[range(3)] * N_RANKS, indexing="ij")).reshape(N_RANKS, -1).T.astype(np.int64)
    marriage = MELD_VALUES[MARRIAGE, np.minimum(counts[:, KING], counts[:, QUEEN])]
    holding = np.zeros(24, dtype=np.int64)
    gains = np.empty(len(counts), dtype=np.int64)
    for i, row in enumerate(counts):
        holding[:N_RANKS] = row
        gains[i] = _trump_suit_value(holding, 0, MELD_VALUES, False) - marriage[i]
    gain_values, gain_index = np.unique(gains, return_inverse=True)
    table = np.column_stack([
        np.prod(np.where(counts == 1, 2, 1), axis=1), counts.sum(axis=1), counts[:, [ACE, KING, QUEEN, JACK]],
        marriage // 10, gain_index, counts[:, QUEEN], counts[:, JACK],
    ]).astype(np.int64)
    return table, gain_values


KEEP, SET, LOWEST, HIGHEST = range(4)
"""How a suit updates a component of the state: keep it, set it from the suit, or take the lower or
higher of the two."""


@njit
def _dp_suit(dp, size, last, pats, special_col, special_mode, gain_mode):
    """One suit of the dynamic program: returns the new (size+1, 81, 3, m, g) int64 holding counts.

    State: cards so far, around minima (MIN_STATES digits), special (spades' Q copies, then the
    pinochles once the diamonds' J copies are in), plain marriages / 10, trump gain index.
    pats: (729, 10) suit pattern table; special_col: its column feeding the special component with
    special_mode KEEP, SET or LOWEST; gain_mode KEEP (a plain suit), SET (the fixed trump) or
    HIGHEST (best trump). last: keep only complete holdings.
    """
    new = np.zeros_like(dp)
    for n in range(dp.shape[0]):
        for mins in range(MIN_STATES):
            for sp in range(3):
                for m in range(dp.shape[3]):
                    for g in range(dp.shape[4]):
                        w = dp[n, mins, sp, m, g]
                        if w == 0:
                            continue
                        for p in range(pats.shape[0]):
                            n2 = n + pats[p, PAT_SIZE]
                            if n2 > size or (last and n2 != size):
                                continue
                            mins2 = 0
                            for d in range(4):
                                mins2 = 3 * mins2 + min((mins // 3 ** (3 - d)) % 3, pats[p, PAT_AROUND + d])
                            sp2 = sp
                            if special_mode == SET:
                                sp2 = pats[p, special_col]
                            elif special_mode == LOWEST:
                                sp2 = min(sp, pats[p, special_col])
                            g2 = g
                            if gain_mode == SET:
                                g2 = pats[p, PAT_GAIN]
                            elif gain_mode == HIGHEST:
                                g2 = max(g, pats[p, PAT_GAIN])
                            new[n2, mins2, sp2, m + pats[p, PAT_MARRIAGE], g2] += w * pats[p, PAT_WAYS]
    return new


def exact_meld_distribution(hand_size: int = HAND_SIZE, trump: int | None = None) -> np.ndarray:
    """Exact number of holdings of ``hand_size`` cards per meld value, all C(48, size) counted once.

    trump: a suit index for the meld under that trump, or None for the best trump of each holding.
    Returns (k,) int64 counts indexed by meld // 10. A dynamic program over the four suits (spec
    §9.2 method): meld = plain marriages + pinochle + arounds + the gain of the trump suit.
    """
    hand_size = checks.whole(hand_size, "hand_size", 0, DECK.n_cards)
    if trump is not None:
        _check_trump(trump)
    pats, gain_values = suit_patterns()
    dp = np.zeros((hand_size + 1, MIN_STATES, 3, 4 * MELD_VALUES[MARRIAGE, 2] // 10 + 1, gain_values.size),
                  dtype=np.int64)
    dp[0, MIN_STATES - 1, 0, 0, int(np.searchsorted(gain_values, 0))] = 1
    for s in range(N_SUITS):
        special_col, special_mode = {SPADES: (PAT_QUEEN, SET), DIAMONDS: (PAT_JACK, LOWEST)}.get(s, (0, KEEP))
        gain_mode = HIGHEST if trump is None else (SET if s == trump else KEEP)
        dp = _dp_suit(dp, hand_size, s == N_SUITS - 1, pats, special_col, special_mode, gain_mode)
    final = dp[hand_size]
    digits = np.array([[(mins // 3 ** (3 - d)) % 3 for d in range(4)] for mins in range(MIN_STATES)])
    arounds = sum(MELD_VALUES[kind, digits[:, d]] for d, (kind, _) in enumerate(AROUND_RANKS))
    points = (arounds[:, None, None, None] + MELD_VALUES[PINOCHLE][None, :, None, None]
              + 10 * np.arange(final.shape[2])[None, None, :, None] + gain_values[None, None, None, :])
    counts = np.zeros(int(points.max()) // 10 + 1, dtype=np.int64)
    np.add.at(counts, points.ravel() // 10, final.ravel())
    return counts


# --- one holding, meld by meld ------------------------------------------------------------------
@dataclass(frozen=True)
class Meld:
    """One declared meld: its name ('double pinochle', 'marriage in H'), physical cards and points."""

    name: str
    cards: tuple[int, ...]
    points: int


def _copies(cards) -> dict[int, list[int]]:
    """Physical cards held of every face, ascending: face -> [card, ...]."""
    if isinstance(cards, (str, bytes)) or not all(is_whole_int(c) for c in cards):
        raise CardsimError(f"a holding lists distinct cards 0-{DECK.n_cards - 1}, got {checks.shown(cards)}")
    cards = sorted(int(c) for c in cards)
    if len(set(cards)) != len(cards) or any(not 0 <= c < DECK.n_cards for c in cards):
        raise CardsimError(f"a holding lists distinct cards 0-{DECK.n_cards - 1}, got {cards}")
    held: dict[int, list[int]] = {}
    for c in cards:
        held.setdefault(DECK.face_of(c), []).append(c)
    return held


def _times(held: dict[int, list[int]], faces) -> int:
    """How often a meld on ``faces`` is held: the fewest copies of any of its faces (0-2)."""
    return min(len(held.get(f, ())) for f in faces)


def _declare(name: str, kind: int, faces, held: dict[int, list[int]], times: int, values: np.ndarray,
             start: int = 0, points: int | None = None) -> list[Meld]:
    """``kind`` on ``faces`` declared ``times`` times with copies ``start..``: [] or one (double) meld
    worth ``values[kind, times]`` (or ``points``)."""
    if times <= 0:
        return []
    cards = tuple(c for f in faces for c in held[f][start:start + times])
    return [Meld(("double " if times == 2 else "") + name, cards,
                 int(values[kind, times] if points is None else points))]


def _type1(held: dict[int, list[int]], trump: int, values: np.ndarray) -> list[Meld]:
    """Type-1 melds (R3.1): marriages of plain suits; rope, royal marriage and deece of trumps, with
    the variants of ``values`` (`meld_values`): under V6 a rope with K K Q Q of trumps declares the
    double royal marriage on the rope's K Q too (390); under V7 (390) a roundhouse sharing the rope's
    K Q declares that royal marriage again."""
    melds = []
    roundhouse = all(_times(held, (6 * s + KING, 6 * s + QUEEN)) for s in range(N_SUITS))
    for s, suit in enumerate(DECK.suits):
        kq = (6 * s + KING, 6 * s + QUEEN)
        k = _times(held, kq)
        if s != trump:
            melds += _declare(f"marriage in {suit}", MARRIAGE, kq, held, k, values)
            continue
        rope = [6 * s + r for r in ROPE_RANKS]

        def extra(n):
            """Variant points of the rope's K Q counted again (V6, V7) with ``n`` ropes; V6 not on a double rope's
            suit (A13)."""
            if n == 1 and k == 2 and _times(held, rope) < 2:
                return values[ROPE_DOUBLE_ROYAL, 2]
            return values[ROUNDHOUSE_ROPE, 1] if n == 1 and k == 1 and roundhouse else 0

        u = max(range(_times(held, rope) + 1), key=lambda n: values[ROPE, n] + values[ROYAL, k - n] + extra(n))
        melds += _declare(f"rope in {suit}", ROPE, rope, held, u, values)
        if extra(u):
            melds += _declare(f"royal marriage in {suit}", ROYAL, kq, held, k, values,
                              points=values[ROYAL, k - u] + extra(u))
        else:
            melds += _declare(f"royal marriage in {suit}", ROYAL, kq, held, k - u, values, start=u)
        melds += _declare(f"deece in {suit}", DEECE, (6 * s + NINE,), held, _times(held, (6 * s + NINE,)), values)
    return melds


def meld_breakdown(cards, trump: int, options: dict | None = None) -> list[Meld]:
    """The melds a holding declares under ``trump`` (R3.5), type 1, then pinochle, then arounds.

    cards: physical card indices (any number); options: meld variants (`meld_values`). A card may
    appear in one meld of each type (R3.4); a meld held twice is listed once as its double. Points
    add up to `meld_points`.
    """
    trump = _check_trump(trump)
    values = meld_values(options)
    held = _copies(cards)
    melds = _type1(held, trump, values)
    pinochle = (6 * SPADES + QUEEN, 6 * DIAMONDS + JACK)
    melds += _declare("pinochle", PINOCHLE, pinochle, held, _times(held, pinochle), values)
    for kind, rank in AROUND_RANKS:
        around = [6 * s + rank for s in range(N_SUITS)]
        melds += _declare(MELD_KINDS[kind].name, kind, around, held, _times(held, around), values)
    return melds


# --- meld statistics of random deals ---------------------------------------------------------------
def options_key(values: np.ndarray, nines_rule: str | None = None) -> str:
    """The part of a job's `key` the rule options make: the meld value table (`meld_values`) unless
    the main game's, and the nines rule when set ('' under the main game's rules)."""
    variant = "" if np.array_equal(values, MELD_VALUES) else f"|values={values.ravel().tolist()}"
    return variant + ("" if nines_rule is None else f"|nines={nines_rule}")


MELD_BINS = 200
"""Meld histogram bins of 10 points; the last bin collects 1990 and more (a 15-card hand peaks at 1900)."""


def throw_in_deals(slots: np.ndarray) -> np.ndarray:
    """(len(NINES_RULES),) int64: per nines rule (`NINES_RULES` order), the deals of slots (n, 4) uint64 in
    which some player's 15 cards qualify for a throw-in (`nines_throw_in`; spec Q11)."""
    return np.array([np.any([nines_throw_in(slots[:, s], rule) for s in range(SEATS)], axis=0).sum()
                     for rule in NINES_RULES], dtype=np.int64)


GAME = register(Game(
    name="pinochle3",
    title="Three-player Pinochle (Bison)",
    deck=DECK,
    rules_file="pinochle3.md",
    options=OPTIONS,
))
