"""Bauernstoss simulations as runner jobs (deals, hands, bidding thresholds, odds of a hand, matches)
and perfect-information Monte Carlo for one player's view (`pimc_values`).

Every job follows the `simcore.runner` protocol (``key``, ``n_counts``, ``run_block``,
``block_size``): the cards of unit ``i`` of block ``b`` come from ``block_words(seed, b)`` (uniform
deals, `deal_hands`) and the random card choices from ``block_substream(seed, b, PLAY_STREAM)``, so a
result depends only on the seed and the number of units, never on --jobs or --chunk-size. A match
game draws its deals and choices from its own stream ``block_substream(seed, b, GAME_STREAM + i)``.

Rules: shared/rules/bauernstoss.md. Dealer is seat 0, forehand seat 1 leads (§3, §5.1); team = seat % 2.

Auction policies (`AuctionPolicy`, `AUCTION_POLICIES`) are data: the suit is always the baseline
B0 suit (most trumps, then the highest lowest card, §9.3); a policy says with how many trumps it
raises when not forced, whether it says mit, and from how many trumps the club-jack holder calls
a Small or a Big Solo.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np

from simcore.dealing import DealSpec, accepted, deal
from simcore import checks
from simcore.errors import CardsimError, unknown_name
from simcore.games import bauernstoss as bs
from simcore.games import bauernstoss_play as play
from simcore.games import bauernstoss_solve as solve
from simcore.rng import BLOCK_DEALS, block_stream, block_substream, block_words
from simcore.search import checked_table

PLAY_STREAM = 1
"""Sub-stream (simcore.rng.block_substream) of the card-play choices of a block."""
GAME_STREAM = 2
"""Match game i of a block draws from sub-stream GAME_STREAM + i; option k of an odds block played
by PIMC draws its worlds from sub-stream GAME_STREAM + k."""
AUCTION_STREAM = 1 << 20
"""Sub-stream of the card-play and PIMC choices of `AuctionOddsJob`, above every GAME_STREAM + i, so the
auction part of `odds` never moves the rows' numbers."""
PIMC_SAMPLES = 3
MAX_PIMC_SAMPLES = 64
"""Most worlds a PIMC decision may sample (about 20 s a deal at 64: the PIMC odds get slow long before)."""
"""Worlds per PIMC decision of `pimc_play` (the `odds --play pimc` default)."""
DEALER, FOREHAND = 0, 1
POINT_BINS = bs.CARD_POINTS + 1
METHODS = ("dd", "greedy", "random")
"""How a deal is played out: double-dummy (`bauernstoss_solve`) or a card policy for every seat."""
ODDS_METHODS = METHODS + ("pimc",)
"""`OddsJob` also plays normal games by PIMC at every seat (`pimc_play`; slow: about a second a deal)."""


def deal_spec(fixed: dict[int, tuple[int, ...]] | None = None, accept: tuple = ()) -> DealSpec:
    """Uniform deals of the four seats' 8 cards; ``fixed``: seat -> cards known to be there; ``accept``: predicates
    the deals must pass (`CallsCondition`, dealt by `conditioned_hands`)."""
    return DealSpec(bs.LAYOUT, {f"seat{s}": tuple(cards) for s, cards in (fixed or {}).items()}, tuple(accept))


def deal_hands(seed: int, block: int, n: int, spec: DealSpec | None = None) -> np.ndarray:
    """The first ``n`` deals of random stream ``block``: (n, 4) uint64 card masks of seats 0-3."""
    spec = deal_spec() if spec is None else spec
    return np.ascontiguousarray(deal(spec, block_words(seed, block, n, spec.words_per_deal)))


def play_uniforms(seed: int, block: int, n: int) -> np.ndarray:
    """(n, DECISIONS) float64 uniforms of the random card choices of a block's first ``n`` units."""
    return block_substream(seed, block, PLAY_STREAM).random((n, play.DECISIONS))


def team_points(method: str, hands, trumps, leaders, teams, u=None, rule: int = play.BS_OVERTAKE,
                table=None) -> np.ndarray:
    """Card points ``teams`` take when each deal is played by ``method`` (dd, greedy, random).

    hands (n, 4) masks; trumps, leaders, teams (n,) int; u (n, DECISIONS) uniforms for "random".
    Returns (n,) int64.
    """
    hands = np.asarray(hands, dtype=np.uint64)
    n = hands.shape[0]
    teams = np.broadcast_to(np.asarray(teams, dtype=np.int64), (n,))
    if method == "dd":
        return solve.solve_points(hands, trumps, leaders, teams, rule, table)
    if method not in play.POLICIES:
        raise unknown_name("play method", method, METHODS)
    points, _ = play.trusted_play_out(method, hands, trumps, leaders, u, rule)
    return points[np.arange(n), teams]


# --- auction policies -------------------------------------------------------------------------
@dataclass(frozen=True)
class AuctionPolicy:
    """When a player bids: raise_min: trumps needed to raise when not forced (the forced opening of
    §4.4 always bids); mit: say mit when it is legal (§4.6); small_solo_min, big_solo_min: trumps
    (with the club jack, not in a game's first hand) from which it calls that solo (9 = never)."""

    name: str
    raise_min: int
    mit: bool
    small_solo_min: int = 9
    big_solo_min: int = 9
    help: str = ""


AUCTION_POLICIES = {p.name: p for p in (
    AuctionPolicy("b0", 0, True, help="spec §9.3 baseline: raise whenever longer, mit when legal, no solo"),
    AuctionPolicy("cautious", 5, False, help="raise only with 5+ trumps, never mit, no solo"),
    AuctionPolicy("aggressive", 0, True, 6, 7, help="as b0, plus Small Solo with 6 and Big Solo with 7+ trumps"),
)}


def auction_policy(name: str) -> AuctionPolicy:
    """The named policy; CardsimError listing the names otherwise."""
    if not isinstance(name, str) or name not in AUCTION_POLICIES:
        raise unknown_name("auction policy", name, AUCTION_POLICIES)
    return AUCTION_POLICIES[name]


def policy_call(policy: AuctionPolicy, auction: bs.Auction) -> bs.Call:
    """The call ``policy`` makes for the seat to speak (always a legal call)."""
    hand = auction.hands[auction.to_speak]
    suit = bs.best_suit(hand, auction.variant, auction.opts["ds_ten_value"])
    length = bs.trump_length(hand, suit)
    wanted = []
    if length >= policy.big_solo_min:
        wanted.append(bs.Call(bs.BIG_SOLO, 0, suit))
    if length >= policy.small_solo_min:
        wanted.append(bs.Call(bs.SMALL_SOLO, 0, suit))
    if auction.cur == 0 or length >= policy.raise_min:
        wanted.append(bs.Call(bs.NUMBER, length, suit))
    if policy.mit:
        wanted.append(bs.Call(bs.MIT, 0, suit))
    wanted.append(bs.Call(bs.PASS))
    for call in wanted:
        if auction.illegal(call) is None:
            return call
    return bs.baseline_call(auction)  # only the forced opening refuses a pass; B0 bids then


DEFAULT_POLICY = "b0"
"""The auction policy of every seat unless one is chosen (`odds`' auction part, `equity`)."""


def caller_for(policies: tuple[AuctionPolicy, ...]):
    """caller(auction) -> Call: two policies make the calls of the teams' seats (``policies[team]``), four
    those of the seats 0-3."""
    return lambda auction: policy_call(policies[auction.to_speak % len(policies)], auction)


def fixed_caller(caller, seat: int, call: bs.Call | None):
    """``caller`` with the call of ``seat`` fixed to ``call`` (``caller`` itself for None); `bs.Auction.call` refuses
    it where illegal."""
    if call is None:
        return caller
    return lambda auction: call if auction.to_speak == seat else caller(auction)


# --- hands played from the auction on (spec §9.3 whole-hand values) --------------------------
class HandJob:
    """Uniform deals: the B0 auction (first hand of a game excluded: solos allowed but B0 never
    calls one), then the hand played by ``policy``. Counts: [deals, throw-ins, chooser's (jacks 0-4,
    trumps 0-8, team points 0-120) histogram, the same (jacks, trumps) with all 8 tricks]."""

    block_size = 1024

    def __init__(self, policy: str = "random", variant: str = "BS"):
        if policy not in play.POLICIES:
            raise unknown_name("card policy", policy, play.POLICIES)
        self.policy = policy
        self.opts = bs.rule_options(variant=variant)
        self.n_counts = 2 + 5 * 9 * POINT_BINS + 5 * 9

    def key(self) -> str:
        return f"bauernstoss-hands|{self.policy}|{self.opts['variant']}"

    def run_block(self, seed: int, block: int, n: int) -> np.ndarray:
        hands = deal_hands(seed, block, n)
        u = play_uniforms(seed, block, n)
        points = np.zeros((5, 9, POINT_BINS), dtype=np.int64)
        schwarz = np.zeros((5, 9), dtype=np.int64)
        throw_ins = 0
        rule = play.play_rule(self.opts["variant"], self.opts["jack_rule"])
        for i in range(n):
            contract = run_auction(hands[i], self.opts, bs.baseline_call)
            if contract.kind == bs.THROW_IN:
                throw_ins += 1
                continue
            chooser = contract.declarer
            trump = contract.trump if contract.trump >= 0 else bs.best_suit(int(hands[i, chooser]), "DS")
            got, tricks = play.trusted_play_out(self.policy, hands[i:i + 1], [trump], [FOREHAND], u[i:i + 1], rule)
            mask = int(hands[i, chooser])
            j, length = bs.jack_count(mask), bs.trump_length(mask, trump)
            points[j, length, got[0, chooser % 2]] += 1
            schwarz[j, length] += tricks[0, chooser % 2] == bs.TRICKS
        return np.concatenate([[n, throw_ins], points.ravel(), schwarz.ravel()])

    @staticmethod
    def unpack(counts: np.ndarray) -> dict:
        """{"deals", "throw_ins", "points": (5, 9, 121), "schwarz": (5, 9)} of a job's counts."""
        size = 5 * 9 * POINT_BINS
        return {"deals": int(counts[0]), "throw_ins": int(counts[1]),
                "points": counts[2:2 + size].reshape(5, 9, POINT_BINS), "schwarz": counts[2 + size:].reshape(5, 9)}


def finished_auction(hands, opts: dict, caller, first_hand: bool = False, dealer: int = DEALER) -> bs.Auction:
    """One deal's auction with ``caller(auction) -> Call`` for every seat, run to its end."""
    auction = bs.Auction(hands, dealer, first_hand, opts)
    while not auction.done:
        auction.call(caller(auction))
    return auction


def run_auction(hands, opts: dict, caller, first_hand: bool = False, dealer: int = DEALER) -> bs.Contract:
    """The contract of one deal's auction with ``caller(auction) -> Call`` for every seat."""
    return finished_auction(hands, opts, caller, first_hand, dealer).contract()


# --- the calls before my seat (spec §9.1 Q5: "calls so far") ----------------------------------
CALLS_STREAM = 1 << 21
"""Sub-streams CALLS_STREAM + k (k = 1, 2, ...) of a block give further candidate deals for `conditioned_hands`
once the block's own stream (`BLOCK_DEALS` deals) is used up; above AUCTION_STREAM, so they never move other
numbers."""
CALLS_STREAMS = 64
"""Candidate streams a block may use (its own and 63 sub-streams): 64 * 65,536 = 4,194,304 deals tried at most."""
MIN_ACCEPTANCE = 1 / 4096
"""The rarest calls `odds` conditions on: a block of 256 deals then expects 1,024 accepted in its candidates
(`CALLS_STREAMS`), and takes about a second."""
PILOT_STREAMS, PILOT_ACCEPTED = 4, 64
"""The acceptance check before a run (`calls_pilot`): block 0's first 4 streams (262,144 deals) must give 64
accepted deals, i.e. a rate of about `MIN_ACCEPTANCE` or more."""


def speakers_before(seat: int, dealer: int = DEALER) -> tuple[int, ...]:
    """The seats that call before ``seat`` in the auction, in speaking order (forehand first, §4.2)."""
    order = tuple((dealer + i) % bs.SEATS for i in range(1, bs.SEATS + 1))
    return order[:order.index(seat)]


@dataclass(frozen=True)
class CallsCondition:
    """Accept predicate in redeal's style: the seats speaking before ``seat`` (`speakers_before`) made exactly
    ``calls``, each calling by policy ``policy`` (`policy_call`) in the auction of the deal.

    calls: one (kind, n) per earlier seat in speaking order: (bs.PASS, 0), (bs.MIT, 0) or (bs.NUMBER, n); the
    suit in mind is secret (§4.5), so any suit does. variant, rules, first_hand: as the job's (`bs.rule_options`).
    `accepts` is the rule, one deal at a time; calling the condition on a dealt block ``(m, 4) uint64`` gives
    ``(m,) bool``, with `possible` (vectorised necessary conditions) sparing `accepts` most rejected deals.
    """

    seat: int
    calls: tuple[tuple[str, int], ...]
    variant: str = "BS"
    rules: tuple = ()
    first_hand: bool = False
    policy: str = DEFAULT_POLICY

    def __post_init__(self):
        seats = speakers_before(self.seat)
        if len(self.calls) != len(seats):
            raise CardsimError(f"seat {self.seat} speaks after {len(seats)} seat(s) (§4.2), so it needs {len(seats)} "
                               f"earlier call(s), got {len(self.calls)}")
        object.__setattr__(self, "opts", bs.rule_options(variant=self.variant, **dict(self.rules)))

    @property
    def key(self) -> str:
        said = ",".join(str(n) if k == bs.NUMBER else k for k, n in self.calls)
        return f"calls={said}@{self.seat}|{self.policy}|first={self.first_hand}"

    def accepts(self, hands) -> bool:
        """Whether one deal's four hands (seats 0-3) make the calls: replay the auction up to ``seat``."""
        auction = bs.Auction(hands, DEALER, self.first_hand, self.opts)
        policy = auction_policy(self.policy)
        for kind, n in self.calls:
            call = policy_call(policy, auction)
            if (call.kind, call.n) != (kind, n):
                return False
            auction.call(call)
        return True

    def possible(self, slots: np.ndarray) -> np.ndarray:
        """(m,) bool, False only for deals `accepts` rejects: a policy bids (or says mit with) its longest suit
        (`bs.best_suit`), so the longest suit of a seat bidding n (saying mit at cur) holds exactly n (cur) trumps;
        a seat that passes holds no jack, four jacks or no suit longer than cur (DS: under 5 trumps or shorter than
        cur, DS-3/DS-4)."""
        slots = np.asarray(slots, dtype=np.uint64)
        trumps = np.stack([np.bitwise_count(slots & np.uint64(bs.EFF_MASKS[s, bs.TRUMP])) for s in range(4)])
        longest, jacks = trumps.max(axis=0), np.bitwise_count(slots & np.uint64(bs.JACKS))
        keep, cur = np.ones(len(slots), dtype=bool), 0
        for seat, (kind, n) in zip(speakers_before(self.seat), self.calls):
            length, j = longest[:, seat], jacks[:, seat]
            if kind == bs.NUMBER:
                keep &= length == n
                cur = max(cur, n)
            elif kind == bs.MIT:
                keep &= length == cur
            elif self.variant == "DS":
                keep &= (length < max(DS_MIN_BID, cur)) | (j == 0)
            else:
                keep &= (j == 0) | (j == 4) | (length <= cur)
        return keep

    def __call__(self, slots: np.ndarray) -> np.ndarray:
        keep = self.possible(slots)
        for i in np.flatnonzero(keep):
            keep[i] = self.accepts(slots[i])
        return keep


def calls_accept(seat: int, calls: tuple, variant: str = "BS", rules: tuple = (),
                 first_hand: bool = False) -> tuple:
    """The accept predicates of a job's deals: a `CallsCondition` for the ``calls`` before ``seat``, none
    without calls."""
    return (CallsCondition(seat, tuple((k, int(n)) for k, n in calls), variant, tuple(rules), first_hand),) \
        if calls else ()


def _calls_key(spec: DealSpec) -> str:
    """The part of a job's key naming its `CallsCondition` ('' without one: the key of the plain job)."""
    return "".join(f"|{p.key}" for p in spec.accept)


def _candidate_words(seed: int, block: int, stream: int, words_per_deal: int) -> np.ndarray:
    """(BLOCK_DEALS, words_per_deal) uint32 random words of candidate stream ``stream`` of a block: 0 the block's
    own (`block_words`, the deals of `deal_hands`), k >= 1 sub-stream CALLS_STREAM + k."""
    if stream == 0:
        return block_words(seed, block, BLOCK_DEALS, words_per_deal)
    gen = block_substream(seed, block, CALLS_STREAM + stream)
    raw = gen.bit_generator.random_raw((BLOCK_DEALS * words_per_deal + 1) // 2).view(np.uint32)
    return raw[:BLOCK_DEALS * words_per_deal].reshape(BLOCK_DEALS, words_per_deal)


_CONDITIONED: dict = {}
"""The blocks `conditioned_hands` sampled last in this process, by (seed, block, n, streams, known cards,
predicates): the call table's and the auction part's jobs of one `odds` run condition the same deals, which are
then sampled once (`CONDITIONED_KEPT` blocks kept)."""
CONDITIONED_KEPT = 64


def conditioned_hands(seed: int, block: int, n: int, spec: DealSpec, streams: int = CALLS_STREAMS,
                      partial: bool = False) -> tuple[np.ndarray, int]:
    """Rejection sampling: the first ``n`` candidate deals of a block that pass ``spec.accept`` ((n, 4) uint64)
    and the candidates tried up to the n-th. Candidates are the block's deals (`deal_hands`: without a
    condition these are exactly its first n deals) and then its sub-streams' (`_candidate_words`), in order, so
    the result depends on the seed, block and n only (and is kept for a second job, `_CONDITIONED`). More than
    ``streams`` streams: CardsimError, or with ``partial`` the deals found so far and every candidate tried."""
    if not spec.accept:
        return deal_hands(seed, block, n, spec), n
    key = (seed, block, n, streams, partial, tuple(sorted(spec.fixed.items())), spec.accept)
    if key not in _CONDITIONED:
        if len(_CONDITIONED) >= CONDITIONED_KEPT:
            del _CONDITIONED[next(iter(_CONDITIONED))]
        _CONDITIONED[key] = _sample_conditioned(seed, block, n, spec, streams, partial)
    hands, tried = _CONDITIONED[key]
    return hands.copy(), tried


def _sample_conditioned(seed: int, block: int, n: int, spec: DealSpec, streams: int,
                        partial: bool) -> tuple[np.ndarray, int]:
    """`conditioned_hands` without the memo."""
    found, tried, need = [], 0, n
    for stream in range(streams):
        words = _candidate_words(seed, block, stream, spec.words_per_deal)
        start = 0
        while start < BLOCK_DEALS:
            rate = (n - need) / tried if n > need else 0.0  # window: about what the rate so far needs
            size = min(BLOCK_DEALS - start, max(1024, int(1.25 * need / rate) if rate else 4 * need))
            slots = deal(spec, words[start:start + size])
            ok = np.flatnonzero(accepted(spec, slots))
            if len(ok) >= need:
                found.append(slots[ok[:need]])
                return np.ascontiguousarray(np.concatenate(found)), tried + int(ok[need - 1]) + 1
            found.append(slots[ok])
            need, tried, start = need - len(ok), tried + size, start + size
    if partial:
        return np.concatenate(found), tried
    raise CardsimError(f"the calls before your seat were made in only {n - need:,} of {tried:,} deals tried for "
                       f"block {block} (fewer than 1 in {round(1 / MIN_ACCEPTANCE):,}): too rare to condition on; "
                       "check the calls (--calls)")


STROKE_SPAN = 4
"""Stroke differentials of a normal hand run from -4 to +4 (AS schwarz, AS-4; BS at most 3)."""
STROKE_BINS = 2 * STROKE_SPAN + 1
STROKE_METHODS = ("greedy", "random")
"""Play methods whose play-outs give the tricks, so the strokes (schwarz needs them); the solver and
PIMC count card points only."""


def stroke_differentials(points: np.ndarray, tricks: np.ndarray, team: int, chalk: np.ndarray,
                         variant: str) -> np.ndarray:
    """(n,) int64: strokes ``team`` scores in each normal BS/AS hand, negative when the other team
    scores (spec §6.2, AS-2..AS-4, `bs.normal_score`; ``team`` made trumps). points, tricks (n,):
    ``team``'s card points and tricks; chalk (n,): the chalk team, -1 for none (an AS game's first
    hand, decided at 61)."""
    out = np.empty(len(points), dtype=np.int64)
    for i, (p, t, c) in enumerate(zip(points, tricks, chalk)):
        p0, t0 = (int(p), int(t)) if team == 0 else (bs.CARD_POINTS - int(p), bs.TRICKS - int(t))
        scorer, strokes = bs.normal_score(p0, t0, None if c < 0 else int(c), variant, team)
        out[i] = strokes if scorer == team else -strokes
    return out


def chalk_strokes(points: np.ndarray, tricks: np.ndarray, team: int, variant: str) -> np.ndarray:
    """(n, 2) int64: strokes ``team`` scores minus the other team's in later BS/AS normal hands
    (`stroke_differentials`, spec §6.2) with the chalk at team 0 (column 0) and at team 1 (column 1).
    points, tricks (n,): ``team``'s card points and tricks. With a chalk team the maker does not
    change the strokes (§6.2: only an AS first hand, without chalk, reads it)."""
    n = len(points)
    return np.stack([stroke_differentials(points, tricks, team, np.full(n, chalk), variant) for chalk in (0, 1)],
                    axis=1)


def forehand_play(method: str, hands: np.ndarray, trumps: np.ndarray, u: np.ndarray, rule: int,
                  strokes: bool) -> tuple[np.ndarray, np.ndarray | None]:
    """Normal games of deals (n, 4) with ``trumps`` (n,) played by ``method``, forehand leading:
    (forehand's team's card points (n,) int64, its tricks (n,) int64 when ``strokes``, else None).
    ``strokes`` needs a method of `STROKE_METHODS`; the points equal `team_points`' either way."""
    if not strokes:
        return team_points(method, hands, trumps, FOREHAND, FOREHAND % 2, u, rule), None
    points, tricks = play.trusted_play_out(method, hands, trumps, np.full(len(hands), FOREHAND), u, rule)
    return points[:, FOREHAND % 2], tricks[:, FOREHAND % 2]


def solo_strokes(kind: str, won: np.ndarray, soloist: int, variant: str) -> np.ndarray:
    """(n,) int64: team 0's strokes minus team 1's of solos of ``kind`` called by ``soloist``: the stake
    (`bs.SOLO_STROKES`, §6.3) to the soloist's team when ``won``, else to the other; 0 in AS, where the solo
    decides the game instead (AS-10, `bs.hand_strokes`)."""
    stake = 0 if variant == "AS" else bs.SOLO_STROKES[kind]
    sign = 1 if soloist % 2 == 0 else -1
    return np.where(won, sign * stake, -sign * stake).astype(np.int64)


def _rules_key(rules: tuple) -> str:
    """A job key's part for rule options (name, value) pairs; empty with the default rules."""
    return "|" + ",".join(f"{k}={v!r}" for k, v in rules) if rules else ""


# --- bidding thresholds -------------------------------------------------------------------------
class ThresholdJob:
    """Forehand's hand (seat 1) with 1-4 jacks names its B0 suit; the deal is played by ``method``
    (forehand leads). Counts: [deals, (jacks 0-4, trumps 0-8, team points 0-120) histogram, Big
    Solo tries, wins under ``method`` (greedy play, or `dd_solo_won` with method "dd") and wins double
    dummy, by (jacks, trumps) when forehand holds the club jack (none in DS), stroke differentials of the
    normal game by (chalk at the team or not, jacks, trumps) (`unpack`)]. ``variant`` (§7) sets the
    play rule, the suit (DS: the D0 suit) and who may bid: BS/AS 1-4 jacks, DS 5+ trumps (DS-3/4) and, with
    ds_require_unter (§8 A9), a jack."""

    block_size = 256

    def __init__(self, method: str = "dd", variant: str = "BS", rules: tuple = ()):
        if method not in METHODS:
            raise unknown_name("play method", method, METHODS)
        self.method = method
        self.rules = tuple(rules)
        self.opts = bs.rule_options(variant=variant, **dict(self.rules))
        self.n_counts = 1 + 5 * 9 * POINT_BINS + 3 * 5 * 9 + 2 * 5 * 9 * STROKE_BINS

    def key(self) -> str:
        return f"bauernstoss-thresholds|{self.method}|{self.opts['variant']}|solo-dd|strokes{_rules_key(self.rules)}"

    def run_block(self, seed: int, block: int, n: int) -> np.ndarray:
        hands = deal_hands(seed, block, n)
        u = play_uniforms(seed, block, n)
        variant = self.opts["variant"]
        rule = play.play_rule(variant, self.opts["jack_rule"])
        own = [int(h) for h in hands[:, FOREHAND]]
        jacks = np.array([bs.jack_count(h) for h in own], dtype=np.int64)
        trumps = np.array([bs.best_suit(h, variant, self.opts["ds_ten_value"]) for h in own], dtype=np.int64)
        lengths = np.array([bs.trump_length(h, t) for h, t in zip(own, trumps)], dtype=np.int64)
        keep = (lengths >= DS_MIN_BID) & (jacks > 0 if self.opts["ds_require_unter"] else True) if variant == "DS" \
            else jacks > 0
        points = np.zeros((5, 9, POINT_BINS), dtype=np.int64)
        strokes = np.zeros((2, 5, 9, STROKE_BINS), dtype=np.int64)
        team = FOREHAND % 2
        if self.method in STROKE_METHODS and variant != "DS":
            taken, tricks = play.trusted_play_out(self.method, hands[keep], trumps[keep],
                                                  np.full(keep.sum(), FOREHAND), u[keep], rule)
            got = taken[:, team]
            for row, chalk in enumerate((team, 1 - team)):
                diff = stroke_differentials(got, tricks[:, team], team, np.full(len(got), chalk), variant)
                np.add.at(strokes[row], (jacks[keep], lengths[keep], diff + STROKE_SPAN), 1)
        else:
            got = team_points(self.method, hands[keep], trumps[keep], FOREHAND, team, u[keep], rule)
        np.add.at(points, (jacks[keep], lengths[keep], got), 1)
        solos = np.zeros((3, 5, 9), dtype=np.int64)
        club = np.array([(h >> bs.CLUB_JACK) & 1 for h in own], dtype=bool) & (variant != "DS")
        if club.any():
            cell = (jacks[club], lengths[club])
            dd = dd_solo_won(hands[club], bs.BIG_SOLO, trumps[club], FOREHAND, FOREHAND, rule)
            np.add.at(solos[0], cell, 1)
            np.add.at(solos[1], cell, dd if self.method == "dd" else self._greedy_solo(hands[club], trumps[club], rule))
            np.add.at(solos[2], cell, dd)
        return np.concatenate([[n], points.ravel(), solos.ravel(), strokes.ravel()])

    @staticmethod
    def _greedy_solo(hands: np.ndarray, trumps: np.ndarray, rule: int) -> np.ndarray:
        """(n,) bool: forehand's Big Solo won under greedy play."""
        n = len(hands)
        _, tricks = play.trusted_play_out("greedy", hands, trumps, np.full(n, FOREHAND), None, rule,
                                          np.full(n, FOREHAND))
        return tricks[:, FOREHAND % 2] == bs.TRICKS

    @staticmethod
    def unpack(counts: np.ndarray) -> dict:
        """{"deals", "points": (5, 9, 121), "solo_tries", "solo_wins", "solo_dd_wins": (5, 9) each, "strokes":
        (2, 5, 9, STROKE_BINS) histograms of the normal game's stroke differential -4..+4 with the chalk at
        forehand's team (0) or the other (1), zero for DS and play methods outside `STROKE_METHODS`}."""
        size = 5 * 9 * POINT_BINS
        solos = counts[1 + size:1 + size + 3 * 5 * 9].reshape(3, 5, 9)
        return {"deals": int(counts[0]), "points": counts[1:1 + size].reshape(5, 9, POINT_BINS),
                "solo_tries": solos[0], "solo_wins": solos[1], "solo_dd_wins": solos[2],
                "strokes": counts[1 + size + 3 * 5 * 9:].reshape(2, 5, 9, STROKE_BINS)}


# --- the value of jacks at the auction (spec §9.1 Q8) ---------------------------------------------
STROKE_STATS = ("strokes_chalk", "strokes_chalk_sq", "strokes_no_chalk", "strokes_no_chalk_sq")
"""Sums over hands of the hand's team's strokes minus the other team's (spec §9.1 Q8 E[strokes]: a normal game's
`chalk_strokes`, a solo's `solo_strokes`, 0 for a throw-in) and of their squares, with the chalk at the hand's team
and at the other team; all 0 for DS and play methods outside `STROKE_METHODS` (no strokes counted there)."""
JACK_STATS = ("deals", "me", "partner", "score_chalk", "score_no_chalk") + STROKE_STATS
"""Counts of `JackValueJob` per forehand jack mask: deals; forehand named trumps; its partner did; forehand's team
scored with the chalk at the team, and at the other team (DS has no chalk: both the DS score, DS-9); forehand's
team's `STROKE_STATS`."""
JACK_MASKS = 16
"""Forehand's jacks as a mask (`jack_mask`): bit s holds the jack of suit s (c s h d)."""


def stroke_sums(strokes: np.ndarray) -> np.ndarray:
    """(..., 4) int64 `STROKE_STATS` of hands' strokes (..., 2) (the chalk at the hand's team, at the other): each
    setting's strokes and their square."""
    return np.stack([strokes[..., 0], strokes[..., 0] ** 2, strokes[..., 1], strokes[..., 1] ** 2], axis=-1)


def jack_mask(hand: int) -> int:
    """The hand's jacks as a 4-bit mask, bit s the jack of suit s (0 = clubs ... 3 = diamonds)."""
    return sum(((hand >> (8 * s + bs.JACK)) & 1) << s for s in range(4))


class JackValueJob:
    """What forehand's jacks are worth at the auction (spec §9.1 Q8), on the deals of `ThresholdJob` (same seed
    and block size: the same deals, played with the same card choices): every seat calls by policy b0 (`policy_call`;
    DS: D0, §9.3), a later hand (b0 calls no solo; a BS four-jack holder passes, so the hand is thrown in, §4.11); the
    normal game is played by ``method`` with forehand leading and scored with the chalk at forehand's team and at the
    other team (§6.2, AS-3..AS-4; DS-9), with greedy or random play also in strokes (`STROKE_STATS`; a throw-in
    scores 0). Counts: (JACK_MASKS, JACK_STATS) by forehand's `jack_mask`."""

    block_size = ThresholdJob.block_size

    def __init__(self, method: str = "greedy", variant: str = "BS", rules: tuple = ()):
        if method not in METHODS:
            raise unknown_name("play method", method, METHODS)
        self.method = method
        self.rules = tuple(rules)
        self.opts = bs.rule_options(variant=variant, **dict(self.rules))
        self.n_counts = JACK_MASKS * len(JACK_STATS)

    def key(self) -> str:
        return f"bauernstoss-jack-value|v2|{self.method}|{self.opts['variant']}{_rules_key(self.rules)}"

    @property
    def counts_strokes(self) -> bool:
        """Whether the play gives the tricks the strokes need (`STROKE_METHODS`; DS has no strokes of §6.2)."""
        return self.method in STROKE_METHODS and self.opts["variant"] != "DS"

    def run_block(self, seed: int, block: int, n: int) -> np.ndarray:
        hands = deal_hands(seed, block, n)
        u = play_uniforms(seed, block, n)
        out = np.zeros((JACK_MASKS, len(JACK_STATS)), dtype=np.int64)
        masks = np.array([jack_mask(int(h)) for h in hands[:, FOREHAND]], dtype=np.int64)
        np.add.at(out[:, 0], masks, 1)
        caller = caller_for((auction_policy(DEFAULT_POLICY),))
        played = []
        for i in range(n):
            contract = run_auction(hands[i], self.opts, caller)
            if contract.kind == bs.THROW_IN:
                continue
            chooser = contract.declarer
            if chooser in (FOREHAND, (FOREHAND + 2) % bs.SEATS):
                out[masks[i], 1 if chooser == FOREHAND else 2] += 1
            trump = contract.trump if contract.trump >= 0 else \
                bs.best_suit(int(hands[i, chooser]), "DS", self.opts["ds_ten_value"])  # DS-5: all passed
            played.append((i, trump, chooser % 2))
        if played:
            idx, trumps, makers = (np.array(x) for x in zip(*played))
            rule = play.play_rule(self.opts["variant"], self.opts["jack_rule"])
            got, tricks = forehand_play(self.method, hands[idx], trumps, u[idx], rule, self.counts_strokes)
            for column, chalk in ((3, FOREHAND % 2), (4, 1 - FOREHAND % 2)):
                scored = [self._scorer(int(p), int(m), chalk) == FOREHAND % 2 for p, m in zip(got, makers)]
                np.add.at(out[:, column], masks[idx], np.array(scored, dtype=np.int64))
            if tricks is not None:
                team = FOREHAND % 2
                strokes = chalk_strokes(got, tricks, team, self.opts["variant"])[:, [team, 1 - team]]
                np.add.at(out[:, JACK_STATS.index(STROKE_STATS[0]):], masks[idx], stroke_sums(strokes))
        return out.ravel()

    def _scorer(self, points: int, maker: int, chalk: int) -> int:
        """The team that scores a normal game in which forehand's team took ``points`` and team ``maker`` named
        trumps, the chalk at team ``chalk`` (BS/AS, §6.2); DS-9 (-1: a 60-60 hand, nobody yet, DS-11)."""
        p0 = points if FOREHAND % 2 == 0 else bs.CARD_POINTS - points
        if self.opts["variant"] == "DS":
            scored = bs.ds_score(p0, maker)
            return -1 if scored is None else scored[0]
        return bs.normal_score(p0, 0, chalk, self.opts["variant"], maker)[0]  # tricks set the strokes, not the scorer

    @staticmethod
    def unpack(counts: np.ndarray) -> np.ndarray:
        """(JACK_MASKS, JACK_STATS) counts of a job's flat counts."""
        return counts.reshape(JACK_MASKS, len(JACK_STATS))


# --- seat effects and every seat's jacks (spec §9.1 Q11, Q8) ---------------------------------------
SEAT_STATS = ("choose", "score_choose_chalk", "score_choose_no_chalk", "score_chalk", "score_no_chalk", "showdown",
              "showdown_won")
"""Counts of `SeatJob` per seat: it named trumps; its team scored and it chose, with the chalk at its team and at the
other; its team scored; it was among the tied bidders of a showdown (§4.9, AS-6, DS-7) and it won one."""
PAIRED_STATS = ("choose", "score_chalk", "score_no_chalk", "showdown", "showdown_won")
"""`SEAT_STATS` measured on every deal, so a seat's is paired with forehand's: `SeatJob` counts the deals where only the
seat has it and where only forehand has it (the discordant pairs of `analysis.stats.paired_difference`)."""
DEAL_STATS = ("deals", "throw_ins", "showdowns", "solos")
SEAT_JACK_STATS = ("deals", "me", "partner", "team", "score_chalk", "score_no_chalk") + STROKE_STATS
"""Counts of `SeatJob` per seat and `jack_mask` of its hand: deals; it chose; its partner chose; its team chose; its
team scored with the chalk at the team and at the other team; its team's `STROKE_STATS` (forehand's counts of the
`JACK_STATS` names are `JackValueJob`'s)."""
JACK_GROUPS = 5 + JACK_MASKS
"""Hands pooled over the four seats of a deal: groups 0-4 hold k jacks, group 5 + m the jack mask m."""
GROUP_MEMBERS = np.array([[bin(m).count("1") == k for m in range(JACK_MASKS)] for k in range(5)]
                         + [[m == g for m in range(JACK_MASKS)] for g in range(JACK_MASKS)], dtype=np.int64)
"""(JACK_GROUPS, JACK_MASKS) 0/1: which jack masks each pooled group holds."""
POOLED_STATS = ("me", "partner", "team", "score_chalk", "score_no_chalk", "strokes_chalk", "strokes_no_chalk")
"""`SEAT_JACK_STATS` with deal-clustered intervals for the pooled seats: shares and mean strokes."""
POOLED_SUMS = 1 + 2 * len(POOLED_STATS)
"""Per pooled group, sums over deals of t², then s² and s·t per `POOLED_STATS` stat (t: the deal's seats in the
group, s: those of them with the stat, or the sum of their strokes) for the deal-clustered intervals
(`analysis.stats.ratio_share`, `analysis.stats.ratio_mean`; the sums of s are the seats' `SEAT_JACK_STATS`)."""
LOW_BINS = len(bs.SCALE_NAMES) - 1
"""The §1.2 lowest-card scale: 0 (a 7) ... 6 (an ace), 7-10 a jack (dB ... cB)."""
SHOWDOWN_LOW_SHAPE = (bs.TRICKS + 1, LOW_BINS, 2, 2)
"""`SeatJob`'s showdown counts (spec §9.1 Q5): by cur, the player's `bs.lowest_trump` of the suit in mind, whether
he bid cur first (0) or joined it later (1, mit), and [players, of them the winner who names trumps]."""


def showdown_low_counts(got: dict) -> np.ndarray:
    """`SHOWDOWN_LOW_SHAPE` counts of `SeatJob.outcomes` ``got``: every seat in a showdown, once."""
    deal, seat = np.nonzero(got["in_showdown"])
    later = (got["first"][deal] != seat).astype(np.int64)
    cell = np.ravel_multi_index((got["cur"][deal], got["low"][deal, seat], later), SHOWDOWN_LOW_SHAPE[:3])
    size = int(np.prod(SHOWDOWN_LOW_SHAPE[:3]))
    won = got["chooser"][deal] == seat
    return np.stack([np.bincount(cell, minlength=size), np.bincount(cell[won], minlength=size)], axis=-1) \
        .reshape(SHOWDOWN_LOW_SHAPE)


def pooled_sums(masks: np.ndarray, stats: dict) -> np.ndarray:
    """(JACK_GROUPS, POOLED_SUMS) int64 sums over the deals of the four seats pooled: masks (n, 4) every hand's
    `jack_mask`; stats: name of `POOLED_STATS` -> (n, 4) the hand's count (0/1) or strokes."""
    member = GROUP_MEMBERS[:, masks]  # (JACK_GROUPS, n, 4)
    trials = member.sum(axis=2)  # (JACK_GROUPS, n)
    sums = [(trials * trials).sum(axis=1)]
    for name in POOLED_STATS:
        hits = (member * stats[name]).sum(axis=2)
        sums += [(hits * hits).sum(axis=1), (hits * trials).sum(axis=1)]
    return np.array(sums).T


class SeatJob:
    """Seat effects (spec §9.1 Q11) and every seat's jacks (Q8) on the deals of `ThresholdJob` (same seed and block
    size: the same deals and card choices as `JackValueJob`): every seat calls by ``policy`` (`policy_call`; DS: D0,
    §9.3) in a later hand (solos allowed; b0 calls none, and a BS four-jack holder passes, so the hand is thrown in,
    §4.11); the normal game is played by ``method`` with forehand leading (as `JackValueJob`), a solo by
    `solo_outcomes`, and scored with the chalk at team 0 and at team 1 (§6.2; DS-9 has none), with greedy or random
    play also in strokes (`STROKE_STATS`: `chalk_strokes`, `solo_strokes`, 0 for a throw-in). One deal gives every
    seat's outcome. With policy b0, forehand's counts of ``jacks`` are `JackValueJob`'s. Counts (`unpack`):
    `DEAL_STATS`; (4, SEAT_STATS); (4, PAIRED_STATS, 2) deals where only the seat / only forehand has the stat;
    (4, JACK_MASKS, SEAT_JACK_STATS) by the seat's `jack_mask`; (JACK_GROUPS, POOLED_SUMS) over the four seats;
    `SHOWDOWN_LOW_SHAPE` (Q5, `showdown_low_counts`)."""

    block_size = ThresholdJob.block_size

    def __init__(self, method: str = "greedy", variant: str = "BS", rules: tuple = (), policy: str = DEFAULT_POLICY):
        if method not in METHODS:
            raise unknown_name("play method", method, METHODS)
        self.method = method
        self.policy = auction_policy(policy)
        self.rules = tuple(rules)
        self.opts = bs.rule_options(variant=variant, **dict(self.rules))
        self.n_counts = len(DEAL_STATS) + bs.SEATS * (len(SEAT_STATS) + 2 * len(PAIRED_STATS)) \
            + bs.SEATS * JACK_MASKS * len(SEAT_JACK_STATS) + JACK_GROUPS * POOLED_SUMS \
            + int(np.prod(SHOWDOWN_LOW_SHAPE))

    counts_strokes = JackValueJob.counts_strokes

    def key(self) -> str:
        return f"bauernstoss-seats|v2|{self.policy.name}|{self.method}|{self.opts['variant']}{_rules_key(self.rules)}"

    def outcomes(self, hands: np.ndarray, u: np.ndarray) -> dict:
        """Per deal of ``hands`` (n, 4): "chooser" (n,) the seat naming trumps (-1: thrown in), "in_showdown" (n, 4)
        the seats tied in a showdown, "scorer" (n, 2) the team that scored with the chalk at team 0 / team 1 (-1:
        nobody, a throw-in or a DS 60-60 hand), "strokes" (n, 2) team 0's strokes minus team 1's with the chalk at
        team 0 / team 1 (0: a throw-in, or no strokes counted, `counts_strokes`), "solo" (n,) a solo was called;
        "cur" (n,) the winning bid, "first" (n,) the showdown's first bidder of cur (-1: none), "low" (n, 4) the
        showdown seats' lowest trump of the suit in mind (§1.2 scale; -1 outside a showdown)."""
        n = len(hands)
        chooser = np.full(n, -1, dtype=np.int64)
        in_showdown = np.zeros((n, bs.SEATS), dtype=bool)
        cur, first = np.zeros(n, dtype=np.int64), np.full(n, -1, dtype=np.int64)
        low = np.full((n, bs.SEATS), -1, dtype=np.int64)
        scorer = np.full((n, 2), -1, dtype=np.int64)
        strokes = np.zeros((n, 2), dtype=np.int64)
        solo = np.zeros(n, dtype=bool)
        caller = caller_for((self.policy,))
        rule = play.play_rule(self.opts["variant"], self.opts["jack_rule"])
        normal, solos = [], {}
        for i in range(n):
            auction = finished_auction(hands[i], self.opts, caller)
            contract = auction.contract()
            if contract.kind == bs.THROW_IN:
                continue
            chooser[i], cur[i] = contract.declarer, auction.cur
            if contract.showdown:
                in_showdown[i, auction.at_cur] = True
                first[i] = auction.at_cur[0]
                low[i, auction.at_cur] = [bs.lowest_trump(auction.hands[q], auction.suit_of[q]) for q in auction.at_cur]
            if contract.kind in bs.SOLOS:
                solo[i] = True
                solos.setdefault((contract.kind, contract.trump, contract.declarer), []).append(i)
                continue
            trump = contract.trump if contract.trump >= 0 else \
                bs.best_suit(int(hands[i, contract.declarer]), "DS", self.opts["ds_ten_value"])  # DS-5: all passed
            normal.append((i, trump, contract.declarer % 2))
        if normal:
            idx, trumps, makers = (np.array(x) for x in zip(*normal))
            got, tricks = forehand_play(self.method, hands[idx], trumps, u[idx], rule, self.counts_strokes)
            for chalk in (0, 1):
                scorer[idx, chalk] = [self._scorer(int(p), int(m), chalk) for p, m in zip(got, makers)]
            if tricks is not None:  # forehand's team's strokes, as team 0's
                strokes[idx] = (1 - 2 * (FOREHAND % 2)) * chalk_strokes(got, tricks, FOREHAND % 2, self.opts["variant"])
        for (kind, trump, soloist), idx in solos.items():
            _, won = solo_outcomes(hands[idx], kind, trump, soloist, self.method, rule)
            scorer[idx] = np.where(won, soloist % 2, 1 - soloist % 2)[:, None]
            if self.counts_strokes:
                strokes[idx] = solo_strokes(kind, won, soloist, self.opts["variant"])[:, None]
        return {"chooser": chooser, "in_showdown": in_showdown, "scorer": scorer, "strokes": strokes, "solo": solo,
                "cur": cur, "first": first, "low": low}

    _scorer = JackValueJob._scorer

    def run_block(self, seed: int, block: int, n: int) -> np.ndarray:
        hands = deal_hands(seed, block, n)
        got = self.outcomes(hands, play_uniforms(seed, block, n))
        chooser, scorer = got["chooser"], got["scorer"]
        seats = np.arange(bs.SEATS)
        team = seats % 2
        choose = chooser[:, None] == seats  # (n, 4)
        partner = chooser[:, None] == (seats + 2) % bs.SEATS
        chalk = scorer[:, team] == team  # (n, 4): the seat's team scored with the chalk at its team
        no_chalk = scorer[:, 1 - team] == team
        showdown = got["in_showdown"]
        stats = {"choose": choose, "score_choose_chalk": choose & chalk, "score_choose_no_chalk": choose & no_chalk,
                 "score_chalk": chalk, "score_no_chalk": no_chalk, "showdown": showdown,
                 "showdown_won": showdown & choose}
        deal_stats = [n, int((chooser < 0).sum()), int(showdown.any(axis=1).sum()), int(got["solo"].sum())]
        per_seat = np.array([stats[k].sum(axis=0) for k in SEAT_STATS]).T  # (4, SEAT_STATS)
        paired = np.zeros((bs.SEATS, len(PAIRED_STATS), 2), dtype=np.int64)
        for k, name in enumerate(PAIRED_STATS):
            x = stats[name]
            paired[:, k, 0] = (x & ~x[:, [FOREHAND]]).sum(axis=0)
            paired[:, k, 1] = (x[:, [FOREHAND]] & ~x).sum(axis=0)
        masks = sum(((hands >> np.uint64(8 * s + bs.JACK)) & np.uint64(1)).astype(np.int64) << s
                    for s in range(4))  # (n, 4) `jack_mask` of every hand
        own = (1 - 2 * team)[:, None] * got["strokes"][:, np.stack([team, 1 - team], axis=1)]  # (n, 4, 2) its team's
        jack_stats = dict(zip(SEAT_JACK_STATS, [np.ones((n, bs.SEATS), dtype=bool), choose, partner, choose | partner,
                                                chalk, no_chalk, *np.moveaxis(stroke_sums(own), -1, 0)]))
        by_mask = np.zeros((bs.SEATS, JACK_MASKS, len(SEAT_JACK_STATS)), dtype=np.int64)
        for k, x in enumerate(jack_stats.values()):
            np.add.at(by_mask[:, :, k], (np.broadcast_to(seats, masks.shape), masks), x.astype(np.int64))
        pooled = pooled_sums(masks, jack_stats)
        return np.concatenate([deal_stats, per_seat.ravel(), paired.ravel(), by_mask.ravel(), pooled.ravel(),
                               showdown_low_counts(got).ravel()]).astype(np.int64)

    @staticmethod
    def unpack(counts: np.ndarray) -> dict:
        """{"deals", "throw_ins", "showdowns", "solos": int, "seats": (4, SEAT_STATS), "paired": (4, PAIRED_STATS,
        2), "jacks": (4, JACK_MASKS, SEAT_JACK_STATS), "pooled": (JACK_GROUPS, POOLED_SUMS), "showdown_low":
        SHOWDOWN_LOW_SHAPE} of a job's counts."""
        counts = np.asarray(counts, dtype=np.int64)
        out = {name: int(v) for name, v in zip(DEAL_STATS, counts)}
        start = len(DEAL_STATS)
        for name, shape in (("seats", (bs.SEATS, len(SEAT_STATS))), ("paired", (bs.SEATS, len(PAIRED_STATS), 2)),
                            ("jacks", (bs.SEATS, JACK_MASKS, len(SEAT_JACK_STATS))),
                            ("pooled", (JACK_GROUPS, POOLED_SUMS)), ("showdown_low", SHOWDOWN_LOW_SHAPE)):
            size = int(np.prod(shape))
            out[name] = counts[start:start + size].reshape(shape)
            start += size
        return out


# --- odds of a known hand -----------------------------------------------------------------------
LEVELS = (42, 60, 61, 79, 89, 91)
"""Card-point levels counted by `OddsJob`: 42 / 79 the chalk thresholds (§6.2), 61 / 60 the AS first
hand and DS thresholds (AS-2, DS-9; DS opponents score when the makers take <= 59), 89 / 91
schneider (AS-4 / §6.2)."""
ODDS_STATS = ("n",) + tuple(f"p{level}" for level in LEVELS) + ("all_tricks", "sum", "sum_sq")
"""Counts per option of `OddsJob`: deals, team points >= each of `LEVELS`, all 8 tricks taken (a solo: won; a
normal game: counted by the methods of `STROKE_METHODS` only, the others give no tricks), sum and sum of squares
of the team's points."""
POINT_BINS = bs.CARD_POINTS + 1
"""A normal game's card points of the team, 0..120: the bins of `OddsJob`'s points histogram (spec §9.1 Q3)."""


class OddsCounts(NamedTuple):
    """`OddsJob.unpack`: per option (o of them) stats (o, ODDS_STATS), strokes (o, 2, STROKE_BINS), points
    (o, POINT_BINS), and discordant (o, o, LEVELS): deals where the team's points reach the level with option i and
    not with option j (solos: none)."""

    stats: np.ndarray
    strokes: np.ndarray
    points: np.ndarray
    discordant: np.ndarray
DS_MIN_BID = 5
"""DS-3: the lowest bid is 5 trumps."""


@dataclass(frozen=True)
class Option:
    """One call to evaluate: kind (bs.NUMBER, bs.SMALL_SOLO or bs.BIG_SOLO) and trump suit 0-3."""

    kind: str
    trump: int


class OddsJob:
    """The other three hands dealt uniformly around ``hand`` at ``seat``; each option is played with
    ``seat``'s team choosing it (normal game: forehand leads, played by ``method`` of
    `ODDS_METHODS`, PIMC with ``samples`` worlds a decision; solo: §5.4 leader, greedy play with the
    Small Solo exchange of `play.small_solo_exchange`, or "dd" `dd_solo_won`). With ``calls`` only deals where
    the seats before ``seat`` make these calls (`CallsCondition`, `conditioned_hands`). Counts: (options,
    ODDS_STATS) int64."""

    block_size = 256

    def __init__(self, hand: tuple[int, ...], seat: int, options: tuple[Option, ...], method: str = "dd",
                 variant: str = "BS", samples: int = PIMC_SAMPLES, rules: tuple = (), first_hand: bool = False,
                 calls: tuple = ()):
        if method not in ODDS_METHODS:
            raise unknown_name("play method", method, ODDS_METHODS)
        self.hand, self.seat, self.options, self.method = tuple(hand), seat, tuple(options), method
        self.samples = samples
        self.rules = tuple(rules)
        self.opts = bs.rule_options(variant=variant, **dict(self.rules))
        self.spec = deal_spec({seat: self.hand}, calls_accept(seat, calls, variant, self.rules, first_hand))
        self.first_hand = first_hand
        self.n_counts = len(self.options) * (self._per_option() + len(self.options) * len(LEVELS))

    @staticmethod
    def _per_option() -> int:
        return len(ODDS_STATS) + 2 * STROKE_BINS + POINT_BINS

    def key(self) -> str:
        pimc = f"|{self.samples}" if self.method == "pimc" else ""
        return (f"bauernstoss-odds|{sorted(self.hand)}|{self.seat}|{self.options}|{self.method}"
                f"|{self.opts['variant']}{pimc}{_rules_key(self.rules)}|strokes|q3|first={self.first_hand}"
                f"{_calls_key(self.spec)}")

    def unpack(self, counts: np.ndarray) -> OddsCounts:
        """`OddsCounts` of the job's counts: per option the counts of `ODDS_STATS`; the histograms of the normal
        game's stroke differential (-4..+4) with the chalk at the hand's team (row 0) and at the other team (row 1),
        in a first hand both rows the deal's chalk (BS: the club jack's team; AS: none); the histogram of the team's
        card points (0..120); and the paired discordant counts of each level. Strokes are zero for solos, DS and
        play methods outside `STROKE_METHODS`; points and discordant zero for solos."""
        o = len(self.options)
        split = o * self._per_option()
        parts = counts[:split].reshape(o, self._per_option())
        stats, strokes, points = np.split(parts, np.cumsum([len(ODDS_STATS), 2 * STROKE_BINS]), axis=1)
        return OddsCounts(stats, strokes.reshape(-1, 2, STROKE_BINS), points, counts[split:].reshape(o, o, len(LEVELS)))

    def _chalks(self, hands: np.ndarray, team: int) -> np.ndarray:
        """(2, n) int64: the chalk team of each deal in the two settings of `unpack` (-1: none)."""
        n = len(hands)
        if not self.first_hand:
            return np.array([np.full(n, team), np.full(n, 1 - team)])
        if self.opts["variant"] == "AS":
            return np.full((2, n), -1)
        holder = np.array([next(s for s in range(bs.SEATS) if (int(h[s]) >> bs.CLUB_JACK) & 1) for h in hands])
        return np.array([holder % 2, holder % 2])

    def run_block(self, seed: int, block: int, n: int) -> np.ndarray:
        hands, _ = conditioned_hands(seed, block, n, self.spec)
        u = play_uniforms(seed, block, n)
        rule = play.play_rule(self.opts["variant"], self.opts["jack_rule"])
        team = self.seat % 2
        o = len(self.options)
        out = np.zeros((o, len(ODDS_STATS)), dtype=np.int64)
        strokes = np.zeros((o, 2, STROKE_BINS), dtype=np.int64)
        points = np.zeros((o, POINT_BINS), dtype=np.int64)
        reached = np.zeros((o, len(LEVELS), n), dtype=bool)
        counts_strokes = self.method in STROKE_METHODS and self.opts["variant"] != "DS"
        chalks = self._chalks(hands, team) if counts_strokes else None
        for k, option in enumerate(self.options):
            won = np.zeros(n, dtype=bool)
            if option.kind == bs.NUMBER and self.method == "pimc":
                rng = block_substream(seed, block, GAME_STREAM + k)
                got = np.array([pimc_play(h, option.trump, team, rng, self.samples, FOREHAND, rule) for h in hands],
                               dtype=np.int64)
            elif option.kind == bs.NUMBER and self.method in STROKE_METHODS:
                got, tricks = play.trusted_play_out(self.method, hands, np.full(n, option.trump),
                                                    np.full(n, FOREHAND), u, rule)
                got, won = got[:, team], tricks[:, team] == bs.TRICKS
                for row in range(2 if counts_strokes else 0):
                    diff = stroke_differentials(got, tricks[:, team], team, chalks[row], self.opts["variant"])
                    strokes[k, row] = np.bincount(diff + STROKE_SPAN, minlength=STROKE_BINS)
            elif option.kind == bs.NUMBER:
                got = team_points(self.method, hands, option.trump, FOREHAND, team, u, rule)
            else:
                got, won = solo_outcomes(hands, option.kind, option.trump, self.seat, self.method, rule)
            out[k] = [n, *((got >= level).sum() for level in LEVELS), won.sum(), got.sum(), (got * got).sum()]
            if option.kind == bs.NUMBER:
                points[k] = np.bincount(got, minlength=POINT_BINS)
                reached[k] = got >= np.array(LEVELS)[:, None]
        discordant = (reached[:, None] & ~reached[None, :]).sum(axis=3)
        return np.concatenate([np.concatenate([out, strokes.reshape(o, -1), points], axis=1).ravel(),
                               discordant.ravel()])


def solo_outcomes(hands: np.ndarray, kind: str, trump: int, soloist: int, method: str,
                  rule: int) -> tuple[np.ndarray, np.ndarray]:
    """Solo play-outs of deals (n, 4) as dealt: (the soloist's team's points until play stopped, solo won);
    greedy play after the Small Solo exchange (the soloist gives its least useful card, `play._keep_key`), or
    with method "dd" the double-dummy verdict (`dd_solo_won`) and no points (§8 A21: solo points are ignored)."""
    leader = play.solo_leader(DEALER, soloist)
    if method == "dd":
        return np.zeros(len(hands), dtype=np.int64), dd_solo_won(hands, kind, trump, soloist, leader, rule)
    if kind == bs.SMALL_SOLO:
        hands = np.array([play.trusted_small_solo_exchange(h, soloist, trump, min(bs.DECK.cards_of(int(h[soloist])),
                                                                          key=lambda c: play._keep_key(c, trump)))
                          for h in hands], dtype=np.uint64)
    n = hands.shape[0]
    points, tricks = play.trusted_play_out("greedy", hands, np.full(n, trump), np.full(n, leader), None, rule,
                                   np.full(n, soloist))
    team = soloist % 2
    return points[:, team], tricks[:, team] == bs.TRICKS


def dd_solo_won(hands: np.ndarray, kind: str, trump: int, soloist: int, leader: int, rule: int = play.BS_OVERTAKE,
                table=None) -> np.ndarray:
    """Whether each deal's solo is won under perfect play, all cards known (`solve.solo_wins`).

    hands (n, 4) masks as dealt; kind bs.BIG_SOLO or bs.SMALL_SOLO; trump 0-3 (a Big Solo also
    takes (n,) trumps). A Small Solo is won when some
    exchange wins (§5.4: the soloist passes any card, its partner returns any card of its original
    eight; double dummy, both choose knowing every hand). Returns (n,) bool.
    """
    checks.one_of(kind, "solo kind", (bs.BIG_SOLO, bs.SMALL_SOLO))
    hands = solve.checked_hands(hands, equal_sizes=False, disjoint=False)
    table = solve.new_solo_table() if table is None else table
    if kind == bs.BIG_SOLO:
        return solve.solo_wins(hands, trump, soloist, leader, rule, table)
    soloist = checks.whole(soloist, "soloist (one seat for every deal of a Small Solo)", 0, bs.SEATS - 1)
    n = len(hands)
    held = (hands[:, [soloist, (soloist + 2) % bs.SEATS], None] >> np.arange(32, dtype=np.uint64)) & np.uint64(1)
    cards = np.argsort(-held.astype(np.int64), axis=2, kind="stable")[:, :, :bs.HAND_SIZE].astype(np.uint64)
    give, back = np.uint64(1) << cards[:, 0], np.uint64(1) << cards[:, 1]  # (n, 8) each
    variants = np.repeat(hands[:, None, :], bs.HAND_SIZE ** 2, axis=1)  # the partner's hand sits out
    variants[:, :, soloist] = (hands[:, soloist, None, None] ^ give[:, :, None] ^ back[:, None, :]).reshape(n, -1)
    won = solve.solo_wins(variants.reshape(-1, bs.SEATS), trump, soloist, leader, rule, table)
    return won.reshape(n, -1).any(axis=1)


# --- the auction part of odds (spec §9.1 Q5, Q6) ------------------------------------------------
CHOOSERS = ("me", "partner", "opponent")
AUCTION_STATS = ("n",) + CHOOSERS + ("throw_in", "solo") + tuple(f"score_{c}" for c in CHOOSERS) + (
    "showdown", "my_showdown", "my_showdown_won", "pairs", "pair_me", "pair_partner", "pair_me_only",
    "pair_partner_only", "tried")
"""Counts of `AuctionOddsJob`: deals; who named trumps (me, my partner, an opponent) or a throw-in (§4.11);
solos; my team scored, by who chose; showdowns (§4.9, AS-6, DS-7), those I was tied in and those I won; Q6
pairs (my partner and I both bid and my team chose): my team scoring with my suit, with my partner's, with
mine only, with my partner's only; the deals tried to find the deals (`conditioned_hands`: more than the deals
only when conditioned on the calls before my seat)."""
CUR_BINS = bs.TRICKS + 1


class AuctionOddsJob:
    """The auction part of `odds` (spec §9.1 Q5, Q6): the deals of `OddsJob` (the other three hands uniform
    around ``hand`` at ``seat``), every seat calling by `policy_call`, ``seat`` by ``policy`` and the others by
    `DEFAULT_POLICY`; the contract played by ``method`` (normal game: forehand leads, PIMC with ``samples``
    worlds; solos by `solo_outcomes`) and scored with the chalk at team ``chalk`` (a later hand), in a
    ``first_hand`` at the club jack's team (BS, §6.4) or none (AS-2: 61 wins); DS has none (DS-9). Deals where
    my partner and I both bid and my team chose are also played with my suit and with my partner's (Q6, paired
    on the deal). With ``calls`` (the calls of the seats before ``seat``, `CallsCondition`) the deals are those
    where these seats make them (`conditioned_hands`), and the count "tried" says how many were dealt to find them.
    ``my_call`` (a `bs.Call`, spec §9.1 Q5 "the call I pick") replaces ``policy`` at ``seat`` on every deal (it
    must be legal there: with ``calls`` the state at the seat is the same on every deal; `fixed_caller`).
    Play choices come from sub-stream AUCTION_STREAM. Counts (`unpack`): `AUCTION_STATS`, then my
    showdowns and those I won by the winning bid cur 0-8."""

    block_size = 256

    def __init__(self, hand: tuple[int, ...], seat: int, policy: str = DEFAULT_POLICY, chalk: int | None = None,
                 method: str = "greedy", variant: str = "BS", samples: int = PIMC_SAMPLES, rules: tuple = (),
                 first_hand: bool = False, calls: tuple = (), my_call: bs.Call | None = None):
        if method not in ODDS_METHODS:
            raise unknown_name("play method", method, ODDS_METHODS)
        self.hand, self.seat, self.method, self.samples = tuple(hand), seat, method, samples
        self.policy = auction_policy(policy)
        self.rules = tuple(rules)
        self.opts = bs.rule_options(variant=variant, **dict(self.rules))
        if chalk is None and not first_hand and self.opts["variant"] != "DS":
            raise CardsimError("a later BS/AS hand is scored against the chalk team (§6.2): give chalk=0 or 1, "
                               "or first_hand=True")
        self.chalk, self.first_hand = chalk, first_hand
        self.spec = deal_spec({seat: self.hand}, calls_accept(seat, calls, variant, self.rules, first_hand))
        self.my_call = my_call
        self.n_counts = len(AUCTION_STATS) + 2 * CUR_BINS

    def key(self) -> str:
        pimc = f"|{self.samples}" if self.method == "pimc" else ""
        mine = "" if self.my_call is None else f"|my={self.my_call.kind},{self.my_call.n},{self.my_call.suit}"
        return (f"bauernstoss-auction-odds|{sorted(self.hand)}|{self.seat}|{self.policy.name}|chalk={self.chalk}"
                f"|{self.method}|{self.opts['variant']}{pimc}{_rules_key(self.rules)}|first={self.first_hand}"
                f"{_calls_key(self.spec)}{mine}")

    @staticmethod
    def unpack(counts: np.ndarray) -> tuple[dict, np.ndarray]:
        """({name of `AUCTION_STATS`: count}, (2, CUR_BINS): my showdowns and those I won, by cur)."""
        stats = dict(zip(AUCTION_STATS, (int(v) for v in counts[:len(AUCTION_STATS)])))
        return stats, counts[len(AUCTION_STATS):].reshape(2, CUR_BINS)

    def run_block(self, seed: int, block: int, n: int) -> np.ndarray:
        hands, tried = conditioned_hands(seed, block, n, self.spec)
        rng = block_substream(seed, block, AUCTION_STREAM)
        u = rng.random((n, play.DECISIONS))
        default = auction_policy(DEFAULT_POLICY)
        caller = fixed_caller(caller_for(tuple(self.policy if s == self.seat else default for s in range(bs.SEATS))),
                              self.seat, self.my_call)
        rule = play.play_rule(self.opts["variant"], self.opts["jack_rule"])
        team, partner = self.seat % 2, (self.seat + 2) % bs.SEATS
        stats = dict.fromkeys(AUCTION_STATS, 0)
        stats.update(n=n, tried=tried)
        by_cur = np.zeros((2, CUR_BINS), dtype=np.int64)
        normal, solos, pairs = [], {}, []
        for i in range(n):
            auction = finished_auction(hands[i], self.opts, caller, self.first_hand)
            contract = auction.contract()
            if contract.kind == bs.THROW_IN:
                stats["throw_in"] += 1
                continue
            chooser = contract.declarer
            who = CHOOSERS[0 if chooser == self.seat else 1 if chooser == partner else 2]
            stats[who] += 1
            if contract.showdown:
                stats["showdown"] += 1
                if self.seat in auction.at_cur:
                    won = int(chooser == self.seat)
                    stats["my_showdown"] += 1
                    stats["my_showdown_won"] += won
                    by_cur[:, contract.bid] += (1, won)
            if contract.kind in bs.SOLOS:
                stats["solo"] += 1
                solos.setdefault((contract.kind, contract.trump, chooser), []).append((i, who))
                continue
            trump = contract.trump if contract.trump >= 0 else \
                bs.best_suit(int(hands[i, chooser]), "DS", self.opts["ds_ten_value"])  # DS-5: all passed
            normal.append((i, who, trump, chooser % 2))
            if chooser % 2 == team and {self.seat, partner} <= auction.suit_of.keys():
                pairs.append((i, auction.suit_of[self.seat], auction.suit_of[partner]))
        if normal:
            idx, whos, trumps, makers = (np.array(x) for x in zip(*normal))
            scorers = self._scorers(hands[idx], self._points(hands[idx], trumps, team, u[idx], rule, rng), makers)
            for who in CHOOSERS:
                stats[f"score_{who}"] += int((scorers[whos == who] == team).sum())
        for (kind, trump, soloist), deals in solos.items():
            idx, whos = (np.array(x) for x in zip(*deals))
            _, won = solo_outcomes(hands[idx], kind, trump, soloist, self.method, rule)
            for who in CHOOSERS:
                stats[f"score_{who}"] += int((won == (soloist % 2 == team))[whos == who].sum())
        if pairs:
            idx, mine, theirs = (np.array(x) for x in zip(*pairs))
            makers = np.full(len(idx), team)
            a, b = (self._scorers(hands[idx], self._points(hands[idx], suits, team, u[idx], rule, rng), makers) == team
                    for suits in (mine, theirs))
            stats.update(pairs=len(idx), pair_me=int(a.sum()), pair_partner=int(b.sum()),
                         pair_me_only=int((a & ~b).sum()), pair_partner_only=int((b & ~a).sum()))
        return np.concatenate([[stats[k] for k in AUCTION_STATS], by_cur.ravel()])

    def _points(self, hands: np.ndarray, trumps: np.ndarray, team: int, u: np.ndarray, rule: int,
                rng: np.random.Generator) -> np.ndarray:
        """(n,) card points ``team`` takes in normal games of deals (n, 4) with ``trumps`` (n,), forehand leading."""
        if self.method == "pimc":
            return np.array([pimc_play(h, t, team, rng, self.samples, FOREHAND, rule) for h, t in zip(hands, trumps)],
                            dtype=np.int64)
        return team_points(self.method, hands, trumps, FOREHAND, team, u, rule)

    def _scorers(self, hands: np.ndarray, points: np.ndarray, makers: np.ndarray) -> np.ndarray:
        """(n,) the team that scores each normal game (§6.2, AS-2, DS-9; -1: nobody yet, a DS 60-60 hand, DS-11):
        ``points`` the job's team's card points, ``makers`` the teams that named trumps."""
        variant, team = self.opts["variant"], self.seat % 2
        out = np.empty(len(points), dtype=np.int64)
        for k, (dealt, got, maker) in enumerate(zip(hands, points, makers)):
            p0 = int(got) if team == 0 else bs.CARD_POINTS - int(got)
            if variant == "DS":
                scored = bs.ds_score(p0, int(maker))
                out[k] = -1 if scored is None else scored[0]
                continue
            chalk = self.chalk
            if self.first_hand:
                chalk = None if variant == "AS" else next(s for s in range(bs.SEATS)
                                                           if (int(dealt[s]) >> bs.CLUB_JACK) & 1) % 2
            out[k] = bs.normal_score(p0, 0, chalk, variant, int(maker))[0]  # tricks set the strokes, not the scorer
        return out


# --- matches between auction policies ----------------------------------------------------------
MATCH_STATS = ("a_wins", "b_wins", "deals", "a_strokes", "b_strokes", "a_sq", "b_sq", "deals_sq", "a_deals",
               "b_deals", "a_wins_sq", "b_wins_sq", "ab_wins")
"""Counts of `MatchJob`: games won by policy a and b (a DS schwarz's game credit included, DS-10); deals played;
strokes scored by a and b; and the sums over pairs of squares and cross products (a², b², deals², a·deals,
b·deals of the strokes; a², b², a·b of the games won) that give the intervals with the pairs as clusters."""


class MatchJob:
    """Duplicate pairs of games (``variant``: BS to 20 strokes, AS to 15, DS to 9, spec §6.4, §7): policy
    a as team 0 against b, then the same deal sequence with the seats swapped (a as team 1). Card play
    greedy (deterministic), so the two games of a pair see the same deals for as long as both last.
    ``rules``: other rule option pairs. One unit = one pair."""

    block_size = 64
    run_unit = ("games", 2)

    def __init__(self, a: str, b: str, rules: tuple = (), variant: str = "BS"):
        self.a, self.b = auction_policy(a), auction_policy(b)
        self.rules = tuple(rules)
        self.opts = bs.rule_options(variant=variant, **dict(self.rules))
        self.n_counts = len(MATCH_STATS)

    def key(self) -> str:
        variant = "" if self.opts["variant"] == "BS" else f"|{self.opts['variant']}"
        return f"bauernstoss-match|{self.a}|{self.b}{variant}{_rules_key(self.rules)}"

    def run_block(self, seed: int, block: int, n: int) -> np.ndarray:
        out = np.zeros(len(MATCH_STATS), dtype=np.int64)
        for i in range(n):
            a_wins = b_wins = deals = a_strokes = b_strokes = 0
            for a_team in (0, 1):
                policies = (self.a, self.b) if a_team == 0 else (self.b, self.a)
                rng = block_substream(seed, block, GAME_STREAM + i)
                history = play.play_game(self.opts, rng, policy="greedy", caller=caller_for(policies))
                final = history[-1][3]
                a_wins += final.games[a_team]
                b_wins += final.games[1 - a_team]
                deals += len(history)
                a_strokes += strokes_scored(history, a_team, self.opts)
                b_strokes += strokes_scored(history, 1 - a_team, self.opts)
            out += [a_wins, b_wins, deals, a_strokes, b_strokes, a_strokes ** 2, b_strokes ** 2, deals ** 2,
                    a_strokes * deals, b_strokes * deals, a_wins ** 2, b_wins ** 2, a_wins * b_wins]
        return out


def strokes_scored(history: list, team: int, opts: dict | None = None) -> int:
    """Strokes ``team`` scored over a game's history of (state before, contract, result, state after),
    the game-winning hand included (`bs.hand_strokes` under the rule options ``opts``)."""
    total = 0
    for before, _, result, _ in history:
        scorer, strokes = bs.hand_strokes(before, result, opts)
        total += strokes if scorer == team else 0
    return total


# --- per-hand stroke outcomes of self-play (game-level equity, spec §9.1 Q10) ---------------------
OUTCOME_SPAN = 12
"""The most strokes one hand scores before DS tie bonuses: a Big Solo (§6.3)."""
ZERO = OUTCOME_SPAN
DECIDED = 2 * OUTCOME_SPAN + 1
TIED = DECIDED + 2
OUTCOMES = TIED + 2
"""Number of hand outcome codes (`outcome_code`): ZERO + s when team 0 scores s strokes, ZERO - s when
team 1 does (ZERO: nobody scores: a throw-in, a DS schwarz's game credit, §8 A7), DECIDED + t when team t
wins the game outright (an AS Big Solo, AS-10), TIED + m for a DS 60-60 hand made by team m (DS-11)."""


def outcome_code(state: bs.GameState, result: bs.HandResult, opts: dict) -> int:
    """The outcome code (`OUTCOMES`) of a hand ``result`` played from ``state`` (`bs.hand_strokes`; DS with
    no pending ties, so the strokes are the hand's own)."""
    scorer, strokes = bs.hand_strokes(state, result, opts)
    if opts["variant"] == "DS" and bs.ds_score(result.points, result.maker) is None:
        return TIED + result.maker
    if strokes == 0:
        return ZERO if result.kind in (bs.NORMAL, bs.THROW_IN) else DECIDED + scorer
    return ZERO + (strokes if scorer == 0 else -strokes)


class EquityJob:
    """Self-play hands for game-level equity: uniform deals with seat 0 dealing, the auction made by
    ``policy`` (`AUCTION_POLICIES`) at every seat and greedy card play (`play.play_hand`, as in
    `MatchJob`). BS/AS: even units are later hands, scored with the chalk at team 0 and at team 1
    (the play does not depend on the chalk); odd units are a game's first hand (solos banned, §4.7;
    BS chalk = the club jack's team, §6.4; AS decided at 61, AS-2). DS (no chalk, no solos): every unit
    a hand. Counts (`unpack`): [hands, later (OUTCOMES, OUTCOMES) histogram of the codes with the chalk
    at team 0 x at team 1, first (club jack's team 2, OUTCOMES) histogram]; team 0 is the dealer's."""

    block_size = 1024

    def __init__(self, policy: str = "b0", variant: str = "BS", rules: tuple = ()):
        self.policy = auction_policy(policy)
        self.rules = tuple(rules)
        self.opts = bs.rule_options(variant=variant, **dict(self.rules))
        self.n_counts = 1 + OUTCOMES * OUTCOMES + 2 * OUTCOMES

    def key(self) -> str:
        return f"bauernstoss-equity|{self.policy.name}|{self.opts['variant']}{_rules_key(self.rules)}"

    def run_block(self, seed: int, block: int, n: int) -> np.ndarray:
        deals = deal_hands(seed, block, n)
        rng = block_substream(seed, block, PLAY_STREAM)
        later = np.zeros((OUTCOMES, OUTCOMES), dtype=np.int64)
        first = np.zeros((2, OUTCOMES), dtype=np.int64)
        caller = caller_for((self.policy, self.policy))
        ds = self.opts["variant"] == "DS"
        for i in range(n):
            hands = [int(h) for h in deals[i]]
            opening = i % 2 == 1 and not ds
            state = bs.GameState(chalk=None if opening or ds else 0, first_hand=opening, dealer=DEALER)
            _, _, result = play.trusted_play_hand(state, hands, self.opts, rng, "greedy", caller)
            if opening:
                first[result.club_jack, outcome_code(state, result, self.opts)] += 1
            else:
                later[tuple(outcome_code(replace(state, chalk=None if ds else c), result, self.opts)
                            for c in (0, 1))] += 1
        return np.concatenate([[n], later.ravel(), first.ravel()])

    @staticmethod
    def unpack(counts: np.ndarray) -> dict:
        """{"hands", "later": (OUTCOMES, OUTCOMES), "first": (2, OUTCOMES)} of a job's counts."""
        size = OUTCOMES * OUTCOMES
        return {"hands": int(counts[0]), "later": counts[1:1 + size].reshape(OUTCOMES, OUTCOMES),
                "first": counts[1 + size:].reshape(2, OUTCOMES)}


# --- perfect-information Monte Carlo (PIMC) for one player's view ------------------------------
def pimc_worlds(hand: int, seat: int, leader: int, trick: tuple[int, ...], gone: int, samples: int,
                seed: int, rng: np.random.Generator | None = None) -> np.ndarray:
    """Deals of the cards ``seat`` cannot see, consistent with what it knows: its own ``hand`` (card
    mask), the ``trick`` so far (cards in order from ``leader``; ``seat`` is to play) and the cards
    ``gone`` in earlier tricks (mask). Every other seat holds as many cards as ``seat`` does, one
    fewer if it has played to the trick; the hidden cards are spread uniformly (no inference from
    the play). Randomness: ``rng``, by default ``block_stream(seed, 0)``. Returns (samples, 4) uint64
    hands. The arguments are checked (CardsimError)."""
    hand, seat, leader, trick, gone = _checked_view(hand, seat, leader, trick, gone)
    samples = checks.whole(samples, "samples (worlds a decision)", 1)
    if rng is not None and not isinstance(rng, np.random.Generator):
        raise CardsimError(f"rng must be a numpy Generator or None, got {checks.shown(rng)}")
    if (leader + len(trick)) % bs.SEATS != seat:
        raise CardsimError(f"seat {seat} is not to play: the trick led by seat {leader} holds {len(trick)} cards")
    on_table = bs.DECK.mask(trick)
    if hand & (gone | on_table) or gone & on_table:
        raise CardsimError("a card is both in the hand and played; each card is in one place only")
    size = bin(hand).count("1")
    played = {(leader + i) % bs.SEATS for i in range(len(trick))}
    need = {s: size - (s in played) for s in range(bs.SEATS) if s != seat}
    hidden = [c for c in range(32) if not ((hand | gone | on_table) >> c) & 1]
    if len(hidden) != sum(need.values()):
        raise CardsimError(f"{len(hidden)} unseen cards cannot fill the other hands ({sum(need.values())} "
                           "cards): check the hand, the trick and the cards gone")
    rng = block_stream(seed, 0) if rng is None else rng
    out = np.zeros((samples, bs.SEATS), dtype=np.uint64)
    for k in range(samples):
        cards = rng.permutation(hidden)
        start = 0
        for s in range(bs.SEATS):
            if s == seat:
                out[k, s] = hand
                continue
            out[k, s] = bs.DECK.mask(cards[start:start + need[s]])
            start += need[s]
    return out


def _checked_view(hand, seat, leader, trick, gone) -> tuple[int, int, int, tuple[int, ...], int]:
    """(hand, seat, leader, trick, gone) of a PIMC view as ints: a mask of 1-8 cards, seats 0-3, at most 3 cards 0-31
    on the trick (each once), a mask of the cards gone; CardsimError otherwise."""
    hand = checks.whole(hand, "hand (a card mask)", 1, (1 << bs.DECK.n_cards) - 1)
    if hand.bit_count() > bs.HAND_SIZE:
        raise CardsimError(f"hand (a card mask) must hold 1-{bs.HAND_SIZE} cards, got {hand.bit_count()}")
    seat, leader = checks.whole(seat, "seat", 0, bs.SEATS - 1), checks.whole(leader, "leader", 0, bs.SEATS - 1)
    if not isinstance(trick, (list, tuple)) or len(trick) >= bs.SEATS:
        raise CardsimError(f"trick must be the 0-3 cards played to the trick so far, got {checks.shown(trick)}")
    trick = checks.wholes(trick, "trick", len(trick), 0, bs.DECK.n_cards - 1)
    return hand, seat, leader, trick, checks.whole(gone, "gone (a card mask)", 0, (1 << bs.DECK.n_cards) - 1)


def pimc_values(hand: int, seat: int, trump: int, team: int, leader: int = FOREHAND, trick: tuple[int, ...] = (),
                gone: int = 0, samples: int = 20, seed: int = 0, rule: int = play.BS_OVERTAKE,
                rng: np.random.Generator | None = None, table=None) -> dict[int, float]:
    """PIMC: for each legal card of ``seat``, the mean card points ``team`` takes (the current trick
    and all later ones) when that card is played and every world of `pimc_worlds` (drawn from
    ``rng``, by default ``block_stream(seed, 0)``) is then solved double dummy. The seat picks the
    best card for its own team (max for ``team``, else min). The arguments are checked (CardsimError)."""
    trump, team = checks.whole(trump, "trump", 0, 3), checks.whole(team, "team", 0, 1)
    play.check_rule(rule)
    table = checked_table(table, solve.new_table, solve.BUCKET)
    worlds = pimc_worlds(hand, seat, leader, trick, gone, samples, seed, rng)
    hand, trick = int(hand), tuple(int(c) for c in trick)
    padded = np.array(list(trick) + [0] * (bs.SEATS - len(trick)), dtype=np.int64)
    legal = int(play.legal_mask(np.uint64(hand), padded, len(trick), trump, rule))
    table = solve.new_table(16) if table is None else table
    values = {}
    for card in bs.DECK.cards_of(legal):
        total = 0
        for world in worlds:
            rest = [int(h) for h in world]
            rest[seat] ^= 1 << card
            total += solve.trusted_position_points(rest, trump, leader, team, tuple(trick) + (card,), rule,
                                                   table)
        values[card] = total / samples
    return values


def pimc_play(hands, trump: int, team: int, rng: np.random.Generator, samples: int = PIMC_SAMPLES,
              leader: int = FOREHAND, rule: int = play.BS_OVERTAKE, table=None) -> int:
    """Card points ``team`` takes when every seat plays by PIMC (`pimc_values` over ``samples``
    worlds of what it has seen, worlds from ``rng``; a forced card is played at once; ties go to
    the lower card). hands (4,) card masks of a normal game led by ``leader``. The arguments are checked
    (CardsimError)."""
    hands = [int(h) for h in checks.hand_masks(hands, "hands", bs.DECK.n_cards, bs.SEATS, range(1, bs.HAND_SIZE + 1))]
    trump, team = checks.whole(trump, "trump", 0, 3), checks.whole(team, "team", 0, 1)
    leader, samples = checks.whole(leader, "leader", 0, bs.SEATS - 1), checks.whole(samples, "samples", 1)
    if not isinstance(rng, np.random.Generator):
        raise CardsimError(f"rng must be a numpy Generator (numpy.random.default_rng(seed)), got {checks.shown(rng)}")
    play.check_rule(rule)
    table = checked_table(table, solve.new_table, solve.BUCKET)
    table = solve.new_table(16) if table is None else table
    gone, taken = 0, 0
    while hands[leader]:
        trick: list[int] = []
        for i in range(bs.SEATS):
            seat = (leader + i) % bs.SEATS
            padded = np.array(trick + [0] * (bs.SEATS - len(trick)), dtype=np.int64)
            legal = bs.DECK.cards_of(int(play.legal_mask(np.uint64(hands[seat]), padded, len(trick), trump, rule)))
            card = legal[0]
            if len(legal) > 1:
                values = pimc_values(hands[seat], seat, trump, team, leader, tuple(trick), gone, samples, rule=rule,
                                     rng=rng, table=table)
                sign = 1 if seat % 2 == team else -1
                card = max(legal, key=lambda c: (sign * values[c], -c))
            hands[seat] ^= 1 << card
            trick.append(card)
        winner = (leader + int(play.winning_slot(np.array(trick, dtype=np.int64), bs.SEATS, trump))) % bs.SEATS
        if winner % 2 == team:
            taken += sum(int(bs.FACE_POINTS[c]) for c in trick)
        gone |= bs.DECK.mask(trick)
        leader = winner
    return taken
