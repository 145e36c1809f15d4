"""Bauernstoss review fixes: DS schwarz in whole games and matches (DS-10, §8 A7), DS policies that cannot differ
(DS-4..DS-6), honest strokes-per-deal intervals of small matches, and the odds text per variant (§4.3, DS-3..DS-7,
AS-2)."""

import itertools
import json

import numpy as np
import pytest
from scipy.stats import t as student_t

from analysis.cli import main
from analysis.games import bauernstoss as api
from simcore import runner
from simcore.errors import CardsimError
from simcore.games import bauernstoss as bs
from simcore.games import bauernstoss_jobs as jobs
from simcore.games import bauernstoss_play as play
from simcore.rng import block_substream

RUN = dict(checkpoint=False, progress=False)
SCHWARZ = [bs.DECK.mask(bs.DECK.parse_cards(h)) for h in (
    "cB sB hB dB cA cT cK cD", "hA hT hK hD h9 h8 h7 dA", "c9 c8 c7 sA sT sK sD s9", "dT dK dD d9 d8 d7 s8 s7")]
"""A deal (dealer seat 0) whose DS auction seat 0 wins with 8 clubs; team 0 holds all 11 trumps and takes every
trick under greedy play."""


def ds_game(option: str, seed: int = 5) -> list:
    """A DS game from the middle (3-5, seat 0 dealing): the schwarz deal, then uniform deals, greedy play."""
    opts = bs.rule_options(variant="DS", ds_schwarz=option)
    rng = np.random.default_rng(seed)
    deals = itertools.chain([SCHWARZ], play.uniform_deals(rng))
    return play.play_game(opts, rng, bs.GameState(strokes=(3, 5), first_hand=False), deals, policy="greedy")


def test_ds_schwarz_in_mid_game_follows_each_option():
    """DS-10 / §8 A7: the default credits a game and the game goes on from the same strokes; end_current_game
    ends the game there; game_credit_plus_strokes credits a game and adds the hand's strokes (+2 at 120)."""
    credit, ends, plus = (ds_game(o) for o in ("game_credit_only", "end_current_game", "game_credit_plus_strokes"))
    for history in (credit, ends, plus):
        assert history[0][2].tricks == bs.TRICKS and history[0][1].declarer == 0  # team 0's schwarz
    first = credit[0][3]
    assert (first.games, first.strokes, first.first_hand) == ((1, 0), (3, 5), False)
    assert len(credit) > 1 and credit[1][0] == first  # the next hand continues the same game
    assert credit[-1][3].first_hand and sum(credit[-1][3].games) == 2  # the credit and the game at 9
    assert len(ends) == 1 and (ends[0][3].games, ends[0][3].strokes) == ((1, 0), (0, 0))
    assert (plus[0][3].games, plus[0][3].strokes) == ((1, 0), (5, 5)) and len(plus) > 1


def test_a_ds_first_hand_tie_or_schwarz_does_not_end_the_game():
    """A played hand that wins no game leaves the next hand no game's first (§6.4): a DS 60-60 (DS-11) and a
    schwarz's game credit (DS-10) included; a throw-in ends nothing (§4.11)."""
    opts = bs.rule_options(variant="DS")
    for result in (bs.HandResult(points=60, tricks=4, maker=1), bs.HandResult(points=120, tricks=8)):
        after = bs.score_hand(bs.GameState(), result, opts)
        assert not after.first_hand and not bs.ends_game(result, after)
    won = bs.score_hand(bs.GameState(strokes=(8, 0), first_hand=False), bs.HandResult(points=70, tricks=5), opts)
    assert bs.ends_game(bs.HandResult(points=70, tricks=5), won)
    assert not bs.ends_game(bs.HandResult(bs.THROW_IN), bs.GameState())


def test_ds_schwarz_options_change_a_match():
    """The three options give three different matches: the default plays on after a schwarz (more deals than
    end_current_game, games won beyond the games played), the strokes option also moves strokes."""
    counts = {o: dict(zip(jobs.MATCH_STATS, runner.run(jobs.MatchJob("b0", "b0", (("ds_schwarz", o),), "DS"), 20, 3,
                                                       **RUN)))
              for o in ("game_credit_only", "end_current_game", "game_credit_plus_strokes")}
    won = {o: c["a_wins"] + c["b_wins"] for o, c in counts.items()}
    assert won["end_current_game"] == 40 and won["game_credit_only"] > 40 and won["game_credit_plus_strokes"] > 40
    assert counts["game_credit_only"]["deals"] > counts["end_current_game"]["deals"]
    assert len({c["deals"] for c in counts.values()}) == 3
    result = api.match("b0", "b0", 40, 3, (("ds_schwarz", "game_credit_only"),), "DS", **RUN)
    assert result["games_won"] == won["game_credit_only"]
    assert result["a"]["win_rate"]["p"] + result["b"]["win_rate"]["p"] == pytest.approx(1)
    assert "games won, each schwarz earning a game" in api.format_match(result)


def test_ds_auction_policies_make_the_same_calls():
    """DS-4..DS-6: every auction policy makes the D0 call at every turn of random deals, so DS matches refuse two
    policies (one line, exit 2) and DS odds a --policy other than b0."""
    opts = bs.rule_options(variant="DS")
    policies = list(jobs.AUCTION_POLICIES.values())
    for hands in jobs.deal_hands(11, 0, 300):
        auction = bs.Auction([int(h) for h in hands], 0, False, opts)
        while not auction.done:
            calls = {jobs.policy_call(p, auction) for p in policies}
            assert len(calls) == 1
            auction.call(calls.pop())
    with pytest.raises(CardsimError, match="b0 and cautious both play D0"):
        api.match("b0", "cautious", 2, 1, variant="DS", **RUN)
    with pytest.raises(CardsimError, match="--policy aggressive plays as D0"):
        api.odds("sB hB hA hT hK h9 s7 d8", 1, n=5, seed=1, variant="DS", policy="aggressive", **RUN)


def test_cli_ds_match_of_two_policies_exits_2(capsys):
    assert main(["match", "bauernstoss", "--a", "b0", "--b", "cautious", "--games", "4", "--variant", "DS",
                 "--no-progress"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "DS-4" in err and "--variant BS or AS" in err


def pair_values(a: str, b: str, seed: int, pairs: int) -> np.ndarray:
    """(pairs, 4): a's strokes, b's strokes, deals and a's games won per duplicate pair, recounted game by game
    with `MatchJob`'s streams (block 0, sub-stream GAME_STREAM + pair)."""
    opts = bs.rule_options()
    out = np.zeros((pairs, 4), dtype=np.int64)
    for i in range(pairs):
        for a_team in (0, 1):
            policies = tuple(jobs.auction_policy(p) for p in ((a, b) if a_team == 0 else (b, a)))
            history = play.play_game(opts, block_substream(seed, 0, jobs.GAME_STREAM + i), policy="greedy",
                                     caller=jobs.caller_for(policies))
            out[i] += [jobs.strokes_scored(history, a_team, opts), jobs.strokes_scored(history, 1 - a_team, opts),
                       len(history), history[-1][3].games[a_team]]
    return out


def test_match_intervals_recount():
    """Strokes per deal = total strokes / total deals with a Student-t interval (pairs - 1 df) over the pairs'
    residuals; win rate = games won / games, as recounted from the games themselves."""
    values = pair_values("b0", "cautious", 9, 3)
    result = api.match("b0", "cautious", 6, 9, **RUN)
    assert result["deals"] == values[:, 2].sum() and result["games_won"] == 6
    assert result["a"]["win_rate"]["p"] == pytest.approx(values[:, 3].sum() / 6)
    for side, column in (("a", 0), ("b", 1)):
        v, u = values[:, column], values[:, 2]
        mean = v.sum() / u.sum()
        half = student_t.ppf(0.975, 2) * np.sqrt(((v - mean * u) ** 2).sum() / 2 * 3) / u.sum()
        got = result[side]["points_per_deal"]
        assert (got["mean"], got["lo"], got["hi"]) == pytest.approx((mean, mean - half, mean + half))


def test_small_match_strokes_per_deal_intervals_cover():
    """40 matches of 4 games (2 duplicate pairs, seeds 1-40): about 95% of the 80 strokes-per-deal intervals hold
    the long-run value (300 pairs). The former normal interval over 2 pairs covered about 60%."""
    long_run = pair_values("b0", "cautious", 1000, 300)
    truth = long_run[:, :2].sum(axis=0) / long_run[:, 2].sum()
    hits = 0
    for seed in range(1, 41):
        result = api.match("b0", "cautious", 4, seed, **RUN)
        hits += sum(result[side]["points_per_deal"]["lo"] <= value <= result[side]["points_per_deal"]["hi"]
                    for side, value in zip("ab", truth))
    assert 0.85 <= hits / 80


def test_one_pair_has_no_strokes_interval(capsys):
    assert main(["match", "bauernstoss", "--a", "b0", "--b", "cautious", "--games", "2", "--seed", "1",
                 "--no-progress"]) == 0
    assert "(one pair: no interval)" in capsys.readouterr().out
    assert main(["match", "bauernstoss", "--a", "b0", "--b", "cautious", "--games", "2", "--seed", "1", "--json",
                 "--no-progress"]) == 0
    assert json.loads(capsys.readouterr().out)["a"]["points_per_deal"]["lo"] is None


def test_four_jacks_your_call_is_a_pass():
    """§4.3: with all four jacks b0 passes (no Big Solo), so the hand is thrown in; aggressive calls Big Solo
    with 7 trumps outside a game's first hand."""
    frame = api.odds("cB sB hB dB cA cT hA dA", 1, n=20, seed=1, **RUN)
    text = api.format_odds(frame)
    assert "your call by b0: pass: all four jacks allow only Big Solo or pass (§4.3)" in text
    assert "thrown in (§4.11)" in text and "lowest card" not in text
    seven = bs.DECK.mask(bs.DECK.parse_cards("cB sB hB dB cA cT cK hA"))
    opts = bs.rule_options()
    aggressive = jobs.auction_policy("aggressive")
    assert api.policy_plan(aggressive, seven, opts, False) == "Big Solo in clubs, 7 trumps"
    assert "solos are banned in a game's first hand" in api.policy_plan(aggressive, seven, opts, True)


def test_ds_odds_labels():
    """DS: the auction runs D0 (§9.3), with no mit and suit values instead of lowest cards (DS-7); rows under 5
    trumps are the acorn-Unter holder's choice after four passes (DS-5), rows from 5 the compulsory bid (DS-4)."""
    frame = api.odds("cB s7 s8 h7 h8 d7 d8 c7", 1, n=20, seed=1, variant="DS", **RUN)
    text = api.format_odds(frame)
    assert set(frame.call) == {"all pass"} and "number" not in text and "mit" not in text
    assert "calling by policy D0" in text and "lowest card" not in text and "throw-in" not in text
    assert "your call by D0: pass (at most 3 trumps, 5 needed: DS-3); if all four pass, the acorn Unter" in text
    assert "equal bids: suit values (DS-7)" in text
    bid = api.odds("cB hB hA hT hK h9 d8 d7", 1, n=20, seed=1, variant="DS", **RUN)
    assert list(zip(bid.call, bid.trump)) == [("bid", "h")]  # the longest suit only, though cB could name any
    assert "your call by D0: bid 6 (hearts)" in api.format_odds(bid)
    assert api.odds_json(bid)["auction"]["proposal"] == {"suit": "hearts", "trumps": 6, "value": 60}


def test_as_odds_columns_by_hand():
    """AS-2: a game's first hand counts only 61 (no chalk); later hands the chalk's 42 / 79 (AS-3)."""
    first = api.format_odds(api.odds("sB hB dB cA cT sK h7 d8", 1, n=20, seed=1, first_hand=True, variant="AS",
                                     **RUN)).splitlines()[3]
    assert "P(>=61) 1st hand" in first and "P(>=89)" in first and "P(>=42)" not in first and "P(>=79)" not in first
    later = api.format_odds(api.odds("sB hB dB cA cT sK h7 d8", 1, n=20, seed=1, variant="AS", **RUN)).splitlines()[3]
    assert "P(>=42) chalk" in later and "P(>=79) no chalk" in later and "P(>=61)" not in later
    assert "P(solo won)" not in later  # no club jack: no solo row


def test_a_first_hand_chalk_other_than_the_rules_is_refused():
    """§6.4 / AS-2: in a game's first hand the club jack's team holds the chalk (BS) or nobody does (AS, 61 card
    points win); a state with another chalk would be scored against it."""
    result = bs.HandResult(bs.NORMAL, 78, 4, maker=1, club_jack=1)
    assert bs.hand_strokes(bs.GameState(), result) == (1, 1)  # the club jack's team holds the chalk and has 42
    assert bs.hand_strokes(bs.GameState(chalk=1), result) == (1, 1)  # the same chalk, given
    with pytest.raises(CardsimError, match="chalk is the club jack's team"):
        bs.score_hand(bs.GameState(chalk=0), result)
    with pytest.raises(CardsimError, match="AS game's first hand has no chalk"):
        bs.score_hand(bs.GameState(chalk=0), bs.HandResult(bs.NORMAL, 50, 4), bs.rule_options(variant="AS"))


def test_the_partner_return_callback_is_refused_by_the_played_hands():
    """§8 A11: play_hand returns the baseline card of a Small Solo; the callback choice goes through
    small_solo_exchange(back=...), not an option the played hands would ignore."""
    opts = bs.rule_options(partner_return_policy="strategy_callback")
    hands = [bs.DECK.mask(h) for h in np.split(np.random.default_rng(1).permutation(32), 4)]
    for call in (lambda: play.play_hand(bs.GameState(), hands, opts, np.random.default_rng(1)),
                 lambda: play.play_game(opts, np.random.default_rng(1))):
        with pytest.raises(CardsimError, match="partner_return_policy=strategy_callback"):
            call()
