"""Dreeg policies: every decision a player makes in `simcore.games.dreeg_play`.

A policy answers the engine's questions; each gets the `Play` (it reads only its own hand and
public facts: the trick, cards gone, trump, announced marriages, its side's running total, which
perfect recall allows, §5 A24) and its position:

* ``card(play, pos, legal) -> card``; ``announce(play, pos, suits) -> suit or -1``;
* ``go_out``, ``close``, ``exchange``, ``durchmarsch`` ``(play, pos) -> bool``;
* ``heart_ace(play, pos) -> bool``: announce the heart ace now (2-player Rot Assen; False keeps it
  hidden, a breach the engine may detect, §5 A13);
* ``ra_trump(play, pos, suits, allow_surrender) -> suit or -1`` (Rot Assen);
* ``call(play, pos, packet) -> card`` and ``name_trump(play, pos, packet, suits) -> suit`` (Rufen).

`RandomPolicy` answers every question uniformly among its legal answers. `GreedyPolicy` is this
toolkit's baseline (not in the spec): it announces every marriage (the highest first), goes out as
soon as its side has 66, closes when its side's points, marriages and sure tricks reach 66
(`sure_cards`; it goes out on its count, `Play.counted_score`, which the §5 A24
counting-error model can spoil), always exchanges the trump 9, calls the highest card it lacks of its longest suit
in the first packet (§3.3.1 heuristic), surrenders a Rot Assen hand with fewer trumps and side
Aces than half its cards, and declares Durchmarsch only when every card is sure. In play it cashes
sure Aces and Tens, takes tricks as cheaply as it can, gives points to a partner holding the trick
when it plays last, and otherwise throws its cheapest card; in Kamerun it leads low, ducks with
its highest safe card and discards its highest points. Random and greedy announce the heart ace
at once; `SlyPolicy` is greedy but keeps it hidden until the last window before the talon flip
would expose it. `PimcPolicy` plays its cards by
perfect-information Monte Carlo over the double-dummy solver once play is STRICT, and is greedy
otherwise.
"""

from __future__ import annotations

import numpy as np

from simcore.errors import unknown_name
from simcore.games import dreeg_rules as r

UNIFORM_BUFFER = 512
"""Uniform numbers a random policy draws from its stream at a time."""
SURE_TRICK_BONUS = 3
"""Points the closing estimate adds per sure trick for the opponent's card."""


class _Uniforms:
    """Uniform numbers in [0, 1) from a numpy Generator, drawn in buffers."""

    def __init__(self, rng: np.random.Generator):
        self.rng, self.buf, self.i = rng, np.empty(0), 0

    def next(self) -> float:
        if self.i >= self.buf.size:
            self.buf, self.i = self.rng.random(UNIFORM_BUFFER), 0
        self.i += 1
        return float(self.buf[self.i - 1])

    def pick(self, options):
        return options[int(self.next() * len(options))]


class RandomPolicy:
    """Uniform among the legal answers of every question."""

    name = "random"

    def __init__(self, rng: np.random.Generator):
        self.u = _Uniforms(rng)

    def card(self, play, pos, legal):
        return self.u.pick(r.cards_of(legal))

    def announce(self, play, pos, suits):
        return self.u.pick(list(suits) + [-1])

    def _coin(self, play, pos):
        return self.u.next() < 0.5

    go_out = close = exchange = durchmarsch = _coin

    def heart_ace(self, play, pos):
        return True  # hiding it is a breach, not a legal answer

    def ra_trump(self, play, pos, suits, allow_surrender):
        return self.u.pick(list(suits) + ([-1] if allow_surrender else []))

    def call(self, play, pos, packet):
        return self.u.pick([c for c in range(24) if packet & r.SUIT_MASKS[r.card_suit(c)]])

    def name_trump(self, play, pos, packet, suits):
        return self.u.pick(list(suits))


def sure_cards(hand: int, gone: int, trump: int) -> int:
    """Cards of ``hand`` that win a trick as a lead whatever the others hold: the unbroken top
    sequence of the trump suit (or of every suit without trump) among the cards not ``gone``, and
    the top card of every other suit."""
    out = 0
    for s in range(r.N_SUITS):
        rest = r.SUIT_MASKS[s] & ~gone
        while rest:
            top = rest.bit_length() - 1
            if not (hand >> top) & 1:
                break
            out |= 1 << top
            rest &= ~(1 << top)
            if trump >= 0 and s != trump:
                break
    return out


def _suit_key(hand: int, suit: int) -> tuple[int, int]:
    """(cards, points) of ``hand`` in ``suit``: a longer, then richer suit is the better trump."""
    cards = hand & r.SUIT_MASKS[suit]
    return r.bit_count(cards), r.points_of(cards)


def _cheap_key(card: int, trump: int) -> tuple[int, int, int]:
    return int(r.card_suit(card) == trump), r.POINTS[card], r.card_rank(card)


class GreedyPolicy:
    """The baseline described in the module docstring; deterministic."""

    name = "greedy"

    def __init__(self, rng: np.random.Generator | None = None):
        pass

    # --- card play ---------------------------------------------------------------------------------
    def card(self, play, pos, legal):
        cards = r.cards_of(legal)
        if len(cards) == 1:
            return cards[0]
        if play.subgame == "KA":
            return self._kamerun_card(play, pos, cards)
        trump = play.trump
        if not play.trick:
            sure = sure_cards(play.hands[pos], play.gone, trump) & legal
            cash = [c for c in r.cards_of(sure) if r.POINTS[c] >= 10]
            if cash:
                return max(cash, key=lambda c: (r.POINTS[c], r.card_suit(c) != trump))
            return min(cards, key=lambda c: _cheap_key(c, trump))
        holder = (play.leader + r.winning_slot(play.trick, trump)) % play.n
        last = len(play.trick) == play.n - 1
        if play.sides[holder] == play.sides[pos]:
            if last:
                return max(cards, key=lambda c: (r.card_suit(c) != trump, r.POINTS[c]))
            return min(cards, key=lambda c: _cheap_key(c, trump))
        winners = r.winning_cards(cards, play.trick, trump)
        if play.mode == r.FREE:
            stake = sum(r.POINTS[c] for c in play.trick)
            winners = [c for c in winners if r.card_suit(c) != trump or stake >= 10]
        if winners:
            return min(winners, key=lambda c: (r.card_suit(c) == trump, r.card_rank(c)))
        return min(cards, key=lambda c: _cheap_key(c, trump))

    @staticmethod
    def _kamerun_card(play, pos, cards):
        if not play.trick:
            return min(cards, key=lambda c: (r.card_rank(c), r.POINTS[c]))
        heads = r.winning_cards(cards, play.trick, -1)
        ducks = [c for c in cards if c not in heads]
        if ducks:
            return max(ducks, key=lambda c: (r.POINTS[c], r.card_rank(c)))
        if len(play.trick) == play.n - 1:
            return min(heads, key=lambda c: (r.POINTS[c], r.card_rank(c)))
        return min(heads, key=r.card_rank)

    # --- announcements and options -------------------------------------------------------------------
    def announce(self, play, pos, suits):
        return max(suits, key=lambda s: (r.marriage_value(s, play.trump), s))

    def go_out(self, play, pos):
        return play.counted_score(play.sides[pos]) >= r.TARGET

    def heart_ace(self, play, pos):
        return True

    def close(self, play, pos):
        hand = play.hands[pos]
        sure = sure_cards(hand, play.gone, play.trump)
        marriages = sum(r.marriage_value(s, play.trump) for s in r.marriage_suits(hand))
        estimate = (play.side_score(play.sides[pos]) + marriages + r.points_of(sure)
                    + SURE_TRICK_BONUS * r.bit_count(sure))
        return estimate >= r.TARGET

    def exchange(self, play, pos):
        return True

    def durchmarsch(self, play, pos):
        hand = play.hands[pos]
        return sure_cards(hand, play.gone, -1) == hand

    # --- trump choices and calls ----------------------------------------------------------------------
    def ra_trump(self, play, pos, suits, allow_surrender):
        hand = play.hands[pos]
        best = max(suits, key=lambda s: (_suit_key(hand, s), s))
        aces = sum((hand >> (6 * s + r.ACE)) & 1 for s in range(r.N_SUITS) if s != best)
        if allow_surrender and _suit_key(hand, best)[0] + aces < r.bit_count(hand) // 2:
            return -1
        return best

    def call(self, play, pos, packet):
        suit = max((s for s in range(r.N_SUITS) if packet & r.SUIT_MASKS[s]), key=lambda s: (_suit_key(packet, s), s))
        missing = r.SUIT_MASKS[suit] & ~packet
        return missing.bit_length() - 1

    def name_trump(self, play, pos, packet, suits):
        return max(suits, key=lambda s: (_suit_key(packet, s), s))


SLY_REVEAL_TRICK = 3
"""`SlyPolicy` announces a hidden heart ace at the window after this trick's draws: the last one
before the talon flip would expose it (§3.2.2); an announcement after a draw cannot be told from
a freshly drawn ace."""


class SlyPolicy(GreedyPolicy):
    """Greedy, except in 2-player Rot Assen: it keeps a heart ace dealt or drawn to it hidden (a
    breach, §3.2.2) until the window after trick `SLY_REVEAL_TRICK`, playing the first tricks
    without trump. While hiding it never plays the ace and never closes (either would expose it,
    §5 A13); the opponent may still expose it by closing."""

    name = "sly"

    def heart_ace(self, play, pos):
        return sum(play.tricks) >= SLY_REVEAL_TRICK

    @staticmethod
    def _hiding(play, pos) -> bool:
        return play.heart_ace_pending and bool((play.hands[pos] >> r.HEART_ACE) & 1)

    def card(self, play, pos, legal):
        if self._hiding(play, pos) and legal != r.bit(r.HEART_ACE):
            legal &= ~r.bit(r.HEART_ACE)
        return super().card(play, pos, legal)

    def close(self, play, pos):
        return not self._hiding(play, pos) and super().close(play, pos)


class PimcPolicy(GreedyPolicy):
    """Perfect-information Monte Carlo card play: ``worlds`` deals of the unseen cards consistent
    with what the player knows (his hand, cards played, hand sizes, shown voids, cards shown in a hand
    or the talon) are solved double
    dummy (`simcore.games.dreeg_dd`) after each legal card; it plays the card with the best total
    for its side (Kamerun: the fewest points for itself), ties broken greedily. In Kamerun the solved value after a
    card is its points when it plays on for the most and the others for it taking the fewest: measured against
    two consistent models (Kamerun, position 0 PIMC against three greedy players, the same deals, 2026-12-05), the
    others playing to give it the most (the `dreeg_dd` ``counted`` roles of `cardsim solve dreeg`) took 3.1 +- 1.4
    more card points and erased 0.17 +- 0.07 more strokes a hand (300 deals), everybody playing for its fewest
    0.7 +- 0.6 more points and 0.07 +- 0.03 more strokes (1,000 deals): both kept out. Used once play is
    STRICT (the talon closed or gone, 3-4 players) and after Rufen's first trick; everything else,
    and every other decision, is greedy. Marriages and going out are not in the solved value."""

    name = "pimc"
    WORLDS = 6
    TRIES = 20

    def __init__(self, rng: np.random.Generator, worlds: int = WORLDS):
        super().__init__()
        self.rng, self.worlds = rng, worlds

    def card(self, play, pos, legal):
        cards = r.cards_of(legal)
        if len(cards) == 1 or play.mode == r.FREE or (play.called >= 0 and play.gone == 0):
            return super().card(play, pos, legal)
        kamerun = play.subgame == "KA"
        side = {pos} if kamerun else {i for i in range(play.n) if play.sides[i] == play.sides[pos]}
        worlds = [self._world(play, pos) for _ in range(self.worlds)]
        scores = {c: sum(_value_after(play, pos, w, c, side) for w in worlds) for c in cards}
        best = (min if kamerun else max)(scores.values())
        tied = sum(1 << c for c in cards if scores[c] == best)
        return super().card(play, pos, tied)

    def _world(self, play, pos) -> list[int]:
        """The other hands dealt from the unseen cards: the cards a player is known to hold (`Play.shown`)
        to him, talon cards known to everyone (`Play.talon_shown`) to nobody, and each other card to a
        player with room who has not shown a void in its suit (a random such deal; after `TRIES` dead
        ends, voids are ignored)."""
        for _ in range(self.TRIES):
            hands = self._deal_unseen(play, pos, use_voids=True)
            if hands is not None:
                return hands
        return self._deal_unseen(play, pos, use_voids=False)

    def _deal_unseen(self, play, pos, use_voids: bool):
        unseen = r.ALL & ~(play.hands[pos] | play.gone | sum(1 << c for c in play.trick))
        hands = [play.hands[i] if i == pos else play.shown[i] & unseen for i in range(play.n)]
        left = [0 if i == pos else r.bit_count(play.hands[i]) - r.bit_count(hands[i]) for i in range(play.n)]
        free = unseen & ~sum(hands[i] for i in range(play.n) if i != pos) & ~play.talon_shown
        for card in self.rng.permutation(r.cards_of(free)):
            suit = r.card_suit(int(card))
            fits = [i for i in range(play.n) if left[i] and not (use_voids and play.voids[i] >> suit & 1)]
            if fits:
                i = fits[int(self.rng.random() * len(fits))]
                hands[i] |= 1 << int(card)
                left[i] -= 1
        return None if any(left) else hands


def _value_after(play, pos: int, hands: list[int], card: int, side: set) -> int:
    """Double-dummy points of ``side`` from the trick in play on, after ``pos`` plays ``card``."""
    from simcore.games import dreeg_dd

    hands = list(hands)
    hands[pos] &= ~(1 << card)
    trick = play.trick + [card]
    kamerun = play.subgame == "KA"
    common = dict(mode=play.mode_strict, flags=play.flags, exempt=play.declarer)
    if len(trick) < play.n:
        return dreeg_dd.trusted_solve(hands, play.leader, play.trump, side, last_led=-1 if kamerun else -2,
                                      trick=trick, **common)
    winner = (play.leader + r.winning_slot(trick, play.trump)) % play.n
    gain = sum(r.POINTS[c] for c in trick) if winner in side else 0
    if hands[winner] == 0:
        return gain
    return gain + dreeg_dd.trusted_solve(hands, winner, play.trump, side,
                                         last_led=r.card_suit(trick[0]) if kamerun else -2, **common)


class Committed:
    """A policy with some answers fixed (e.g. the call or trump a user asks about); the others are
    ``inner``'s. answers: question name -> value."""

    def __init__(self, inner, **answers):
        self.inner, self.answers = inner, answers

    def __getattr__(self, name):
        if name in self.answers:
            return lambda play, pos, *args: self.answers[name]
        return getattr(self.inner, name)


POLICIES = {"random": RandomPolicy, "greedy": GreedyPolicy, "pimc": PimcPolicy, "sly": SlyPolicy}


def make_policy(name: str, rng: np.random.Generator):
    """A policy by name; CardsimError names the known ones."""
    if not isinstance(name, str) or name not in POLICIES:
        raise unknown_name("policy", name, POLICIES)
    return POLICIES[name](rng)
