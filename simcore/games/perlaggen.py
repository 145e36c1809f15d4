"""Perlaggen: the 33-card pack, the wild cards (Perlaggen) per style and trump, and wild figures.

Rules: shared/rules/perlaggen.md. This module declares the pack, the styles and the spec DEFAULTs
that concern the pack, trump, Perlaggen and figures as data, and evaluates Gleich and Hanger of
hands holding wild cards with lookup tables and numba kernels over hand bitmasks.

Encoding (simcore.cards): ``card = 8 * suit + rank`` with suits E L H S and ranks 7 8 9 10 U O K A
weakest first; the Weli (S6) is card 32. Note that the spec's proposed §1.2 indices list the Ace
first; only the tokens are shared with the spec.

Figure codes are the spec's (§5.2, §6.2), higher wins, 0 = no figure:

* Gleich ``16 * size + strength`` of the rank (A 8, K 7, O 6, U 5, 10 4, 9 3, 8 2, 7 1, 6 0);
* Hanger ``16 * length + strength`` of the top card.

A hand is a card mask (uint64). Its Perlaggen are *free* (baptism still to be chosen) unless the
caller fixes them: ``baptised (n, n_perlaggen) int8`` gives, per hand and per Perlagg of
`perlaggen(style, trump)` (precedence order), the face it already stands for, or -1 while it is
free. A Perlagg played without a baptism is fixed as its own face (B4, A-06).

Inside the kernels a hand is reduced to *identities*: ``counts (9,)`` cards held per strength
(index 0 = the 6) and ``ladders (4,)`` per-suit 9-bit masks of the identities held (bit =
strength, bit 0 = the bells 6), plus ``w`` free Perlaggen.
"""

from __future__ import annotations

import re

import numpy as np

from simcore.cards import Deck
from simcore.config import njit, njit_inline
from simcore.errors import CardsimError, unknown_name
from simcore.betting import MAX_TARGET
from simcore.registry import AnyNumber, Option, default_only

DECK = Deck(
    name="perlaggen",
    suits=("E", "L", "H", "S"),
    ranks=("7", "8", "9", "10", "U", "O", "K", "A"),
    extras=("S6",),
    rank_aliases={"T": "10"},
    suit_names=("Eichel", "Laub", "Herz", "Schell"),
)
N_SUITS, N_RANKS = DECK.n_suits, DECK.n_ranks
N_CARDS_PLUS = DECK.n_cards + 1
"""Length of the per-w scratch of the frontier kernel (w <= cards in a hand)."""
BELLS = DECK.suits.index("S")
WELI = DECK.parse_face("S6")
STYLES = ("innsbruck", "eichel", "straf", "schlanders", "schlanders_e8", "deutschnofen")
"""Innsbruck (§2), Eichelperlaggen (§9.1), Strafperlaggen (§9.5, three players), and the local
variants of §9.6: Schlanders (Eichel club rules, 32 cards, the S8 in the Weli's place, A-04, as the club's own
page S4 has it; ``schlanders_e8`` the same with the E8 there, as the seed S1 reads) and Deutschnofen (10 Perlaggen,
A-33)."""
SCHLANDERS = ("schlanders", "schlanders_e8")
"""The two readings of the Schlanders club's eight (A-04, D-9)."""
STYLE_TARGETS = {"eichel": 15} | dict.fromkeys(SCHLANDERS, 24)
"""The usual target of the styles whose clubs play to another than the ``target`` option's default (spec §9.1:
Eichelperlaggen usually to 15; §9.6: Schlanders to 24); Strafperlaggen counts down from its own start (§9.5)."""
GLEICH, HANGER = 0, 1

OPTIONS = (
    Option("style", "innsbruck", STYLES,
           "which cards are Perlaggen, their precedence and the possible trumps (spec §2.2, §9.1, §9.5, §9.6); "
           "A-04 (D-9): in schlanders the 8 of bells takes the Weli's place (the club's page, S4), in schlanders_e8 "
           "the 8 of acorns (the seed, S1)"),
    default_only("spiel_aus_reading", "conceded_scores_7",
                 "A-01 (D-1): a Spiel aus conceded (not accepted) scores 7 for the bettor"),
    default_only("straf_sixth_case", "raiser_scores",
                 "A-02 (D-2): S1's 6th Strafperlaggen case read as A -3, B +3 (the raiser), C 0 (free ride)"),
    default_only("straf_trump_seven", "after_E7",
                 "A-03 (D-3): in Strafperlaggen the trump 7 (hearts or leaves trump) ranks right after the E7"),
    default_only("follow_printed_suit", False,
                 "A-05: only natural cards of the led suit (or of trump when trump is led) oblige to follow; a "
                 "Perlagg of the printed led suit does not"),
    default_only("deutschnofen_trump_king", "merged",
                 "A-33: in Deutschnofen the trump King is HK/SK itself with hearts/bells trump (9 Perlaggen, else 10)"),
    default_only("cutter_stops_at_hand_size", True,
                 "with 7 permanent Perlaggen (Deutschnofen) the cutter stops taking when he holds a full hand "
                 "(not in the spec; P(k > 5) < 1e-5)"),
    default_only("innsbruck_acorn_trump", True,
                 "A-25: acorns can be trump in the Innsbruck style (Eichel: never, §9.1)"),
    default_only("unbaptised_identity", "printed",
                 "A-06/B4: a Perlagg played without a baptism counts as its printed card, precedence 0"),
    default_only("baptism_targets", "pack", "A-23: a Perlagg may stand for any of the 33 faces of the pack (the S6 "
                 "included)"),
    Option("six_below_bells_seven", True, (True, False),
           "A-24: the 6 of bells lies directly below the 7 of bells in a Hanger (False: the 6 makes no run); with "
           "every Perlagg free it changes only figures of 9 cards or more, so it tells where the Weli is fixed as "
           "itself (played unbaptised, A-06): used by team betting (2, 4, 6 players)"),
    default_only("hanger_wraps", False, "A-24: no wrap-around from the 7 to the Ace"),
    default_only("gestrichen_uses_perlaggen", True,
                 "A-22: Perlaggen count in the >= 3-card figure when both teams are gestrichen (end of game)"),
    default_only("eichel_gestrichen_tie", "length_only",
                 "A-26: Eichel, both gestrichen: length alone decides; equal lengths play the tricks"),
    Option("target", 18, (AnyNumber(2, MAX_TARGET, whole=True),),
           "§8.10, §9.6: points that win a game (18 in South Tyrol; clubs play to anything from 11 to 24); not "
           "given, the style's usual target: 18, Eichel 15 (§9.1), Schlanders 24 (§9.6); used by betting"),
    Option("communication", "partner", ("partner", "none", "auer_channel"),
           "§7.5 (A-30): what a player knows when betting: partner = his team's hands, none = his own hand, "
           "auer_channel = his own hand and the partners' signalled trumps/Perlaggen, has-Gleich and has-Hanger; used "
           "by betting (--communication)"),
    Option("strict_examples", True, (True, False),
           "§8.9: forbid Gleich/Hanger bets and holds by a player without an example (False: allowed, penalised -2 "
           "at verification); used by team betting (--permissive)"),
    Option("concede_needs_example", True, (True, False),
           "A-11: an unbet Gleich/Hanger conceded scores only if the receiving team holds an example (no "
           "penalty without); False: it scores anyway; used by team betting (2, 4, 6 players)"),
    default_only("betting_limit", "secured_counts",
                 "A-12: bet only if score + secured + value < target (§8.6); secured counts figures decided in "
                 "the deal"),
    default_only("negative_totals", True, "A-13: the -2 penalty may take a total below 0"),
    default_only("first_shower", "spiel_winner", "A-14 (D-4): the team that won the Spiel shows first"),
    default_only("gestrichen_tie", "height",
                 "A-15 (D-6): both gestrichen with equal sizes: the figure's height decides"),
    Option("one_pending_in_play", True, (True, False),
           "A-16: during trick play at most one unanswered bet at a time (False: several, as in the showing); "
           "used by team betting (2, 4, 6 players)"),
    default_only("gut_bei_farbe", "conditional_concession",
                 "A-17 (D-5): 'gut bei Farbe' is a reply: conceded if the bettor's card follows suit or is a trump"),
    default_only("close_finish_order", "figure_place",
                 "A-18: penalty transfers count at the figure's place; Straf: conceded, bet-and-held by first bet, "
                 "then unbet Spiel, Gleich, Hanger"),
    default_only("gestrichen_during_deal", "general_rule",
                 "A-19: becoming gestrichen in a deal: the >= 3-card comparison only with Gleich and Hanger both "
                 "open and unbet, else the §8.12 order"),
    default_only("blind_counter_bets", True, "A-20: blind bets may be answered by counter-bets as any bet"),
    default_only("blind_bet_having", "team", "A-21: 'having' the figure of a blind bet is judged per team"),
    default_only("bettor_raises", False, "A-29: three players: the original bettor may not raise"),
    default_only("two_player_cutter", "non_dealer", "A-27: two players: the non-dealer cuts"),
    default_only("two_player_blind_bets", True,
                 "A-27: two players: blind bets are allowed (S1 rules them out for three players only)"),
    default_only("two_player_exchange", "after_last_packet",
                 "A-27: two players: the exchange comes after the last packet is dealt"),
    default_only("six_player_five_card_spiel", 3, "§9.3: six players with 5 cards each: the Spiel needs 3 tricks"),
    default_only("hoell_auf_answer", "before_deal",
                 "A-32: the player on 1 answers \"Höll auf!\" before the cards of the deal are dealt (blind)"),
    Option("fifth_trick_bet", "fifth_card_rule", ("fifth_card_rule", "unplayed_only"),
           "A-34: the fifth-trick Spiel bet test applies to the player's fifth card whether in hand or already "
           "played; unplayed_only: only players who have not played to trick 5 may bet; used by team betting "
           "(2, 4, 6 players)"),
    default_only("spiel_aus_stands", "deal_scores_normally",
                 "A-35: a Spiel aus accepted whose figure then stands wins nobody the game; the deal scores normally"),
    default_only("conceded_mid_trick", "nobody",
                 "A-36: the unfinished trick of a Spiel conceded mid-trick belongs to nobody"),
    default_only("verification_award", "once",
                 "A-37: after a failed verification the opponents get the figure's value once"),
    default_only("three_player_limit", "per_player", "A-38: three players: the §8.6 limit applies per player"),
    Option("straf_places", False, (False, True),
           "§9.5: after someone has won Strafperlaggen the other two may play on for places 2 and 3 "
           "(\"Höll auf!\" included); used by betting (--places)"),
    Option("straf_no_hopeless_spiel_bet", False, (False, True),
           "§9.5 (Pagat's suggested rule): a Strafperlaggen player who can no longer take 4 tricks may not bet "
           "or raise the Spiel (he may still accept); used by the 3-player match and tournament"),
)

# Precedence lists high -> low (§2.2, §9.1); "*" stands for the trump suit. A card listed twice
# (Innsbruck, bells or acorns trump: the trump 7 is the permanent S7/E7) keeps its first place.
_PRECEDENCE = {
    "innsbruck": ("HK", "S6", "S7", "E7", "*7", "*U", "*O"),
    "eichel": ("HK", "S6", "*7", "*U", "*O", "E7", "EU", "EO"),
    "straf": ("HK", "S6", "S7", "E7", "*7", "*U", "*O", "EU", "EO"),               # §9.5, A-03
    "schlanders": ("HK", "S8", "*7", "*O", "*U", "E7", "EO", "EU"),                 # §9.6 (S4), A-04
    "schlanders_e8": ("HK", "E8", "*7", "*O", "*U", "E7", "EO", "EU"),              # §9.6 as S1 reads it
    "deutschnofen": ("S6", "HK", "SK", "H7", "S7", "L7", "E7", "*K", "*O", "*U"),   # §9.6, A-33
}
_PERMANENT = {
    "innsbruck": ("HK", "S6", "S7", "E7"),
    "eichel": ("HK", "S6", "E7", "EU", "EO"),
    "straf": ("HK", "S6", "S7", "E7", "EU", "EO"),
    "schlanders": ("HK", "S8", "E7", "EO", "EU"),
    "schlanders_e8": ("HK", "E8", "E7", "EO", "EU"),
    "deutschnofen": ("S6", "HK", "SK", "H7", "S7", "L7", "E7"),
}
"""The Perlaggen that do not depend on the trump: the cutter keeps these (§3.2)."""
_NO_ACORN_TRUMP = ("eichel", "straf") + SCHLANDERS
"""Styles in which acorns can never be trump (§9.1, §9.5; Schlanders is an Eichel club)."""
_NO_WELI = SCHLANDERS
"""Styles played with 32 cards, without the Weli (§9.6)."""
P_MAX = max(len(set(v)) for v in _PRECEDENCE.values())
"""Most Perlaggen in a deal of any style (Deutschnofen, leaves or acorns trump: 10)."""

W_MAX = 9
"""Free Perlaggen beyond 9 never lengthen a Hanger (the longest ladder, A..6, has 9 cards)."""
FRONTIER_MAX = 16
"""Width of the frontier output: 5-card hands have at most 7 points, 7-card hands 11 (tests check);
the kernel raises ValueError rather than drop a point."""
_HANGER_CODES = 16 * (W_MAX + 1)
"""Hanger codes are below 16 * 10 (a run has at most 9 cards)."""
_TOP_BIT9 = np.array([max(v.bit_length() - 1, 0) for v in range(512)], dtype=np.int64)
"""Index of the highest set bit of a 9-bit ladder mask (0 for 0)."""


# --- Perlaggen per style and trump ----------------------------------------------------------
def trump_suits(style: str = "innsbruck") -> tuple[str, ...]:
    """Suit letters that can be trump: all four in Innsbruck and Deutschnofen (A-25), never acorns in
    Eichel, Strafperlaggen and Schlanders."""
    _check_style(style)
    if style in _NO_ACORN_TRUMP:
        return tuple(s for s in DECK.suits if s != "E")
    return DECK.suits


def perlaggen(style: str, trump: str) -> tuple[int, ...]:
    """Faces of the Perlaggen of a deal, highest precedence first (prec = len - position).

    Innsbruck: 7 cards with hearts or leaves trump, 6 with bells or acorns; Eichel and Schlanders:
    always 8; Strafperlaggen: 9 with hearts or leaves, 8 with bells; Deutschnofen: 10, 9 with hearts
    or bells.
    """
    trump = _check_trump(style, trump)
    faces: list[int] = []
    for token in _PRECEDENCE[style]:
        face = DECK.parse_face(token.replace("*", trump))
        if face not in faces:
            faces.append(face)
    return tuple(faces)


def permanent_perlaggen(style: str) -> tuple[int, ...]:
    """Faces of the permanent Perlaggen (the ones the cutter keeps, §3.2), highest first."""
    _check_style(style)
    return tuple(DECK.parse_face(t) for t in _PERMANENT[style])


def has_weli(style: str) -> bool:
    """Whether the style's pack has the Weli (S6): all but Schlanders (32 cards)."""
    _check_style(style)
    return style not in _NO_WELI


def check_no_weli(cards, style: str, what: str) -> None:
    """CardsimError if ``cards`` (faces) list the Weli in a style without it."""
    if WELI in cards and not has_weli(style):
        raise CardsimError(f"{what} lists the Weli (S6), but the {style} style plays with 32 cards without it (§9.6)")


def perlagg_mask(style: str, trump: str) -> int:
    """Card mask of the Perlaggen of a deal."""
    return DECK.mask(perlaggen(style, trump))


def _check_style(style: str) -> None:
    if style not in STYLES:
        raise unknown_name("Perlaggen style", style, STYLES)


def _check_trump(style: str, trump: str) -> str:
    letter = str(trump).strip().upper()
    allowed = trump_suits(style)
    if letter not in allowed:
        raise CardsimError(f"trump '{trump}' is not possible in the {style} style; choose one of: "
                           f"{', '.join(allowed)}")
    return letter


# --- lookup tables ----------------------------------------------------------------------------
def hanger_windows() -> np.ndarray:
    """(36, 2) int64 of (9-bit ladder mask, code) for every run of >= 2 consecutive strengths.

    Runs that include bit 0 (the 6) exist only in bells; the others are the 28 runs from 7 to A.
    """
    rows = [(((1 << length) - 1) << (top - length + 1), 16 * length + top)
            for length in range(2, 10) for top in range(length - 1, 9)]
    return np.array(rows, dtype=np.int64)


def hanger_table(with_six: bool) -> np.ndarray:
    """(512, W_MAX + 1) int16: best Hanger code of a 9-bit ladder mask with w free Perlaggen (§6.4).

    with_six: whether the ladder reaches the 6 (bells under A-24); otherwise bit 0 is ignored.
    """
    windows = hanger_windows()
    if not with_six:
        windows = windows[(windows[:, 0] & 1) == 0]
    masks = np.arange(512, dtype=np.int64)
    missing = np.array([[bin(w).count("1") for w in (windows[:, 0] & ~m)] for m in masks])
    table = np.zeros((512, W_MAX + 1), dtype=np.int16)
    for w in range(W_MAX + 1):
        table[:, w] = np.where(missing <= w, windows[:, 1], 0).max(axis=1)
    return table


HANGER_TABLES = np.stack([hanger_table(False), hanger_table(True)])


def window_lists() -> tuple[np.ndarray, np.ndarray]:
    """Per ladder kind (1 = reaches the 6) and 9-bit ladder mask, the Hanger windows that miss at least
    one of its cards, fewest missing first: (starts (2, 513) int64 into entries, entries (E, 3) int64 of
    (missing cards mask, number missing, best Hanger code of the ladder with the window filled))."""
    blocks, starts = [], np.zeros((2, 513), dtype=np.int64)
    masks = np.arange(512, dtype=np.int64)[:, None]
    for kind in range(2):
        wins = (WINDOWS if kind else WINDOWS[(WINDOWS[:, 0] & 1) == 0])[:, 0][None, :]
        missing = wins & ~masks
        used = np.bitwise_count(missing).astype(np.int64)
        codes = HANGER_TABLES[kind][masks | wins, 0].astype(np.int64)
        order = np.argsort(used, axis=1, kind="stable")
        picked = [np.take_along_axis(a, order, axis=1) for a in (missing, used, codes)]
        keep = picked[1] > 0
        starts[kind] = sum(len(b) for b in blocks) + np.concatenate([[0], np.cumsum(keep.sum(axis=1))])
        blocks.append(np.stack([a[keep] for a in picked], axis=1))
    return starts, np.concatenate(blocks)


WINDOWS = hanger_windows()
WINDOW_STARTS, WINDOW_ENTRIES = window_lists()


def _ladder_kinds(six_below_bells_seven: bool) -> np.ndarray:
    """(4,) int64: index into HANGER_TABLES per suit (1 = ladder reaches the 6)."""
    kinds = np.zeros(N_SUITS, dtype=np.int64)
    kinds[BELLS] = int(six_below_bells_seven)
    return kinds


# --- kernels ------------------------------------------------------------------------------------
@njit_inline
def _identities(hand, pmask, pcards, fixed, counts, ladders):
    """Fill counts (9,) and ladders (4,) with the fixed identities of one hand; return w (free).

    hand, pmask: uint64 card masks; pcards (P,) int64: Perlagg cards; fixed (P,) int8: face each
    Perlagg stands for, -1 = free (only Perlaggen in the hand may be fixed).
    """
    counts[:] = 0
    ladders[:] = 0
    nat = hand & ~pmask
    for s in range(4):
        bits = np.int64((nat >> np.uint64(8 * s)) & np.uint64(0xFF))
        ladders[s] = bits << 1
        for r in range(8):
            counts[r + 1] += (bits >> r) & 1
    if (nat >> np.uint64(32)) & np.uint64(1):
        counts[0] += 1
        ladders[3] |= 1
    w = 0
    for j in range(pcards.shape[0]):
        if not (hand >> np.uint64(pcards[j])) & np.uint64(1):
            continue
        face = np.int64(fixed[j])
        if face < 0:
            w += 1
        elif face == 32:
            counts[0] += 1
            ladders[3] |= 1
        else:
            counts[face % 8 + 1] += 1
            ladders[face // 8] |= np.int64(1) << (face % 8 + 1)
    return w


@njit_inline
def _gleich(counts, w):
    """Best Gleich code of identity counts (9,) with w free Perlaggen (§5.4); 0 = none."""
    best = 0
    for st in range(9):
        size = counts[st] + w
        if size >= 2 and 16 * size + st > best:
            best = 16 * size + st
    return best


@njit_inline
def _hanger(ladders, w, tables, kinds):
    """Best Hanger code of suit ladders (4,) with w free Perlaggen (§6.4); 0 = none."""
    best = 0
    wc = min(w, tables.shape[2] - 1)
    for s in range(4):
        code = tables[kinds[s], ladders[s], wc]
        if code > best:
            best = code
    return best


@njit
def _figure_codes(hands, pmask, pcards, fixed, tables, kinds, out):
    """out (n, 2): best Gleich and best Hanger of every hand, each using all free Perlaggen (L0)."""
    counts = np.zeros(9, dtype=np.int64)
    ladders = np.zeros(4, dtype=np.int64)
    for i in range(hands.shape[0]):
        w = _identities(hands[i], pmask, pcards, fixed[i], counts, ladders)
        out[i, 0] = _gleich(counts, w)
        out[i, 1] = _hanger(ladders, w, tables, kinds)


@njit
def _hand_frontier(hand, pmask, pcards, fixed, tables, kinds, counts, ladders, trial, best_g, out):
    """Pareto frontier (Gleich, Hanger) of one hand into out (F, 2), Hanger descending; returns its
    number of points (the rest of ``out`` is untouched) (§6.5).

    Every point spends the free Perlaggen on the missing cards of one Hanger window (or none) and
    all the rest on one Gleich rank; one identity per Perlagg serves both figures. The windows of a
    suit come from WINDOW_ENTRIES, fewest missing cards first, up to w missing (a fully natural run is
    no better than the hand's natural Hanger). The tables must be HANGER_TABLES.
    counts (9,), ladders (4,), trial (>= w + 1,) int64 and best_g (_HANGER_CODES,) int64 are scratch.
    """
    w = _identities(hand, pmask, pcards, fixed, counts, ladders)
    natural_h = _hanger(ladders, 0, tables, kinds)
    if w == 0:
        out[0, 0] = _gleich(counts, 0)
        out[0, 1] = natural_h
        return 1
    for left in range(w + 1):  # trial[left]: best Gleich when ``left`` Perlaggen are still free
        trial[left] = _gleich(counts, left)
    best_g[:natural_h + 1] = -1
    best_g[natural_h] = trial[w]
    top_h = natural_h
    for s in range(4):
        others = 0
        for t in range(4):
            if t != s:
                others = max(others, np.int64(tables[kinds[t], ladders[t], 0]))
        held = ladders[s]
        for e in range(WINDOW_STARTS[kinds[s], held], WINDOW_STARTS[kinds[s], held + 1]):
            used = WINDOW_ENTRIES[e, 1]
            if used > w:
                break
            left = w - used
            g = trial[left]
            m = WINDOW_ENTRIES[e, 0]
            while m:  # a missing card of the window also counts for the Gleich of its rank
                st = _TOP_BIT9[m & -m]
                m &= m - 1
                size = counts[st] + 1 + left
                if size >= 2:
                    g = max(g, 16 * size + st)
            h = max(others, WINDOW_ENTRIES[e, 2])
            while top_h < h:
                top_h += 1
                best_g[top_h] = -1
            best_g[h] = max(best_g[h], g)
    n_points = 0
    top_g = -1
    for h in range(top_h, -1, -1):
        if best_g[h] > top_g:
            if n_points == out.shape[0]:
                raise ValueError("frontier wider than FRONTIER_MAX")
            out[n_points, 0] = best_g[h]
            out[n_points, 1] = h
            top_g = best_g[h]
            n_points += 1
    return n_points


@njit
def _frontier(hands, pmask, pcards, fixed, tables, kinds, out):
    """out (n, F, 2): Pareto frontier (Gleich, Hanger) per hand, Hanger descending, -1 padded (§6.5)."""
    counts = np.zeros(9, dtype=np.int64)
    ladders = np.zeros(4, dtype=np.int64)
    trial = np.zeros(N_CARDS_PLUS, dtype=np.int64)
    best_g = np.empty(_HANGER_CODES, dtype=np.int64)
    out[:] = -1
    for i in range(hands.shape[0]):
        _hand_frontier(hands[i], pmask, pcards, fixed[i], tables, kinds, counts, ladders, trial, best_g, out[i])


# --- public API ---------------------------------------------------------------------------------
def figure_codes(hands, style: str = "innsbruck", trump: str = "H", baptised=None,
                 six_below_bells_seven: bool = True) -> np.ndarray:
    """Best Gleich and best Hanger of each hand, each figure using every free Perlagg (level L0).

    hands: (n,) uint64 card masks (any size; natural-only figures: mask the Perlaggen out first);
    baptised: None (all Perlaggen free) or (n, len(perlaggen(style, trump))) int8, see module doc.
    Returns (n, 2) int16 codes, columns GLEICH and HANGER, 0 = no figure.
    """
    args = _kernel_args(hands, style, trump, baptised, six_below_bells_seven)
    out = np.zeros((args[0].shape[0], 2), dtype=np.int16)
    _figure_codes(*args, out)
    return out


def frontier(hands, style: str = "innsbruck", trump: str = "H", baptised=None,
             six_below_bells_seven: bool = True) -> np.ndarray:
    """Exact Gleich/Hanger Pareto frontier of each hand when a Perlagg has one identity (§6.5).

    Same inputs as `figure_codes`. Returns (n, FRONTIER_MAX, 2) int16 points (Gleich, Hanger),
    Hanger descending and Gleich ascending, rows padded with -1; a hand without figures has the
    single point (0, 0). The first point's Hanger and the last point's Gleich are the L0 codes.
    """
    args = _kernel_args(hands, style, trump, baptised, six_below_bells_seven)
    out = np.empty((args[0].shape[0], FRONTIER_MAX, 2), dtype=np.int16)
    _frontier(*args, out)
    return out


def frontier_points(row: np.ndarray) -> list[tuple[int, int]]:
    """The (Gleich, Hanger) points of one `frontier` row, padding dropped."""
    return [(int(g), int(h)) for g, h in row if g >= 0]


def _kernel_args(hands, style, trump, baptised, six_below_bells_seven):
    """Validated kernel inputs: hands, Perlagg mask, Perlagg cards, fixed identities, tables, kinds."""
    hands = np.ascontiguousarray(hands, dtype=np.uint64).reshape(-1)
    if hands.size and int(hands.max()) >> DECK.n_cards:
        raise CardsimError(f"hand masks must use bits 0..{DECK.n_cards - 1} of the Perlaggen pack")
    if not has_weli(style) and (hands >> np.uint64(WELI) & np.uint64(1)).any():
        check_no_weli([WELI], style, "a hand")
    pcards = np.array(perlaggen(style, trump), dtype=np.int64)
    if baptised is None:
        fixed = np.full((hands.size, pcards.size), -1, dtype=np.int8)
    else:
        fixed = np.ascontiguousarray(baptised, dtype=np.int8).reshape(hands.size, pcards.size)
        if ((fixed < -1) | (fixed >= DECK.n_faces)).any():
            raise CardsimError(f"a baptism must be -1 (free) or a face 0..{DECK.n_faces - 1}")
        held = (hands[:, None] >> pcards.astype(np.uint64)[None, :]) & np.uint64(1)
        if ((fixed >= 0) & (held == 0)).any():
            raise CardsimError("a baptism is given for a Perlagg that is not in the hand")
    pmask = np.uint64(DECK.mask(pcards))
    return hands, pmask, pcards, fixed, HANGER_TABLES, _ladder_kinds(six_below_bells_seven)


_STRENGTH_NAMES = ("6", "7", "8", "9", "10", "U", "O", "K", "A")
_SIZE_WORDS = {2: "pair of", 3: "three", 4: "four", 5: "five"}
GLEICH_RANK_NAMES = ("6s", "7s", "8s", "9s", "10s", "Unters", "Obers", "Kings", "Aces")
"""Plural rank names of the Gleich names by strength (as Giltspiel's; `--given` also takes 'As', 'Ks', 'Os', 'Us')."""


def gleich_name(code: int) -> str:
    """'three Kings (55)', 'pair of Aces (40)' or 'none' for a Gleich code (§5.2: 16 x size + strength);
    sizes above 5 as 'n x'."""
    size, strength = divmod(int(code), 16)
    if size < 2:
        return "none"
    word = _SIZE_WORDS.get(size, f"{size} x")
    return f"{word} {GLEICH_RANK_NAMES[strength]} ({int(code)})"


def hanger_name(code: int) -> str:
    """'A-K-O (56)', '8-7 (34)' or 'none' for a Hanger code (§6.2): its ranks from the top down."""
    length, top = divmod(int(code), 16)
    if length < 2:
        return "none"
    return "-".join(_STRENGTH_NAMES[top - i] for i in range(length)) + f" ({int(code)})"


def parse_hand(text: str, style: str = "innsbruck", trump: str = "H") -> tuple[int, np.ndarray]:
    """(card mask, baptised row) of tokens like ``"S9 E9 L9 L10 S7->HK"`` (``X->Y``: X stands for Y).

    Writing ``X->Y``, ``X→Y`` or ``X=Y`` fixes Perlagg X as face Y; it must be a Perlagg of the deal.
    """
    pfaces = perlaggen(style, trump)
    check_no_weli([DECK.parse_face(re.split(r"->|→|=", t)[0]) for t in text.replace(",", " ").split()], style,
                  "the hand")
    cards, fixed = [], np.full(len(pfaces), -1, dtype=np.int8)
    for token in text.replace(",", " ").split():
        name, *target = re.split(r"->|→|=", token)
        card = DECK.parse_face(name)
        cards.append(name)
        if target:
            if card not in pfaces:
                raise CardsimError(f"{DECK.token(card)} is not a Perlagg with trump {trump} ({style}); "
                                   f"only Perlaggen can be baptised")
            fixed[pfaces.index(card)] = DECK.parse_face(target[0])
    return DECK.mask(DECK.parse_cards(" ".join(cards))), fixed

