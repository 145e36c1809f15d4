"""Slow, readable references for Bauernstoss, written from shared/rules/bauernstoss.md, not from the kernels.

Cards are integers ``card = 8 * suit + rank`` with suits c s h d and ranks 7 8 9 B D K T A (index 0-7);
a hand or trick is a list of cards. TRUMP is the effective suit of every trump.
"""

from __future__ import annotations

RANKS = "789BDKTA"
TRUMP = "trump"
POINTS = {"A": 11, "T": 10, "K": 4, "D": 3, "B": 2, "9": 0, "8": 0, "7": 0}
SCALE = {"7": 0, "8": 1, "9": 2, "D": 3, "K": 4, "T": 5, "A": 6}
JACK_SCALE = {3: 7, 2: 8, 1: 9, 0: 10}  # dB hB sB cB


def suit(card):
    return card // 8


def rank(card):
    return RANKS[card % 8]


def is_jack(card):
    return rank(card) == "B"


# --- §1 cards -------------------------------------------------------------------------------
def points(cards):
    return sum(POINTS[rank(c)] for c in cards)


def eff(card, trump):
    """§1.2 effective suit."""
    return TRUMP if is_jack(card) or suit(card) == trump else suit(card)


def low_value(card):
    """§1.2 lowest-card scale."""
    return JACK_SCALE[suit(card)] if is_jack(card) else SCALE[rank(card)]


def strength(card, trump):
    """§1.2 strength key, compared only within one effective suit."""
    if is_jack(card):
        return 20 + (3 - suit(card))
    return 10 + SCALE[rank(card)] if suit(card) == trump else SCALE[rank(card)]


# --- §5 play --------------------------------------------------------------------------------
def legal_bs(hand, trick, trump, jack_rule="overtake_when_trumping"):
    """§5.2 pseudocode legal_BS, with the §8 A1 scopes of the jack rule."""
    if not trick:
        return set(hand)
    led = eff(trick[0], trump)
    follow = [c for c in hand if eff(c, trump) == led]
    trumps = [c for c in hand if eff(c, trump) == TRUMP]
    jacks_in_trick = [c for c in trick if is_jack(c)]
    higher = []
    if jacks_in_trick:
        top = max(strength(c, trump) for c in jacks_in_trick)
        higher = [c for c in hand if is_jack(c) and strength(c, trump) > top]
    if jack_rule == "always_overrides_follow" and higher:
        return set(higher)
    if led != TRUMP and follow:
        return set(follow)
    cand = follow if led == TRUMP else trumps
    if not cand:
        return set(hand)
    if jack_rule != "off" and higher:
        return set(higher)
    return set(cand)


def legal_as(hand, trick, trump):
    """§7.1 legal_AS."""
    if not trick:
        return set(hand)
    led = eff(trick[0], trump)
    follow = [c for c in hand if eff(c, trump) == led]
    if led == TRUMP:
        if not follow:
            return set(hand)
        top = max(strength(c, trump) for c in trick if eff(c, trump) == TRUMP)
        return set([c for c in follow if strength(c, trump) > top] or follow)
    if follow:
        return set(follow)
    return set([c for c in hand if eff(c, trump) == TRUMP] or hand)


def legal_ds(hand, trick, trump):
    """§7.2 legal_DS."""
    if not trick:
        return set(hand)
    led = eff(trick[0], trump)
    return set([c for c in hand if eff(c, trump) == led] or hand)


def winner(trick, trump):
    """§5.3: index in ``trick`` of the highest trump, else of the highest card of the led suit."""
    trumps = [i for i, c in enumerate(trick) if eff(c, trump) == TRUMP]
    led = eff(trick[0], trump)
    pool = trumps or [i for i, c in enumerate(trick) if eff(c, trump) == led]
    return max(pool, key=lambda i: strength(trick[i], trump))


# --- §4 auction (BS) ------------------------------------------------------------------------
def trumps_if(hand, s):
    """The cards of ``hand`` that would be trumps with ``s`` trumps."""
    return [c for c in hand if is_jack(c) or suit(c) == s]


class AuctionReference:
    """§4.6 bookkeeping and the §4.12 legal-call generator, literally (BS; solos by kind only)."""

    def __init__(self, first_hand):
        self.first_hand = first_hand
        self.cur = 0
        self.bidders_at_cur = []
        self.lb = {}

    def mit_threshold(self, p):
        return max([0] + [self.lb[q] + 1 for q in self.bidders_at_cur if q % 2 != p % 2])

    def legal_calls(self, p, hand):
        j = sum(1 for c in hand if is_jack(c))
        solo_ok = any(is_jack(c) and suit(c) == 0 for c in hand) and not self.first_hand
        if j == 0:
            return {("pass", 0, -1)}
        if j == 4:
            return {("pass", 0, -1)} | ({("big_solo", 0, -1)} if solo_ok else set())
        calls = set()
        for s in range(4):
            n = len(trumps_if(hand, s))
            if n >= 2 and n > self.cur:
                calls.add(("number", n, s))
            low = min(low_value(c) for c in trumps_if(hand, s)) if n else -1
            if self.cur > 0 and n == self.cur and low >= self.mit_threshold(p):
                calls.add(("mit", 0, s))
        if solo_ok:
            calls |= {("small_solo", 0, -1), ("big_solo", 0, -1)}
        if self.cur > 0:
            calls.add(("pass", 0, -1))
        return calls

    def record(self, p, kind, n):
        if kind == "number":
            self.cur, self.bidders_at_cur, self.lb[p] = n, [p], 0
        elif kind == "mit":
            self.lb[p] = self.mit_threshold(p)
            self.bidders_at_cur.append(p)


# --- double dummy (plain minimax, no pruning) -----------------------------------------------
def legal(hand, trick, trump, rule):
    """Legal cards under ``rule``: "BS" (with ``jack_rule`` default), "BS:<jack_rule>", "AS" or "DS"."""
    if rule == "AS":
        return legal_as(hand, trick, trump)
    if rule == "DS":
        return legal_ds(hand, trick, trump)
    jack_rule = rule.split(":")[1] if ":" in rule else "overtake_when_trumping"
    return legal_bs(hand, trick, trump, jack_rule)


def minimax_points(hands, trump, leader, team, trick=(), rule="BS", memo=None):
    """Card points ``team`` takes from the cards still in play (hands: four lists of cards; trick:
    cards of the current trick played from ``leader``), every player playing perfectly: ``team``
    maximises, the other team minimises. Plain minimax over every legal card, no pruning; values
    of trick-boundary positions are remembered in ``memo`` (a dict) so that whole deals finish."""
    trick = list(trick)
    memo = {} if memo is None else memo
    if not trick:
        key = (tuple(tuple(sorted(h)) for h in hands), leader)
        if key not in memo:
            memo[key] = _minimax_node(hands, trump, leader, team, trick, rule, memo)
        return memo[key]
    return _minimax_node(hands, trump, leader, team, trick, rule, memo)


def _minimax_node(hands, trump, leader, team, trick, rule, memo):
    if len(trick) == 4:
        win = (leader + winner(trick, trump)) % 4
        gain = points(trick) if win % 2 == team else 0
        if not hands[win]:
            return gain
        return gain + minimax_points(hands, trump, win, team, (), rule, memo)
    seat = (leader + len(trick)) % 4
    values = []
    for card in sorted(legal(hands[seat], trick, trump, rule)):
        rest = [list(h) for h in hands]
        rest[seat].remove(card)
        values.append(minimax_points(rest, trump, leader, team, trick + [card], rule, memo))
    return max(values) if seat % 2 == team else min(values)


def solo_won(hands, trump, leader, soloist, trick=(), rule="BS", kept=0):
    """§5.4: True if the soloist takes every remaining trick, all hands known (``hands``: four card
    lists, the partner's ignored; ``trick``: cards of the current trick played from ``leader``,
    the partner skipped); with ``kept``, every trick until he holds ``kept`` cards. Plain AND-OR minimax
    over every legal card: the soloist needs one card that works, every card of a defender must fail; a
    trick the soloist loses ends the solo."""
    partner = (soloist + 2) % 4
    seats = [s for s in ((leader + k) % 4 for k in range(4)) if s != partner]
    if len(trick) == 3:
        win = seats[winner(list(trick), trump)]
        if win != soloist:
            return False
        return len(hands[soloist]) <= kept or solo_won(hands, trump, soloist, soloist, (), rule, kept)
    seat = seats[len(trick)]
    values = []
    for card in sorted(legal(hands[seat], list(trick), trump, rule)):
        rest = [list(h) for h in hands]
        rest[seat].remove(card)
        values.append(solo_won(rest, trump, leader, soloist, tuple(trick) + (card,), rule, kept))
    return any(values) if seat == soloist else all(values)
