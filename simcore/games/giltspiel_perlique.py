"""Giltspiel mit 3 Perlique (spec shared/rules/giltspiel.md §8): trick play with the trump's 7, Unter and Ober wild.

§8 names the wild cards and suggests, for tricks, that a wild takes the identity its owner declares when he plays
it and that it may not copy a visible card; everything else is the base play of §6 (follow suit or trump, trick to
the highest trump, else the highest card of the suit led, Spiel at 3 tricks). Where §8 is silent this module reads
it as follows (the README lists the readings):

* *visible* identities: the turn-up, every identity played so far in the deal (a wild's declared one, not its
  print: a wild's face is no card in play, so a wild may be declared as its own face or another wild's) and the
  player's own natural cards. A natural card still hidden in another hand may be declared (its
  owner cannot see it); when that card then falls in the same trick, the option ``perlique_tie`` decides:
  ``wild`` (default: the wild, played first, wins, as a baptised Perlagg beats its natural card in the descendant
  game Perlaggen, its rule B7) or ``natural``. Two wilds never share an identity (the first one is visible).
* *following*: a wild counts for no suit in hand (as Perlaggen's B5 and B10): a player holding a natural card of
  the suit led plays a natural card of it or a natural trump, or a wild declared as a card of the suit led or of
  trumps; trumps led and a natural trump held: a natural trump or a wild declared as a trump; otherwise any card,
  a wild with any identity. A wild is never compulsory.
* the identity holds for its trick; the Gleich and the Hanger take every wild's best substitution whatever the play
  (§8: "any card, at any moment").

Encoding: cards and identities are ``8 * suit + rank`` as in `simcore.games.giltspiel`; a *play* is
``32 * card + identity`` (a natural card's identity is the card). A position is ``hands (4,) uint64``, the plays
of the current trick in order from ``leader``, ``won (2,)`` tricks per team and ``visible`` (uint64 identities).

* Policies: `RANDOM` (a uniform legal card, the hand's wilds counting as one, a wild's identity uniform among the
  allowed ones, from one uniform number) and `GREEDY` (§10.5's greedy with naturals before wilds: a wild leads
  only when nothing else is left, as the highest identity it may take; it wins a trick with the lowest identity
  that wins; it loses as the lowest).
* The double-dummy solver (`spiel_teams`, `position_wins`, `forced_tricks`, `optimal_line`) is an AND/OR search
  over the plays without recursion: of a hand's wilds only one is tried (they play alike), of a wild's identities
  one per class (`_identity_classes`, the proof there), of a hand's natural cards one per run once no wild is
  left (`giltspiel_play.highest_of_runs`); a transposition table at trick starts (`_position_key`); sure tricks
  (`_sure_value`): the leader's cashed top trumps and wilds (`_cashed_leads`, 0.915x nodes over 2,000 uniform
  deals), the base game's sure tricks for a side whose opponents hold no wild. tests/naive_giltspiel_perlique.py
  holds the plain minimax over every wild and every identity that the tests compare it with. Speed: about 14,000
  nodes and 0.7 ms a uniform deal (1,357 solves/s; the base game's solver: 240 nodes, 12 µs, 86,130 solves/s;
  benchmarks/bench_giltspiel_play.py, one whole benchmark run of 2026-12-06 evening).
* `PerliqueSpielJob`: the Spiel counts of `giltspiel_play.SpielJob` (``odds --spiel``) with the wilds in play.
"""

from __future__ import annotations

import numpy as np

from simcore import checks
from simcore.config import njit, njit_inline
from simcore.errors import CardsimError, unknown_name
from simcore.games.giltspiel import N_RANKS, N_SUITS, PERLIQUE, SEATS
from simcore.games.giltspiel_play import SpielJob, _sure_tricks, highest_of_runs
from simcore.search import table_rows, table_slot
from simcore.tricks import FOLLOW_OR_TRUMP, card_power, legal_mask, lowest_card, popcount, suit_bits

SUITS = suit_bits(N_SUITS, N_RANKS)
N_CARDS = N_SUITS * N_RANKS
TRICKS, SPIEL, FOREHAND = 5, 3, 1
ID_BITS = 5
"""A play is ``(card << ID_BITS) | identity``."""
WILD_WINS, NATURAL_WINS = 0, 1
TIES = {"wild": WILD_WINS, "natural": NATURAL_WINS}
"""Option perlique_tie: who takes a trick holding a wild declared as card X and the natural X."""
RANDOM, GREEDY = 0, 1
POLICIES = {"random": RANDOM, "greedy": GREEDY}
METHODS = ("dd",) + tuple(POLICIES)
DECISIONS = SEATS * TRICKS
MAX_PLAYS = 5 + N_CARDS
"""Plays of one position: at most five natural cards and one wild (the others play alike) with its identities."""
PLIES = SEATS * TRICKS + 1
PAST = SEATS - 1
"""Slots before the root in the solver's play arrays, for the cards of a trick begun before it."""
_ALL = np.uint64((1 << N_CARDS) - 1)
_ONE = np.uint64(1)


def checked_tie(tie: str, played: bool = True, needs: str = "--option perlique=true") -> int:
    """The code of option perlique_tie ``tie`` ("wild" or "natural"); CardsimError otherwise, or when a tie rule other
    than the default is given where no wild is ``played`` in tricks (``needs``: what would play them)."""
    if tie not in TIES:
        raise unknown_name("perlique_tie", tie, tuple(TIES))
    if tie != "wild" and not played:
        raise CardsimError(f"option perlique_tie is a rule of the Perlique's play in tricks: give it with {needs}, "
                           "or drop it")
    return TIES[tie]


# --- rules -------------------------------------------------------------------------------------
@njit_inline
def _height(card, trump):
    """Greedy's order of cards and identities: rank, every trump above every plain card (0..15)."""
    return card % N_RANKS + (N_RANKS if card // N_RANKS == trump else 0)


@njit_inline
def _options(hand, wilds, led, trump, visible):
    """(legal natural cards, identities a wild of ``hand`` may take) when suit ``led`` was led (-1: leading);
    the second is 0 when the hand holds no wild. uint64 masks."""
    natural = hand & ~wilds
    legal = legal_mask(natural, led, trump, SUITS, FOLLOW_OR_TRUMP)
    if not hand & wilds:
        return legal, np.uint64(0)
    ids = _ALL
    if led >= 0 and natural & SUITS[led]:
        ids = SUITS[led] | SUITS[trump]
    return legal, ids & ~visible & ~natural


@njit_inline
def _key(card, ident, led, trump, wilds, tie):
    """Trick strength of a play: twice the identity's `card_power`, plus 1 for the side ``tie`` favours."""
    wild = (wilds >> np.uint64(card)) & _ONE
    return 2 * card_power(ident, led, trump, N_RANKS) + np.int64(wild if tie == WILD_WINS else _ONE - wild)


@njit_inline
def _winning_slot(cards, ids, start, count, trump, wilds, tie):
    """Slot (0 = the lead) of the play holding the trick made of plays ``start .. start + count - 1``."""
    led = ids[start] // N_RANKS
    best, best_key = 0, _key(cards[start], ids[start], led, trump, wilds, tie)
    for i in range(1, count):
        key = _key(cards[start + i], ids[start + i], led, trump, wilds, tie)
        if key > best_key:
            best, best_key = i, key
    return best


@njit_inline
def _holding(cards, ids, start, count, led, trump, wilds, tie):
    """(key of the play holding the trick so far, -1 before the lead; whether it is the partner's of the player
    to move) for the plays ``start .. start + count - 1``."""
    if not count:
        return -1, False
    slot = _winning_slot(cards, ids, start, count, trump, wilds, tie)
    return _key(cards[start + slot], ids[start + slot], led, trump, wilds, tie), count >= 2 and slot % 2 == count % 2


@njit
def _nth(mask, k):
    """The ``k``-th set bit (0 = lowest) of ``mask``."""
    for _ in range(k):
        mask &= mask - _ONE
    return lowest_card(mask)


# --- policies ----------------------------------------------------------------------------------
@njit
def _choose(policy, hand, cards, ids, start, count, trump, wilds, tie, visible, u):
    """The play (``card << ID_BITS | identity``) ``policy`` makes from ``hand`` to the trick of plays
    ``start .. start + count - 1`` of cards/ids."""
    led = ids[start] // N_RANKS if count else -1
    legal, allowed = _options(hand, wilds, led, trump, visible)
    wild = lowest_card(hand & wilds) if allowed else -1
    if policy == RANDOM:
        playable = legal | ((_ONE << np.uint64(wild)) if wild >= 0 else np.uint64(0))
        n = popcount(playable)
        k = np.int64(u * n)
        card = _nth(playable, k)
        if card != wild:
            return (card << ID_BITS) | card
        ident = _nth(allowed, np.int64((u * n - k) * popcount(allowed)))
        return (card << ID_BITS) | ident
    best_key, partner = _holding(cards, ids, start, count, led, trump, wilds, tie)
    choice, choice_key = -1, 0
    m = legal
    while m:  # §10.5 greedy over the natural cards (see giltspiel_play._greedy_key)
        card = lowest_card(m)
        m &= m - _ONE
        height = _height(card, trump)
        if count == 0:
            key = height
        elif partner or _key(card, card, led, trump, wilds, tie) <= best_key:
            key = -height
        else:
            key = 2 * N_RANKS - height
        if choice < 0 or key > choice_key or (count == 0 and key == choice_key):
            choice, choice_key = card, key
    if choice >= 0 and (count == 0 or partner or choice_key > 0):
        return (choice << ID_BITS) | choice
    if wild >= 0 and count and not partner:  # the lowest identity that wins
        m, best_win = allowed, -1
        while m:
            ident = lowest_card(m)
            m &= m - _ONE
            if _key(wild, ident, led, trump, wilds, tie) > best_key and (
                    best_win < 0 or _height(ident, trump) < _height(best_win, trump)):
                best_win = ident
        if best_win >= 0:
            return (wild << ID_BITS) | best_win
    if choice >= 0:
        return (choice << ID_BITS) | choice
    ident, m = -1, allowed  # only wilds left: lead the highest identity, else play the lowest (equal: the later)
    while m:
        candidate = lowest_card(m)
        m &= m - _ONE
        new, old = _height(candidate, trump), _height(ident, trump) if ident >= 0 else 0
        if ident < 0 or new == old or (new > old) == (count == 0):
            ident = candidate
    return (wild << ID_BITS) | ident


@njit
def _play_deal(policy, hands, trump, wilds, tie, visible, leader, u, cards, ids):
    """Play one deal out to the Spiel with ``policy`` at every seat: hands (4,) uint64 (modified); u (DECISIONS,)
    uniforms; cards, ids (DECISIONS,) receive the plays in order. Returns (winning team, plays made)."""
    won = np.zeros(2, dtype=np.int64)
    played = 0
    while won[0] < SPIEL and won[1] < SPIEL:
        start = played
        for count in range(SEATS):
            seat = (leader + count) % SEATS
            play = _choose(policy, hands[seat], cards, ids, start, count, trump, wilds, tie, visible, u[played])
            card, ident = play >> ID_BITS, play & (N_CARDS - 1)
            hands[seat] &= ~(_ONE << np.uint64(card))
            visible |= _ONE << np.uint64(ident)
            cards[played], ids[played] = card, ident
            played += 1
        leader = (leader + _winning_slot(cards, ids, start, SEATS, trump, wilds, tie)) % SEATS
        won[leader % 2] += 1
    return (0 if won[0] >= SPIEL else 1), played


@njit
def _play_out(policy, hands, trumps, turnups, tie, leader, u, teams):
    cards = np.empty(DECISIONS, dtype=np.int64)
    ids = np.empty(DECISIONS, dtype=np.int64)
    for i in range(hands.shape[0]):
        teams[i], _ = _play_deal(policy, hands[i].copy(), trumps[i], PERLIQUE[trumps[i]], tie,
                                 _ONE << np.uint64(turnups[i]), leader, u[i], cards, ids)


# --- double-dummy solver -----------------------------------------------------------------------
@njit_inline
def _identity_classes(allowed, rest, bounds, later_wilds):
    """One identity of each class of ``allowed`` (uint64) that plays alike, for a wild about to be played.

    rest: the natural cards still in the hands (the wild's own hand included); bounds: ``rest`` and the identities
    played to this trick; later_wilds: the wilds left in the hands after this one. Per suit, an allowed identity
    that is a card of ``rest`` (another hand's natural card) is its own class. The others lie in gaps between the
    cards of ``bounds``; of a gap's allowed identities e_0 > e_1 > ... > e_(k-1) only the place of the one chosen
    matters: nothing still to be played or already in the trick lies between them, so the rest of the game compares
    them only with the identities the ``later_wilds`` wilds may still take from the same gap, and a position with e_i
    declared plays like one with e_j when min(i, w) = min(j, w) and min(k-1-i, w) = min(k-1-j, w), w = later_wilds:
    each later wild can be given, by an order-keeping map of the gap's free identities, the same place among the
    gap's taken ones. So e_0 .. e_w and e_(k-1-w) .. e_(k-1) stand for the gap."""
    out = np.uint64(0)
    for suit in range(N_SUITS):
        gap, size = np.uint64(0), 0
        for rank in range(N_RANKS - 1, -2, -1):
            bit = _ONE << np.uint64(suit * N_RANKS + rank) if rank >= 0 else np.uint64(0)
            if rank >= 0 and not bounds & bit:
                if allowed & bit:
                    gap |= bit
                    size += 1
                continue
            j = 0  # a bound or the bottom: the gap above it ends; its members from the bottom
            while gap:
                low = gap & (~gap + _ONE)
                gap ^= low
                if j <= later_wilds or j >= size - 1 - later_wilds:
                    out |= low
                j += 1
            size = 0
            if allowed & rest & bit:
                out |= bit
    return out


@njit_inline
def _trick_ids(ids, start, count):
    """The identities of the plays ``start .. start + count - 1`` as a uint64 mask."""
    out = np.uint64(0)
    for i in range(count):
        out |= _ONE << np.uint64(ids[start + i])
    return out


@njit_inline
def _plays(out, hands, seat, cards, ids, start, count, trump, wilds, tie, visible):
    """The plays worth searching for ``seat`` into ``out``, most promising first; returns how many. Leading, the
    highest first; following, the plays that take the trick from the lowest up, then the others from the lowest."""
    hand = hands[seat]
    led = ids[start] // N_RANKS if count else -1
    legal, allowed = _options(hand, wilds, led, trump, visible)
    n = 0
    best_key = _holding(cards, ids, start, count, led, trump, wilds, tie)[0]
    held = hands[0] | hands[1] | hands[2] | hands[3]
    trick_ids = _trick_ids(ids, start, count)
    if allowed:
        wild = lowest_card(hand & wilds)
        later_wilds = popcount(held & wilds) - 1
        rest = held & ~wilds
        if later_wilds == 0:  # only this trick can tell the identities apart: the cards still to come to it count
            rest = np.uint64(0)
            for i in range(count + 1, SEATS):
                rest |= hands[(seat + i - count) % SEATS]
            rest &= ~wilds
            if led >= 0:  # a card of neither the suit led nor trumps loses whatever it is
                for suit in range(N_SUITS):
                    if suit != led and suit != trump and allowed & SUITS[suit]:
                        keep = allowed & SUITS[suit]
                        allowed = (allowed & ~SUITS[suit]) | (keep & (~keep + _ONE))
        ident_mask = _identity_classes(allowed, rest, rest | trick_ids, later_wilds)
    else:
        wild, ident_mask = -1, np.uint64(0)
    if not held & wilds and not trick_ids & hand:
        # no wild left and no identity of the trick among the hand's cards: the base game's equivalent cards
        legal = highest_of_runs(legal, hand, held | trick_ids)
    for kind in range(2):
        m = legal if kind == 0 else ident_mask
        while m:
            ident = lowest_card(m)
            m &= m - _ONE
            card = ident if kind == 0 else wild
            if count == 0:
                order = -_height(ident, trump) * 2 - kind
            else:
                key = _key(card, ident, led, trump, wilds, tie)
                order = (0 if key > best_key else 64) + _height(ident, trump) * 2 + kind
            play = (card << ID_BITS) | ident
            j = n
            while j > 0 and (out[j - 1] >> 16) > order:
                out[j] = out[j - 1]
                j -= 1
            out[j] = (order << 16) | play
            n += 1
    for j in range(n):
        out[j] &= 0xFFFF
    return n


@njit_inline
def _cashed_leads(hands, leader, visible, trump, wilds, tie):
    """Tricks the leader takes one after another by leading the highest trump identity not yet visible: his natural
    card of it, else a wild declared as it (`_options` allows it: not visible, not his). Nothing can beat it: every
    higher identity is visible, so no wild may take it, and no other hand holds a higher natural trump (where one
    does, a wild's copy made it visible, the count stops); the led identity is visible at once. A wild copying a
    natural card another hand holds ends the count (that card stays in play; under the tie rule "natural" it takes
    the trick, so an opponent's copy is not counted)."""
    hand = hands[leader]
    spare = popcount(hand & wilds)
    theirs = hands[(leader + 1) % SEATS] | hands[(leader + 3) % SEATS]
    others = (theirs | hands[(leader + 2) % SEATS]) & ~wilds
    shown = visible
    tricks = 0
    for rank in range(N_RANKS - 1, -1, -1):
        bit = _ONE << np.uint64(trump * N_RANKS + rank)
        if shown & bit:
            if others & bit:  # visible as a wild's copy, but the natural card is still to come
                break
            continue
        if hand & bit and not wilds & bit:
            tricks += 1
        elif spare and not (tie == NATURAL_WINS and theirs & bit):
            spare -= 1
            tricks += 1
            if others & bit:  # the natural card it copied stays in play (or, under "natural", takes the lead)
                break
        else:
            break
        shown |= bit
    return tricks


@njit_inline
def _sure_value(hands, leader, won, visible, trump, wilds, tie, team, need):
    """At a trick start: 1 if ``team`` surely takes ``need`` tricks, 0 if it surely cannot, -1 if only a search can
    tell. Besides the tricks won: the side on lead takes its leader's `_cashed_leads`; a side whose opponents hold
    no wild takes the base game's sure tricks of its natural cards (`giltspiel_play._sure_tricks`: natural trumps
    above every trump of the opponents, and a lead nobody can beat; its own wilds left out, they only add)."""
    if won[team] >= need:
        return 1
    if won[1 - team] > TRICKS - need:
        return 0
    cashed = _cashed_leads(hands, leader, visible, trump, wilds, tie)
    if leader % 2 == team and won[team] + cashed >= need:
        return 1
    if leader % 2 != team and won[1 - team] + cashed > TRICKS - need:
        return 0
    theirs = (hands[1 - team] | hands[3 - team]) & wilds
    ours = (hands[team] | hands[team + 2]) & wilds
    natural = (hands[0] & ~wilds, hands[1] & ~wilds, hands[2] & ~wilds, hands[3] & ~wilds)
    if not theirs and won[team] + _sure_tricks(natural, leader, trump, team) >= need:
        return 1
    if not ours and won[1 - team] + _sure_tricks(natural, leader, trump, 1 - team) > TRICKS - need:
        return 0
    return -1


LEADER, COUNT, SIZE, TRIED, RESULT, WINNER, SLOT = range(7)
"""Columns of the solver's stack: per ply the trick's leader, plays made in it, plays to try, tried, the node's value
so far, the winner of the trick this ply's play completed (-1: none) and the table row of a trick start."""
TABLE_BITS = 14


def new_table(bits: int = TABLE_BITS) -> tuple:
    """An empty transposition table of 2**bits rows: (keys (size, 3) uint64, values (size,) int64, counters (2,)
    int64: solves and search nodes). A key holds the solve number, so the rows of earlier solves are never read."""
    size = table_rows(bits)
    return np.zeros((size, 3), dtype=np.uint64), np.zeros(size, dtype=np.int64), np.zeros(2, dtype=np.int64)


@njit_inline
def _position_key(hands, leader, tricks, visible, wilds, solve):
    """(k1, k2, k3) of a trick start: the four hands, then the visible identities (only while a wild is left to
    take one), the leader, the target team's ``tricks`` and the solve number. Equal keys, equal values: the tricks
    played fix the other team's, and nothing else of the past reaches the rest of the play."""
    held = hands[0] | hands[1] | hands[2] | hands[3]
    shown = visible if held & wilds else np.uint64(0)
    return (hands[0] | (hands[1] << np.uint64(32)), hands[2] | (hands[3] << np.uint64(32)),
            shown | (np.uint64(leader) << np.uint64(32)) | (np.uint64(tricks) << np.uint64(34))
            | (np.uint64(solve) << np.uint64(40)))


@njit
def _search(hands, cards, ids, count, leader, won, visible, trump, wilds, tie, team, need, stack, plays, vis,
            table):
    """True if ``team`` takes ``need`` tricks from this position under perfect play (AND/OR search, no recursion).

    cards, ids (PAST + PLIES,): the trick so far in slots PAST - count .. PAST - 1, the search's plays after them;
    hands and won are modified and restored; stack (PLIES, 7), plays (PLIES, MAX_PLAYS), vis (PLIES + 1,) scratch;
    table: `new_table`, whose entries hold the values of trick starts of this search (`_position_key`).
    """
    keys, values, solve = table
    solve[0] += 1
    if solve[0] >= 1 << 24:  # the key holds 24 bits of the solve number: start the table afresh
        keys[:] = 0
        solve[0] = 1
    p = 0
    stack[0, LEADER], stack[0, COUNT] = leader, count
    vis[0] = visible
    entering, child = True, False
    while True:
        leader, count = stack[p, LEADER], stack[p, COUNT]
        seat = (leader + count) % SEATS
        mine = seat % 2 == team
        value = -1
        if entering:
            solve[1] += 1
            if count == 0:
                value = _sure_value(hands, leader, won, vis[p], trump, wilds, tie, team, need)
            if value < 0 and count == 0:
                k1, k2, k3 = _position_key(hands, leader, won[team], vis[p], wilds, solve[0])
                slot = table_slot(k1, k2, k3, keys.shape[0])
                stack[p, SLOT] = slot
                if keys[slot, 0] == k1 and keys[slot, 1] == k2 and keys[slot, 2] == k3:
                    value = values[slot]
            if value < 0:
                stack[p, SIZE] = _plays(plays[p], hands, seat, cards, ids, PAST + p - count, count, trump, wilds,
                                        tie, vis[p])
                stack[p, TRIED] = 0
                stack[p, RESULT] = 0 if mine else 1
        else:
            play = plays[p, stack[p, TRIED] - 1]
            hands[seat] |= _ONE << np.uint64(play >> ID_BITS)
            winner = stack[p, WINNER]
            if winner >= 0:
                won[winner % 2] -= 1
            if child == mine:
                stack[p, RESULT] = 1 if mine else 0
                stack[p, TRIED] = stack[p, SIZE]
        if value < 0 and stack[p, TRIED] < stack[p, SIZE]:
            play = plays[p, stack[p, TRIED]]
            stack[p, TRIED] += 1
            card, ident = play >> ID_BITS, play & (N_CARDS - 1)
            hands[seat] &= ~(_ONE << np.uint64(card))
            cards[PAST + p], ids[PAST + p] = card, ident
            vis[p + 1] = vis[p] | (_ONE << np.uint64(ident))
            stack[p, WINNER] = -1
            if count == SEATS - 1:
                winner = (leader + _winning_slot(cards, ids, PAST + p - count, SEATS, trump, wilds, tie)) % SEATS
                stack[p, WINNER] = winner
                won[winner % 2] += 1
                stack[p + 1, LEADER], stack[p + 1, COUNT] = winner, 0
            else:
                stack[p + 1, LEADER], stack[p + 1, COUNT] = leader, count + 1
            p += 1
            entering = True
            continue
        if value < 0:
            value = stack[p, RESULT]
            if count == 0:
                slot = stack[p, SLOT]
                keys[slot, 0], keys[slot, 1], keys[slot, 2] = _position_key(hands, leader, won[team], vis[p], wilds,
                                                                             solve[0])
                values[slot] = value
        if p == 0:
            return value == 1
        child = value == 1
        p -= 1
        entering = False


def _scratch() -> tuple:
    """The solver's buffers: (cards, ids (PAST + PLIES,) int64, stack (PLIES, 7) int64, plays (PLIES, MAX_PLAYS)
    int64, vis (PLIES + 1,) uint64)."""
    return (np.zeros(PAST + PLIES, dtype=np.int64), np.zeros(PAST + PLIES, dtype=np.int64),
            np.zeros((PLIES, SLOT + 1), dtype=np.int64), np.zeros((PLIES, MAX_PLAYS), dtype=np.int64),
            np.zeros(PLIES + 1, dtype=np.uint64))


@njit
def _spiel_teams(hands, trumps, turnups, tie, leader, cards, ids, stack, plays, vis, table, out):
    """Double-dummy Spiel winner of every deal: hands (n, 4) uint64, trumps, turnups (n,) -> out (n,) teams."""
    won = np.zeros(2, dtype=np.int64)
    team = leader % 2
    for i in range(hands.shape[0]):
        held = hands[i].copy()
        wins = _search(held, cards, ids, 0, leader, won, _ONE << np.uint64(turnups[i]), trumps[i], PERLIQUE[trumps[i]],
                       tie, team, SPIEL, stack, plays, vis, table)
        out[i] = team if wins else 1 - team


def trusted_spiel_teams(hands, trumps, turnups, tie: int = WILD_WINS, leader: int = FOREHAND) -> np.ndarray:
    """Double-dummy Spiel winner (team 0/1) of many deals, forehand leading: hands (n, 4) uint64 five cards a seat,
    trumps (n,) int64 suits, turnups (n,) int64 cards; tie a `TIES` code. No argument checks (the jobs deal)."""
    hands = np.asarray(hands, dtype=np.uint64)
    out = np.empty(hands.shape[0], dtype=np.int64)
    _spiel_teams(hands, np.asarray(trumps, dtype=np.int64), np.asarray(turnups, dtype=np.int64), tie, leader,
                 *_scratch(), new_table(), out)
    return out


def trusted_play_out(policy: str, hands, trumps, turnups, u, tie: int = WILD_WINS,
                     leader: int = FOREHAND) -> np.ndarray:
    """Winning team (n,) of many deals played out by ``policy`` at every seat; u (n, DECISIONS) uniforms. No
    argument checks (the jobs deal)."""
    hands = np.asarray(hands, dtype=np.uint64)
    teams = np.empty(hands.shape[0], dtype=np.int64)
    _play_out(POLICIES[policy], hands, np.asarray(trumps, dtype=np.int64), np.asarray(turnups, dtype=np.int64), tie,
              leader, np.asarray(u, dtype=np.float64), teams)
    return teams


def _checked_deal(hands, turnup) -> tuple[np.ndarray, int, int]:
    """(hands (4,) uint64, trump, turnup) of one deal: four hands of at most five cards, the turn-up in none."""
    hands = checks.hand_masks(hands, "hands", N_CARDS, SEATS, range(TRICKS + 1), equal=False)
    turnup = checks.whole(turnup, "turnup", 0, N_CARDS - 1)
    if (int(np.bitwise_or.reduce(hands)) >> turnup) & 1:
        raise CardsimError(f"the turn-up (card {turnup}) is in a hand: it is never played; take it out of the hands")
    return hands, turnup // N_RANKS, turnup


def _wins(hands, turnup, team, leader, won, trick, visible, need, tie, buffers) -> bool:
    """`position_wins` on checked arguments: trick a list of (card, identity), visible a uint64 of the identities
    played before (the turn-up's and the trick's are added), tie a `TIES` code, buffers (`_scratch`, `new_table`)."""
    (cards, ids, stack, plays, vis), table = buffers
    shown = np.uint64(visible) | (_ONE << np.uint64(turnup))
    for k, (card, ident) in enumerate(trick):
        cards[PAST - len(trick) + k], ids[PAST - len(trick) + k] = card, ident
        shown |= _ONE << np.uint64(ident)
    trump = turnup // N_RANKS
    return bool(_search(np.array(hands, dtype=np.uint64), cards, ids, len(trick), leader,
                        np.array(won, dtype=np.int64), shown, trump, PERLIQUE[trump], tie, team, need, stack, plays,
                        vis, table))


def position_wins(hands, turnup: int, team: int, leader: int = FOREHAND, won=(0, 0), trick=(), visible=(),
                  need: int = SPIEL, tie: str = "wild") -> bool:
    """True if ``team`` takes ``need`` tricks from a position under perfect play (the turn-up's suit is trump).

    hands (4,) uint64 cards still held; trick: the (card, identity) plays of the current trick so far, led by
    ``leader``; won: tricks of teams 0 and 1; visible: identities played in earlier tricks.
    """
    hands, _, turnup = _checked_deal(hands, turnup)
    team, leader = checks.whole(team, "team", 0, 1), checks.whole(leader, "leader", 0, SEATS - 1)
    need, won = checks.whole(need, "need", 1, TRICKS), checks.wholes(won, "won", 2, 0, TRICKS)
    trick = [tuple(checks.wholes(play, "play", 2, 0, N_CARDS - 1)) for play in trick]
    if len(trick) >= SEATS:
        raise CardsimError(f"trick must be up to {SEATS - 1} plays made before this one")
    checks.position_sizes(hands, leader, len(trick), won, TRICKS)
    shown = 1 << turnup
    for ident in checks.wholes(visible, "visible", len(visible), 0, N_CARDS - 1):
        shown |= 1 << int(ident)
    _check_trick(trick, int(np.bitwise_or.reduce(hands)), int(PERLIQUE[turnup // N_RANKS]), shown)
    return _wins(hands, turnup, team, leader, won, trick, shown, need, checked_tie(tie), (_scratch(), new_table()))


def _check_trick(trick, held: int, wilds: int, shown: int) -> None:
    """CardsimError unless the (card, identity) plays of ``trick`` fit: cards played once and in no hand, a natural
    card standing for itself, a wild for an identity neither visible before (``shown``) nor taken in the trick."""
    cards = [card for card, _ in trick]
    if len(set(cards)) < len(cards) or any((held >> card) & 1 for card in cards):
        raise CardsimError("trick cards must be played once each and be in no hand")
    for card, ident in trick:
        if not (wilds >> card) & 1 and ident != card:
            raise CardsimError(f"card {card} of the trick is no wild, so it stands for itself, not for {ident}")
        if (wilds >> card) & 1 and (shown >> ident) & 1:
            raise CardsimError(f"the wild {card} of the trick is declared as {ident}, a visible card (the turn-up, "
                               "one played before or earlier in the trick); declare it as another")
        shown |= 1 << ident


def spiel_teams(hands, turnups, tie: str = "wild") -> np.ndarray:
    """Double-dummy Spiel winner (team 0/1) of many deals, forehand leading: hands (n, 4) uint64 five cards a seat,
    turnups (n,) cards (the trump is the turn-up's suit). CardsimError for arguments that are no such deals."""
    hands = checks.hand_masks(hands, "hands", N_CARDS, SEATS, range(TRICKS, TRICKS + 1), rows=True, empty=True)
    turnups = checks.wholes(turnups, "turnups", len(hands), 0, N_CARDS - 1)
    held = np.bitwise_or.reduce(hands, axis=1) if len(hands) else np.zeros(0, dtype=np.uint64)
    if any((int(h) >> int(t)) & 1 for h, t in zip(held, turnups)):
        raise CardsimError("a turn-up is in a hand of its deal: it is never played; take it out of the hands")
    turnups = np.asarray(turnups, dtype=np.int64)
    return trusted_spiel_teams(hands, turnups // N_RANKS, turnups, checked_tie(tie))


def forced_tricks(hands, turnup: int, tie: str = "wild") -> tuple[int, int]:
    """Tricks teams 0 and 1 can each force if all five rounds were played (forehand leads): hands (4,) uint64."""
    hands, _, turnup = _checked_deal(hands, turnup)
    checks.position_sizes(hands, FOREHAND, 0, (0, 0), TRICKS)
    buffers, code = (_scratch(), new_table()), checked_tie(tie)
    team1 = max(k for k in range(TRICKS + 1)
                if k == 0 or _wins(hands, turnup, 1, FOREHAND, (0, 0), [], 0, k, code, buffers))
    return TRICKS - team1, team1


def optimal_line(hands, turnup: int, tie: str = "wild") -> list[tuple[int, int, int]]:
    """A line of perfect play to the Spiel as (seat, card, identity): at every turn the first play in the solver's
    order that keeps the Spiel with the team that wins it. hands (4,) uint64, five cards each, forehand leads."""
    hands, trump, turnup = _checked_deal(hands, turnup)
    checks.position_sizes(hands, FOREHAND, 0, (0, 0), TRICKS)
    code, buffers = checked_tie(tie), (_scratch(), new_table())
    hands = hands.copy()
    wilds = PERLIQUE[trump]
    winner = 1 if _wins(hands, turnup, 1, FOREHAND, (0, 0), [], 0, SPIEL, code, buffers) else 0
    leader, won, trick, shown, line = FOREHAND, [0, 0], [], 0, []
    out = np.zeros(MAX_PLAYS, dtype=np.int64)
    while max(won) < SPIEL:
        seat = (leader + len(trick)) % SEATS
        cards = np.array([c for c, _ in trick] + [0] * (SEATS - len(trick)), dtype=np.int64)
        ids = np.array([i for _, i in trick] + [0] * (SEATS - len(trick)), dtype=np.int64)
        visible = np.uint64(shown | (1 << turnup) | sum(1 << i for _, i in trick))
        size = _plays(out, hands, seat, cards, ids, 0, len(trick), trump, wilds, code, visible)
        for play in out[:size]:
            card, ident = int(play) >> ID_BITS, int(play) & (N_CARDS - 1)
            after = hands.copy()
            after[seat] &= ~(_ONE << np.uint64(card))
            plays, next_leader, tally = trick + [(card, ident)], leader, list(won)
            if len(plays) == SEATS:
                next_leader = (leader + _slot_of(plays, trump, wilds, code)) % SEATS
                tally[next_leader % 2] += 1
                plays = []
            done = [i for _, i in trick + [(card, ident)]] if not plays else []
            seen = shown | sum(1 << i for i in done)
            if max(tally) >= SPIEL and tally[winner] >= SPIEL or max(tally) < SPIEL and _wins(
                    after, turnup, winner, next_leader, tally, plays, seen, SPIEL, code, buffers):
                break
        line.append((seat, card, ident))
        hands, leader, won, trick, shown = after, next_leader, tally, plays, seen
    return line


def trick_winners(line, turnup: int, tie: str = "wild") -> list[int]:
    """Seats winning the complete tricks of a (seat, card, identity) line from forehand's first lead."""
    trump, code = turnup // N_RANKS, checked_tie(tie)
    return [(line[k][0] + _slot_of([(c, i) for _, c, i in line[k:k + SEATS]], trump, PERLIQUE[trump], code)) % SEATS
            for k in range(0, len(line) - SEATS + 1, SEATS)]


def _slot_of(plays, trump, wilds, tie) -> int:
    """`_winning_slot` of a complete trick given as (card, identity) pairs."""
    cards = np.array([c for c, _ in plays], dtype=np.int64)
    ids = np.array([i for _, i in plays], dtype=np.int64)
    return int(_winning_slot(cards, ids, 0, len(plays), trump, wilds, tie))


class PerliqueSpielJob(SpielJob):
    """`giltspiel_play.SpielJob` with the trump's 7, Unter and Ober wild in play, ``tie`` the option perlique_tie:
    the same counts, deals and uniforms."""

    def __init__(self, known, team: int, method: str = "dd", accept=(), tie: str = "wild"):
        super().__init__(known, team, method, accept)
        self.tie = tie
        self.tie_code = checked_tie(tie)

    def extra_key(self) -> str:
        return f"{super().extra_key()}|perlique={self.tie}"

    def spiel_teams(self, hands: np.ndarray, trumps: np.ndarray, turnups: np.ndarray,
                    u: np.ndarray | None) -> np.ndarray:
        if self.method == "dd":
            return trusted_spiel_teams(hands, trumps, turnups, self.tie_code)
        return trusted_play_out(self.method, hands, trumps, turnups, u, self.tie_code)
