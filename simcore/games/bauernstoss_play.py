"""Bauernstoss trick play: legal moves, trick winner, card points, policies and the play-out of a hand.

Rules: shared/rules/bauernstoss.md §1.2 (trump order, effective suit), §5.2 (BS obligations and the
jack-overtake duty, scope per option ``jack_rule``, §8 A1), §5.3 (trick winner), §7.1 AS-7..AS-9 and
§7.2 DS-8. Cards as in `simcore.games.bauernstoss`: ``card = 8*suit + rank``, ranks 7 8 9 B D K T A
weakest first; a hand is a ``uint32`` mask (bit ``card``). A trick is ``(4,) int64`` cards in play
order with ``count`` of them played (a solo trick has at most 3); the trump suit is 0-3.

Every order question is answered by the tables of the game module: ``EFF`` (effective suit),
``EFF_MASKS`` (the cards of an effective suit), ``STRENGTH`` (the §1.2 key) and ``BEATS`` (the cards
that take a trick from the card holding it).

Policies choose from what a player sees (own hand, the trick so far, trumps), one uniform number per
decision: `RANDOM` plays a uniform legal card; `GREEDY` (this toolkit's baseline, not in the spec)
leads its strongest card and, following, plays its weakest card when its partner holds the trick,
else its weakest card that takes the trick, else its weakest card ("strength" = the §1.2 key). A solo
defender (points do not count in a solo) leads its strongest plain card, not a trump, and throws the
highest card of a suit, a guard against the soloist, only when every card left is one.
A play-out runs all 8 tricks of a normal game, or a solo (§5.4: the soloist's partner sits out,
three cards a trick, play stops at the first trick the soloist loses).

`play_hand` and `play_game` chain the auction, the Small Solo exchange, the play-out and the
scoring of the game module into whole hands and games (§6.4).
"""

from __future__ import annotations

import numpy as np

from simcore import checks
from simcore.config import kernel_array, njit
from simcore.errors import CardsimError, is_whole_int
from simcore.games.bauernstoss import (
    BEATS,
    CLUB_JACK,
    DECK,
    EFF,
    EFF_MASKS,
    FACE_POINTS,
    JACKS,
    RANK_MASKS,
    RANK_POINTS,
    SEATS,
    SMALL_SOLO,
    SOLOS,
    STRENGTH,
    THROW_IN,
    TRICKS,
    TRUMP,
    Auction,
    Contract,
    GameState,
    HandResult,
    baseline_call,
    best_suit,
    ends_game,
    rule_options,
    score_hand,
)
from simcore.tricks import lowest_card, popcount, random_card

BS_OVERTAKE, BS_JACK_ALWAYS, BS_NO_JACK, AS_BEAT_TRUMP, DS_FOLLOW = range(5)
"""Play rules of `legal_mask`: BS with the jack duty when trumping (§5.2, default of §8 A1), BS with
the jack duty overriding following suit, BS without the jack duty, AS (§7.1 AS-7/8), DS (§7.2 DS-8)."""
RANDOM, GREEDY = 0, 1
POLICIES = {"random": RANDOM, "greedy": GREEDY}
DECISIONS = SEATS * TRICKS
"""Uniform numbers a play-out reads (one per card played)."""
_BS_RULES = {"overtake_when_trumping": BS_OVERTAKE, "always_overrides_follow": BS_JACK_ALWAYS, "off": BS_NO_JACK}

_JACKS = np.uint64(JACKS)
_ONE = np.uint64(1)
_ALL = np.uint64(0xFFFFFFFF)
_POINT_MASKS = np.array([RANK_MASKS[DECK.ranks.index(r)] for r in RANK_POINTS if RANK_POINTS[r]], dtype=np.uint64)
_POINT_VALUES = np.array([RANK_POINTS[r] for r in RANK_POINTS if RANK_POINTS[r]], dtype=np.int64)


def play_rule(variant: str = "BS", jack_rule: str = "overtake_when_trumping") -> int:
    """The `legal_mask` rule code of the options ``variant`` and ``jack_rule`` (the latter BS only)."""
    if variant == "AS":
        return AS_BEAT_TRUMP
    if variant == "DS":
        return DS_FOLLOW
    if variant != "BS" or not isinstance(jack_rule, str) or jack_rule not in _BS_RULES:
        raise CardsimError(f"unknown play rules variant={variant!r} jack_rule={jack_rule!r}; "
                           f"variants BS/AS/DS, jack_rule {'/'.join(_BS_RULES)}")
    return _BS_RULES[jack_rule]


@njit
def winning_slot(trick, count, trump):
    """Slot (0 = leader) of the card holding the first ``count`` >= 1 cards of ``trick`` (spec §5.3)."""
    best = 0
    for i in range(1, count):
        if (np.uint64(BEATS[trump, trick[best]]) >> np.uint64(trick[i])) & _ONE:
            best = i
    return best


@njit
def legal_mask(hand, trick, count, trump, rule):
    """Legal cards (uint64 mask) of ``hand`` after ``count`` cards of ``trick`` (spec §5.2, AS-7/8, DS-8)."""
    hand = np.uint64(hand)
    if count == 0:
        return hand
    led = EFF[trump, trick[0]]
    follow = hand & EFF_MASKS[trump, led]
    if rule == DS_FOLLOW:
        return follow if follow else hand
    trumps = hand & EFF_MASKS[trump, TRUMP]
    must = follow if follow else trumps
    if not must:
        return hand
    top = trick[winning_slot(trick, count, trump)]
    if rule == AS_BEAT_TRUMP:
        over = must & BEATS[trump, top]
        return over if led == TRUMP and over else must
    # jacks are the top trumps: a jack in the trick holds it, and "a higher jack" is a jack beating it
    jack_duty = rule == BS_JACK_ALWAYS or (rule == BS_OVERTAKE and (led == TRUMP or not follow))
    over = hand & _JACKS & BEATS[trump, top]
    if jack_duty and over and (_JACKS >> np.uint64(top)) & _ONE:
        return over
    return must


@njit
def card_points(mask):
    """Card points (int64) of a card mask (spec §1.1: A 11, T 10, K 4, D 3, B 2)."""
    mask = np.uint64(mask)
    total = 0
    for i in range(_POINT_MASKS.shape[0]):
        total += _POINT_VALUES[i] * popcount(mask & _POINT_MASKS[i])
    return total


@njit
def _legal_masks(hands, tricks, counts, trumps, rule, out):
    for i in range(hands.shape[0]):
        out[i] = legal_mask(hands[i], tricks[i], counts[i], trumps[i], rule)


@njit
def _winning_slots(tricks, counts, trumps, out):
    for i in range(tricks.shape[0]):
        out[i] = winning_slot(tricks[i], counts[i], trumps[i])


def check_rule(rule) -> None:
    """CardsimError unless ``rule`` is a `play_rule` code."""
    if not is_whole_int(rule) or rule not in range(DS_FOLLOW + 1):
        raise CardsimError(f"rule must be a play rule code 0-{DS_FOLLOW} (bauernstoss_play.play_rule), got {rule!r}")


def legal_masks(hands, tricks, counts, trumps, rule: int = BS_OVERTAKE) -> np.ndarray:
    """`legal_mask` of many positions: hands (n,) masks of the mover's 1-8 cards, tricks (n, 4) cards in play order
    (the first counts[i] of row i on the trick, none in the hand), counts (n,) 0-3, trumps (n,) suits 0-3 ->
    (n,) uint32 legal cards. CardsimError for anything else."""
    hands, tricks, counts = checks.trick_positions(hands, tricks, counts, DECK.n_cards, SEATS, TRICKS)
    trumps = checks.column(trumps, hands.size, "trumps", 4)
    check_rule(rule)
    out = np.empty(hands.shape[0], dtype=np.uint32)
    _legal_masks(hands.astype(np.uint32), tricks, counts, trumps, rule, out)
    return out


def winning_slots(tricks, counts, trumps) -> np.ndarray:
    """`winning_slot` of many tricks: tricks (n, 4) cards in play order, counts (n,) 1-4 cards on the trick,
    trumps (n,) suits 0-3 -> (n,) int64 slots. CardsimError for anything else (a count of 0 has no winner)."""
    tricks = np.asarray(tricks)
    n = tricks.shape[0] if tricks.ndim == 2 else 0
    counts = checks.column(counts, n, "counts (the cards on the trick, 1-4)", SEATS + 1)
    on_table = np.arange(SEATS) < counts[:, None]
    if tricks.shape != (n, SEATS) or not n or tricks.dtype.kind not in "iu" or (counts < 1).any() \
            or (on_table & ((tricks < 0) | (tricks >= DECK.n_cards))).any() \
            or any(len(set(row[:c])) < c for row, c in zip(tricks.tolist(), counts.tolist())):
        raise CardsimError(f"tricks must be (n, {SEATS}) distinct cards 0-{DECK.n_cards - 1} in play order, the "
                           f"first counts (1-{SEATS}) of each row, got {checks.shown(tricks)} with counts "
                           f"{checks.shown(counts)}")
    out = np.empty(n, dtype=np.int64)
    _winning_slots(np.where(on_table, tricks, 0).astype(np.int64), counts, checks.column(trumps, n, "trumps", 4), out)
    return out


# --- policies ---------------------------------------------------------------------------------
@njit
def _tops(cards, trump):
    """The highest card (§1.2) of every effective suit of the mask ``cards``, as a mask."""
    tops = np.uint64(0)
    for eff in range(5):
        suit = cards & EFF_MASKS[trump, eff]
        top = -1
        while suit:
            card = lowest_card(suit)
            suit &= suit - _ONE
            if top < 0 or STRENGTH[trump, card] > STRENGTH[trump, top]:
                top = card
        if top >= 0:
            tops |= _ONE << np.uint64(top)
    return tops


@njit
def _greedy(legal, trick, count, trump, partner_holds, guard, unseen):
    """The `GREEDY` card of the ``legal`` mask; equal keys go to the lower card index. ``guard``: a
    solo defender, who leads plain cards before trumps and keeps the highest card of each suit as long
    as it can (card points do not count in a solo; only such a card may still beat the soloist) and of
    those throws first the one with the fewest cards below it in its suit that it has not seen
    (``unseen``: a mask), the cards of the soloist it could still beat."""
    beats = BEATS[trump, trick[winning_slot(trick, count, trump)]] if count else np.uint64(0)
    tops = _tops(legal, trump) if guard else np.uint64(0)
    best, best_key = -1, 0
    m = legal
    while m:
        card = lowest_card(m)
        m &= m - _ONE
        height = STRENGTH[trump, card]
        if count == 0:
            key = height - (100 if guard and EFF[trump, card] == TRUMP else 0)
        elif partner_holds or not (beats >> np.uint64(card)) & _ONE:
            key = -height
            if (tops >> np.uint64(card)) & _ONE:
                below = EFF_MASKS[trump, EFF[trump, card]] & ~BEATS[trump, card] & ~(_ONE << np.uint64(card))
                key -= 100 + 32 * popcount(unseen & below)
        else:
            key = 100 - height  # any card that takes the trick ranks above every card that does not
        if best < 0 or key > best_key:
            best, best_key = card, key
    return best


@njit
def _choose(policy, hand, trick, count, trump, rule, partner_holds, guard, unseen, u):
    legal = legal_mask(hand, trick, count, trump, rule)
    if policy == GREEDY:
        return _greedy(legal, trick, count, trump, partner_holds, guard, unseen)
    return random_card(legal, u)


# --- play-out ---------------------------------------------------------------------------------
@njit
def _play_deal(policy, hands, trump, leader, soloist, rule, u, line, points, tricks):
    """Play one hand with ``policy`` for every seat.

    hands (4,) uint64 (modified); soloist: -1 for a normal game, else the seat playing alone (its
    partner sits out); u (DECISIONS,) uniforms; line (DECISIONS,) int64 receives the cards in play
    order; points, tricks (2,) int64 receive each team's card points and tricks. Returns the
    number of cards played.
    """
    out = (soloist + 2) % SEATS if soloist >= 0 else -1
    active = SEATS - 1 if soloist >= 0 else SEATS
    trick = np.zeros(SEATS, dtype=np.int64)
    seats = np.zeros(SEATS, dtype=np.int64)
    taken = np.zeros(2, dtype=np.uint64)
    gone = np.uint64(0)
    tricks[:] = 0
    played = 0
    for _ in range(TRICKS):
        seat = leader
        on_table = np.uint64(0)
        for count in range(active):
            if seat == out:
                seat = (seat + 1) % SEATS
            holder = seats[winning_slot(trick, count, trump)] if count else -1
            partner_holds = holder >= 0 and holder != seat and holder % 2 == seat % 2
            unseen = _ALL & ~(hands[seat] | gone | on_table)
            defends_solo = soloist >= 0 and seat != soloist
            card = _choose(policy, hands[seat], trick, count, trump, rule, partner_holds, defends_solo, unseen,
                           u[played])
            bit = _ONE << np.uint64(card)
            hands[seat] &= ~bit
            on_table |= bit
            trick[count], seats[count], line[played] = card, seat, card
            played += 1
            seat = (seat + 1) % SEATS
        leader = seats[winning_slot(trick, active, trump)]
        gone |= on_table
        taken[leader % 2] |= on_table
        tricks[leader % 2] += 1
        if soloist >= 0 and leader != soloist:
            break
    points[0], points[1] = card_points(taken[0]), card_points(taken[1])
    return played


@njit
def _play_out(policy, hands, trumps, leaders, soloists, rule, u, points, tricks):
    line = np.empty(DECISIONS, dtype=np.int64)
    own = np.empty(SEATS, dtype=np.uint64)
    for i in range(hands.shape[0]):
        for s in range(SEATS):
            own[s] = hands[i, s]
        _play_deal(policy, own, trumps[i], leaders[i], soloists[i], rule, u[i], line, points[i], tricks[i])


def play_out(policy: str, hands, trumps, leaders, u=None, rule: int = BS_OVERTAKE, soloists=None):
    """Play many hands with one policy for every seat.

    hands (n, 4) masks: the seats' cards, 1-8 each, as many in every seat; trumps, leaders (n,) or one value for
    all; u (n, DECISIONS) uniforms in [0, 1) (needed by "random", and only by it); rule a `play_rule` code;
    soloists (n,) seats, -1 for normal games (the default; a solo is not led by the soloist's partner, who sits out).
    Returns (points, tricks), both (n, 2) int64 per team; a solo is won iff its team took 8 tricks.
    The arguments are checked (CardsimError); `trusted_play_out` skips that.
    """
    checks.one_of(policy, "policy", POLICIES)
    hands = checks.hand_masks(hands, "hands", DECK.n_cards, SEATS, range(1, TRICKS + 1), rows=True)
    n = hands.shape[0]
    trumps, leaders = checks.column(trumps, n, "trumps", 4), checks.column(leaders, n, "leaders", SEATS)
    soloists = _checked_soloists(-1 if soloists is None else soloists, leaders)
    check_rule(rule)
    return trusted_play_out(policy, hands, trumps, leaders, _checked_draws(u, policy, n), rule, soloists)


def _checked_soloists(soloists, leaders: np.ndarray) -> np.ndarray:
    """``soloists`` (one or n seats, -1: a normal game) as (n,) int64, none whose partner ``leaders`` names;
    CardsimError otherwise."""
    soloists = checks.column(soloists, leaders.size, "soloists (a seat, or -1 for a normal game)", None)
    if ((soloists < -1) | (soloists >= SEATS)).any():
        raise CardsimError(f"soloists must be seats 0-{SEATS - 1}, or -1 for a normal game, got "
                           f"{soloists[(soloists < -1) | (soloists >= SEATS)][0]}")
    if ((soloists >= 0) & (leaders == (soloists + 2) % SEATS)).any():
        raise CardsimError("a solo's leader must be a seat in play, not the soloist's partner, who sits out "
                           "(solo_leader gives the leader of §5.4)")
    return soloists


def _checked_draws(u, policy: str, n: int) -> np.ndarray | None:
    """The draws ``u`` of ``n`` deals: (n, DECISIONS) uniforms in [0, 1), which the random policy needs (greedy
    play reads none, so a caller may hand both the same draws); CardsimError otherwise."""
    checks.draws_given(u, policy == "random", f"u, ({n}, {DECISIONS}) uniforms in [0, 1)")
    return None if u is None else checks.uniform_rows(u, "u", n, DECISIONS)


def trusted_play_out(policy: str, hands, trumps, leaders, u=None, rule: int = BS_OVERTAKE, soloists=None):
    """`play_out` without its checks, for the jobs' own deals. The kernel gets new writable arrays whatever the
    caller passed (views, broadcasts): one compiled version."""
    hands = kernel_array(hands, np.shape(hands), np.uint32)
    n = hands.shape[0]
    u = np.zeros((n, DECISIONS)) if u is None else kernel_array(u, np.shape(u), np.float64)
    soloists = -1 if soloists is None else soloists
    points = np.zeros((n, 2), dtype=np.int64)
    tricks = np.zeros((n, 2), dtype=np.int64)
    _play_out(POLICIES[policy], hands, kernel_array(trumps, n, np.int64), kernel_array(leaders, n, np.int64),
              kernel_array(soloists, n, np.int64), rule, u, points, tricks)
    return points, tricks


def play_line(policy: str, hands, trump: int, leader: int, u=None, rule: int = BS_OVERTAKE,
              soloist: int = -1) -> list[int]:
    """The cards one hand's play-out plays, in order: `play_out` of one deal, hands (4,) masks and u (DECISIONS,)
    uniforms, the arguments checked alike (CardsimError)."""
    checks.one_of(policy, "policy", POLICIES)
    hands = checks.hand_masks(hands, "hands", DECK.n_cards, SEATS, range(1, TRICKS + 1))
    trump, leader = checks.whole(trump, "trump", 0, 3), checks.whole(leader, "leader", 0, SEATS - 1)
    soloist = int(_checked_soloists(soloist, np.array([leader]))[0])
    check_rule(rule)
    u = _checked_draws(None if u is None else np.asarray(u)[None], policy, 1)
    u = np.zeros(DECISIONS) if u is None else u[0]
    line = np.empty(DECISIONS, dtype=np.int64)
    played = _play_deal(POLICIES[policy], np.array(hands, dtype=np.uint64), trump, leader, soloist, rule, u, line,
                        np.zeros(2, dtype=np.int64), np.zeros(2, dtype=np.int64))
    return [int(c) for c in line[:played]]


def solo_leader(dealer: int, soloist: int) -> int:
    """§5.4: forehand leads a solo, unless forehand's partner plays it; then the dealer's partner leads."""
    dealer, soloist = checks.whole(dealer, "dealer", 0, SEATS - 1), checks.whole(soloist, "soloist", 0, SEATS - 1)
    forehand = (dealer + 1) % SEATS
    return (dealer + 2) % SEATS if soloist == (forehand + 2) % SEATS else forehand


# --- a whole hand and a whole game (spec §5.4, §6.4) -----------------------------------------
def _keep_key(card: int, trump: int) -> tuple:
    """Worth of a card to the soloist (§8 A11 baseline): trumps by strength above plain cards by card
    points, then strength."""
    if EFF[trump, card] == TRUMP:
        return 1, int(STRENGTH[trump, card]), 0
    return 0, int(FACE_POINTS[card]), int(STRENGTH[trump, card])


def small_solo_exchange(hands, soloist: int, trump: int, give: int, back: int | None = None) -> list[int]:
    """§5.4 Small Solo: the soloist passes ``give`` to its partner, who returns ``back``, a card of its
    original eight (default, §8 A11: its highest trump, else its highest-point card).

    hands: four disjoint masks, the soloist's and the partner's of 8 cards (the others are not read); returns the new
    four masks (the partner's hand then sits out). The arguments are checked (CardsimError);
    `trusted_small_solo_exchange` skips the hands' check.
    """
    hands = checks.hand_masks(hands, "hands", DECK.n_cards, SEATS, range(TRICKS + 1), equal=False)
    soloist, trump = checks.whole(soloist, "soloist", 0, SEATS - 1), checks.whole(trump, "trump", 0, 3)
    held = np.bitwise_count(hands[[soloist, (soloist + 2) % SEATS]])
    if (held != TRICKS).any():
        raise CardsimError(f"the soloist (seat {soloist}) and his partner must hold {TRICKS} cards each before the "
                           f"exchange, got {held[0]} and {held[1]}")
    give = checks.whole(give, "give (a card of the soloist)", 0, DECK.n_cards - 1)
    back = None if back is None else checks.whole(back, "back (a card of the partner)", 0, DECK.n_cards - 1)
    return trusted_small_solo_exchange(hands, soloist, trump, give, back)


def trusted_small_solo_exchange(hands, soloist: int, trump: int, give: int, back: int | None = None) -> list[int]:
    """`small_solo_exchange` of the engine's own deals: only the §5.4 facts (the cards passed are held) are
    checked."""
    hands = [int(h) for h in hands]
    partner = (soloist + 2) % SEATS
    if not (hands[soloist] >> give) & 1:
        raise CardsimError(f"spec §5.4: the soloist can only pass a card of its hand, not {DECK.token(give)}")
    if back is None:
        back = max(DECK.cards_of(hands[partner]), key=lambda c: _keep_key(c, trump))
    if not (hands[partner] >> back) & 1:
        raise CardsimError(f"spec §5.4: the partner returns a card of its original hand, not {DECK.token(back)}")
    hands[soloist] ^= (1 << give) | (1 << back)
    hands[partner] ^= (1 << give) | (1 << back)
    return hands


def play_hand(state: GameState, hands, opts: dict, rng: np.random.Generator, policy: str = "random",
              caller=baseline_call) -> tuple[GameState, Contract, HandResult]:
    """Auction, play and scoring of one dealt hand (spec §4-§6, §7).

    hands: the four seats' 8-card masks; opts: `rule_options`; caller(auction) -> Call makes every
    call (default: policy B0/D0 of §9.3); a Small Solo's soloist passes its least useful card
    (`_keep_key`); policy: "random" or "greedy" card play, with uniforms from ``rng``.
    Returns the state after the hand, the auction's contract and the hand's result. The arguments are checked
    (CardsimError); `trusted_play_hand` skips that.
    """
    state, opts, rng, policy, caller = _checked_game_arguments(state, opts, rng, policy, caller)
    hands = checks.hand_masks(hands, "hands", DECK.n_cards, SEATS, [TRICKS])
    return trusted_play_hand(state, [int(h) for h in hands], opts, rng, policy, caller)


def _checked_game_arguments(state, opts, rng, policy, caller) -> tuple:
    """(state, opts, rng, policy, caller) of `play_hand` and `play_game`, checked: a `GameState` (None allowed:
    `play_game` starts one), every option of `rule_options`, a numpy Generator, a card-play policy and a callable
    caller; CardsimError otherwise."""
    if state is not None and not isinstance(state, GameState):
        raise CardsimError(f"state must be a bauernstoss.GameState (or None for a new game), got {checks.shown(state)}")
    if not isinstance(opts, dict) or set(rule_options()) - set(opts):
        raise CardsimError("opts must be every rule option by name, as bauernstoss.rule_options(...) gives them, got "
                           f"{checks.shown(opts)}")
    if opts["partner_return_policy"] == "strategy_callback":
        raise CardsimError("partner_return_policy=strategy_callback: play_hand and play_game return the baseline card "
                           "of a Small Solo (§8 A11); to choose it, call small_solo_exchange(hands, soloist, trump, "
                           "give, back) and play the hand out (play_out)")
    if not isinstance(rng, np.random.Generator):
        raise CardsimError(f"rng must be a numpy Generator (numpy.random.default_rng(seed)), got {checks.shown(rng)}")
    if not callable(caller):
        raise CardsimError(f"caller must be a function of the auction giving a Call, got {checks.shown(caller)}")
    return state, opts, rng, checks.one_of(policy, "policy", POLICIES), caller


def trusted_play_hand(state: GameState, hands, opts: dict, rng: np.random.Generator, policy: str = "random",
                      caller=baseline_call) -> tuple[GameState, Contract, HandResult]:
    """`play_hand` without its checks, for the jobs' own deals."""
    auction = Auction(hands, state.dealer, state.first_hand, opts)
    while not auction.done:
        auction.call(caller(auction))
    contract = auction.contract()
    club_jack = next(s for s in range(SEATS) if (int(hands[s]) >> CLUB_JACK) & 1) % 2
    if contract.kind == THROW_IN:
        result = HandResult(THROW_IN, club_jack=club_jack)
        return score_hand(state, result, opts), contract, result
    variant, declarer = opts["variant"], contract.declarer
    trump = contract.trump if contract.trump >= 0 else best_suit(int(hands[declarer]), variant, opts["ds_ten_value"])
    soloist = declarer if contract.kind in SOLOS else -1
    if contract.kind == SMALL_SOLO:
        give = min(DECK.cards_of(int(hands[declarer])), key=lambda c: _keep_key(c, trump))
        hands = trusted_small_solo_exchange(hands, declarer, trump, give)
    forehand = (state.dealer + 1) % SEATS
    leader = solo_leader(state.dealer, soloist) if soloist >= 0 else forehand
    points, tricks = trusted_play_out(policy, [hands], [trump], [leader], rng.random((1, DECISIONS)),
                                      play_rule(variant, opts["jack_rule"]), [soloist])
    maker = declarer % 2
    result = HandResult(contract.kind, int(points[0, 0]), int(tricks[0, 0]), maker,
                        solo_won=bool(tricks[0, maker] == TRICKS), club_jack=club_jack)
    return score_hand(state, result, opts), contract, result


def uniform_deals(rng: np.random.Generator):
    """Endless uniform deals: the four seats' 8-card masks, drawn from ``rng``."""
    while True:
        yield [DECK.mask(h) for h in np.split(rng.permutation(DECK.n_cards), SEATS)]


def play_game(opts: dict, rng: np.random.Generator, state: GameState | None = None, deals=None,
              **hand_args) -> list:
    """Deals played with `play_hand` until the game in progress ends (`bs.ends_game`): a team reaches
    20 / 15 / 9 strokes, an AS Big Solo decides it (AS-10) or, with ds_schwarz=end_current_game, a DS
    schwarz does (§8 A7). A DS schwarz's game credit (the default) adds a game won and play goes on
    (DS-10), so the final state may show more than one game won.

    state: the state before the first hand (default: a new session, dealer ``first_dealer``); deals: an
    iterator of four-mask deals (default `uniform_deals` of ``rng``, which also draws the card play).
    Returns the history: (state before, contract, result, state after) per hand. The arguments are checked
    (CardsimError; the hands of ``deals`` as `play_hand` checks them).
    """
    state, opts, rng, policy, caller = _checked_game_arguments(state, opts, rng, hand_args.pop("policy", "random"),
                                                               hand_args.pop("caller", baseline_call))
    if hand_args:
        raise CardsimError(f"play_game takes policy and caller for its hands, not {', '.join(sorted(hand_args))}")
    state = GameState(dealer=opts["first_dealer"]) if state is None else state
    play = play_hand if deals is not None else trusted_play_hand
    deals = uniform_deals(rng) if deals is None else iter(deals)
    history = []
    while True:
        deal = next(deals, None)
        if deal is None:
            raise CardsimError(f"deals ran out after {len(history)} hands, before the game ended; give more deals "
                               "(or None for uniform deals)")
        after, contract, result = play(state, deal, opts, rng, policy, caller)
        history.append((state, contract, result, after))
        if ends_game(result, after):
            return history
        state = after
