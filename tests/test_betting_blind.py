"""Blind bets in self-play (perlaggen.md §8.14, spec Q13): the engine answers them before the first card,
`simcore.betting.BlindJob` counts what they do to team A's game equity (checked against a plain replay of the same
deals), the counts do not depend on the chunking, and `cardsim thresholds perlaggen --blind` reports table D with
one-line errors for bad input."""

import json

import numpy as np
import pytest

from analysis.cli import main
from analysis.games import betting as analysis_betting
from simcore import runner
from simcore.betting import (BLIND_ARMS, BLIND_COUNTS, BLIND_STREAMS, BLUFF_STREAM, DEALS_STREAM, DONE, EQUITY_SCALE,
                             GUT, HOLD, RAISE, SP, Agent, G, H, load_policy, play_deal)
from simcore.games import perlaggen as P
from simcore.games import perlaggen_betting as PB
from simcore.rng import block_substream

TARGET = 18


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def toy_equity(target=TARGET):
    """A made-up equity (2, T+1, T+1) that differs by dealer and score, so that a wrong cell shows."""
    a = np.arange(target + 1)[:, None]
    b = np.arange(target + 1)[None, :]
    w = np.stack([(a + 1) / (a + b + 2), (a + 1.5) / (a + b + 3)])
    w[:, target, :target] = 1.0
    w[:, :target, target] = 0.0
    return w


def agents_of(kit, policy, bluffs, shows):
    estimator = kit.make_estimator("partner")
    return tuple(Agent(policy, estimator, bluffs[t], shows[t]) for t in (0, 1))


def test_blind_bets_are_answered_before_the_first_card():
    """§8.14: the opponents answer every blind bet, Gleich, Hanger, then Spiel, before a card is played."""
    hands = [P.DECK.parse_cards(text) for text in ("HA L9 SK E10 H7", "SA L8 H10 SU EO", "EA H9 S10 LK E8",
                                                   "HO HU L10 S8 EK")]
    trump = P.DECK.suits.index("L")
    deal = PB.new_deal(hands, trump, dealer=0, blind=[(2, G), (2, H), (2, SP)])
    adapter = PB.cards_for(PB.STYLE, trump)
    no = (False, False, False), (False, False)
    play_deal(deal, agents_of(PB.kit(), load_policy("formula"), (no[0], no[0]), (no[1], no[1])),
              adapter.choose_card, adapter.example_cards)
    assert deal.phase == DONE
    assert deal.log[:3] == [(2, G, "bet"), (2, H, "bet"), (2, SP, "bet")]
    answers = deal.log[3:6]
    assert [figure for _, figure, _ in answers] == [G, H, SP]
    assert all(seat % 2 == 1 and kind in (GUT, HOLD, RAISE) for seat, _, kind in answers)


def replay_counts(job, seed, block, n_deals):
    """The counts of `BlindJob.run_block`, recounted deal by deal with `new_deal` and `play_deal` and the equity
    read in plain words: the game's winner, else W of the team that did not deal at the clipped new scores."""
    kit = PB.kit()
    policy = job.policy
    counts = np.zeros((len(job.scores), 2, len(BLIND_ARMS), len(BLIND_COUNTS)), dtype=np.int64)
    equity = np.asarray(job.equity)
    for j in range(n_deals):
        for side in (0, 1):
            bettor = 2 if side == 0 else 0  # team A's first seat after the dealer (seat `side`)
            for i, (a, b) in enumerate(job.scores):
                base = None
                for k, arm in enumerate(BLIND_ARMS):
                    deal_rng = block_substream(seed, block, BLIND_STREAMS + 2 * j + DEALS_STREAM)
                    bluff_rng = block_substream(seed, block, BLIND_STREAMS + 2 * j + BLUFF_STREAM)
                    hands, trump = kit.draw_deal(deal_rng, side)
                    draws = bluff_rng.random((2, 5))
                    bluffs = [tuple(bool(u < policy.bluff) for u in draws[t, :3]) for t in (0, 1)]
                    shows = [tuple(bool(u < policy.show_bluff) for u in draws[t, 3:]) for t in (0, 1)]
                    deal = PB.new_deal(hands, trump, dealer=side, scores=(a, b), rules=job.rules,
                                       blind=[(bettor, figure) for figure in arm])
                    adapter = kit.cards(trump)
                    play_deal(deal, agents_of(kit, policy, bluffs, shows), adapter.choose_card, adapter.example_cards)
                    result = deal.result
                    if result.game_winner is not None:
                        w = EQUITY_SCALE * (result.game_winner == 0)
                    else:
                        new_a = min(max(a + result.points[0], 0), TARGET - 1)
                        new_b = min(max(b + result.points[1], 0), TARGET - 1)
                        w = int(equity[1 - side, new_a, new_b])
                    base = w if base is None else base
                    net = {"penalty": 0, G: 0, H: 0, SP: 0}
                    for category, figure, team, points in result.awards:
                        net["penalty" if category == 0 else figure] += points * (1 if team == 0 else -1)
                    parts = [net["penalty"], net[G], net[H], net[SP]]
                    counts[i, side, k] += [1, result.game_winner == 0, result.game_winner == 1, w, w * w, w - base,
                                           (w - base) ** 2, result.points[0], result.points[1]] + [
                        x for part in parts for x in (part, part * part)]
    return counts.ravel()


def test_blind_job_counts_equal_a_plain_replay():
    job = PB.blind_job(load_policy("formula"), PB.rules_from_options(target=TARGET), toy_equity(), [(0, 0), (11, 17)])
    counts = job.run_block(5, 3, 2)
    assert counts.tolist() == replay_counts(job, 5, 3, 2).tolist()
    table = counts.reshape(2, 2, len(BLIND_ARMS), len(BLIND_COUNTS))
    assert (table[..., 0] == 2).all()
    d, w = BLIND_COUNTS.index("d"), BLIND_COUNTS.index("w")
    assert (table[..., 0, d] == 0).all()
    assert (table[..., d] == table[..., w] - table[..., :1, w]).all()  # d sums W minus W without a bet


def test_blind_counts_do_not_depend_on_the_chunking():
    job = PB.blind_job(load_policy("formula"), PB.rules_from_options(target=TARGET), toy_equity(), [(14, 17)])
    one = runner.run(job, 16, 2, chunk_deals=16, progress=False, checkpoint=False)
    two = runner.run(job, 16, 2, chunk_deals=8, jobs=2, progress=False, checkpoint=False)
    assert one.tolist() == two.tolist()


def test_thresholds_blind_json_and_sweep_names(capsys):
    code, out, err = run_cli(capsys, "thresholds", "perlaggen", "--games", "20", "--seed", "1", "--blind", "11:17",
                             "--blind-deals", "6", "--no-progress", "--json")
    assert code == 0 and err == ""
    rows = json.loads(out)["blind"]
    assert [(r["a"], r["b"], r["dealt"], r["arm"]) for r in rows] == [
        (11, 17, dealt, arm) for dealt in "ab" for arm in analysis_betting.BLIND_ARM_NAMES]
    by = {(r["dealt"], r["arm"]): r for r in rows}
    for r in rows:
        assert r["n"] == 6 and 0 <= r["lo"] <= r["W"] <= r["hi"] <= 1
        assert r["d"] == pytest.approx(r["W"] - by[r["dealt"], "none"]["W"], abs=1e-9)
        assert r["game_a"] + r["game_b"] <= 1
        net = sum(r[f"net_{part}"] for part in ("penalty", "gleich", "hanger", "spiel"))
        assert net == pytest.approx(r["points_a"] - r["points_b"])
    assert by["a", "none"]["d"] == 0


def test_thresholds_blind_table_text_and_frame():
    tables = analysis_betting.thresholds("perlaggen", games=20, seed=1, blind=[(0, 17)], blind_deals=4,
                                         progress=False)
    text = analysis_betting.thresholds_text(tables)
    assert "D. Blind bets (perlaggen.md §8.14, spec Q13), 4 deals per score and dealer" in text
    assert "Höll auf!" in text and "  0  17      a" in text and "  0  17      b" in text
    names = set(analysis_betting.thresholds_frame(tables).estimate)
    assert {"blind.a.0.17.none", "blind.b.0.17.hoell_auf", "blind.a.0.17.gleich.d"} <= names
    assert "blind.a.0.17.none.d" not in names


def test_default_blind_scores_are_where_a_may_bet():
    assert analysis_betting.blind_scores(18) == [(0, 0), (0, 17), (11, 17), (14, 17)]
    assert analysis_betting.blind_scores(5) == [(0, 0), (0, 4), (1, 4)]


@pytest.mark.parametrize("argv, message", [
    (["--blind", "17:0"], "score a of a blind bet"),
    (["--blind", "3:18"], "score b of a blind bet"),
    (["--blind", "1:2:3"], "give scores as A:B"),
    (["--blind", "5:5,5:5"], "given twice"),
    (["--blind-deals", "10"], "give --blind too"),
    (["--blind", "--players", "3"], "not the 3-player game"),
    (["--blind", "--blind-deals", "0"], "--blind-deals"),
])
def test_blind_bad_input_is_one_line(capsys, argv, message):
    code, out, err = run_cli(capsys, "thresholds", "perlaggen", "--games", "20", "--no-progress", *argv)
    assert code == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1


def test_giltspiel_has_no_blind_bets(capsys):
    code, _, err = run_cli(capsys, "thresholds", "giltspiel", "--games", "20", "--blind")
    assert code == 2 and "--blind" in err
    with pytest.raises(Exception, match="Perlaggen"):
        analysis_betting.thresholds("giltspiel", games=20, seed=1, blind=True, progress=False)
