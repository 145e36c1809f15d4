"""``cardsim thresholds dreeg`` decisions "surrender" (Rot Assen, §3.2.1) and "exchange" (the trump-9 exchange
of 2-player 66, §3.1.2): what each branch does on constructed and seeded deals, a plain recount of a small run's
table from per-deal outcomes, the same numbers whatever --jobs and --chunk-size, the command and its bad input."""

from __future__ import annotations

import json
import statistics
from collections import defaultdict

import numpy as np
import pytest
from scipy.stats import t as student_t

import naive_dreeg as naive
from analysis.cli import main
from analysis.games import dreeg as api
from simcore.games import dreeg_rules as r
from simcore.games.dreeg import rule_options
from simcore.games.dreeg_odds import (DECISIONS, INDICATOR_RANKS, SURRENDER_TOP, ThresholdJob, _Exchanger,
                                      surrender_score)
from simcore.games.dreeg_play import play_hand
from simcore.games.dreeg_policies import Committed, GreedyPolicy
from simcore.rng import block_stream

OPTS = rule_options()
E, L, H, S = range(4)
RUN = dict(progress=False, checkpoint=False)


def cards(text: str) -> list[int]:
    return r.DECK.parse_cards(text)


def mask(text: str) -> int:
    return r.DECK.mask(cards(text))


def perm_for(hands: list[str]) -> list[int]:
    """A 4-player pack that deals ``hands`` (each listed in dealing order)."""
    queues = [cards(h) for h in hands]
    return [queues[pos].pop(0) for pos in r.deal_order(len(hands)) if pos >= 0]


def duel66_perm(fh: str, dealer: str, indicator: str, talon: str) -> list[int]:
    """A 2-player 66 pack (§3.1.2: 3 each, the indicator, 3 each, the talon on top of the indicator)."""
    a, b = cards(fh), cards(dealer)
    return a[:3] + b[:3] + cards(indicator) + a[3:] + b[3:] + cards(talon)


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_new_decisions_are_listed():
    assert list(DECISIONS)[-2:] == ["surrender", "exchange"]
    assert api.CLASS_LABELS["surrender"](2) == "trumps + side aces 2"
    assert api.CLASS_LABELS["surrender"](SURRENDER_TOP) == f"trumps + side aces {SURRENDER_TOP}+"
    assert [api.CLASS_LABELS["exchange"](c) for c in range(len(INDICATOR_RANKS))] == [
        "indicator A", "indicator 10", "indicator K", "indicator O", "indicator U"]


# --- surrender: Rot Assen with 4 players (§3.2.1) ----------------------------------------------------------------
WEAK = ["E10 EK LA SA S10 SK", "HA H9 E9 L9 SU LU", "EA EO LK LO SO S9", "H10 HK HO HU EU L10"]
"""Position 1 holds the heart ace with hearts A 9, leaves 9 U and no other Ace: score 2 (trumps 2 + side aces 0)."""
STRONG = ["HA H10 HK HO EA LA", "E10 EK EO EU E9 L10", "LK LO LU L9 SA S10", "SK SO SU S9 HU H9"]
"""Forehand holds the heart ace with hearts A 10 K O and the Aces of acorns and leaves: score 6 (class 5+)."""


@pytest.mark.parametrize("hands, holder, score", [(WEAK, 1, 2), (STRONG, 0, 6)])
def test_surrender_costs_each_opponent_two_strokes_and_playing_plays(hands, holder, score):
    """B: the soloist surrenders instead of naming trump; the hand is not played and each other player
    erases 2, the soloist 0 (§3.2.1, T10): his net strokes are exactly -2. A: he names his best trump (hearts,
    the longest suit, richer on a tie) and the hand is played."""
    perm = perm_for(hands)
    played = [GreedyPolicy() for _ in range(4)]
    played[holder] = Committed(GreedyPolicy(), ra_trump=H)
    a = play_hand("RA", 2, perm, played, OPTS)
    cls, ((won_a, net_a, schwarz_a), (won_b, net_b, schwarz_b)) = ThresholdJob("surrender")._surrender(perm, OPTS)
    assert a.kind in ("played", "out") and a.trump == H and sum(a.tricks) > 0
    assert cls == min(score, SURRENDER_TOP) == min(surrender_score(mask(hands[holder]), H), SURRENDER_TOP)
    assert (won_a, net_a) == (a.erase[holder] > 0, a.erase[holder] - max(a.erase[i] for i in range(4) if i != holder))
    assert (won_b, net_b, schwarz_b) == (False, -2, False)
    surrendered = [GreedyPolicy() for _ in range(4)]
    surrendered[holder] = Committed(GreedyPolicy(), ra_trump=-1)
    b = play_hand("RA", 2, perm, surrendered, OPTS)
    assert b.kind == "surrender" and b.erase == [0 if i == holder else 2 for i in range(4)]


def test_surrender_branches_differ_on_every_seeded_deal():
    """On every deal the heart-ace holder exists (all 24 cards are dealt); A plays the hand with his best trump
    (the longest suit, the richer on a tie) and B throws it in at the fixed cost; the class is his trumps plus
    his Aces of the other suits."""
    rng = np.random.default_rng(11)
    nets = set()
    for _ in range(60):
        perm = rng.permutation(24)
        hands, _ = r.deal_hands(perm, 4)
        holder = next(p for p in range(4) if (hands[p] >> r.HEART_ACE) & 1)
        hand = [c for c in range(24) if (hands[holder] >> c) & 1]
        best = max(range(4), key=lambda s: (sum(naive.suit(c) == s for c in hand),
                                            sum(naive.POINTS[naive.rank(c)] for c in hand if naive.suit(c) == s), s))
        players = [GreedyPolicy() for _ in range(4)]
        players[holder] = Committed(GreedyPolicy(), ra_trump=best)
        played = play_hand("RA", 2, perm, players, OPTS)
        cls, (a, b) = ThresholdJob("surrender")._surrender(perm, OPTS)
        assert played.kind in ("played", "out") and played.trump == best and sum(played.tricks) > 0
        assert b == (False, -2, False) and a[:2] == (played.erase[holder] > 0, played.erase[holder] - max(
            played.erase[i] for i in range(4) if i != holder))
        aces = sum(1 for c in hand if naive.rank(c) == 5 and naive.suit(c) != best)
        assert cls == min(sum(naive.suit(c) == best for c in hand) + aces, SURRENDER_TOP)
        nets.add(a[1])
    assert len(nets) > 3      # playing spreads from Schwarz (-3) to a win


# --- exchange: 2-player 66 (§3.1.2) ------------------------------------------------------------------------------
class Watched(_Exchanger):
    """`_Exchanger` that also logs, at every question, (question, position, tricks played, leader, closed, talon
    bottom or -1, its hand)."""

    def __init__(self, take, seen, log):
        super().__init__(take, seen)
        self.log = log

    def _note(self, name, play, pos):
        self.log.append((name, pos, sum(play.tricks), play.leader, play.closer >= 0,
                         play.talon[-1] if play.talon else -1, play.hands[pos]))

    def exchange(self, play, pos):
        self._note("exchange", play, pos)
        return super().exchange(play, pos)

    def card(self, play, pos, legal):
        self._note("card", play, pos)
        return super().card(play, pos, legal)


def _branch(perm, take, opts=OPTS):
    seen, log = [], []
    res = play_hand("66", 1, perm, [Watched(take, seen, log), Watched(take, seen, log)], opts)
    return res, seen, log


NINE_DEAL = duel66_perm("EA H9 S9 E9 SU LU", "L9 LO LK SK SO S10", "HK", "E10 EK EO EU LA L10 HA H10 HO HU SA")
"""Forehand holds the trump 9 (hearts, indicator HK) and cashes EA, which the dealer (no acorn, no trump) cannot
take: his first chance comes after winning trick 1, not before it (X1)."""


def test_exchange_at_the_first_chance_after_winning_a_trick_section_7_6():
    a, seen_a, log_a = _branch(NINE_DEAL, True)
    b, seen_b, log_b = _branch(NINE_DEAL, False)
    nine, king = cards("H9 HK")
    assert seen_a == seen_b == [(0, r.KING)]
    first = next(i for i, q in enumerate(log_a) if q[0] == "exchange")
    assert log_a[first][1:5] == (0, 1, 0, False) and log_a[first][5] == king     # leader after trick 1, talon open
    assert log_a[:first + 1] == log_b[:first + 1]                                # the same hand up to the chance
    later_a = [q for q in log_a[first + 1:] if q[5] >= 0]
    assert later_a and all(q[5] == nine for q in later_a)                        # A: the 9 lies under the talon
    hand_a = next(q[6] for q in log_a[first + 1:] if q[1] == 0)                # forehand's hand when he leads
    hand_b = next(q[6] for q in log_b[first + 1:] if q[1] == 0)
    assert (hand_a >> king) & 1 and not (hand_a >> nine) & 1 and (hand_b >> nine) & 1 and not (hand_b >> king) & 1
    assert all(q[5] == king for q in log_b if q[5] >= 0)                         # B: the indicator stays
    assert not [q for q in log_a[first + 1:] if q[0] == "exchange"]              # one exchange at most
    cls, outcomes = ThresholdJob._exchange(NINE_DEAL, OPTS)
    assert INDICATOR_RANKS[cls] == r.KING and len(outcomes) == 2


@pytest.mark.parametrize("opts", [OPTS, rule_options(duel66_indicator="bottom")], ids=["between_packets", "bottom"])
def test_exchange_only_where_legal_and_never_in_b(opts):
    """Over seeded deals: every chance is the trump 9's holder leading after a won trick, the talon open and its
    bottom card not the 9 (X1-X5); A swaps at the first chance and B never lets the 9 under the talon; the
    branches agree up to the chance; deals without a chance are left out; some deals change their outcome."""
    rng = np.random.default_rng(5)
    changed = chances = 0
    for _ in range(120):
        perm = rng.permutation(24)
        a, seen_a, log_a = _branch(perm, True, opts)
        b, seen_b, log_b = _branch(perm, False, opts)
        trump = a.trump
        nine = trump * r.N_RANKS + r.NINE
        assert seen_a == seen_b
        found = ThresholdJob._exchange(perm, opts)
        if not seen_a:
            assert found is None and a.erase == b.erase and not [q for q in log_a if q[0] == "exchange"]
            continue
        chances += 1
        for name, pos, tricks, leader, closed, bottom, hand in log_a + log_b:
            if name == "exchange":
                assert pos == leader and tricks >= 1 and not closed and bottom not in (-1, nine) and (hand >> nine) & 1
        assert all(q[5] != nine for q in log_b)
        first = next(i for i, q in enumerate(log_a) if q[0] == "exchange")
        assert log_a[:first + 1] == log_b[:first + 1]
        assert all(q[5] in (-1, nine) for q in log_a[first + 1:])
        cls, ((_, net_a, _), (_, net_b, _)) = found
        assert INDICATOR_RANKS[cls] == seen_a[0][1] and seen_a[0][0] == log_a[first][1]
        changed += net_a != net_b
    assert chances > 20 and changed > 0


def test_exchange_by_follower_variant_plays_the_indicator_in_a_only():
    """§3.5 DUEL66_EXCHANGE_BY_FOLLOWER: a follower's chance is the indicator offered among his legal cards; A
    plays it at once (the swap), B never plays a card he does not hold."""
    opts = rule_options(duel66_exchange_by_follower=True)
    rng = np.random.default_rng(2)
    followers = 0
    for _ in range(200):
        perm = rng.permutation(24)
        played = {}
        for take in (True, False):
            seen, log = [], []

            class Follower(_Exchanger):
                def card(self, play, pos, legal, log=log):
                    out = super().card(play, pos, legal)
                    log.append((legal & ~play.hands[pos], out))
                    return out
            play_hand("66", 1, perm, [Follower(take, seen), Follower(take, seen)], opts)
            played[take] = log
        swaps = [(offer, out) for offer, out in played[True] if offer]
        if swaps:
            followers += 1
            assert r.bit(swaps[0][1]) == swaps[0][0]
        assert all(not offer or not (offer >> out) & 1 for offer, out in played[False])
    assert followers > 0


# --- a plain recount of a small run ------------------------------------------------------------------------------
def _deals(seed: int, n: int, block_size: int):
    """The job's deals: ``block_size`` per random stream (`simcore.rng.block_stream`)."""
    for block in range(-(-n // block_size)):
        rng = block_stream(seed, block)
        for _ in range(min(block_size, n - block * block_size)):
            yield rng.permutation(24)


def _plain_surrender(perm, players: int = 4):
    hands, _ = r.deal_hands(perm, players)
    holder = next(p for p in range(players) if (hands[p] >> r.HEART_ACE) & 1)
    hand = [c for c in range(24) if (hands[holder] >> c) & 1]
    best = max(range(4), key=lambda s: (sum(naive.suit(c) == s for c in hand),
                                        sum(naive.POINTS[naive.rank(c)] for c in hand if naive.suit(c) == s), s))
    score = sum(naive.suit(c) == best for c in hand) + sum(naive.rank(c) == 5 and naive.suit(c) != best for c in hand)
    policies = [GreedyPolicy() for _ in range(players)]
    policies[holder] = Committed(GreedyPolicy(), ra_trump=best)
    res = play_hand("RA", 2, perm, policies, OPTS)
    opp = max(res.erase[i] for i in range(players) if i != holder)
    a = (res.erase[holder] > 0, res.erase[holder] - opp, opp > 0 and res.tricks[holder] == 0)
    return f"trumps + side aces {score}" if score < 5 else "trumps + side aces 5+", a, (False, -2, False)


class FirstChance(GreedyPolicy):
    def __init__(self, seen):
        super().__init__()
        self.seen = seen

    def exchange(self, play, pos):
        if not self.seen:
            self.seen.append((pos, r.DECK.token(play.talon[-1])[1:]))
        return True


def _plain_exchange(perm):
    seen = []
    a = play_hand("66", 1, perm, [FirstChance(seen), FirstChance(seen)], OPTS)
    if not seen:
        return None
    b = play_hand("66", 1, perm, [Committed(GreedyPolicy(), exchange=False) for _ in range(2)], OPTS)
    pos, rank = seen[0]
    out = [(res.erase[pos] > 0, res.erase[pos] - res.erase[1 - pos], res.erase[1 - pos] > 0 and res.tricks[pos] == 0)
           for res in (a, b)]
    return f"indicator {rank}", out[0], out[1]


@pytest.mark.parametrize("decision, plain, players", [("surrender", _plain_surrender, 4),
                                                     ("surrender", lambda perm: _plain_surrender(perm, 3), 3),
                                                     ("exchange", _plain_exchange, 4)])
def test_table_matches_a_plain_recount(decision, plain, players):
    """The thresholds' rows against a plain replay of every deal (3 players: the surrender of 3-player Dreeg, 8
    cards a hand, two opponents)."""
    n, seed = 700, 9
    groups = defaultdict(list)
    for perm in _deals(seed, n, ThresholdJob(decision).block_size):
        found = plain(perm)
        if found is not None:
            groups[found[0]].append(found[1:])
    frame = api.thresholds(decision, n=n, seed=seed, players=players, **RUN).set_index("class")
    assert set(frame.index) == set(groups)
    for label, rows in groups.items():
        got, k = frame.loc[label], len(rows)
        diffs = [a[1] - b[1] for a, b in rows]
        assert got["n"] == k
        assert got["p_a"] == pytest.approx(sum(a[0] for a, _ in rows) / k)
        assert got["p_b"] == pytest.approx(sum(b[0] for _, b in rows) / k)
        assert got["mean_a"] == pytest.approx(statistics.fmean(a[1] for a, _ in rows))
        assert got["mean_b"] == pytest.approx(statistics.fmean(b[1] for _, b in rows))
        assert got["schwarz_a"] == pytest.approx(sum(a[2] for a, _ in rows) / k)
        assert got["schwarz_b"] == pytest.approx(sum(b[2] for _, b in rows) / k)
        assert got["diff"] == pytest.approx(statistics.fmean(diffs))
        if k > 1:
            half = student_t.ppf(0.975, k - 1) * statistics.stdev(diffs) / k ** 0.5
            assert got["diff_lo"] == pytest.approx(max(statistics.fmean(diffs) - half, -api.NET_SPAN))
            assert got["diff_hi"] == pytest.approx(min(statistics.fmean(diffs) + half, api.NET_SPAN))
        if decision == "surrender":
            assert got["mean_b"] == -2 and got["p_b"] == 0 and got["schwarz_b"] == 0
    enough = [label for label, rows in groups.items() if len(rows) >= api.MIN_CLASS_N]
    assert set(frame.attrs["a_better"]) | set(frame.attrs["b_better"]) <= set(enough)


# --- runs and the command ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("decision", ["surrender", "exchange"])
def test_same_numbers_whatever_jobs_and_chunk_size(capsys, decision):
    base = ("thresholds", "dreeg", "--decision", decision, "--n", "1100", "--seed", "3", "--json", "--no-progress")
    outs = []
    for extra in ((), ("--jobs", "2"), ("--chunk-size", "512"), ("--jobs", "2", "--chunk-size", "1024")):
        code, out, _ = run_cli(capsys, *base, *extra)
        assert code == 0
        outs.append(json.loads(out))
    assert all(o == outs[0] for o in outs[1:])
    rows = outs[0]["decisions"][decision]["rows"]
    assert rows and (decision == "exchange" or sum(row["n"] for row in rows) == 1100)


@pytest.mark.parametrize("decision", ["call", "durchmarsch"])
def test_three_player_table_decisions_deal_eight_cards(decision):
    """--players 3: the call and Durchmarsch hands are 3-player hands (erase vectors of 3; Durchmarsch: up to 7
    cards not sure after trick 1, of 8), other numbers than the 4-player ones on the same seed."""
    job = ThresholdJob(decision, players=3)
    opts = rule_options()
    classes = []
    for perm in _deals(5, 40, job.block_size):
        found = getattr(job, f"_{decision}")(perm, opts)
        assert all(len(outcome.erase) == 3 for outcome in found[1])
        classes.append(found[0])
    if decision == "durchmarsch":  # 7 cards left after trick 1: more not sure than 4 players' 5 can be
        assert max(classes) >= 6
    three = api.thresholds(decision, n=600, seed=5, players=3, **RUN)
    four = api.thresholds(decision, n=600, seed=5, **RUN)
    assert three.attrs["players"] == 3 and not three.equals(four)


def test_three_players_reach_the_two_player_decisions_only_through_the_phase_value(capsys):
    code, out, err = run_cli(capsys, "thresholds", "dreeg", "--decision", "close", "--players", "3", "--n", "50")
    assert code == 2 and "the close decision is a 2-player hand, the same in 3- and 4-player Dreeg" in err
    code, out, err = run_cli(capsys, "thresholds", "dreeg", "--decision", "hide", "--players", "3", "--strokes",
                             "5,3", "--n", "100", "--seed", "1", "--json", "--no-progress")
    assert code == 0 and json.loads(out)["decisions"]["hide"]["state"]["players"] == 3


def test_cli_surrender_prints_the_table(capsys):
    code, out, err = run_cli(capsys, "thresholds", "dreeg", "--decision", "surrender", "--n", "300", "--seed", "1",
                             "--no-progress")
    lines = out.splitlines()
    rows = [line for line in lines if line.startswith("  trumps + side aces ")]
    assert code == 0 and err == "" and "surrender: Rot Assen with 4 players" in out and "P(Schwarz) A" in out
    assert rows and all(" -2.00 " in line for line in rows)                 # net B: the fixed surrender cost
    assert sum(int(line[30:37].replace(",", "")) for line in rows) == 300
    assert lines[-1].startswith("  A better: ")


def test_cli_exchange_text_json_and_frame(capsys, tmp_path):
    code, out, _ = run_cli(capsys, "thresholds", "dreeg", "--decision", "exchange", "--n", "300", "--seed", "1",
                           "--no-progress")
    assert code == 0 and "indicator A" in out and "P(Schwarz)" not in out
    code, out, _ = run_cli(capsys, "thresholds", "dreeg", "--decision", "surrender", "--n", "200", "--seed", "2",
                           "--json", "--no-progress")
    data = json.loads(out)["decisions"]["surrender"]
    assert code == 0 and data["meaning"] == DECISIONS["surrender"]
    for row in data["rows"]:
        assert row["schwarz_lo_a"] <= row["schwarz_a"] <= row["schwarz_hi_a"] and row["mean_b"] == -2
    from analysis import sweep

    (tmp_path / "s.toml").write_text('game = "dreeg"\ncommand = "thresholds"\nseed = 3\nn = 200\n'
                                     '[grid]\ndecision = ["surrender", "exchange"]\n')
    sweep.sweep(tmp_path / "s.toml", tmp_path / "out", progress=False)
    import pandas as pd

    est = pd.read_parquet(tmp_path / "out")["estimate"]
    assert est.str.startswith("surrender.trumps + side aces ").any() and est.str.endswith(".schwarz_a").any()
    assert est.str.startswith("exchange.indicator ").any()
    assert not est[est.str.startswith("exchange.")].str.contains("schwarz").any()


@pytest.mark.parametrize("argv, message", [
    (["--decision", "surrend", "--n", "300"], "argument --decision: invalid choice: 'surrend'"),
    (["--decision", "surrender", "--n", "0"], "argument --n: expected a whole number"),
    (["--decision", "exchange", "--n", "300", "--seed", "-1"], "seed must be a non-negative whole number"),
    (["--decision", "surrender", "--n", "300", "--option", "information=counting_errors"], "perfect recall"),
    (["--decision", "surrender", "--n", "300", "--option", "rot_assen_trump=spades"], "cannot be 'spades'"),
    (["--decision", "exchange", "--n", "300", "--option", "duel66_exchange_by_follower=maybe"],
     "duel66_exchange_by_follower"),
])
def test_bad_input_exits_2_with_one_line(capsys, argv, message):
    code, out, err = run_cli(capsys, "thresholds", "dreeg", *argv, "--no-progress")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and message in err


def test_lost_schwarz_needs_the_side_to_lose_without_a_trick():
    """§3.0.7/§3.0.8: a closer who fails lets a trickless opponent win (close value 3): no Schwarz loss for
    him; the trickless side that loses lost Schwarz; a surrendered hand was not played."""
    from simcore.games.dreeg_odds import lost_schwarz
    from simcore.games.dreeg_play import HandResult

    failed_close = HandResult([0, 3], "played", [50, 0], [50, 0], [6, 0], [0, 1], closer=0)
    assert not lost_schwarz(failed_close, 1, OPTS) and not lost_schwarz(failed_close, 0, OPTS)
    schwarz = HandResult([3, 0], "played", [90, 0], [90, 0], [12, 0], [0, 1])
    assert lost_schwarz(schwarz, 1, OPTS) and not lost_schwarz(schwarz, 0, OPTS)
    surrender = HandResult([0, 2, 2, 2], "surrender", sides=[0, 1, 1, 1])
    assert not any(lost_schwarz(surrender, p, OPTS) for p in range(4))
