"""Perlaggen: the deal as played (spec §3, Eichel §9.1), for four players, and its L0 figure tallies.

Rules: shared/rules/perlaggen.md. Not a uniform shuffle: the dealer shuffles, the cutter (seat 3)
keeps the permanent Perlaggen he finds at the bottom of his packet (§3.2), the dealer gives packets
of 2 then 3 cards starting with seat 1 and gives the cutter fewer (§3.3, A-08, A-10), turns up the
trump card (§3.4; in Eichel acorns are laid aside until a non-acorn appears), and team D may take a
turned Perlagg for a natural trump (§3.5; the Eichel upgrade and acorn swaps of §9.1).

Seats: dealer 0, seat 1 leads, partner 2, cutter 3 (§0.3); team D = seats 0, 2 = simcore.figures'
TEAM0. A deal is one row of ``deals (n, N_FIELDS) uint64``, one card mask (or number) per field:

* SEAT0..SEAT3: the hands after the exchanges (each 5 cards);
* TAKEN: the cutter's shown Perlaggen; STOCK: the face-down undealt cards (the stopper among them);
  TABLE: the face-up cards out of play (trump marker, laid-aside acorns, given cards);
* GAVE0, TOOK0, GAVE2, TOOK2: cards the dealer / partner gave up and took in exchanges;
* EXPOSED: acorns turned up before the Eichel trump card; TURNED: the trump card (card index);
  TRUMP: the trump suit index; STOPPER: the card index of the stopper; CUT: the cut depth.

Random words: one deal reads WORDS_PER_DEAL 32-bit words: a Fisher-Yates shuffle of the 33 cards
(draw i swaps position i with one uniform in [i, 33)) and the cut depth, decoded three draws to a
word exactly as simcore.dealing does; the shuffle fills batches 0-10, the cut batch 11.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from simcore.config import njit
from simcore.dealing import BATCH, SPARE_WORDS, DealSpec, Layout, batch_tables, draw_batches, deal
from simcore.errors import CardsimError, unknown_name
from simcore.figures import relative_outcome, resolve, top_bit_table
from simcore.games import perlaggen as P
from simcore.games import perlaggen_l1 as L
from simcore.registry import Game, Option, default_only, register
from simcore.rng import block_substream, block_words

N_CARDS = P.DECK.n_cards
SEATS, HAND_SIZE = 4, 5
CUTTER = 3
ACORNS = P.DECK.suits.index("E")
NO_CARD = 63
"""Padding of the Perlagg lists: bit 63 is never set in a hand."""
_TOP_BIT = top_bit_table(8)
_NO_GIVES = np.full(64, -1, dtype=np.int64)
"""``own_gives`` of a deal as played: no seat's swaps are fixed in advance (see `_exchange`)."""

FIELDS = ("seat0", "seat1", "seat2", "seat3", "taken", "stock", "table", "gave0", "took0", "gave2", "took2",
          "exposed", "turned", "trump", "stopper", "cut")
(SEAT0, SEAT1, SEAT2, SEAT3, TAKEN, STOCK, TABLE, GAVE0, TOOK0, GAVE2, TOOK2,
 EXPOSED, TURNED, TRUMP, STOPPER, CUT) = range(len(FIELDS))
N_FIELDS = len(FIELDS)
_FREE = np.full((SEATS, P.P_MAX), -1, dtype=np.int8)
"""No Perlagg is baptised yet when the deal is judged (the L1 kernel's ``fixed``)."""

FOUR_PLAYER_STYLES = tuple(s for s in P.STYLES if s != "straf")
EICHEL_DEALS = ("eichel",) + P.SCHLANDERS
"""Styles dealt as Eichelperlaggen (§9.1): acorns laid aside before the trump card, the Imst exchanges."""
CUT_MIN, CUT_MAX = 5, 28
"""A-31: the cut depth is uniform on [CUT_MIN, CUT_MAX]."""
EXCHANGE_POLICIES = ("always", "never")
GIVE_POLICIES = ("keep_figures", "lowest")
DEAL_OPTIONS = (
    default_only("first_dealer", "random_then_clockwise",
                 "A-09: the first dealer is random; the deal passes one seat clockwise"),
    default_only("cut_depth", (CUT_MIN, CUT_MAX), "A-31: the cutter lifts a packet of c cards, c uniform on [5, 28]"),
    default_only("cutter_packets", "earliest_first",
                 "A-08: the cutter's k Perlaggen replace his cards of the first packets first (§3.3)"),
    default_only("first_packet", "lho", "A-10: the dealer's left-hand opponent gets the first packet"),
    Option("exchange", "always", EXCHANGE_POLICIES,
           "A-07: team D exchanges a turned Perlagg whenever allowed (dealer first; partner only if the "
           "dealer has no natural trump); 'never' leaves it dead (§3.5, Eichel steps 1-3 of §9.1); "
           "--exchange-policy"),
    Option("exchange_gives", "keep_figures", GIVE_POLICIES,
           "A-07: the natural card given up: the lowest among those that leave the best L0 (Gleich, "
           "Hanger) after the swap, Gleich first ('keep_figures'), or simply the lowest ('lowest'); --exchange-gives"),
    default_only("opponents_exchange", False, "§9.1: the Imst/Tarrenz rights of the opponents are not played"),
)
PLAYER_COUNTS = (2, 3, 4, 6)
"""The tables Perlaggen is played at (§9.2-§9.4)."""
TABLE_OPTIONS = (  # played by simcore.games.perlaggen_variants
    Option("players", 4, PLAYER_COUNTS, "§9.2-§9.4: four in partnerships; two; three each for himself (style "
           "straf: Strafperlaggen, §9.5); six in two teams of three; --players"),
    Option("packets_seven", "2-3-T-2", ("2-3-T-2", "3-T-4"),
           "§9.2, §9.4: 7 cards as 2, 3, trump, 2 (usual) or 3, trump, 4 (Strafperlaggen always 3-T-4); used by "
           "the 2- and 3-player stats (--packets)"),
    Option("six_player_cards", 4, (4, 5), "§9.3: six players hold 4 cards (2, 2) or 5 (2, 3: Innsbruck rules; in "
           "Eichel with the throw-in of A-28); used by the 6-player stats (--hand-size) and betting (--hand)"),
    default_only("six_player_no_trump", "throw_in",
                 "A-28: six players with 5 cards and only acorns left in Eichel: throw in, same dealer deals again"),
    default_only("table_exchangers", "dealer_then_partners",
                 "A-27: two and three players (unstated for three; Strafperlaggen says so): the dealer only; six "
                 "players: the dealer, then his partners clockwise"),
)

DRAW_BOUNDS = np.array(list(range(N_CARDS, 0, -1)) + [CUT_MAX - CUT_MIN + 1], dtype=np.uint64)
"""Bounds of one deal's draws: the shuffle (33 .. 1; the bound-1 draw is 0 and closes batch 10), then the cut."""
WORDS_PER_DEAL = -(-len(DRAW_BOUNDS) // BATCH) + SPARE_WORDS


def _default(options, name: str):
    return next(o.default for o in options if o.name == name)


@dataclass(frozen=True)
class DealRules:
    """The deal options of one simulation (defaults from DEAL_OPTIONS) and the figure option A-24."""

    style: str = _default(P.OPTIONS, "style")
    exchange: str = _default(DEAL_OPTIONS, "exchange")
    exchange_gives: str = _default(DEAL_OPTIONS, "exchange_gives")
    six_below_bells_seven: bool = _default(P.OPTIONS, "six_below_bells_seven")

    def __post_init__(self):
        P.trump_suits(self.style)  # CardsimError for an unknown style
        if self.style not in FOUR_PLAYER_STYLES:
            raise CardsimError(f"the {self.style} style is not a four-player game (Strafperlaggen is for three, "
                               "§9.5); choose one of: " + ", ".join(FOUR_PLAYER_STYLES))
        if self.exchange not in EXCHANGE_POLICIES:
            raise unknown_name("exchange policy", self.exchange, EXCHANGE_POLICIES)
        if self.exchange_gives not in GIVE_POLICIES:
            raise unknown_name("exchange_gives", self.exchange_gives, GIVE_POLICIES)

    def key(self) -> str:
        return f"{self.style}|exchange={self.exchange}|gives={self.exchange_gives}|six={self.six_below_bells_seven}"

    def kernel_args(self) -> tuple:
        """(masks, pcards, flags, tables, kinds) for the kernels.

        masks (6,) uint64: Perlagg mask per trump suit index (0 where impossible), then the permanent
        Perlaggen, then the acorn Perlaggen of Eichel deals (0 otherwise); pcards (4, P.P_MAX) int64:
        Perlaggen per trump, precedence order, padded with NO_CARD; flags (4,) int64: Eichel deal (acorns
        laid aside, §9.1 exchanges), exchange, keep_figures, no Weli.
        """
        arrays = style_arrays(self.style, self.exchange, self.exchange_gives, self.style in EICHEL_DEALS)
        return arrays + (P.HANGER_TABLES, P._ladder_kinds(self.six_below_bells_seven))


def style_arrays(style: str, exchange: str, exchange_gives: str, eichel: bool) -> tuple:
    """(masks, pcards, flags) of `DealRules.kernel_args` for ``style`` (any style, Strafperlaggen included), dealt as
    Eichelperlaggen when ``eichel``. The acorn Perlaggen are the style's permanent ones of acorns (§9.1: E7 EU EO;
    Schlanders E7 EO EU, and the E8 too as S1 reads it)."""
    masks = np.zeros(6, dtype=np.uint64)
    pcards = np.full((4, P.P_MAX), NO_CARD, dtype=np.int64)
    for trump in P.trump_suits(style):
        t = P.DECK.suits.index(trump)
        faces = P.perlaggen(style, trump)
        masks[t] = np.uint64(P.DECK.mask(faces))
        pcards[t, :len(faces)] = faces
    permanent = P.permanent_perlaggen(style)
    masks[4] = np.uint64(P.DECK.mask(permanent))
    if eichel:
        masks[5] = np.uint64(P.DECK.mask([f for f in permanent if P.DECK.suit_of_face(f) == P.DECK.suits.index("E")]))
    flags = np.array([eichel, exchange == "always", exchange_gives == "keep_figures", not P.has_weli(style)],
                     dtype=np.int64)
    return masks, pcards, flags


@dataclass(frozen=True)
class Evaluation:
    """How figures are judged (§11.6): level "L0" (each figure with every free Perlagg) or "L1" (the
    team game of frontier points, simcore.games.perlaggen_l1) and the stakes v_G, v_H of L1."""

    level: str = "L0"
    stakes: tuple = (1, 1)

    def __post_init__(self):
        if self.level not in L.LEVELS:
            raise unknown_name("figure level", self.level, L.LEVELS)
        object.__setattr__(self, "stakes", L.check_stakes(self.stakes))

    def key(self) -> str:
        return self.level if self.level == "L0" else f"L1|stakes={self.stakes[0]:g}:{self.stakes[1]:g}"

    def args(self) -> np.ndarray:
        """(3,) float64: level index, v_G, v_H (the kernels' ``ev``)."""
        return np.array([L.LEVELS.index(self.level), *self.stakes], dtype=np.float64)

    def uniforms(self, seed: int, block: int, n_deals: int) -> np.ndarray:
        """(n_deals, 2) uniforms for the mixed draws of L1 (sub-stream 1 of the block; zeros at L0)."""
        if self.level == "L0":
            return np.zeros((n_deals, 2))
        return block_substream(seed, block, 1).random((n_deals, 2))


def cutter_k_exact(style: str) -> list[Fraction]:
    """Exact P(the cutter takes k Perlaggen), k = 0..min(m, 5), with m permanent Perlaggen of ``style``
    in its n-card pack (§11.1).

    The packet's bottom cards, read upwards, are a uniform sequence of distinct cards (the packet
    has more than min(m, 5) cards): k = j when the first j are permanent and the next one is not, or
    when j reaches m or the hand size (the cutter stops with a full hand).
    """
    m = len(P.permanent_perlaggen(style))
    n = N_CARDS if P.has_weli(style) else N_CARDS - 1
    top = min(m, HAND_SIZE)
    probs = []
    for j in range(top + 1):
        p = Fraction(1)
        for t in range(j):
            p *= Fraction(m - t, n - t)
        probs.append(p * (Fraction(n - m, n - j) if j < top else 1))
    return probs


def trump_card_exact(style: str) -> tuple[dict[str, Fraction], Fraction, dict[int, Fraction]]:
    """Exact (P(trump = suit) per suit letter, P(the trump card is a Perlagg), P(j acorns laid aside before it))
    for a four-player ``style``, ignoring the cut (as spec §11.1): the trump card is uniform over the pack, and in
    the Eichel deals (`EICHEL_DEALS`) over its non-acorns, after j acorns turned up (j = 0 elsewhere). The Weli is
    a bell."""
    if style not in FOUR_PLAYER_STYLES:
        raise unknown_name("four-player Perlaggen style", style, FOUR_PLAYER_STYLES)
    cards = [c for c in range(N_CARDS) if P.has_weli(style) or c != P.WELI]
    acorn = P.DECK.suits.index("E")
    skipped = [c for c in cards if style in EICHEL_DEALS and _suit(c) == acorn]
    candidates = [c for c in cards if c not in skipped]
    suits: dict[str, Fraction] = {}
    perlagg = Fraction(0)
    for card in candidates:
        letter = P.DECK.suits[_suit(card)]
        suits[letter] = suits.get(letter, Fraction(0)) + Fraction(1, len(candidates))
        perlagg += Fraction(P.perlagg_mask(style, letter) >> card & 1, len(candidates))
    n, a = len(cards), len(skipped)
    before = {}
    for j in range(a + 1):
        p = Fraction(1)
        for t in range(j):
            p *= Fraction(a - t, n - t)
        before[j] = p * Fraction(n - a, n - j)
    return suits, perlagg, before


# --- kernels ------------------------------------------------------------------------------------
@njit
def _suit(card):
    """Suit index of a card; the Weli (card 32) is a bell (§2.1)."""
    return 3 if card == 32 else card // 8


@njit
def _suit_mask(suit):
    """uint64 mask of the cards of one suit (bells include the Weli)."""
    m = np.uint64(0xFF) << np.uint64(8 * suit)
    if suit == 3:
        m |= np.uint64(1) << np.uint64(32)
    return m


@njit
def _bit(card):
    return np.uint64(1) << np.uint64(card)


@njit
def _low_card(mask):
    """Index of the lowest set bit of a non-zero mask (the weakest card of one suit)."""
    c = 0
    while not (mask >> np.uint64(c)) & np.uint64(1):
        c += 1
    return c


@njit
def _popcount(m):
    n = 0
    while m:
        m &= m - np.uint64(1)
        n += 1
    return n


@njit
def _l0(hand, pmask, tables, kinds):
    """(best Gleich, best Hanger) of a hand whose Perlaggen (``pmask``) are all free: level L0.

    The natural ranks are counted bit-sliced over the four suit bytes (the Weli is a Perlagg in
    every style); the w Perlaggen join the largest natural set of the highest rank, or become Aces
    (§5.4). The Hanger is the best of the four suit ladders in the §6.4 table.
    """
    nat = hand & ~pmask
    w = _popcount(hand & pmask)
    byte = np.uint64(0xFF)
    a, b = nat & byte, (nat >> np.uint64(8)) & byte
    c, d = (nat >> np.uint64(16)) & byte, (nat >> np.uint64(24)) & byte
    half1, carry1 = a ^ b, a & b
    half2, carry2 = c ^ d, c & d
    ones = half1 ^ half2
    twos = carry1 ^ carry2 ^ (half1 & half2)
    fours = (carry1 & carry2) | ((carry1 ^ carry2) & half1 & half2)
    size, ranks = 0, np.uint64(0)
    if fours:
        size, ranks = 4, fours
    elif ones & twos:
        size, ranks = 3, ones & twos
    elif twos:
        size, ranks = 2, twos
    elif ones:
        size, ranks = 1, ones
    gleich = 0
    if size + w >= 2:
        gleich = 16 * (size + w) + (_TOP_BIT[np.int64(ranks)] + 1 if ranks else 8)
    hanger = 0
    wc = min(w, tables.shape[2] - 1)
    for s in range(4):
        ladder = np.int64((nat >> np.uint64(8 * s)) & byte) << 1
        hanger = max(hanger, np.int64(tables[kinds[s], ladder, wc]))
    return gleich, hanger


@njit
def _give(hand, candidates, perlagg, pmask, flags, tables, kinds):
    """The card of ``candidates`` (one suit, non-empty) a player gives up to take ``perlagg`` (A-07).

    keep_figures (flags[2]): the lowest card among those whose swap leaves the best (Gleich, Hanger)
    of the new hand, compared Gleich first; otherwise simply the lowest card.
    """
    if not flags[2]:
        return _low_card(candidates)
    best, best_g, best_h = -1, -1, -1
    for c in range(N_CARDS):
        if not (candidates >> np.uint64(c)) & np.uint64(1):
            continue
        g, h = _l0((hand & ~_bit(c)) | _bit(perlagg), pmask, tables, kinds)
        if g > best_g or (g == best_g and h > best_h):
            best, best_g, best_h = c, g, h
    return best


@njit
def _choose(row, seat, candidates, take, pmask, flags, tables, kinds, own_seat, own_gives):
    """The card of ``candidates`` ``seat`` gives up for ``take``: the recorded one when ``seat`` is
    ``own_seat`` and ``own_gives[take]`` is among the candidates (E1: any legal card), else `_give`."""
    if seat == own_seat:
        c = own_gives[take]
        if c >= 0 and (candidates >> np.uint64(c)) & np.uint64(1):
            return c
    return _give(row[seat], candidates, take, pmask, flags, tables, kinds)


@njit
def _swap(row, seat, give, take):
    """Seat (0 or 2) gives card ``give`` face up and takes card ``take`` from the table."""
    gave, took = (GAVE0, TOOK0) if seat == 0 else (GAVE2, TOOK2)
    row[seat] = (row[seat] & ~_bit(give)) | _bit(take)
    row[gave] |= _bit(give)
    row[took] |= _bit(take)
    row[TABLE] = (row[TABLE] & ~_bit(take)) | _bit(give)


@njit
def _exchange(row, masks, pcards, flags, tables, kinds, own_seat, own_gives):
    """Team D's exchanges on a dealt row (hands, TABLE = trump card and laid-aside acorns) in place.

    Step 1 (§3.5 E1-E5): a turned Perlagg goes to the dealer for his natural trump, else to the
    partner. Eichel (§9.1): 2. without natural trumps, the dealer, else the partner, upgrades his
    weakest acorn Perlagg; 3. the dealer, then the partner, swap natural acorns for the face-up acorn
    Perlaggen, strongest first. Policy 'never' (flags[1] = 0) does nothing.

    Who swaps, and for which card, always follows these steps; the card given follows the policy
    (A-07) except for ``own_seat`` (-1: none), whose choices are known: when it takes card t and
    ``own_gives[t]`` (64,) is a card it may give for t, it gives that card (E1 allows any natural
    trump). A deal as played passes -1 and `_NO_GIVES`.
    """
    if not flags[1]:
        return
    trump = np.int64(row[TRUMP])
    turned = np.int64(row[TURNED])
    pmask = masks[trump]
    if (pmask >> np.uint64(turned)) & np.uint64(1):
        for seat in (0, 2):
            natural = row[seat] & _suit_mask(trump) & ~pmask
            if natural:
                _swap(row, seat, _choose(row, seat, natural, turned, pmask, flags, tables, kinds, own_seat,
                                         own_gives), turned)
                break
        if flags[0] and (row[TABLE] >> np.uint64(turned)) & np.uint64(1):
            for seat in (0, 2):
                acorn_p = row[seat] & masks[5]
                if acorn_p:
                    weakest = 0
                    for j in range(pcards.shape[1]):
                        if pcards[trump, j] != NO_CARD and (acorn_p >> np.uint64(pcards[trump, j])) & np.uint64(1):
                            weakest = pcards[trump, j]
                    if seat == own_seat and own_gives[turned] >= 0 \
                            and (acorn_p >> np.uint64(own_gives[turned])) & np.uint64(1):
                        weakest = own_gives[turned]
                    _swap(row, seat, weakest, turned)
                    break
    if flags[0]:
        for seat in (0, 2):
            for j in range(pcards.shape[1]):
                card = pcards[trump, j]
                if card == NO_CARD or not ((row[TABLE] & masks[5]) >> np.uint64(card)) & np.uint64(1):
                    continue
                natural = row[seat] & _suit_mask(ACORNS) & ~pmask
                if natural:
                    _swap(row, seat, _choose(row, seat, natural, card, pmask, flags, tables, kinds, own_seat,
                                             own_gives), card)


@njit
def _pack_card(deck, n, cut, p):
    """Card at position p (0 = top) of the pack after the completed cut: ``deck[cut:n] + deck[:cut - k]``."""
    return deck[cut + p] if p < n - cut else deck[p - (n - cut)]


@njit
def _drop_weli(deck):
    """Take the Weli out of ``deck`` (33,), keeping the order of the others in deck[:32]; returns 32.
    A 33-card shuffle without one card is a uniform shuffle of the other 32 (Schlanders, §9.6)."""
    j = 0
    for i in range(N_CARDS):
        if deck[i] != 32:
            deck[j] = deck[i]
            j += 1
    return j


@njit
def _procedure(deck, cut, masks, pcards, flags, tables, kinds, row):
    """Play the deal of §3.7 on a shuffled ``deck`` (33,) int64 (index 0 = top) cut at ``cut``.

    Fills ``row`` (N_FIELDS,) uint64. The cutter keeps the permanent Perlaggen at the bottom of his
    packet, at most a hand's worth; the completed cut puts the rest of the packet under the other
    part (§3.2). Without the Weli (flags[3], Schlanders) the other 32 cards are played.
    """
    row[:] = 0
    row[CUT] = cut
    n = _drop_weli(deck) if flags[3] else N_CARDS
    i = cut - 1
    while i >= 0 and cut - 1 - i < HAND_SIZE and (masks[4] >> np.uint64(deck[i])) & np.uint64(1):
        row[TAKEN] |= _bit(deck[i])
        i -= 1
    k = cut - 1 - i
    n_pack = n - k
    row[STOPPER] = _pack_card(deck, n, cut, n_pack - 1)
    row[CUTTER] = row[TAKEN]
    pos = 0
    for rnd in range(2):
        for seat in (1, 2, 3, 0):
            m = 2 + rnd
            if seat == CUTTER:
                m = max(0, 2 - k) if rnd == 0 else 3 - max(0, k - 2)
            for _ in range(m):
                row[seat] |= _bit(_pack_card(deck, n, cut, pos))
                pos += 1
    card = _pack_card(deck, n, cut, pos)
    pos += 1
    while flags[0] and _suit(card) == ACORNS:
        row[EXPOSED] |= _bit(card)
        card = _pack_card(deck, n, cut, pos)
        pos += 1
    row[TURNED] = card
    row[TRUMP] = _suit(card)
    row[TABLE] = row[EXPOSED] | _bit(card)
    for j in range(pos, n_pack):
        row[STOCK] |= _bit(_pack_card(deck, n, cut, j))
    _exchange(row, masks, pcards, flags, tables, kinds, -1, _NO_GIVES)


@njit
def _shuffle(w, padded, thresholds, js, deck):
    """Shuffle ``deck`` (33,) from one deal's words and return the cut depth (A-31: 5..28)."""
    draw_batches(w, padded, thresholds, js)
    for i in range(N_CARDS):
        deck[i] = i
    for i in range(N_CARDS):
        j = i + js[i]
        c = deck[j]
        deck[j] = deck[i]
        deck[i] = c
    return CUT_MIN + js[N_CARDS]


@njit
def _deal_block(words, masks, pcards, flags, tables, kinds, out):
    """Play one deal per row of ``words`` (n, WORDS_PER_DEAL) uint32 into ``out`` (n, N_FIELDS)."""
    padded, _, thresholds = batch_tables(DRAW_BOUNDS)
    js = np.empty(padded.shape[0], dtype=np.int64)
    deck = np.empty(N_CARDS, dtype=np.int64)
    for d in range(words.shape[0]):
        cut = _shuffle(words[d], padded, thresholds, js, deck)
        _procedure(deck, cut, masks, pcards, flags, tables, kinds, out[d])
    return out


# --- public API ---------------------------------------------------------------------------------
def deal_block(words: np.ndarray, rules: DealRules = DealRules()) -> np.ndarray:
    """Deals as played, one per row of ``words`` ((n, WORDS_PER_DEAL) uint32): (n, N_FIELDS) uint64."""
    if words.ndim != 2 or words.shape[1] != WORDS_PER_DEAL:
        raise ValueError(f"words must be (n, {WORDS_PER_DEAL}), got {words.shape}")
    out = np.empty((words.shape[0], N_FIELDS), dtype=np.uint64)
    return _deal_block(words, *rules.kernel_args(), out)


def deal_from_order(deck, cut: int, rules: DealRules = DealRules()) -> np.ndarray:
    """The deal of one given pack order (tokens or card indices, top first) cut at ``cut``: (N_FIELDS,).

    For worked examples: with ``cut = 33`` the completed cut leaves the order as it is.
    """
    cards = [P.DECK.parse_face(c) if isinstance(c, str) else int(c) for c in deck]
    if sorted(cards) != list(range(N_CARDS)):
        raise CardsimError("a pack order must list each of the 33 cards once")
    if not 1 <= cut <= N_CARDS:
        raise CardsimError(f"the cut depth must be 1..{N_CARDS}, got {cut}")
    masks, pcards, flags, tables, kinds = rules.kernel_args()
    row = np.zeros(N_FIELDS, dtype=np.uint64)
    _procedure(np.array(cards, dtype=np.int64), cut, masks, pcards, flags, tables, kinds,
               row)
    return row


# --- L0 figure outcomes -------------------------------------------------------------------------
@njit
def _table_codes(row, masks, pcards, tables, kinds, g, h):
    """L0 codes of the four hands of a played ``row`` into g, h (4,) int64 (0 = no figure)."""
    trump = np.int64(row[TRUMP])
    for s in range(SEATS):
        g[s], h[s] = _l0(row[s], masks[trump], tables, kinds)


@njit
def _outcomes(g, h):
    """Absolute outcomes (simcore.figures TEAM0 = team D, TEAM1, STAND, VOID) of Gleich and Hanger.

    Codes are compared as they are: the better partner counts for the team (§5.1), equal best codes
    of the two teams stand (§5.3, §6.3), and a figure nobody holds is VOID.
    """
    return (resolve(g[0] - 1, g[1] - 1, g[2] - 1, g[3] - 1), resolve(h[0] - 1, h[1] - 1, h[2] - 1, h[3] - 1))


@njit
def _level_outcomes(row, masks, pcards, tables, kinds, g, h, ev, u, scratch):
    """Absolute (Gleich, Hanger) outcomes of a played ``row`` at the level of ``ev`` (Evaluation.args):
    L0 from the codes g, h (4,) of `_table_codes` (filled before), L1 by the team game of
    simcore.games.perlaggen_l1 with the uniforms u (2,) and the work arrays ``scratch``."""
    if ev[0] == 0:
        return _outcomes(g, h)
    trump = np.int64(row[TRUMP])
    og, oh, _, _ = L._l1_table(row[:SEATS], masks[trump], pcards[trump], _FREE, tables, kinds, ev[1], ev[2],
                               u[0], u[1], scratch)
    return og, oh


@njit
def _outcome_block(rows, masks, pcards, tables, kinds, ev, uniforms, scratch, out):
    """out (n, 2): absolute Gleich and Hanger outcomes of played ``rows`` (n, N_FIELDS) at the level of ``ev``."""
    g = np.zeros(SEATS, dtype=np.int64)
    h = np.zeros(SEATS, dtype=np.int64)
    for d in range(rows.shape[0]):
        _table_codes(rows[d], masks, pcards, tables, kinds, g, h)
        out[d, 0], out[d, 1] = _level_outcomes(rows[d], masks, pcards, tables, kinds, g, h, ev, uniforms[d], scratch)


def outcomes(rows: np.ndarray, rules: DealRules = DealRules(), evaluation: Evaluation = Evaluation(),
             uniforms=None) -> np.ndarray:
    """Outcomes of played deals (rows of `deal_block`) at ``evaluation``'s level: (n, 2) int8, Gleich and
    Hanger, valued simcore.figures TEAM0 (team D), TEAM1 (team O), STAND, VOID. uniforms (n, 2) are
    the L1 mixed draws (default 0.5)."""
    masks, pcards, _, tables, kinds = rules.kernel_args()
    out = np.empty((rows.shape[0], 2), dtype=np.int8)
    uniforms = np.full((rows.shape[0], 2), 0.5) if uniforms is None else np.asarray(uniforms, dtype=np.float64)
    _outcome_block(rows, masks, pcards, tables, kinds, evaluation.args(), uniforms, L.Scratch.arrays(), out)
    return out


# --- conditional sampling (§11.4) ---------------------------------------------------------------
PLACES = ("seat0", "seat1", "seat2", "seat3", "turned", "stopper", "stock")
TURNED_PLACE, STOPPER_PLACE, STOCK_PLACE = 4, 5, 6
"""Places of the *pre-exchange* deal a conditioned job samples; "turned" holds the trump card and
the acorns laid aside before it (Eichel), "stopper" the card the cutter saw (never a permanent
Perlagg, §3.2), "stock" the other face-down cards."""


@dataclass(frozen=True)
class Known:
    """The public facts of §3.6 and one player's hand, as card indices.

    seat: whose ``hand`` (after the exchanges; all 5 cards for odds, fewer in tests) is known;
    trump: suit index; turned: the trump card, or None when only its suit is known; taken: the
    cutter's shown Perlaggen; exposed: acorns laid aside (Eichel); exchanges: (seat, gave, took)
    swaps of team D, or None when unknown (turned None);
    stopper: the card the cutter saw under his Perlaggen, known only to the cutter (§3.6), or None;
    players, hand_size: the table (`perlaggen_variants` for 2, 3 and 6 players; the cutter is the last seat);
    held: (seat, cards) of cards known to be in other seats' hands after the exchanges (seen played), read by
    `OddsJob` (four players), which keeps only the deals that put them there.
    """

    seat: int
    hand: tuple[int, ...]
    trump: int
    turned: int | None = None
    taken: tuple[int, ...] = ()
    exposed: tuple[int, ...] = ()
    exchanges: tuple[tuple[int, int, int], ...] | None = ()
    stopper: int | None = None
    players: int = SEATS
    hand_size: int = HAND_SIZE
    held: tuple[tuple[int, tuple[int, ...]], ...] = ()

    def held_masks(self) -> np.ndarray:
        """(SEATS,) uint64: the cards each seat is known to hold after the exchanges (`held`; 0: none known)."""
        masks = np.zeros(SEATS, dtype=np.uint64)
        for seat, cards in self.held:
            masks[seat] |= np.uint64(P.DECK.mask(cards))
        return masks

    def holds_held(self, rows: np.ndarray) -> np.ndarray:
        """(n,) bool: which replayed deals ``rows`` (n, >= SEATS) put every `held` card in its seat's hand (the
        array form of the odds kernel's `_holds_all`)."""
        held = self.held_masks()
        return ((rows[:, :SEATS] & held) == held).all(axis=1)

    def record(self) -> np.ndarray:
        """(5,) uint64: the known hand, then gave/took masks of seats 0 and 2."""
        rec = np.zeros(5, dtype=np.uint64)
        rec[0] = np.uint64(P.DECK.mask(self.hand))
        for seat, gave, took in self.exchanges or ():
            rec[1 + seat] |= np.uint64(1 << gave)
            rec[2 + seat] |= np.uint64(1 << took)
        return rec

    def own_gives(self) -> np.ndarray:
        """(64,) int64: the card this seat gave for each card it took in its recorded swaps, else -1.

        The sampler's replay applies these swaps for this seat instead of the give policy (§3.5 E1:
        any natural trump may be given); the other seat's swaps stay policy-driven.
        """
        gives = np.full(64, -1, dtype=np.int64)
        for seat, gave, took in self.exchanges or ():
            if seat == self.seat:
                gives[took] = gave
        return gives

    def deal_spec(self, weli: bool = True):
        """DealSpec of the pre-exchange deal: the seat's hand before its swaps, the cutter's shown
        Perlaggen, the cards team D gave up, the turned card and the laid-aside acorns fixed; without
        the ``weli`` (Schlanders) it is fixed in the stock, out of play."""
        gave = {s: {g for e, g, _ in self.exchanges or () if e == s} for s in range(self.players)}
        took = {t for e, _, t in self.exchanges or () if e == self.seat}
        fixed = {f"seat{s}": set(gave[s]) for s in range(self.players)}
        fixed[f"seat{self.seat}"] |= set(self.hand) - took
        fixed[f"seat{self.players - 1}"] |= set(self.taken)
        turned = set(self.exposed) | ({self.turned} if self.turned is not None else set())
        n_turned = len(self.exposed) + 1
        stock = N_CARDS - self.players * self.hand_size - n_turned - 1
        if stock < 0:
            raise CardsimError(f"{len(self.exposed)} acorns laid aside leave no room for the cutter's stopper card "
                               f"at {self.players} players with {self.hand_size} cards")
        names = tuple(f"seat{s}" for s in range(self.players)) + PLACES[SEATS:]
        layout = Layout(P.DECK, tuple(zip(names, (self.hand_size,) * self.players + (n_turned, 1, stock))))
        places = {name: tuple(sorted(cards)) for name, cards in fixed.items() if cards}
        if turned:
            places["turned"] = tuple(sorted(turned))
        if self.stopper is not None:
            places["stopper"] = (self.stopper,)
        if not weli:
            places["stock"] = (P.WELI,)
        return DealSpec(layout, places)

    def key(self) -> str:
        return (f"seat={self.seat}|hand={sorted(self.hand)}|trump={self.trump}|turned={self.turned}|"
                f"taken={sorted(self.taken)}|exposed={sorted(self.exposed)}|exchanges={self.exchanges}|"
                f"stopper={self.stopper}"
                + ("" if self.players == SEATS else f"|table={self.players}x{self.hand_size}")
                + ("" if not self.held else f"|held={sorted((s, sorted(c)) for s, c in self.held)}"))


@njit
def _turn_up(turned, stopper, trump, masks, flags):
    """The trump card of a sampled pre-exchange deal's "turned" and "stopper" places (masks), or -1 when the
    sample contradicts the deal: a permanent Perlagg as the stopper, or no trump card of suit ``trump``
    once the acorns are laid aside (Eichel deals, flags[0])."""
    if stopper & masks[4]:
        return -1
    rest = turned & ~_suit_mask(ACORNS) if flags[0] else turned
    if rest == 0:
        return -1
    card = _low_card(rest)
    return card if _suit(card) == trump else -1


@njit
def _replay(slots, d, trump, masks, pcards, flags, tables, kinds, own_seat, own_gives, row):
    """Play the exchanges on the pre-exchange deal ``slots[d]`` (PLACES) into ``row``; ``own_seat``
    gives the cards of its recorded swaps ``own_gives`` (see `_exchange`).

    Returns False when the sample contradicts the deal procedure: a permanent Perlagg as the stopper
    or a trump card of another suit (or an acorn, in Eichel).
    """
    card = _turn_up(slots[d, TURNED_PLACE], slots[d, STOPPER_PLACE], trump, masks, flags)
    if card < 0:
        return False
    row[:] = 0
    for s in range(SEATS):
        row[s] = slots[d, s]
    exposed = slots[d, TURNED_PLACE] & ~_bit(card)
    row[TURNED], row[TRUMP], row[EXPOSED], row[TABLE] = card, trump, exposed, slots[d, TURNED_PLACE]
    row[STOPPER] = _low_card(slots[d, STOPPER_PLACE])
    row[STOCK] = slots[d, STOPPER_PLACE] | slots[d, STOCK_PLACE]
    _exchange(row, masks, pcards, flags, tables, kinds, own_seat, own_gives)
    return True


NO_CONDITIONS = np.zeros((0, 4), dtype=np.int64)
"""`_meets` conditions of a question without ``--given``."""
BOTH_GESTRICHEN_SIZE = {"innsbruck": 3, "eichel": 4, "deutschnofen": 3} | dict.fromkeys(P.SCHLANDERS, 4)
"""§8.13: cards a figure needs to win the game when both teams are gestrichen (Eichel §9.1: 4)."""


def gestrichen_args(style: str) -> tuple[int, bool]:
    """(least cards, length only) of the §8.13 comparison of ``style`` (A-26: Eichel-dealt styles compare the
    length only; Deutschnofen as Innsbruck, DEFAULT); CardsimError for Strafperlaggen, which has no teams."""
    if style not in BOTH_GESTRICHEN_SIZE:
        raise CardsimError(f"§8.13 (both teams gestrichen) is a rule of the team games, not of the {style} style")
    return BOTH_GESTRICHEN_SIZE[style], style in EICHEL_DEALS


@njit
def _meets(g, h, conds):
    """True when the L0 codes g, h (seats,) meet every row of ``conds`` (k, 4) int64: seat bit mask, figure
    (0 Gleich, 1 Hanger), code, below (0: some seat of the mask holds at least the code; 1: every seat less)."""
    for c in range(conds.shape[0]):
        best = 0
        for s in range(g.shape[0]):
            if (conds[c, 0] >> s) & 1:
                best = max(best, g[s] if conds[c, 1] == 0 else h[s])
        if (best < conds[c, 2]) != (conds[c, 3] == 1):
            return False
    return True


@njit
def _gestrichen(g, h, players, least, length_only):
    """§8.13, both teams gestrichen: the team (seat % 2) whose best figure of at least ``least`` cards is the
    better one, or -1 (nobody has one, or they are equal: the cards are played). Better: more cards, then (unless
    ``length_only``, A-26) a Gleich over a Hanger, then the higher code (A-15). g, h (>= players,) L0 codes."""
    best0, best1 = 0, 0
    for s in range(players):
        for f in range(2):
            code = g[s] if f == 0 else h[s]
            if code // 16 >= least:
                key = code // 16 if length_only else (code // 16) * 512 + (1 - f) * 256 + code
                if s % 2 == 0:
                    best0 = max(best0, key)
                else:
                    best1 = max(best1, key)
    if best0 == best1:
        return -1
    return 0 if best0 > best1 else 1


@njit
def _holds_all(row, held):
    """True when every seat s of the replayed deal ``row`` holds the cards ``held[s]`` (SEATS,) uint64."""
    for s in range(SEATS):
        if (row[s] & held[s]) != held[s]:
            return False
    return True


@njit
def _odds_counts(slots, seat, record, record_known, own_gives, held, trump, masks, pcards, flags, tables, kinds, ev,
                 uniforms, scratch, conds, least, length_only, out):
    """Tally the deals consistent with the public facts: out (16,) += [accepted, Gleich (win, stand,
    lose, void), Hanger (...), both gestrichen (win, lose, play on)] for the team of ``seat``, then the seat's own
    L0 Gleich (single best at the table, tied best) and Hanger (the same).

    A deal is accepted when the replayed exchanges leave ``seat`` holding ``record[0]`` and every seat s holding
    ``held[s]`` ((SEATS,) uint64, `Known.held_masks`), when ``record_known``, team D gave and took exactly
    ``record[1:5]`` (seat 0, then seat 2), and its L0 codes meet
    ``conds`` (`_meets`). The swaps of ``seat`` itself are replayed as recorded (``own_gives``, see
    `_exchange`), the others' by policy. Figures are judged at the level of ``ev`` (`_level_outcomes`, uniforms
    (n, 2)); both gestrichen by `_gestrichen` (``least``, ``length_only``).
    """
    row = np.zeros(N_FIELDS, dtype=np.uint64)
    g = np.zeros(SEATS, dtype=np.int64)
    h = np.zeros(SEATS, dtype=np.int64)
    team = seat % 2
    for d in range(slots.shape[0]):
        if not _replay(slots, d, trump, masks, pcards, flags, tables, kinds, seat, own_gives, row):
            continue
        if (row[seat] & record[0]) != record[0]:
            continue
        if not _holds_all(row, held):
            continue
        if record_known and (row[GAVE0] != record[1] or row[TOOK0] != record[2]
                             or row[GAVE2] != record[3] or row[TOOK2] != record[4]):
            continue
        _table_codes(row, masks, pcards, tables, kinds, g, h)
        if not _meets(g, h, conds):
            continue
        winner = _gestrichen(g, h, SEATS, least, length_only)
        for f in range(2):  # the seat's own L0 figure: the single best at the table, or tied for it
            codes = g if f == 0 else h
            top = max(max(codes[0], codes[1]), max(codes[2], codes[3]))
            if codes[seat] == top and top > 0:
                ties = (codes[0] == top) + (codes[1] == top) + (codes[2] == top) + (codes[3] == top)
                out[12 + 2 * f + (0 if ties == 1 else 1)] += 1
        og, oh = _level_outcomes(row, masks, pcards, tables, kinds, g, h, ev, uniforms[d], scratch)
        out[0] += 1
        out[1 + relative_outcome(og, team)] += 1
        out[5 + relative_outcome(oh, team)] += 1
        out[9 + (2 if winner < 0 else 0 if winner == team else 1)] += 1


class OddsJob:
    """Counts for the runner: [accepted deals, Gleich (win, stand, lose, void), Hanger (...), both gestrichen
    (win, lose, play on)] of the team of ``known.seat``, then the seat's own L0 Gleich and Hanger (each: the
    single best at the table, tied for the best), over pre-exchange deals sampled under ``known`` (§11.4) whose L0
    codes meet ``conditions`` ((k, 4) int64, `_meets`), figures judged by ``evaluation``."""

    n_counts = 1 + 2 * 4 + 3 + 2 * 2

    def __init__(self, known: Known, rules: DealRules = DealRules(), evaluation: Evaluation = Evaluation(),
                 conditions: np.ndarray = NO_CONDITIONS):
        self.known, self.rules, self.evaluation = known, rules, evaluation
        self.conditions = np.asarray(conditions, dtype=np.int64).reshape(-1, 4)
        self.spec = known.deal_spec(P.has_weli(rules.style))

    def key(self) -> str:
        given = f"|given={self.conditions.tolist()}" if len(self.conditions) else ""
        return f"perlaggen|odds|{self.rules.key()}|{self.known.key()}|{self.evaluation.key()}|bg|own{given}"

    def run_block(self, seed: int, block: int, n_deals: int) -> np.ndarray:
        slots = deal(self.spec, block_words(seed, block, n_deals, self.spec.words_per_deal))
        out = np.zeros(self.n_counts, dtype=np.int64)
        _odds_counts(slots, self.known.seat, self.known.record(), self.known.exchanges is not None,
                     self.known.own_gives(), self.known.held_masks(), self.known.trump, *self.rules.kernel_args(),
                     self.evaluation.args(), self.evaluation.uniforms(seed, block, n_deals), L.Scratch.arrays(),
                     self.conditions, *gestrichen_args(self.rules.style), out)
        return out


# --- table statistics (§11.2) -------------------------------------------------------------------
STATS_PARTS = {
    "trump": (4,),                 # deals per trump suit index
    "cutter_k": (6,),              # deals per number of Perlaggen the cutter took
    "turned_perlagg": (1,),        # the trump card is a Perlagg
    "exchanges": (5,),             # dealer swap, partner swap, dealer upgrade, partner upgrade, >= 1 acorn swap
                                   # (the last three in Eichel only)
    "perlaggen": (SEATS, 9),       # seat x Perlaggen held after the exchanges
    "best_size": (2, 6),           # figure x size of the best figure at the table (0 = none)
    "outcome": (2, 4),             # figure x absolute outcome (team D, team O, stand, void)
    "both": (1,),                  # one team wins both Gleich and Hanger
    "seat_best": (SEATS, 2, 2),    # seat x figure x (strictly best, tied best) at the table
    "level_outcome": (2, 4),       # figure x absolute outcome at the job's level (L0: = outcome)
    "level_both": (1,),            # one team wins both, at the job's level
    "team_perlaggen": (2, P.P_MAX + 1, 2, 4),  # team (D, O) x its Perlaggen after the exchanges x figure x (win, stand,
                                     # lose, void) at the job's level
    "gestrichen": (4,),            # §8.13 with both teams gestrichen (L0 codes): team D's figure wins the game, team
                                   # O's, nobody holds a figure of the style's least size, the best ones tie
}
N_STATS = 1 + sum(int(np.prod(shape)) for shape in STATS_PARTS.values())
_TEAM_STRIDE = 8 * (P.P_MAX + 1)
"""Counts per team in "team_perlaggen"."""
_LEVEL_BASE = 1 + sum(int(np.prod(STATS_PARTS[name])) for name in list(STATS_PARTS)[:9])
"""Offset of "level_outcome" in the flat tally (the parts before it have hard-coded offsets)."""
_GESTRICHEN_BASE = N_STATS - STATS_PARTS["gestrichen"][0]
"""Offset of "gestrichen", the last part."""


@njit
def _tally_table(row, masks, pcards, tables, kinds, g, h, ev, u, scratch, least, length_only, out):
    """Add one played deal to the flat STATS_PARTS tally ``out`` (N_STATS,), out[0] = deals; the level
    parts at the level of ``ev`` with the uniforms u (2,) (see `_level_outcomes`); "gestrichen" by `_gestrichen`
    with ``least`` and ``length_only`` (`gestrichen_args`)."""
    trump = np.int64(row[TRUMP])
    pmask = masks[trump]
    out[0] += 1
    out[1 + trump] += 1
    out[5 + _popcount(row[TAKEN])] += 1
    turned_bit = _bit(np.int64(row[TURNED]))
    out[11] += (pmask & turned_bit) != 0
    for i in range(2):  # dealer, partner: a swap for the turned Perlagg, an upgrade if it cost an acorn Perlagg
        if row[TOOK0 + 2 * i] & turned_bit:
            out[12 + i + (2 if row[GAVE0 + 2 * i] & masks[5] else 0)] += 1
    out[16] += ((row[TOOK0] | row[TOOK2]) & masks[5]) != 0  # step 3 is the only way to take an acorn Perlagg
    for s in range(SEATS):
        out[17 + 9 * s + _popcount(row[s] & pmask)] += 1
    _table_codes(row, masks, pcards, tables, kinds, g, h)
    og, oh = _outcomes(g, h)
    base = 17 + 9 * SEATS
    for f in range(2):
        codes = g if f == 0 else h
        top = max(max(codes[0], codes[1]), max(codes[2], codes[3]))
        out[base + 6 * f + top // 16] += 1
        holders = 0
        for s in range(SEATS):
            holders += codes[s] == top
        for s in range(SEATS):
            if codes[s] == top and top > 0:
                out[base + 21 + 4 * s + 2 * f + (0 if holders == 1 else 1)] += 1
    out[base + 12 + og] += 1
    out[base + 16 + oh] += 1
    out[base + 20] += og == oh and og < 2
    winner = _gestrichen(g, h, SEATS, least, length_only)
    if winner >= 0:
        out[_GESTRICHEN_BASE + winner] += 1
    else:
        held = False
        for s in range(SEATS):
            held = held or g[s] // 16 >= least or h[s] // 16 >= least
        out[_GESTRICHEN_BASE + (3 if held else 2)] += 1
    if ev[0] != 0:
        og, oh = _level_outcomes(row, masks, pcards, tables, kinds, g, h, ev, u, scratch)
    out[_LEVEL_BASE + og] += 1
    out[_LEVEL_BASE + 4 + oh] += 1
    out[_LEVEL_BASE + 8] += og == oh and og < 2
    for team in range(2):
        held = _popcount((row[team] | row[team + 2]) & pmask)
        at = _LEVEL_BASE + 9 + _TEAM_STRIDE * team + 8 * held
        out[at + relative_outcome(og, team)] += 1
        out[at + 4 + relative_outcome(oh, team)] += 1


@njit
def _stats_block(words, masks, pcards, flags, tables, kinds, ev, uniforms, scratch, least, length_only, out):
    """Play one deal per row of ``words`` and tally it into ``out`` (N_STATS,) (figures at the level of
    ``ev``, uniforms (n, 2) for the mixed draws of L1)."""
    padded, _, thresholds = batch_tables(DRAW_BOUNDS)
    js = np.empty(padded.shape[0], dtype=np.int64)
    deck = np.empty(N_CARDS, dtype=np.int64)
    row = np.zeros(N_FIELDS, dtype=np.uint64)
    g = np.zeros(SEATS, dtype=np.int64)
    h = np.zeros(SEATS, dtype=np.int64)
    for d in range(words.shape[0]):
        cut = _shuffle(words[d], padded, thresholds, js, deck)
        _procedure(deck, cut, masks, pcards, flags, tables, kinds, row)
        _tally_table(row, masks, pcards, tables, kinds, g, h, ev, uniforms[d], scratch, least, length_only, out)


class StatsJob:
    """Counts for the runner: the STATS_PARTS tallies of deals as played under ``rules``, the level
    parts judged by ``evaluation``."""

    n_counts = N_STATS

    def __init__(self, rules: DealRules = DealRules(), evaluation: Evaluation = Evaluation()):
        self.rules, self.evaluation = rules, evaluation

    def key(self) -> str:
        return f"perlaggen|stats|{self.rules.key()}|{self.evaluation.key()}|gestrichen"

    def run_block(self, seed: int, block: int, n_deals: int) -> np.ndarray:
        out = np.zeros(N_STATS, dtype=np.int64)
        _stats_block(block_words(seed, block, n_deals, WORDS_PER_DEAL), *self.rules.kernel_args(),
                     self.evaluation.args(), self.evaluation.uniforms(seed, block, n_deals), L.Scratch.arrays(),
                     *gestrichen_args(self.rules.style), out)
        return out

    @staticmethod
    def split(counts: np.ndarray) -> tuple[int, dict[str, np.ndarray]]:
        """(deals, named count arrays shaped as STATS_PARTS) from a total count vector."""
        parts, pos = {}, 1
        for name, shape in STATS_PARTS.items():
            size = int(np.prod(shape))
            parts[name] = counts[pos:pos + size].reshape(shape)
            pos += size
        return int(counts[0]), parts


GAME = register(Game(
    name="perlaggen",
    title="Perlaggen",
    deck=P.DECK,
    rules_file="perlaggen.md",
    options=P.OPTIONS + DEAL_OPTIONS + TABLE_OPTIONS,
))
