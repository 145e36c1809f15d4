"""Dreeg rules as data and small pure functions: deals, legal cards, tricks, marriages and scoring.

Rules: shared/rules/dreeg.md. Cards as in `simcore.games.dreeg`: ``card = 6 * suit + rank`` with
suits E L H S and ranks 9 U O K 10 A weakest first (so a higher rank index wins, unlike the spec's
table, whose index 0 is the Ace); a hand is an int bitmask of 24 bits (bit ``card``). Positions
``0 .. n-1`` number the active players of one hand clockwise from forehand (FH = 0); the scoring
functions return one erase count per position.

Play modes (§3.0.2): `FREE` (2-player hands while the talon is open), `STRICT` (follow, trump,
head: the §3.0.2 cascade with the §5 A3/A4 defaults; Kamerun is STRICT without trump) and
`FOLLOW` (follow suit only: phase 5 under option ``kamerun5_no_head``). The legal-card kernel
`legal_mask` reads a trick through its summary: the suit led, the highest rank of the led suit
in it and the highest trump rank in it (-1: none).
"""

from __future__ import annotations

import functools

from simcore import checks
from simcore.config import njit
from simcore.errors import CardsimError, is_whole_int
from simcore.games.dreeg import DECK, FACE_POINTS

N_SUITS, N_RANKS = 4, 6
NINE, UNTER, OBER, KING, TEN, ACE = range(6)
HEART = DECK.suits.index("H")
HEART_ACE = HEART * N_RANKS + ACE
ALL = (1 << 24) - 1
SUIT_MASKS = tuple(((1 << N_RANKS) - 1) << (N_RANKS * s) for s in range(N_SUITS))
"""Mask of the six cards of every suit."""
POINTS = tuple(int(p) for p in FACE_POINTS)
"""(24,) card points per card (A 11, 10 10, K 4, O 3, U 2, 9 0); the pack holds 120."""
TOTAL_POINTS = sum(POINTS)
TARGET, SCHNEIDER = 66, 33

FREE, STRICT, FOLLOW = 0, 1, 2
NO_UNDERTRUMP = 1
"""`legal_mask` flag: a void player who cannot over-trump may discard (§5 A3 variant)."""
HEAD_TRUMPED_LEAD = 2
"""`legal_mask` flag: heading the led suit is due even after a trump fell on it (§5 A4 variant)."""

SUBGAME = {1: "66", 2: "RA", 3: "RU", 4: "KA", 5: "KA", 6: "RU", 7: "RA", 8: "66"}
"""Sub-game of every phase (§2.1)."""
SUBGAME_NAMES = {"66": "Sechsundsechzig", "RA": "Rot Assen", "RU": "Rufen", "KA": "Kamerun",
                 "KN": "Kamerun bei Nacht", "SM": "Schweige-Maß", "WL": "Weglöscher"}
"""The four sub-games of §3.1-§3.4 and the three optional sub-games of §3.5."""
FIRST_OUT_LOSES = frozenset({4, 5})
FIRST_OUT_SUBGAMES = frozenset({"KA", "KN"})
"""Sub-games whose phase ends at the first player out (§2.1; Kamerun bei Nacht is a Kamerun, §3.5)."""
EXTRA_SUBGAMES = {"kamerun_bei_nacht": "KN", "schweige_mass": "SM", "wegloescher": "WL"}
"""Rule option of each optional §3.5 sub-game, in the spec's order (extra phases follow phase 8 in it)."""


def two_sided(subgame: str, n: int) -> bool:
    """Whether a hand of ``subgame`` (as played: "66" for Schweige-Maß and Weglöscher) with ``n`` active players
    is scored TWO-SIDED, the scoring whose target is 66 (§3.0.7: 2-player hands, Rot Assen and Rufen)."""
    return subgame in ("RA", "RU") or (n == 2 and subgame not in FIRST_OUT_SUBGAMES)


HAND_SIZES = {4: 6, 3: 8, 2: 6}
"""Cards per player by the number of active players (§2.4)."""
STROKE_TABLE = {4: (3, 2, 1, 0), 3: (2, 1, 0)}
"""Strokes by rank in individual 66 and Kamerun (§3.0.6, §3.4.4)."""


def card_suit(card: int) -> int:
    return card // N_RANKS


def card_rank(card: int) -> int:
    return card % N_RANKS


_BYTE_CARDS = tuple(tuple(tuple(8 * k + b for b in range(8) if (byte >> b) & 1) for byte in range(256))
                    for k in range(3))
"""The cards of every byte value of a 24-bit card mask, per byte position (lookups for `cards_of`)."""
_BYTE_POINTS = tuple(tuple(sum(POINTS[c] for c in cards) for cards in table) for table in _BYTE_CARDS)
"""Card points of every byte value of a 24-bit card mask, per byte position (lookups for `points_of`)."""


def cards_of(mask: int) -> list[int]:
    """The cards of a mask, in card order."""
    return list(_BYTE_CARDS[0][mask & 255] + _BYTE_CARDS[1][(mask >> 8) & 255] + _BYTE_CARDS[2][(mask >> 16) & 255])


def bit_count(mask: int) -> int:
    """Number of cards in a mask."""
    return mask.bit_count()


def points_of(mask: int) -> int:
    """Card points of a card mask."""
    return _BYTE_POINTS[0][mask & 255] + _BYTE_POINTS[1][(mask >> 8) & 255] + _BYTE_POINTS[2][(mask >> 16) & 255]


def bit(card: int) -> int:
    return 1 << card


# --- legal cards and the trick winner (§3.0.1, §3.0.2) -----------------------------------------
@njit
def _above(suit, rank):
    """Mask of the cards of ``suit`` ranking above ``rank`` (rank -1: the whole suit)."""
    return ((1 << 6) - (1 << (rank + 1))) << (6 * suit)


@njit
def legal_mask(hand, led, led_top, trump_top, trump, mode, flags):
    """Legal cards (int mask) of ``hand`` to a trick (§3.0.2 STRICT cascade, §5 A3/A4).

    led: suit led (-1: leading, every card is legal); led_top: highest rank of the led suit in
    the trick; trump_top: highest trump rank in the trick (-1: none); trump: suit or -1;
    mode: FREE, STRICT or FOLLOW; flags: NO_UNDERTRUMP | HEAD_TRUMPED_LEAD.
    """
    if led < 0 or mode == FREE:
        return hand
    same = hand & (63 << (6 * led))
    if same:
        if mode == FOLLOW:
            return same
        if led == trump or trump_top < 0 or flags & HEAD_TRUMPED_LEAD:
            higher = same & _above(led, trump_top if led == trump else led_top)
            return higher if higher else same
        return same
    if trump >= 0 and mode == STRICT:
        mine = hand & (63 << (6 * trump))
        if mine:
            if trump_top >= 0:
                over = mine & _above(trump, trump_top)
                if over:
                    return over
                return hand if flags & NO_UNDERTRUMP else mine
            return mine
    return hand


def trick_summary(trick: list[int], trump: int) -> tuple[int, int, int]:
    """(led suit, highest led-suit rank, highest trump rank or -1) of the cards played so far."""
    if not trick:
        return -1, -1, -1
    led = trick[0] // N_RANKS
    led_top = trump_top = -1
    for card in trick:
        suit, rank = divmod(card, N_RANKS)
        if suit == led and rank > led_top:
            led_top = rank
        if suit == trump and rank > trump_top:
            trump_top = rank
    return led, led_top, trump_top


def legal_cards(hand: int, trick: list[int], trump: int, mode: int = STRICT, flags: int = 0) -> int:
    """`legal_mask` of ``hand`` when ``trick`` (cards in play order) lies on the table."""
    led, led_top, trump_top = trick_summary(trick, trump)
    return int(legal_mask(hand, led, led_top, trump_top, trump, mode, flags))


def winning_slot(trick: list[int], trump: int) -> int:
    """Slot (0 = leader) of the card holding ``trick``: the highest trump, else the highest card of
    the suit led (§3.0.1; trump -1: no trump)."""
    led = trick[0] // N_RANKS
    best, top = 0, -1
    for i, card in enumerate(trick):
        power = card_power(card, led, trump)
        if power > top:
            best, top = i, power
    return best


def card_power(card: int, led: int, trump: int) -> int:
    """Strength of ``card`` in a trick led in suit ``led``: trumps above the led suit, every other
    card -1 (it cannot win); the highest power holds the trick (§3.0.1)."""
    suit, rank = divmod(card, N_RANKS)
    return 2 * N_RANKS + rank if suit == trump else (N_RANKS + rank if suit == led else -1)


def winning_cards(cards, trick: list[int], trump: int) -> list[int]:
    """The ``cards`` that would take the lead of ``trick`` (non-empty) if played to it next."""
    led = trick[0] // N_RANKS
    top = max(card_power(c, led, trump) for c in trick)
    return [c for c in cards if card_power(c, led, trump) > top]


def boss_cards(hand: int, gone: int) -> int:
    """Cards of ``hand`` that are the highest card of their suit still out (``gone``: cards played)."""
    out = 0
    for s in range(N_SUITS):
        rest = SUIT_MASKS[s] & ~gone
        if rest:
            top = rest.bit_length() - 1
            if (hand >> top) & 1:
                out |= 1 << top
    return out


# --- marriages (§1.4, §3.0.4) --------------------------------------------------------------------
def marriage_suits(hand: int) -> list[int]:
    """Suits whose King and Ober are both in ``hand``."""
    return [s for s in range(N_SUITS) if (hand >> (6 * s + OBER)) & 3 == 3]


def marriage_value(suit: int, trump: int) -> int:
    """40 in the trump suit, 20 otherwise, 20 while no trump exists (§1.4)."""
    return 40 if suit == trump else 20


def marriage_cards(suit: int) -> int:
    """Mask of the King and Ober of ``suit``."""
    return 3 << (6 * suit + OBER)


# --- deals (§2.4) --------------------------------------------------------------------------------
@functools.cache
def deal_order(n_active: int) -> tuple[int, ...]:
    """Position receiving each card of the pack in dealing order (§2.4 packets: 4 players 3+3,
    3 players 3+2+3, 2 players 3+3); -1 for the cards left in the talon."""
    packets = {4: (3, 3), 3: (3, 2, 3), 2: (3, 3)}[n_active]
    order = [p for size in packets for p in range(n_active) for _ in range(size)]
    return tuple(order + [-1] * (24 - len(order)))


def deal_hands(perm, n_active: int) -> tuple[list[int], list[int]]:
    """Hands (by position) and talon (top first) of a shuffled pack ``perm`` (24 cards, top first)."""
    hands = [0] * n_active
    talon = []
    for card, pos in zip(perm, deal_order(n_active)):
        if pos < 0:
            talon.append(int(card))
        else:
            hands[pos] |= 1 << int(card)
    return hands, talon


def first_packet(perm) -> int:
    """Mask of FH's first packet of 3 cards, the first 3 cards dealt (Rufen, §3.3)."""
    return sum(1 << int(c) for c in perm[:3])


def deal_duel66(perm, indicator: str = "between_packets") -> tuple[list[int], list[int]]:
    """2-player 66 deal (§3.1.2, §3.5): hands and talon (top first) whose bottom card is the
    face-up trump indicator. indicator: "between_packets" (3 each, the indicator, 3 each),
    "13th_card" (3+3 each, then the indicator) or "bottom" (the bottom card of the pack)."""
    perm = [int(c) for c in perm]
    if indicator == "between_packets":
        cards, ind = perm[:6] + perm[7:13], perm[6]
        rest = perm[13:]
    elif indicator == "13th_card":
        cards, ind, rest = perm[:12], perm[12], perm[13:]
    elif indicator == "bottom":
        cards, ind, rest = perm[:12], perm[23], perm[12:23]
    else:
        raise CardsimError(f"unknown duel66_indicator '{indicator}'; choose between_packets, 13th_card or bottom")
    hands, _ = deal_hands(cards + rest + [ind], 2)
    return hands, rest + [ind]


# --- scoring (§3.0.6-§3.0.8, §3.4.4-§3.4.6) ------------------------------------------------------
def _rank_blocks(points: list[float], last_winner: int) -> list[list[int]]:
    """Positions grouped into blocks of equal adjusted points (+0.5 for the last trick), best first."""
    adj = [p + (0.5 if i == last_winner else 0.0) for i, p in enumerate(points)]
    order = sorted(range(len(points)), key=lambda i: -adj[i])
    blocks: list[list[int]] = []
    for i in order:
        if blocks and adj[blocks[-1][0]] == adj[i]:
            blocks[-1].append(i)
        else:
            blocks.append([i])
    return blocks


def _ranked_erase(points, last_winner: int, take_lowest: bool) -> list[int]:
    table = STROKE_TABLE[len(points)]
    out, place = [0] * len(points), 0
    for block in _rank_blocks(list(points), last_winner):
        value = table[place + len(block) - 1] if take_lowest else table[place]
        for i in block:
            out[i] = value
        place += len(block)
    return out


def individual_66(points, last_winner: int) -> list[int]:
    """Erase per position of individual 66 (§3.0.6): 3/2/1/0 (4 players) or 2/1/0 (3) by points,
    the last trick breaking ties; remaining ties take the lowest value of their places."""
    return _ranked_erase(points, last_winner, take_lowest=True)


def kamerun_normal(points, tricks, last_winner: int, by: str = "tricks") -> list[int]:
    """Erase per position of a Kamerun hand without Durchmarsch (§3.4.4): most points erases most,
    ties take the highest value of their places, a player without a trick (``by="points"``: without
    points, §5 A11 variant) erases 0. A player who took every trick undeclared erases 3 and the others 0
    (§3.4.3), with 3 players too, where the table's top is 2."""
    if sum(1 for t in tricks if t) == 1:
        return [3 if t else 0 for t in tricks]
    out = _ranked_erase(points, last_winner, take_lowest=False)
    empty = tricks if by == "tricks" else points
    return [0 if empty[i] == 0 else e for i, e in enumerate(out)]


def status(points: int, tricks: int) -> int:
    """Loser's Schneider/Schwarz value (§3.0.7): 3 without a trick, 2 below 33, else 1."""
    if tricks == 0:
        return 3
    return 2 if points < SCHNEIDER else 1


def close_value(pts_k: int, pts_o: int, tricks_k: int, tricks_o: int) -> int:
    """Closing snapshot value (§3.0.8): 3 if either side had no trick, 2 if either had < 33, else 1."""
    if tricks_k == 0 or tricks_o == 0:
        return 3
    return 2 if pts_k < SCHNEIDER or pts_o < SCHNEIDER else 1


def resolve_open(points, tricks, out_side: int, last_side: int, eraser: str = "winner") -> list[int]:
    """Erase per side (2 sides) of a two-sided hand with the talon never closed (§3.0.7).

    points, tricks: per side, points as compared with 66/33; out_side: side that went out, -1 if the
    hand was played out; last_side: side of the last trick. eraser "loser" gives the literal §5 A2
    reading of a played-out hand with exactly one side >= 66.
    """
    erase = [0, 0]
    if out_side >= 0:
        other = 1 - out_side
        if points[out_side] >= TARGET:
            erase[out_side] = status(points[other], tricks[other])
        else:
            erase[other] = 2
        return erase
    made = [p >= TARGET for p in points]
    if made[0] != made[1]:
        winner = 0 if made[0] else 1
        value = status(points[1 - winner], tricks[1 - winner])
        erase[winner if eraser == "winner" else 1 - winner] = value
    else:
        erase[last_side] = 1
    return erase


def resolve_closed(points, tricks, closer: int, out_side: int, last_side: int, cv: int, at_close: int,
                   loss_min2: bool = False) -> list[int]:
    """Erase per side of a 2-player hand closed by side ``closer`` (§3.0.8).

    cv: `close_value` of the snapshot; at_close: the opponent's `status` at closing (used for a
    successful closer when it is >= 0, option ``closer_win_status_at_close``, else the status at
    go-out/end); loss_min2: a failed closer's opponent erases at least 2 (§3.5 DUEL_CLOSER_LOSS_MIN2).
    """
    opp = 1 - closer
    erase = [0, 0]
    lost = max(2, cv) if loss_min2 else cv
    won = at_close if at_close >= 0 else status(points[opp], tricks[opp])
    if out_side == closer:
        if points[closer] >= TARGET:
            erase[closer] = won
        else:
            erase[opp] = max(2, cv)
    elif out_side == opp:
        if points[opp] >= TARGET:
            erase[opp] = lost
        else:
            erase[closer] = 2
    elif points[closer] >= TARGET and last_side == closer:
        erase[closer] = won
    else:
        erase[opp] = lost
    return erase


def apply_elimination(strokes: list[int], erase: list[int]) -> list[int]:
    """Strokes after erasing, clamped at 0 (§2.2)."""
    return [max(0, s - e) for s, e in zip(strokes, erase)]


def apply_kamerun(strokes: list[int], erase: list[int]) -> tuple[list[int], list[int]]:
    """Kamerun erasing (§3.4.6): groups of 3s, 2s, then 1s; the first group that brings a player to
    0 ends the phase. Returns (strokes after, indices of the losers)."""
    strokes = list(strokes)
    for k in (3, 2, 1):
        group = [i for i, e in enumerate(erase) if e == k]
        for i in group:
            strokes[i] = max(0, strokes[i] - k)
        losers = [i for i in group if strokes[i] == 0]
        if losers:
            return strokes, losers
    return strokes, []


def penalty_erase(n: int, offender: int, kamerun: bool) -> list[int]:
    """Erase per position after a rule breach (§3.0.10, §5 A12): in Kamerun the offender erases 3,
    elsewhere every other player (partner included) erases 3."""
    if kamerun:
        return [3 if i == offender else 0 for i in range(n)]
    return [0 if i == offender else 3 for i in range(n)]


def next_dealer(dealer: int, took_part, n_seats: int) -> int:
    """§2.3: the next player on the dealer's left who took part in the hand just played."""
    p = (dealer + 1) % n_seats
    while p not in took_part:
        p = (p + 1) % n_seats
    return p


def forehand(dealer: int, active, n_seats: int) -> int:
    """§2.3: the first active player on the dealer's left."""
    p = (dealer + 1) % n_seats
    while p not in active:
        p = (p + 1) % n_seats
    return p


def seat_order(dealer: int, active, n_seats: int) -> list[int]:
    """Active seats clockwise from forehand: position i plays as seat order[i]."""
    first = forehand(dealer, active, n_seats)
    return [s % n_seats for s in range(first, first + n_seats) if s % n_seats in active]


# --- the optional sub-games of §3.5 -------------------------------------------------------------
def phase_plan(opts: dict) -> tuple[str, ...]:
    """Sub-game of every phase of a game: the eight of §2.1 with the §3.5 sub-games the options put
    in place of a phase ("phase4") or after phase 8 ("extra", in the order of `EXTRA_SUBGAMES`).
    CardsimError when two sub-games claim the same phase."""
    plan = [SUBGAME[p] for p in range(1, 9)]
    extra = []
    for name, code in EXTRA_SUBGAMES.items():
        where = opts.get(name, "off")
        if where == "extra":
            extra.append(code)
        elif where.startswith("phase"):
            p = int(where[5:])
            if plan[p - 1] != SUBGAME[p]:
                raise CardsimError(f"option {name}={where}: phase {p} is already {SUBGAME_NAMES[plan[p - 1]]}; "
                                   "put one of them elsewhere (e.g. =extra)")
            plan[p - 1] = code
    return tuple(plan + extra)


def wegloescher_pair(dealer: int, active, n_seats: int) -> list[int]:
    """Weglöscher (§3.5): the dealer deals to the first two active players on his left (with two
    left, to the other and himself); returns them in dealing order (the first is forehand)."""
    return seat_order(dealer, active, n_seats)[:2]


def wegloescher_erase(strokes: list[int], pair, erase: list[int]) -> list[int]:
    """Strokes after a Weglöscher hand (§3.5, example G1): the two players in ``pair`` erase their
    own counts (``erase`` per seat); every other player still holding strokes erases the winner's
    count too, but never his last stroke. Clamped at 0. CardsimError for what the rule does not allow: strokes
    other than 3 or more counts of at least 0, a pair other than two seats holding strokes, an erase vector other
    than one of the pair erasing 1-3 and everybody else 0."""
    _check_wegloescher(strokes, pair, erase)
    won = max(erase[s] for s in pair)
    return [max(0, s - erase[i]) if i in pair else (max(1, s - won) if s > 0 else 0)
            for i, s in enumerate(strokes)]



def _check_wegloescher(strokes, pair, erase) -> None:
    """The checks of `wegloescher_erase`."""
    if not isinstance(strokes, (list, tuple)) or len(strokes) < 3:
        raise CardsimError(f"strokes must be a list of every seat's strokes, 3 seats or more, got {strokes!r}")
    n = len(strokes)
    for seat, count in enumerate(strokes):
        checks.whole(count, f"strokes[{seat}]", 0)
    seats = list(pair) if isinstance(pair, (list, tuple)) else []
    if len(seats) != 2 or seats[0] == seats[1] or not all(is_whole_int(p) and 0 <= p < n and strokes[p] > 0
                                                          for p in seats):
        raise CardsimError(f"pair must be the two seats (0-{n - 1}) who played the hand, both holding strokes, got "
                           f"{pair!r}")
    if not isinstance(erase, (list, tuple)) or len(erase) != n:
        raise CardsimError(f"erase must be a list of {n} counts, one per seat like strokes, got {erase!r}")
    counts = [checks.whole(e, f"erase[{seat}]", 0, 3) for seat, e in enumerate(erase)]
    if sorted(counts[p] for p in seats)[0] or not max(counts) or any(counts[s] for s in range(n) if s not in seats):
        raise CardsimError(f"erase must give 1-3 to the hand's winner, one of the pair {seats}, and 0 to every other "
                           f"seat (the bystanders' erasing follows from the rule), got {erase!r}")


def speaker(active: int, percent: int, rng) -> int:
    """Schweige-Maß (§3.5): which of ``active`` positions speaks during a hand, or -1. Each speaks
    with probability ``percent`` / 100; of several, the first to speak (each equally likely)."""
    if percent <= 0:
        return -1
    spoke = [i for i in range(active) if rng.random() * 100 < percent]
    return spoke[int(rng.random() * len(spoke))] if spoke else -1
