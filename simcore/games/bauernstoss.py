"""Bauernstoss (Palatinate Schafkopf): four players in fixed pairs, 8 cards each, jacks permanent trumps.

Rules: shared/rules/bauernstoss.md (with the variants Alter Schoofkopp and Deutscher Schafkopf,
spec §7). This module declares the pack, the deal layout, the card points, the trump orders as
tables and the spec's defaults (§8 A1-A22) as data, and holds the rules around the tricks as small
pure pieces: the partnership draw (§2), the hand features L(p, s) and low(p, s) (§4.1), the trump
auction as a state machine (`Auction`, §4, AS-5/6/10, DS-3..7) with the baseline bidding policy of
§9.3, and the scoring of a hand and a game (`score_hand`, §6, AS-1..4, DS-9..12). Trick play (legal
moves, trick winner, policies, play-outs of hands and games) is in `simcore.games.bauernstoss_play`.

Seats are 0-3 clockwise, team = seat % 2; hands are int card masks here (uint32 arrays in the kernels).

The grid lists each printed suit's ranks weakest first in the order of spec §1.1 (A T K D B 9 8 7
strongest first), so the jack sits between the 9 and the queen; the jacks are nevertheless trumps of
every hand, above the trump suit's ace, ranked clubs > spades > hearts > diamonds (spec §1.2).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from simcore.cards import Deck
from simcore.config import njit
from simcore.dealing import Layout
from simcore import checks
from simcore.errors import CardsimError, is_whole_int
from simcore.registry import Game, Option, chosen_options, default_only, register
from simcore.tricks import popcount

DECK = Deck(
    name="bauernstoss",
    suits=("c", "s", "h", "d"),
    ranks=("7", "8", "9", "B", "D", "K", "T", "A"),
    rank_aliases={"10": "T", "J": "B", "Q": "D"},
    suit_names=("clubs", "spades", "hearts", "diamonds"),
)
SEATS = 4
HAND_SIZE = 8
LAYOUT = Layout(DECK, tuple((f"seat{s}", HAND_SIZE) for s in range(SEATS)))

RANK_POINTS = {"A": 11, "T": 10, "K": 4, "D": 3, "B": 2, "9": 0, "8": 0, "7": 0}
"""Card points per rank (spec §1.1); every suit is worth 30, the pack 120."""
FACE_POINTS = np.array([RANK_POINTS[DECK.ranks[DECK.rank_of_face(f)]] for f in range(DECK.n_faces)], dtype=np.int64)
"""(32,) int64: card points of every face (= card, the pack has no duplicates)."""

JACK = DECK.ranks.index("B")
TRUMP = 4
"""Effective suit of every trump (jacks and the trump suit's cards); plain suits keep 0-3 (spec §1.2)."""
JACKS = sum(1 << (8 * s + JACK) for s in range(4))
"""0x08080808: the four jacks (bit ``8*suit + 3``)."""
RANK_MASKS = tuple(sum(1 << (8 * s + r) for s in range(4)) for r in range(8))
"""Per rank index (7 8 9 B D K T A): the mask of the four cards of that rank."""


def _low_scale(card: int) -> int:
    """Spec §1.2 lowest-card scale: 7..A -> 0..6, jacks above the ace: dB 7, hB 8, sB 9, cB 10."""
    suit, rank = divmod(card, 8)
    if rank == JACK:
        return 10 - suit
    return rank if rank < JACK else rank - 1


LOW_SCALE = np.array([_low_scale(c) for c in range(32)], dtype=np.int64)
"""(32,) int64: every card's value on the lowest-card scale of spec §1.2 (the tie-break, §4.9)."""


def _eff(card: int, trump: int) -> int:
    """Spec §1.2 effective suit: TRUMP for the jacks and the trump suit, else the printed suit."""
    suit = card // 8
    return TRUMP if card % 8 == JACK or suit == trump else suit


def _strength(card: int, trump: int) -> int:
    """Spec §1.2 strength key: jacks 20 + (3 - suit), other trumps 10 + scale, plain cards the scale."""
    scale = _low_scale(card)
    return 10 + scale if _eff(card, trump) == TRUMP else scale


EFF = np.array([[_eff(c, t) for c in range(32)] for t in range(4)], dtype=np.int64)
"""(4 trump suits, 32 cards) int64: effective suit, 0-3 for plain cards and TRUMP for trumps."""
EFF_MASKS = np.array([[sum(1 << c for c in range(32) if EFF[t, c] == e) for e in range(5)] for t in range(4)],
                     dtype=np.uint64)
"""(4 trump suits, 5 effective suits) uint64: the cards of each effective suit; [t, t] is empty,
[t, TRUMP] is the 11-card trump set."""
STRENGTH = np.array([[_strength(c, t) for c in range(32)] for t in range(4)], dtype=np.int64)
"""(4 trump suits, 32 cards) int64: the §1.2 strength key; every trump (10-23) is above every plain card (0-6)."""
BEATS = np.array([[sum(1 << o for o in range(32)
                       if EFF[t, o] == TRUMP and EFF[t, c] != TRUMP
                       or EFF[t, o] == EFF[t, c] and STRENGTH[t, o] > STRENGTH[t, c]) for c in range(32)]
                  for t in range(4)], dtype=np.uint64)
"""(4 trump suits, 32 cards) uint64: the cards that take a trick from card c when c holds it (spec
§5.3): higher cards of its effective suit and, if c is plain, every trump."""

TARGETS = {"BS": 20, "AS": 15, "DS": 9}
"""Strokes that win a game in each variant (spec §6.4, AS-1, DS-12)."""

OPTIONS = (
    Option("variant", "BS", ("BS", "AS", "DS"),
           "Bauernstoss, Alter Schoofkopp or Deutscher Schafkopf (spec §7); sets the target (20/15/9)"),
    Option("jack_rule", "overtake_when_trumping", ("overtake_when_trumping", "always_overrides_follow", "off"),
           "scope of the BS duty to overtake a jack with a higher jack (spec §8 A1)"),
    Option("mit_rule", "strict_threshold", ("strict_threshold", "advisory"),
           "'mit' is legal only if the lowest card can still win the tie-break (spec §8 A2, §4.6)"),
    Option("partner_tie", "higher_low", ("higher_low", "earlier_speaker", "later_speaker", "strategy_callback"),
           "who names trumps when only partners tie at the top bid (spec §8 A3)"),
    Option("min_number_bid", 2, (2, 3), "lowest legal number bid (spec §8 A4)"),
    Option("allow_suit_switch", False, (False, True),
           "may the chooser name a suit whose length differs from the winning bid (spec §8 A5)"),
    Option("ds_ten_value", 10, (10, 0), "value of a Ten in the DS equal-length tie-break (spec §8 A6)"),
    Option("ds_schwarz", "game_credit_only", ("game_credit_only", "game_credit_plus_strokes",
           "end_current_game"),
           "DS: what winning all 8 tricks earns (spec §8 A7)"),
    Option("ds_tie_chain", "queue", ("queue", "only_last"), "DS: repeated 60-60 hands (spec §8 A8)"),
    Option("ds_require_unter", False, (False, True), "DS: is an Unter needed to bid (spec §8 A9)"),
    Option("as_first_hand_solo", False, (False, True),
           "AS: may a Big Solo be called in the first hand of a game (spec §8 A10; 4-jack holders bid normally)"),
    Option("as_four_jacks_forced", True, (True, False),
           "AS: a player holding all four jacks must open like any jack holder, so AS has no throw-ins (spec AS-5, "
           "§8 A10); False: he may pass, and the hand is thrown in if he does (§4.11)"),
    Option("partner_return_policy", "highest_trump", ("highest_trump", "strategy_callback"),
           "Small Solo: the card the partner returns; baseline highest trump, else highest points (spec §8 A11); "
           "strategy_callback: the caller picks it with small_solo_exchange(..., back=card) (play_hand refuses it)"),
    Option("throwin_consumes_first_hand", False, (False, True),
           "does a throw-in use up the first hand of a game (spec §8 A13; if so, the redeal allows solos and, as "
           "nobody holds the chalk yet, gives it to the club jack's team)"),
    Option("first_dealer", 0, (0, 1, 2, 3), "first dealer of a session in simulations (spec §8 A14, §3)"),
    default_only("partnership_draw", "two_different_players",
                 "partners are drawn once a session, dealing face up until two different players hold jacks (a "
                 "second jack to one player is ignored); the teams stay for every game (spec §8 A12, A18)"),
    default_only("lowest_card_without_plain", "lowest_jack",
                 "a proposed suit without plain cards shows the lowest jack held, ranked above the Ace, as its "
                 "lowest card (spec §8 A16; bids of 3 or less)"),
    default_only("solo_card_points", "ignored",
                 "a solo counts all 8 tricks or not; play stops at the first trick lost (spec §8 A21)"),
    default_only("next_game", "fresh_start",
                 "after a game the strokes restart at 0-0, the club jack's team takes the chalk, solos are banned "
                 "in its first hand and the dealer rotation goes on (spec §8 A22, §6.4)"),
    default_only("ds_card_points", "as_bs",
                 "DS: the card points of BS (A 11, 10 10, K 4, O 3, U 2), which the source does not restate (spec "
                 "DS-1)"),
    Option("mixed_tie", "individual", ("individual", "team_then_agree"),
           "ties at the top bid that mix both teams: best lowest card over all tied players (spec §8 A15)"),
)

GAME = register(Game(
    name="bauernstoss",
    title="Bauernstoss (Palatinate Schafkopf)",
    deck=DECK,
    rules_file="bauernstoss.md",
    options=OPTIONS,
))


def rule_options(**chosen) -> dict:
    """Every option of `OPTIONS` by name: ``chosen`` values over the defaults (CardsimError for an
    unknown option or a value outside its choices)."""
    return chosen_options("bauernstoss", OPTIONS, chosen)


# --- partnerships (spec §2) ----------------------------------------------------------------
def draw_partners(cards, first: int = 0) -> tuple[int, int]:
    """§2 P2 / A12: deal ``cards`` face up one at a time to players ``first``, ``first + 1``, ... (mod 4)
    until two different players hold a jack; returns those two players, the partners (in draw order)."""
    holders: list[int] = []
    for i, card in enumerate(cards):
        player = (first + i) % SEATS
        if card % 8 == JACK and player not in holders:
            holders.append(player)
            if len(holders) == 2:
                return holders[0], holders[1]
    raise CardsimError("spec §2 P2: the cards ran out before two different players received a jack")


def seating(partners: tuple[int, int]) -> tuple[int, ...]:
    """§2 P3: the players in seat order 0-3 with the drawn ``partners`` opposite (seats 0 and 2)."""
    others = [p for p in range(SEATS) if p not in partners]
    return partners[0], others[0], partners[1], others[1]


# --- scoring (spec §6 BS, §7.1 AS-1..4 and AS-10, §7.2 DS-9..12) -----------------------------
NORMAL, SMALL_SOLO, BIG_SOLO, THROW_IN = "normal", "small_solo", "big_solo", "throw_in"
SOLO_STROKES = {SMALL_SOLO: 8, BIG_SOLO: 12}
"""Strokes a solo is worth to the winning side (spec §4.7, §6.3)."""
CARD_POINTS, TRICKS = 120, 8


@dataclass(frozen=True)
class HandResult:
    """What one hand produced, as scoring needs it.

    kind: NORMAL, SMALL_SOLO, BIG_SOLO or THROW_IN. points, tricks: card points (0..120) and tricks
    (0..8) won by team 0 in a normal game; team 1 has the rest. maker: the team that chose trumps
    (normal game) or the soloist's team (solo). solo_won: the soloist took all 8 tricks.
    club_jack: the team dealt the club jack, whose team holds the BS chalk in a game's first hand.
    """

    kind: str = NORMAL
    points: int = 0
    tricks: int = 0
    maker: int = 0
    solo_won: bool = False
    club_jack: int = 0


@dataclass(frozen=True)
class GameState:
    """The running score before a hand.

    strokes: (team 0, team 1) in the current game. chalk: the team holding it, None when there is
    none (between games, an AS game's first hand, always in DS). first_hand: the next hand opens a
    game (solos banned, §4.7). games: games won per team. pending: DS makers of unsettled 60-60
    hands, oldest first (DS-11). dealer: the seat dealing the next hand.
    """

    strokes: tuple[int, int] = (0, 0)
    chalk: int | None = None
    first_hand: bool = True
    games: tuple[int, int] = (0, 0)
    pending: tuple[int, ...] = ()
    dealer: int = 0


def _credit(pair: tuple[int, int], team: int, amount: int) -> tuple[int, int]:
    return (pair[0] + amount, pair[1]) if team == 0 else (pair[0], pair[1] + amount)


def normal_score(points: int, tricks: int, chalk: int | None, variant: str = "BS", maker: int = 0) -> tuple[int, int]:
    """(scoring team, strokes) of a normal BS or AS game (spec §6.2, AS-2..AS-4).

    points, tricks: team 0's card points and tricks. chalk: the chalk team; None only in an AS
    game's first hand, which the team with 61 wins (60-60: the opponents of the maker, 1 stroke).
    """
    pts, won = (points, CARD_POINTS - points), (tricks, TRICKS - tricks)
    if chalk is None:
        if variant != "AS":
            raise CardsimError("a Bauernstoss hand is scored against the chalk team (spec §6.2); none given")
        if points == CARD_POINTS // 2:
            return 1 - maker, 1
        team = 0 if points > CARD_POINTS // 2 else 1
    else:
        team = chalk if pts[chalk] >= 42 else 1 - chalk
    schneider, schwarz = (89, 4) if variant == "AS" else (91, 3)
    return team, schwarz if won[team] == TRICKS else 2 if pts[team] >= schneider else 1


def ds_score(points: int, maker: int) -> tuple[int, int] | None:
    """(scoring team, strokes) of a DS hand without schwarz, None for 60-60 (spec DS-9, DS-11):
    the makers score 1 (61-90) or 2 (91+), the opponents 2 (61-90) or 4 (91+)."""
    pts = (points, CARD_POINTS - points)
    if pts[maker] == CARD_POINTS // 2:
        return None
    if pts[maker] > CARD_POINTS // 2:
        return maker, 2 if pts[maker] >= 91 else 1
    return 1 - maker, 4 if pts[1 - maker] >= 91 else 2


def _add_strokes(state: GameState, team: int, strokes: int, variant: str) -> GameState:
    """``team`` scores ``strokes`` and the chalk (none in DS); reaching the target wins the game (§6.4)."""
    total = _credit(state.strokes, team, strokes)
    if total[team] >= TARGETS[variant]:
        return _game_won(state, team)
    return replace(state, strokes=total, chalk=None if variant == "DS" else team, first_hand=False)


def _game_won(state: GameState, team: int) -> GameState:
    """``team`` wins the game; the next hand opens a new one at 0-0 without chalk (§6.4, A22)."""
    return replace(state, strokes=(0, 0), chalk=None, first_hand=True, games=_credit(state.games, team, 1),
                   pending=())


def _check_first_hand_chalk(state: GameState, result: HandResult, variant: str) -> None:
    """CardsimError for a chalk a game's first hand cannot have: in BS the club jack's team's (§6.4), in AS none
    (AS-2: 61 card points win)."""
    if not state.first_hand or state.chalk is None:
        return
    if variant == "AS":
        raise CardsimError(f"an AS game's first hand has no chalk (AS-2: 61 card points win), got chalk={state.chalk}"
                           " with first_hand=True: give chalk=None")
    if state.chalk != result.club_jack:
        raise CardsimError(f"in a game's first hand the chalk is the club jack's team (§6.4): chalk={state.chalk} "
                           f"but club_jack={result.club_jack}; give chalk=None or the club jack's team")


def hand_strokes(state: GameState, result: HandResult, opts: dict | None = None) -> tuple[int, int]:
    """(scoring team, strokes) of one played hand from ``state`` (spec §6.2, §6.3, AS-2..AS-4, DS-9..DS-11
    with the §8 A7 schwarz option): the strokes `score_hand` credits, the DS 60-60 hands settled by this
    one included. (0, 0) for a throw-in and a hand that scores no strokes now: a DS 60-60 (settled by a
    later hand) or a DS schwarz earning only its game credit; (team, 0) for a hand that wins the game
    outright instead (an AS Big Solo, AS-10; a DS schwarz ending the game)."""
    opts = rule_options() if opts is None else opts
    variant = opts["variant"]
    if result.kind == THROW_IN:
        return 0, 0
    if variant == "DS":
        won = (result.tricks, TRICKS - result.tricks)
        if TRICKS in won and opts["ds_schwarz"] != "game_credit_plus_strokes":
            return (won.index(TRICKS), 0) if opts["ds_schwarz"] == "end_current_game" else (0, 0)
        scored = ds_score(result.points, result.maker)
        if scored is None:
            return 0, 0
        team, strokes = scored
        return team, strokes + sum(1 if team == m else 2 for m in state.pending)
    if result.kind == NORMAL:
        # no chalk yet (a game's first hand, or the hand after a first hand thrown in with
        # throwin_consumes_first_hand): in BS the club jack's team holds it (§6.4); AS: AS-2
        _check_first_hand_chalk(state, result, variant)
        chalk = result.club_jack if state.chalk is None and variant == "BS" else state.chalk
        return normal_score(result.points, result.tricks, chalk, variant, result.maker)
    team = result.maker if result.solo_won else 1 - result.maker
    return team, 0 if variant == "AS" else SOLO_STROKES[result.kind]


def _score_ds(state: GameState, result: HandResult, opts: dict) -> GameState:
    """DS-9..DS-12 with the §8 A7 (schwarz) and A8 (repeated 60-60) options; strokes by `hand_strokes`."""
    won = (result.tricks, TRICKS - result.tricks)
    if TRICKS in won:
        team = won.index(TRICKS)
        if opts["ds_schwarz"] == "end_current_game":
            return _game_won(state, team)
        state = replace(state, games=_credit(state.games, team, 1))
        if opts["ds_schwarz"] == "game_credit_only":
            return replace(state, first_hand=False)  # the game goes on, its stroke count unchanged (DS-10)
    if ds_score(result.points, result.maker) is None:
        pending = state.pending + (result.maker,) if opts["ds_tie_chain"] == "queue" else (result.maker,)
        return replace(state, pending=pending, first_hand=False)
    team, strokes = hand_strokes(state, result, opts)
    return _add_strokes(replace(state, pending=()), team, strokes, "DS")


def score_hand(state: GameState, result: HandResult, opts: dict | None = None) -> GameState:
    """The state after one hand (spec §6.4 state machine, AS-1..AS-4, AS-10, DS-9..DS-12).

    opts: `rule_options` (variant, ds_schwarz, ds_tie_chain, throwin_consumes_first_hand).
    The dealer passes to the left after every hand, thrown in or played (§3 D3).
    """
    opts = rule_options() if opts is None else opts
    if result.kind not in (NORMAL, SMALL_SOLO, BIG_SOLO, THROW_IN) or not 0 <= result.points <= CARD_POINTS \
            or not 0 <= result.tricks <= TRICKS or result.maker not in (0, 1):
        raise CardsimError(f"spec §6: a hand result has a kind normal/small_solo/big_solo/throw_in, team 0's "
                           f"points 0-120 and tricks 0-8 and a maker team 0/1; got {result}")
    variant = opts["variant"]
    dealt = replace(state, dealer=(state.dealer + 1) % SEATS)
    if result.kind == THROW_IN:
        return replace(dealt, first_hand=state.first_hand and not opts["throwin_consumes_first_hand"])
    if variant == "DS":
        if result.kind != NORMAL:
            raise CardsimError("spec §7.2 DS-6: Deutscher Schafkopf has no solos")
        return _score_ds(dealt, result, opts)
    team, strokes = hand_strokes(state, result, opts)
    if result.kind != NORMAL and variant == "AS":
        return _game_won(dealt, team)  # AS-10: a Big Solo decides the whole game
    return _add_strokes(dealt, team, strokes, variant)


def ends_game(result: HandResult, after: GameState) -> bool:
    """Whether the hand ``result``, which left the state ``after``, ended the game in progress (§6.4): a team
    reached the target, an AS Big Solo decided it (AS-10) or, with ds_schwarz=end_current_game, a DS schwarz
    did (§8 A7). Every other played hand leaves the next hand no game's first; a throw-in ends nothing (§4.11).
    A DS schwarz's game credit alone (the default) or with strokes does not end the game: DS-10, "the running
    stroke count continues unchanged"."""
    return result.kind != THROW_IN and after.first_hand


# --- hand features (spec §4.1) --------------------------------------------------------------
CLUB_JACK = JACK
"""The club jack's card (clubs are suit 0): its holder's team has the chalk in a game's first hand."""
_DS_VALUES = {"B": 10, "A": 11, "K": 10, "D": 10, "9": 9, "8": 8, "7": 7}
"""DS-7 suit values per rank; the Ten's value is the option ds_ten_value (§8 A6)."""
SCALE_NAMES = ("7", "8", "9", "queen", "king", "ten", "ace", "dB", "hB", "sB", "cB", "a card above cB")
"""Names of the §1.2 lowest-card scale values 0-10 (11: a threshold no card meets)."""


def _cards(mask: int) -> list[int]:
    """The cards of a mask, lowest first."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards


_TRUMP_SETS = tuple(int(m) for m in EFF_MASKS[:, TRUMP])
_LOW = tuple(int(v) for v in LOW_SCALE)


def jack_count(hand: int) -> int:
    """J(p): jacks in a hand mask (0-4)."""
    return bin(hand & JACKS).count("1")


def trump_length(hand: int, suit: int) -> int:
    """L(p, s): the trumps the hand would hold with ``suit`` trumps (its jacks and plain cards of the suit)."""
    return bin(hand & _TRUMP_SETS[suit]).count("1")


def lowest_trump(hand: int, suit: int) -> int:
    """low(p, s) on the §1.2 lowest-card scale (0 = a 7 ... 10 = cB); -1 without trumps."""
    return min((_LOW[c] for c in _cards(hand & _TRUMP_SETS[suit])), default=-1)


def ds_suit_value(hand: int, suit: int, ten_value: int = 10) -> int:
    """DS-7: total value of the proposed trumps (Unter 10, A 11, T ``ten_value``, K 10, O 10, 9 9, 8 8, 7 7)."""
    values = dict(_DS_VALUES, T=ten_value)
    return sum(values[DECK.ranks[c % 8]] for c in _cards(hand & _TRUMP_SETS[suit]))


@njit
def _longest_table(trump_sets, jacks, club_jack, out):
    """out (2, 5, 9) int64 += every 8-card hand of the pack by (holds cB, J, max_s L) (Gosper's
    hack walks the 32-bit masks with 8 bits set in increasing order)."""
    one = np.uint64(1)
    hand = np.uint64(0xFF)
    while hand < np.uint64(1 << 32):
        longest = 0
        for s in range(4):
            longest = max(longest, popcount(hand & trump_sets[s]))
        out[(hand >> np.uint64(club_jack)) & one, popcount(hand & jacks), longest] += 1
        low = hand & (~hand + one)
        ripple = hand + low
        hand = (((ripple ^ hand) >> np.uint64(2)) // low) | ripple


def longest_trump_table() -> np.ndarray:
    """Exact counts of all C(32, 8) = 10,518,300 hands by (holds cB 0/1, jacks 0-4, longest potential
    trump suit max_s L(p, s) 0-8): (2, 5, 9) int64 (spec §9.2)."""
    out = np.zeros((2, 5, HAND_SIZE + 1), dtype=np.int64)
    _longest_table(EFF_MASKS[:, TRUMP].copy(), np.uint64(JACKS), CLUB_JACK, out)
    return out


# --- the trump auction (spec §4 BS, §7.1 AS-5/AS-6/AS-10, §7.2 DS-3..DS-7) --------------------
PASS, NUMBER, MIT = "pass", "number", "mit"
SOLOS = (SMALL_SOLO, BIG_SOLO)


@dataclass(frozen=True)
class Call:
    """One call of the auction.

    kind: PASS, NUMBER, MIT, SMALL_SOLO or BIG_SOLO. n: the number of a NUMBER call. suit: 0-3, the
    suit in mind of a NUMBER or MIT (secret until trumps are named) or the trumps a soloist names.
    """

    kind: str
    n: int = 0
    suit: int = -1


@dataclass(frozen=True)
class Contract:
    """The auction's result.

    kind: NORMAL, SMALL_SOLO, BIG_SOLO or THROW_IN. declarer: the seat naming trumps (-1 for a
    throw-in). trump: the suit named; -1 for a throw-in and for DS after four passes, where the
    holder of the acorn Unter (cB) names any suit (DS-5). bid: the winning number (0 for solos and
    throw-ins). showdown: the lowest-card tie-break (§4.9) or the DS value comparison (DS-7) decided.
    """

    kind: str
    declarer: int = -1
    trump: int = -1
    bid: int = 0
    showdown: bool = False


class Auction:
    """The trump auction of one hand, one call per seat in speaking order.

    hands: the four seats' card masks (int). dealer: 0-3; forehand (dealer + 1) speaks first.
    first_hand: the hand opens a game (no solos, §4.7). opts: `rule_options`, or some of them, the rest at their
    defaults (variant, mit_rule, partner_tie, min_number_bid, mixed_tie, ds_require_unter, ds_ten_value,
    as_first_hand_solo, as_four_jacks_forced).
    agree: for partner_tie="strategy_callback", ``agree(tied partner seats in speaking order) -> seat``.

    `call` checks a call and raises CardsimError naming the rule it breaks; `legal_calls` lists the
    calls open to the seat to speak; `contract` gives the result once ``done`` (all four have
    spoken, or a solo ended the auction).
    """

    def __init__(self, hands, dealer: int = 0, first_hand: bool = False, opts: dict | None = None, agree=None):
        self.hands = tuple(int(h) for h in hands)
        if len(self.hands) != SEATS or any(bin(h).count("1") != HAND_SIZE for h in self.hands) \
                or sum(self.hands) != DECK.full_mask or not is_whole_int(dealer) or not 0 <= dealer < SEATS:
            raise CardsimError("spec §3: an auction needs four hands of 8 cards sharing no card (the whole "
                               "pack) and a dealer seat 0-3")
        self.order = tuple((dealer + i) % SEATS for i in range(1, SEATS + 1))
        self.first_hand = checks.flag(first_hand, "first_hand")
        complete = isinstance(opts, dict) and len(opts) == len(OPTIONS)  # as `rule_options` gives
        self.opts = opts if complete else rule_options(**checks.options_dict(opts, "opts"))
        self.variant = self.opts["variant"]
        self.agree = agree
        self.calls: list[tuple[int, Call]] = []
        self.cur = 0
        self.at_cur: list[int] = []  # seats that bid `cur`, in speaking order
        self.known_low: dict[int, int] = {}  # LB[q] of §4.6
        self.suit_of: dict[int, int] = {}
        self.done = False

    # --- state ---------------------------------------------------------------------------
    @property
    def to_speak(self) -> int:
        """The seat to call next; -1 once the auction is over."""
        return -1 if self.done else self.order[len(self.calls)]

    def mit_threshold(self, seat: int) -> int:
        """§4.6 (AS-6): the lowest card ``seat`` needs to say mit; earlier bidders of `cur` on the
        other team (in AS on either team) are known to hold at least LB, ties go to them."""
        rivals = [q for q in self.at_cur if self.variant == "AS" or q % 2 != seat % 2]
        return max([0] + [self.known_low[q] + 1 for q in rivals])

    # --- legality -------------------------------------------------------------------------
    def illegal(self, call: Call) -> str | None:
        """Why ``call`` by the seat to speak breaks the rules (naming the spec rule), None if legal."""
        if self.done:
            return "§4.2: the auction is over (each player speaks once; a solo ends it at once)"
        if call.kind not in (PASS, NUMBER, MIT) + SOLOS:
            return f"§4.2: a call is pass, number, mit, small_solo or big_solo, not {call.kind!r}"
        if call.kind != PASS and call.suit not in range(4):
            return f"§4.5/§4.7: name the suit (0-3: c s h d) of the call, got {call.suit}"
        if self.variant == "DS":
            return self._illegal_ds(call)
        seat = self.to_speak
        hand = self.hands[seat]
        jacks = jack_count(hand)
        if call.kind in SOLOS:
            return self._illegal_solo(call, hand, jacks)
        if call.kind == PASS:
            forced = self.cur == 0 and (1 <= jacks <= 3 or jacks == 4 and self.variant == "AS"
                                        and self.opts["as_four_jacks_forced"])
            return (f"§4.4 forced opening: seat {seat} holds {jacks} jack(s) and nobody has bid yet, so it "
                    "must bid a number (or call a solo if eligible)") if forced else None
        if jacks == 0:
            return f"§4.3: seat {seat} holds no jack and must pass"
        if jacks == 4 and self.variant == "BS":
            return f"§4.3: seat {seat} holds all four jacks and may only call Big Solo or pass"
        length = trump_length(hand, call.suit)
        suit = DECK.suit_names[call.suit]
        if call.kind == NUMBER:
            if call.n != length:
                return (f"§4.5: a number bid equals the trumps the bidder would hold; seat {seat} would hold "
                        f"{length} with {suit} trumps, not {call.n}")
            if call.n < self.opts["min_number_bid"]:
                return f"§4.5 / §8 A4: number bids start at {self.opts['min_number_bid']}"
            if call.n <= self.cur:
                return f"§4.5: a new number must exceed the highest bid {self.cur} (say mit to equal it)"
            return None
        if self.cur == 0:
            return "§4.5: mit equals an earlier number, and nobody has bid one"
        if length != self.cur:
            return f"§4.5: mit means holding {self.cur} trumps; seat {seat} would hold {length} with {suit} trumps"
        low, need = lowest_trump(hand, call.suit), self.mit_threshold(seat)
        if self.opts["mit_rule"] == "strict_threshold" and low < need:
            return (f"§4.6 mit legality: seat {seat}'s lowest {suit} trump ({SCALE_NAMES[low]}) cannot win the "
                    f"tie-break; mit needs at least {SCALE_NAMES[need]}")
        return None

    def _illegal_solo(self, call: Call, hand: int, jacks: int) -> str | None:
        if call.kind == SMALL_SOLO and self.variant == "AS":
            return "§7.1 AS-10: Alter Schoofkopp has no Small Solo"
        if not (hand >> CLUB_JACK) & 1:
            return "§4.7: only the holder of the club jack may call a solo"
        if self.first_hand and not (self.variant == "AS" and self.opts["as_first_hand_solo"]):
            return "§4.7: no solo in the first hand of a game"
        if call.kind == SMALL_SOLO and jacks == 4:
            return "§4.3 / §4.7: with all four jacks only Big Solo (or pass) is allowed"
        return None

    def _ds_longest(self, hand: int) -> int:
        """DS-3/DS-4/A9: the length the seat must announce, 0 if it must pass."""
        longest = max(trump_length(hand, s) for s in range(4))
        eligible = longest >= 5 and longest >= self.cur and (jack_count(hand) or not self.opts["ds_require_unter"])
        return longest if eligible else 0

    def _illegal_ds(self, call: Call) -> str | None:
        seat = self.to_speak
        longest = self._ds_longest(self.hands[seat])
        if call.kind in SOLOS or call.kind == MIT:
            return f"§7.2 DS-4/DS-6: Deutscher Schafkopf has no {call.kind}; equal lengths are bid as numbers"
        if call.kind == PASS:
            return (f"§7.2 DS-4: seat {seat} holds a potential trump suit of {longest} and must announce it"
                    if longest else None)
        if not longest:
            return (f"§7.2 DS-3/DS-4: seat {seat} has no potential trump suit of 5 or more (or a higher bid "
                    "came first) and must pass")
        if call.n != longest or trump_length(self.hands[seat], call.suit) != longest:
            return f"§7.2 DS-4: seat {seat} must announce its longest potential trump suit, {longest}"
        return None

    def legal_calls(self) -> list[Call]:
        """Every legal call of the seat to speak (numbers and mit once per suit in mind)."""
        if self.done:
            return []
        hand = self.hands[self.to_speak]
        candidates = [Call(PASS)]
        for suit in range(4):
            candidates += [Call(NUMBER, trump_length(hand, suit), suit), Call(MIT, 0, suit),
                           Call(SMALL_SOLO, 0, suit), Call(BIG_SOLO, 0, suit)]
        return [c for c in candidates if self.illegal(c) is None]

    # --- calls and result ----------------------------------------------------------------
    def call(self, call: Call) -> None:
        """Make ``call`` for the seat to speak; CardsimError (naming the rule) if it is illegal."""
        if not isinstance(call, Call):
            raise CardsimError(f"call must be a Call such as Call(NUMBER, n=4, suit=0) or Call(PASS), got "
                               f"{checks.shown(call)}")
        reason = self.illegal(call)
        if reason is not None:
            raise CardsimError(f"illegal call {call.kind}{' ' + str(call.n) if call.kind == NUMBER else ''} "
                               f"by seat {self.to_speak}: spec {reason}")
        seat = self.to_speak
        if call.kind == NUMBER and call.n > self.cur:
            self.cur, self.at_cur = call.n, [seat]
            self.known_low[seat] = 0
        elif call.kind in (NUMBER, MIT):  # mit, or an equal DS length
            self.known_low[seat] = self.mit_threshold(seat)
            self.at_cur.append(seat)
        if call.kind != PASS:
            self.suit_of[seat] = call.suit
        self.calls.append((seat, call))
        self.done = len(self.calls) == 4 or call.kind in SOLOS

    def _tie_key(self, seat: int) -> tuple[int, int]:
        """§4.9: the lowest trump of the suit in mind (DS-7: the suit's value), then the earlier speaker."""
        hand, suit = self.hands[seat], self.suit_of[seat]
        if self.variant == "DS":
            return ds_suit_value(hand, suit, self.opts["ds_ten_value"]), -self.order.index(seat)
        return lowest_trump(hand, suit), -self.order.index(seat)

    def _showdown(self, tied: list[int]) -> int:
        """The tied seat with the best `_tie_key`."""
        return max(tied, key=self._tie_key)

    def _partners_agree(self, tied: list[int]) -> int:
        """§4.8 / §8 A3: who of two tied partners names trumps."""
        rule = self.opts["partner_tie"]
        if rule == "strategy_callback":
            if self.agree is None:
                raise CardsimError("partner_tie=strategy_callback needs an agree(seats) -> seat callback")
            chosen = self.agree(tuple(tied))
            if chosen not in tied:
                raise CardsimError(f"§4.8: the partners agree on one of seats {tied}, not {chosen!r}")
            return chosen
        return {"higher_low": self._showdown, "earlier_speaker": lambda t: t[0],
                "later_speaker": lambda t: t[-1]}[rule](tied)

    def contract(self, named: int | None = None) -> Contract:
        """The result of the finished auction (§4.7-§4.11, AS-6, DS-5/DS-7).

        named: the trump suit the chooser names (§4.10); by default the suit in mind of its winning
        call. Unless allow_suit_switch (§8 A5), it must give the winning number of trumps and, after
        a showdown, be the suit whose lowest card was announced. After four DS passes the acorn-Unter
        holder names any suit (the contract's trump stays -1 without ``named``). A soloist named
        trumps with its call.
        """
        if not self.done:
            raise CardsimError(f"the auction is not over: seat {self.to_speak} speaks next")
        if named is not None and named not in range(4):
            raise CardsimError(f"spec §4.10: name the trump suit as 0-3 (c s h d), not {named}")
        seat, last = self.calls[-1]
        if last.kind in SOLOS:
            return Contract(last.kind, seat, last.suit)
        if self.cur == 0:
            if self.variant == "DS":
                holder = next(q for q in range(SEATS) if (self.hands[q] >> CLUB_JACK) & 1)
                return Contract(NORMAL, holder, -1 if named is None else named)
            return Contract(THROW_IN)
        tied = self.at_cur
        both_teams = len({q % 2 for q in tied}) == 2
        if len(tied) == 1:
            chooser = tied[0]
        elif self.variant != "BS" or (both_teams and self.opts["mixed_tie"] == "individual"):
            chooser = self._showdown(tied)
        elif both_teams:  # team_then_agree: the best lowest card picks the team, its tied members agree
            team = self._showdown(tied) % 2
            chooser = self._partners_agree([q for q in tied if q % 2 == team])
        else:
            chooser = self._partners_agree(tied)
        showdown = len(tied) > 1 and (both_teams or self.variant != "BS")
        trump = self.suit_of[chooser] if named is None else named
        if trump != self.suit_of[chooser] and not self.opts["allow_suit_switch"]:
            length = trump_length(self.hands[chooser], trump)
            if showdown:
                raise CardsimError("spec §4.10 / §8 A5: after a showdown the chooser names the suit whose lowest "
                                   f"card it announced ({DECK.suit_names[self.suit_of[chooser]]})")
            if length != self.cur:
                raise CardsimError(f"spec §4.10 / §8 A5: the chooser names a suit with {self.cur} trumps; "
                                   f"{DECK.suit_names[trump]} gives seat {chooser} {length}")
        return Contract(NORMAL, chooser, trump, self.cur, showdown)


def baseline_call(auction: Auction) -> Call:
    """Policy B0 (BS, AS) and D0 (DS) of spec §9.3 for the seat to speak.

    The seat proposes the suit with the most trumps, then the highest lowest card (DS: the highest
    DS-7 value), then c > s > h > d; it bids that length if that is legal (above the current bid),
    else says mit if legal, else passes. It never calls a solo.
    """
    hand = auction.hands[auction.to_speak]
    suit = best_suit(hand, auction.variant, auction.opts["ds_ten_value"])
    for call in (Call(NUMBER, trump_length(hand, suit), suit), Call(MIT, 0, suit)):
        if auction.illegal(call) is None:
            return call
    return Call(PASS)


def best_suit(hand: int, variant: str = "BS", ten_value: int = 10) -> int:
    """The suit policy B0/D0 proposes (§9.3): most trumps, then the highest lowest card (DS: the
    highest DS-7 value), then c > s > h > d."""
    def key(suit):
        tie = ds_suit_value(hand, suit, ten_value) if variant == "DS" else lowest_trump(hand, suit)
        return trump_length(hand, suit), tie, -suit
    return max(range(4), key=key)
