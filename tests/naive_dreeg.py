"""Plain references for Dreeg (spec shared/rules/dreeg.md), written from the spec's pseudo-code with
lists and sets: legal cards, trick winner, the ranking tables, Kamerun erasing, and a plain minimax
of the trick play without pruning.

Cards are (suit, rank) pairs: suit 0-3 (E L H S), rank 0-5 (9 U O K 10 A, higher wins); the
`card` helper converts to the toolkit's ``6 * suit + rank``.
"""

from __future__ import annotations

POINTS = {0: 0, 1: 2, 2: 3, 3: 4, 4: 10, 5: 11}


def suit(c):
    return c // 6


def rank(c):
    return c % 6


def legal_follow(hand, trick, trump, mode="strict", no_undertrump=False, head_trumped=False):
    """§3.0.2 ``legal_follow`` as written in the spec (trump None: no trump); mode "free" or
    "follow" (follow suit only)."""
    hand = sorted(hand)
    if not trick or mode == "free":
        return set(hand)
    led = suit(trick[0])
    same = [c for c in hand if suit(c) == led]
    trick_trumps = [c for c in trick if trump is not None and suit(c) == trump]
    if same:
        if mode == "follow":
            return set(same)
        if led == trump or not trick_trumps or head_trumped:
            best = max(rank(c) for c in trick if suit(c) == led)
            higher = [c for c in same if rank(c) > best]
            return set(higher or same)
        return set(same)
    if trump is not None and mode == "strict":
        mine = [c for c in hand if suit(c) == trump]
        if mine:
            if trick_trumps:
                best = max(rank(c) for c in trick_trumps)
                over = [c for c in mine if rank(c) > best]
                if over:
                    return set(over)
                return set(hand) if no_undertrump else set(mine)
            return set(mine)
    return set(hand)


def winner_slot(trick, trump):
    """§3.0.1: highest trump, else highest card of the suit led."""
    led = suit(trick[0])
    best = 0
    for i, c in enumerate(trick):
        b = trick[best]
        if trump is not None and suit(c) == trump:
            if suit(b) != trump or rank(c) > rank(b):
                best = i
        elif suit(c) == led and suit(b) == led and rank(c) > rank(b):
            best = i
    return best


def _tie_blocks(points, last_winner, S, pick):
    """The spec's ranking loop: blocks of equal adjusted points; ``pick(i, j)`` the table index a
    block from place i to place j erases (§3.0.6: j, the lowest value; §3.4.4: i, the highest)."""
    adj = {p: points[p] + (0.5 if p == last_winner else 0) for p in points}
    order = sorted(points, key=lambda p: -adj[p])
    out, i = {}, 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and adj[order[j + 1]] == adj[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = S[pick(i, j)]
        i = j + 1
    return out


def individual_66(points, last_winner, S):
    """§3.0.6 pseudo-code (dict player -> points)."""
    return _tie_blocks(points, last_winner, S, lambda i, j: j)


def kamerun_normal(points, tricks, last_winner, S):
    """§3.4.4 pseudo-code, and §3.4.3's undeclared sweep: the one player with tricks erases 3, the others 0."""
    winners = [p for p in points if tricks[p] > 0]
    if len(winners) == 1:
        return {p: 3 if p in winners else 0 for p in points}
    out = _tie_blocks(points, last_winner, S, lambda i, j: i)
    for p in points:
        if tricks[p] == 0:
            out[p] = 0
    return out


def apply_kamerun(strokes, erase):
    """§3.4.6 pseudo-code (dicts)."""
    for k in (3, 2, 1):
        group = [p for p, e in erase.items() if e == k]
        for p in group:
            strokes[p] = max(0, strokes[p] - k)
        losers = [p for p in group if strokes[p] == 0]
        if losers:
            return losers
    return []


def minimax(hands, leader, trump, maxside, restrict=False, exempt=None, count_tricks=False, played=(), last_led=None,
            counted=None):
    """Card points (or tricks) the side ``maxside`` (a set of seats) takes in the remaining tricks
    when it maximises and the others minimise, every seat playing STRICT legal cards; no pruning.
    hands: list of sets of cards per seat; trump None for no trump; restrict: the Kamerun lead
    restriction (§3.4.2) from the next trick on (from this one when ``last_led``, the suit led to the
    previous trick, is given), not binding seat ``exempt``; played: cards already on the table in the
    current trick, led by ``leader``; counted: the seats whose points (tricks) count, ``maxside``
    maximising and the others minimising them (default: ``maxside``)."""
    n = len(hands)
    counted = maxside if counted is None else counted

    def trick(hands, leader, played, last_led):
        if len(played) == n:
            w = (leader + winner_slot(played, trump)) % n
            gain = (1 if count_tricks else sum(POINTS[rank(c)] for c in played)) if w in counted else 0
            if not hands[w]:
                return gain
            return gain + trick(hands, w, [], suit(played[0]))
        seat = (leader + len(played)) % n
        if played:
            options = legal_follow(hands[seat], played, trump)
        else:
            options = set(hands[seat])
            other = {c for c in options if suit(c) != last_led}
            if restrict and last_led is not None and seat != exempt and other:
                options = other
        values = [trick([h - {c} if i == seat else h for i, h in enumerate(hands)], leader, played + [c], last_led)
                  for c in sorted(options)]
        return max(values) if seat in maxside else min(values)

    return trick([set(h) for h in hands], leader, list(played), last_led)


# --- the optional sub-games of §3.5 ----------------------------------------------------------------
def blind_kamerun(hands, picks, S):
    """Kamerun bei Nacht (§3.5) written plainly: ``hands`` lists of cards from forehand; every
    player in turn plays the card at index ``int(u * len(hand))`` of his sorted hand, ``u`` the next
    of ``picks``; the highest card of the suit led wins; scored as Kamerun (§3.4.4). Returns the
    erase list."""
    hands = [sorted(h) for h in hands]
    n, picks = len(hands), iter(picks)
    points, tricks, leader = {p: 0 for p in range(n)}, {p: 0 for p in range(n)}, 0
    while hands[leader]:
        played = []
        for k in range(n):
            hand = hands[(leader + k) % n]
            played.append(hand.pop(int(next(picks) * len(hand))))
        leader = (leader + winner_slot(played, None)) % n
        points[leader] += sum(POINTS[rank(c)] for c in played)
        tricks[leader] += 1
    out = kamerun_normal(points, tricks, leader, S)
    return [out[p] for p in range(n)]


def wegloescher_erase(strokes, pair, erase):
    """§3.5 Weglöscher: the two players erase their own counts, everyone else still in erases the
    winner's count but keeps his last stroke (dict seat -> strokes)."""
    won = max(erase[p] for p in pair)
    out = {}
    for p, s in strokes.items():
        if p in pair:
            out[p] = max(0, s - erase[p])
        elif s == 0:
            out[p] = 0
        else:
            out[p] = max(1, s - won)
    return out
