"""Slow, readable references for Perlaggen trick play, written from the spec (perlaggen.md §2.2,
§2.4, §2.5, §4 B5-B10, §7.1, §7.2, §11.7).

Cards and identities are integers ``8 * suit + rank`` (suits E L H S, rank 0 = 7 ... 7 = Ace) and
32 for the Weli (S6). A play is ``(card, identity)``: a natural card stands for itself, a Perlagg for
the identity it is baptised as when played. Seats 0-3 clockwise, team = seat % 2. The solver test
compares the numba search with `spiel_minimax`, a plain minimax over every legal play (every card,
every identity of every Perlagg) without pruning.
"""

from __future__ import annotations

WELI = 32
IDENTITIES = range(33)
SPIEL = 3
TRICKS = 5
SUIT_LETTERS = "ELHS"

PRECEDENCE = {  # §2.2 (Innsbruck) and §9.1 (Eichel), highest first; "*" is the trump suit
    "innsbruck": ("HK", "S6", "S7", "E7", "*7", "*U", "*O"),
    "eichel": ("HK", "S6", "*7", "*U", "*O", "E7", "EU", "EO"),
}
_RANKS = ("7", "8", "9", "10", "U", "O", "K", "A")


def face(token: str) -> int:
    if token == "S6":
        return WELI
    return 8 * SUIT_LETTERS.index(token[0]) + _RANKS.index(token[1:])


def suit(identity: int) -> int:
    return 3 if identity == WELI else identity // 8


def strength(identity: int) -> int:
    """§1.1: A 8 ... 7 1, the 6 (Weli) 0."""
    return 0 if identity == WELI else identity % 8 + 1


def perlaggen(style: str, trump: int) -> dict[int, int]:
    """Perlagg card -> precedence (higher wins) for a deal with trump suit index ``trump``."""
    cards = []
    for token in PRECEDENCE[style]:
        card = face(token.replace("*", SUIT_LETTERS[trump]))
        if card not in cards:
            cards.append(card)
    return {card: len(cards) - i for i, card in enumerate(cards)}


def legal_plays(hand, trick, trump: int, perl: dict[int, int]) -> set:
    """§7.2 ``legal``: (card, identity) pairs. trick: plays so far; its first identity sets the led suit."""
    nat = [c for c in hand if c not in perl]
    per = [c for c in hand if c in perl]
    if not trick:
        ok, naturals = {0, 1, 2, 3}, nat
    else:
        led = suit(trick[0][1])
        nat_led = [c for c in nat if suit(c) == led]
        nat_trump = [c for c in nat if suit(c) == trump]
        if led != trump and nat_led:
            ok, naturals = {led, trump}, nat_led + nat_trump
        elif led == trump and nat_trump:
            ok, naturals = {trump}, nat_trump
        else:
            ok, naturals = {0, 1, 2, 3}, nat
    return {(c, c) for c in naturals} | {(p, b) for p in per for b in IDENTITIES if suit(b) in ok}


def key(play, led: int, trump: int, perl: dict[int, int]) -> tuple:
    """§2.5 key (tier, strength, prec) of a play; a natural card has prec 0."""
    card, identity = play
    s = suit(identity)
    tier = 2 if s == trump else (1 if s == led else 0)
    return tier, strength(identity), perl.get(card, 0)


def trick_winner(trick, leader: int, trump: int, perl: dict[int, int]) -> int:
    """Seat winning the plays ``trick`` (in order, the first by ``leader``)."""
    led = suit(trick[0][1])
    best = max(range(len(trick)), key=lambda i: key(trick[i], led, trump, perl))
    return (leader + best) % 4


def spiel_minimax(hands, trump: int, perl: dict[int, int], leader: int, won=(0, 0), trick=(), memo=None) -> int:
    """Team that wins the Spiel (3 tricks, play stops there, §7.1) under perfect play; plain minimax.

    hands: four sets of cards still held; trick: plays already made to the current trick by
    ``leader`` and the next seats; won: tricks taken by teams 0 and 1. Every legal play of every
    seat is searched. ``memo`` remembers values of positions already searched (it prunes nothing):
    within a trick a position is the hands, the led suit and the play holding the trick (its key
    and seat), which is all that §2.5 lets the rest of the trick depend on.
    """
    memo = {} if memo is None else memo
    hands = [set(h) for h in hands]
    if trick:
        led = suit(trick[0][1])
        slot = max(range(len(trick)), key=lambda i: key(trick[i], led, trump, perl))
        top = (key(trick[slot], led, trump, perl), (leader + slot) % 4)
        return _spiel_trick(hands, trump, perl, leader, tuple(won), len(trick), led, top, memo)
    return _boundary(hands, trump, perl, leader, tuple(won), memo)


def _boundary(hands, trump, perl, leader, won, memo) -> int:
    for team in (0, 1):
        if won[team] >= SPIEL:
            return team
    return _spiel_trick(hands, trump, perl, leader, won, 0, None, None, memo)


def _spiel_trick(hands, trump, perl, leader, won, count, led, top, memo) -> int:
    """Value after ``count`` plays of the trick; top: (key, seat) of the play holding it."""
    k = (tuple(frozenset(h) for h in hands), leader, won, count, led, top)
    if k in memo:
        return memo[k]
    if count == 4:
        after = list(won)
        after[top[1] % 2] += 1
        value = _boundary(hands, trump, perl, top[1], tuple(after), memo)
    else:
        seat = (leader + count) % 4
        mine = seat % 2
        trick = [] if led is None else [(None, 8 * led)]  # only the led suit matters for legality
        results = set()
        for play in sorted(legal_plays(hands[seat], trick, trump, perl)):
            now_led = suit(play[1]) if led is None else led
            play_key = key(play, now_led, trump, perl)
            now_top = (play_key, seat) if top is None or play_key > top[0] else top
            hands[seat].remove(play[0])
            results.add(_spiel_trick(hands, trump, perl, leader, won, count + 1, now_led, now_top, memo))
            hands[seat].add(play[0])
        value = mine if mine in results else 1 - mine
    memo[k] = value
    return value


# --- policies (§11.7) ---------------------------------------------------------------------------
def _height(card: int, trump: int) -> int:
    """Cheapness of a natural card: strength, every trump above every plain card."""
    return strength(card) + (9 if suit(card) == trump else 0)


def _trick_state(trick, trump, perl):
    """(led suit, key of the play holding the trick, partner of the mover holds it)."""
    led = suit(trick[0][1])
    keys = [key(p, led, trump, perl) for p in trick]
    slot = max(range(len(trick)), key=lambda i: keys[i])
    return led, keys[slot], len(trick) >= 2 and slot == len(trick) - 2


def _ok_identities(plays, card):
    return sorted(b for c, b in plays if c == card)


def _lowest_identity(plays, card, led, trump, perl):
    """The allowed identity of Perlagg ``card`` with the smallest key (ties: smallest identity)."""
    return min(_ok_identities(plays, card), key=lambda b: (key((card, b), led, trump, perl), b))


def _winning_identity(plays, card, led, trump, perl, best):
    """The allowed identity with the smallest key above ``best``, or None."""
    wins = [b for b in _ok_identities(plays, card) if key((card, b), led, trump, perl) > best]
    return min(wins, key=lambda b: key((card, b), led, trump, perl)) if wins else None


def greedy_play(hand, trick, trump: int, perl: dict[int, int]):
    """§11.7 G1 (Spiel only). Leading: with >= 2 natural trumps the highest; else the lowest natural
    of the longest side suit (ties: the lower suit index); else the natural trump; with only
    Perlaggen the highest-precedence one as the trump Ace. Following: partner holding the trick ->
    the cheapest legal card; else the cheapest winning natural, else the lowest-precedence Perlagg
    that can win with its lowest winning identity, else the cheapest legal card. The cheapest card
    is the lowest natural (trumps above plain cards), else the lowest-precedence Perlagg with its
    lowest allowed identity (the figure-driven identity of the spec is not modelled)."""
    plays = legal_plays(hand, trick, trump, perl)
    naturals = sorted(c for c, b in plays if c not in perl)
    per = sorted({c for c, b in plays if c in perl}, key=lambda c: perl[c])
    trump_ace = 8 * trump + 7
    if not trick:
        nat_trump = [c for c in naturals if suit(c) == trump]
        side = [c for c in naturals if suit(c) != trump]
        if len(nat_trump) >= 2:
            return max(nat_trump), max(nat_trump)
        if side:
            counts = {s: sum(suit(c) == s for c in side) for s in range(4)}
            longest = max(range(4), key=lambda s: (counts[s], -s))
            low = min(c for c in side if suit(c) == longest)
            return low, low
        if nat_trump:
            return nat_trump[0], nat_trump[0]
        return per[-1], trump_ace
    led, best, partner = _trick_state(trick, trump, perl)
    if naturals:
        cheapest = min(naturals, key=lambda c: (_height(c, trump), c))
        cheap_play = (cheapest, cheapest)
    else:
        cheap_play = (per[0], _lowest_identity(plays, per[0], led, trump, perl))
    if partner:
        return cheap_play
    winners = [c for c in naturals if key((c, c), led, trump, perl) > best]
    if winners:
        c = min(winners, key=lambda c: (_height(c, trump), c))
        return c, c
    for card in per:
        b = _winning_identity(plays, card, led, trump, perl, best)
        if b is not None:
            return card, b
    return cheap_play


def random_play(hand, trick, trump: int, perl: dict[int, int], u: float):
    """§11.7 R0: the legal card of index floor(u * n) in card order; for a Perlagg, with v = the rest
    u * n - index, the identity of index floor(v * m) among its useful ones: the trump Ace, the
    cheapest winning identity (following), the lowest allowed identity — duplicates dropped."""
    plays = legal_plays(hand, trick, trump, perl)
    cards = sorted({c for c, _ in plays})
    k = int(u * len(cards))
    card = cards[k]
    if card not in perl:
        return card, card
    led = suit(trick[0][1]) if trick else -1
    useful = [8 * trump + 7]
    if trick:
        b = _winning_identity(plays, card, led, trump, perl, _trick_state(trick, trump, perl)[1])
        if b is not None and b not in useful:
            useful.append(b)
    low = _lowest_identity(plays, card, led, trump, perl)
    if low not in useful:
        useful.append(low)
    v = u * len(cards) - k
    return card, useful[int(v * len(useful))]


def figures_play(hand, trick, trump: int, perl: dict[int, int]):
    """§11.7 G2 ("G1 plus figures", trick play only). Leading: as G1. Following: G1 played from the
    natural cards alone while the hand holds one (the Perlaggen are kept for the figures, B10); with
    only Perlaggen, G1's card, with G1's identity if that takes the trick from the opponents, else
    baptised as an Ace of an allowed suit, the one with the smallest key (ties: the lower suit)."""
    if not trick:
        return greedy_play(hand, trick, trump, perl)
    naturals = [c for c in hand if c not in perl]
    if naturals:
        return greedy_play(naturals, trick, trump, perl)
    card, identity = greedy_play(hand, trick, trump, perl)
    led, best, partner = _trick_state(trick, trump, perl)
    if not partner and key((card, identity), led, trump, perl) > best:
        return card, identity
    aces = [b for b in _ok_identities(legal_plays(hand, trick, trump, perl), card) if b != WELI and b % 8 == 7]
    return card, min(aces, key=lambda b: (key((card, b), led, trump, perl), b))


# --- G2 concession (§11.7, §8.3) -----------------------------------------------------------------
def view_cell(hand, gone, won, seat: int, leader: int, trump: int, perl: dict[int, int]) -> int:
    """What ``seat`` sees at a trick boundary as one number: (its team's tricks, the other's, its team
    leads, its Perlaggen, its natural trumps, its top Perlagg above every Perlagg it has not seen
    played), mixed radix 3, 3, 2, 6, 6, 2. gone: the cards played so far."""
    team = seat % 2
    mine = [perl[c] for c in hand if c in perl]
    unseen = [q for c, q in perl.items() if c not in hand and c not in gone]
    top = int(bool(mine) and all(q < max(mine) for q in unseen))
    trumps = sum(1 for c in hand if c not in perl and suit(c) == trump)
    digits = (won[team], won[1 - team], int(leader % 2 == team), len(mine), trumps, top)
    cell = 0
    for digit, radix in zip(digits, (3, 3, 2, 6, 6, 2)):
        cell = cell * radix + digit
    return cell


def conceding_play_out(hands, trump: int, perl: dict[int, int], odds, concede: float, leader: int = 1):
    """Play a deal out with G2 at every seat, a team giving the Spiel up as soon as one of its players,
    asked in turn from the leader at a trick boundary, has odds[view_cell] < concede. Returns
    (winning team, tricks played, cells): cells[(trick boundary, seat)] = that seat's cell there."""
    hands = [set(h) for h in hands]
    won, gone, cells = [0, 0], set(), {}
    while max(won) < SPIEL:
        for i in range(4):
            seat = (leader + i) % 4
            cells[sum(won), seat] = view_cell(hands[seat], gone, won, seat, leader, trump, perl)
            if odds[cells[sum(won), seat]] < concede:
                return 1 - seat % 2, sum(won), cells
        trick = []
        for i in range(4):
            seat = (leader + i) % 4
            play = figures_play(hands[seat], trick, trump, perl)
            hands[seat].remove(play[0])
            gone.add(play[0])
            trick.append(play)
        leader = trick_winner(trick, leader, trump, perl)
        won[leader % 2] += 1
    return (0 if won[0] >= SPIEL else 1), sum(won), cells
