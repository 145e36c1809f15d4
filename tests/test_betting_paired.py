"""Paired deals in self-play: blind bets (perlaggen.md §8.14, spec Q13) and conceding the Spiel (Perlaggen Q11,
Giltspiel Q10). The engine answers blind bets before the first card; `simcore.betting.PairedDealJob` plays one deal
under several arms and each game out to its end (checked against a plain replay of the same deals); the counts do
not depend on the chunking; `cardsim thresholds ... --blind / --concede` report tables D and E, with one-line errors
for bad input before any game is played."""

import json
from dataclasses import replace

import numpy as np
import pytest

from analysis.cli import main
from analysis.games import betting as analysis_betting
from simcore import runner
from simcore.betting import (BLUFF_STREAM, DEALS_STREAM, DONE, GUT, HOLD, PAIRED_COUNTS, PAIRED_STREAMS, RAISE, SP,
                             Agent, G, H, load_policy, play_deal)
from simcore.errors import CardsimError
from simcore.games import perlaggen as P
from simcore.games import perlaggen_betting as PB
from simcore.rng import block_substream

TARGET = 18
BLIND_ARMS_ = analysis_betting.BLIND_ARMS


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


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


def play_plainly(kit, policies, dealer, scores, deal_rng, bluff_rng, rules, blind=()):
    """One deal with `new_deal` and `play_deal`, its agents' bluffs drawn as the engine draws them."""
    hands, trump = kit.draw_deal(deal_rng, dealer)
    draws = bluff_rng.random((2, 5))
    agents = tuple(Agent(policies[t], kit.make_estimator("partner"),
                         tuple(bool(u < policies[t].bluff) for u in draws[t, :3]),
                         tuple(bool(u < policies[t].show_bluff) for u in draws[t, 3:])) for t in (0, 1))
    deal = PB.new_deal(hands, trump, dealer=dealer, scores=scores, rules=rules, blind=blind)
    adapter = kit.cards(trump)
    play_deal(deal, agents, adapter.choose_card, adapter.example_cards)
    return deal


def gave_spiel_up(deal) -> bool:
    """Team A (seats 0, 2) conceded the Spiel or said gut to a bet on it, read from the deal's log (a concession is
    logged by team, an answer by seat)."""
    return any(figure == SP and who % 2 == 0 and kind in ("concede", GUT) for who, figure, kind in deal.log)


def replay_counts(job, seed, block, n_deals):
    """The counts of `PairedDealJob.run_block`, recounted deal by deal with `new_deal` and `play_deal`: the first
    deal with the arm's blind bets and team A's policy, then deals with the dealer passing on until a team reaches the
    target (or wins in the deal, §7.10)."""
    kit = PB.kit()
    counts = np.zeros((len(job.scores), 2, len(job.arms), len(PAIRED_COUNTS)), dtype=np.int64)
    for j in range(n_deals):
        for side in (0, 1):
            bettor = 2  # team A's first seat after the dealer, seat 0 or seat 1
            for i, (a, b) in enumerate(job.scores):
                base = None
                for k, (blind, policy_a) in enumerate(job.arms):
                    deal_rng = block_substream(seed, block, PAIRED_STREAMS + 2 * j + DEALS_STREAM)
                    bluff_rng = block_substream(seed, block, PAIRED_STREAMS + 2 * j + BLUFF_STREAM)
                    deal = play_plainly(kit, (policy_a, job.policy), side, (a, b), deal_rng, bluff_rng, job.rules,
                                        [(bettor, figure) for figure in blind])
                    first = deal.result
                    scores, winner, dealer = [a + first.points[0], b + first.points[1]], first.game_winner, side
                    while winner is None:
                        dealer = (dealer + 1) % 4
                        result = play_plainly(kit, (job.policy, job.policy), dealer, scores, deal_rng, bluff_rng,
                                              job.rules).result
                        scores = [scores[t] + result.points[t] for t in (0, 1)]
                        winner = result.game_winner
                    net = {"penalty": 0, G: 0, H: 0, SP: 0}
                    for category, figure, team, points in first.awards:
                        net["penalty" if category == 0 else figure] += points * (1 if team == 0 else -1)
                    total = first.points[0] - first.points[1]
                    base = (winner == 0, total) if base is None else base
                    gave = gave_spiel_up(deal)
                    counts[i, side, k] += [1, first.game_winner == 0, first.game_winner == 1, winner == 0,
                                           winner == 0 and not base[0], base[0] and winner != 0, gave, *first.points,
                                           total, total * total, total - base[1], (total - base[1]) ** 2] + [
                        x for part in (net["penalty"], net[G], net[H], net[SP]) for x in (part, part * part)]
    return counts.ravel()


def blind_arms(policy):
    return tuple((blind, policy) for blind in analysis_betting.BLIND_ARMS.values())


def test_paired_job_counts_equal_a_plain_replay():
    """Blind-bet arms and a concession arm (team A's own policy differs from team B's)."""
    formula = load_policy("formula")
    arms = blind_arms(formula) + (((), replace(formula, concede_spiel=0.5, name="conceding")),)
    job = PB.paired_job(formula, PB.rules_from_options(target=TARGET), [(0, 15), (11, 17)], arms)
    counts = job.run_block(5, 3, 3)
    assert counts.tolist() == replay_counts(job, 5, 3, 3).tolist()
    table = counts.reshape(2, 2, len(arms), len(PAIRED_COUNTS))
    assert (table[..., 0] == 3).all()
    at = {name: PAIRED_COUNTS.index(name) for name in ("a_wins", "only_arm", "only_base", "dnet")}
    assert (table[..., 0, at["only_arm"]] == 0).all() and (table[..., 0, at["dnet"]] == 0).all()
    changed = table[..., at["only_arm"]] - table[..., at["only_base"]]
    assert (changed == table[..., at["a_wins"]] - table[..., :1, at["a_wins"]]).all()


def test_a_spiel_given_up_counts_when_a_penalty_voids_the_award():
    """§8.9: a penalised team scores nothing in the deal, so the Spiel that A gave up may leave no award to B; it
    still counts as given up (the engine's log, as `gave_spiel_up` reads it)."""
    formula = load_policy("formula")
    arms = (((), formula), ((), replace(formula, concede_spiel=0.5, name="conceding")))
    job = PB.paired_job(formula, PB.rules_from_options(target=TARGET), [(0, 0)], arms)
    kit, voided, gave = PB.kit(), 0, np.zeros((2, 2), dtype=np.int64)
    for j in range(12):
        for side in (0, 1):
            for k, (_, policy_a) in enumerate(arms):
                streams = [block_substream(4, 0, PAIRED_STREAMS + 2 * j + i) for i in (DEALS_STREAM, BLUFF_STREAM)]
                deal = play_plainly(kit, (policy_a, formula), side, (0, 0), *streams, job.rules)
                gave[side, k] += gave_spiel_up(deal)
                voided += gave_spiel_up(deal) and not any(f == SP for _, f, _, _ in deal.result.awards)
    counts = job.run_block(4, 0, 12).reshape(1, 2, 2, len(PAIRED_COUNTS))[0, ..., PAIRED_COUNTS.index("gave_spiel")]
    assert counts.tolist() == gave.tolist() and voided > 0


def test_paired_counts_do_not_depend_on_the_chunking():
    job = PB.paired_job(load_policy("formula"), PB.rules_from_options(target=TARGET), [(14, 17)],
                        blind_arms(load_policy("formula")))
    one = runner.run(job, 16, 2, chunk_deals=16, progress=False, checkpoint=False)
    two = runner.run(job, 16, 2, chunk_deals=8, jobs=2, progress=False, checkpoint=False)
    assert one.tolist() == two.tolist()


def test_a_gestrichen_team_cannot_raise_a_blind_bet():
    """§8.6 at the gestrichen score: B (17 of 18) may hold but not raise a blind bet, so a figure is worth at most 2
    and team A scores at most 6 in the deal; A (17) may not bet blind at all."""
    formula = load_policy("formula")
    job = PB.paired_job(formula, PB.rules_from_options(target=TARGET), [(11, 17)], blind_arms(formula))
    table = job.run_block(9, 0, 8).reshape(1, 2, len(BLIND_ARMS_), len(PAIRED_COUNTS))
    assert (table[..., PAIRED_COUNTS.index("a_game")] == 0).all()  # 11 + 6 < 18
    hands = [P.DECK.parse_cards(text) for text in ("HA L9 SK E10 H7", "SA L8 H10 SU EO", "EA H9 S10 LK E8",
                                                   "HO HU L10 S8 EK")]
    with pytest.raises(CardsimError, match="B6"):
        PB.new_deal(hands, 1, dealer=0, scores=(17, 0), blind=[(2, G)])


def test_thresholds_blind_json_and_sweep_names(capsys):
    code, out, err = run_cli(capsys, "thresholds", "perlaggen", "--games", "20", "--seed", "1", "--blind", "11:17",
                             "--paired-deals", "6", "--no-progress", "--json")
    assert code == 0 and err == ""
    rows = json.loads(out)["blind"]
    assert [(r["a"], r["b"], r["dealt"], r["arm"]) for r in rows] == [
        (11, 17, dealt, arm) for dealt in "ab" for arm in BLIND_ARMS_]
    by = {(r["dealt"], r["arm"]): r for r in rows}
    for r in rows:
        assert r["n"] == 6 and 0 <= r["lo"] <= r["W"] <= r["hi"] <= 1 and r["d_lo"] <= r["d"] <= r["d_hi"]
        assert r["d"] == pytest.approx(r["W"] - by[r["dealt"], "none"]["W"], abs=1e-9)
        assert r["game_a"] + r["game_b"] <= 1
        parts = sum(r[f"net_{part}"] for part in ("penalty", "gleich", "hanger", "spiel"))
        assert parts == pytest.approx(r["points_a"] - r["points_b"]) and r["net"] == pytest.approx(parts)
        assert r["dnet"] == pytest.approx(r["net"] - by[r["dealt"], "none"]["net"])
    assert by["a", "none"]["d"] == 0


def test_thresholds_paired_tables_text_and_frame():
    tables = analysis_betting.thresholds("perlaggen", games=20, seed=1, blind=[(0, 17)], concede=True, paired_deals=4,
                                         progress=False)
    text = analysis_betting.thresholds_text(tables)
    assert "D. Blind bets (perlaggen.md §8.14, spec Q13), 4 deals per score and dealer" in text
    assert "Höll auf!" in text and "  0  17      a" in text and "  0  17      b" in text
    assert "E. Conceding the Spiel (perlaggen.md Q11), 4 deals per score and dealer" in text
    assert "  0   0      a  points" in text and "gives up" in text
    names = set(analysis_betting.thresholds_frame(tables).estimate)
    assert {"blind.a.0.17.none", "blind.b.0.17.hoell_auf", "blind.a.0.17.gleich.d", "blind.a.0.17.none.net",
            "concede.a.0.0.never", "concede.b.0.0.below_50.d"} <= names
    assert "blind.a.0.17.none.d" not in names and "concede.a.0.0.never.d" not in names
    conceding = tables["concede"].set_index(["dealt", "arm"])
    assert (conceding.loc[("a", "below_50"), "gave_spiel"] >= 0) and list(tables["concede"].arm.unique()) == [
        "never", "below_20", "below_35", "below_50"]


def test_giltspiel_concession_table(capsys):
    code, out, err = run_cli(capsys, "thresholds", "giltspiel", "--games", "20", "--seed", "1", "--concede", "5:9",
                             "--paired-deals", "4", "--no-progress", "--json")
    assert code == 0 and err == ""
    rows = json.loads(out)["concede"]
    assert {(r["a"], r["b"], r["n"]) for r in rows} == {(5, 9, 4)} and len(rows) == 8


def test_default_blind_scores_are_where_a_may_bet():
    assert analysis_betting.blind_scores(18) == [(0, 17), (11, 15), (11, 17), (14, 17)]
    assert analysis_betting.blind_scores(5) == [(0, 4), (1, 4)]


@pytest.mark.parametrize("argv, message", [
    (["--blind", "17:0"], "score a of the blind-bet table must be"),
    (["--blind", "3:18"], "score b of the blind-bet table must be"),
    (["--concede", "18:0"], "score a of the concession table must be"),
    (["--blind", "1:2:3"], "give scores as A:B"),
    (["--blind", "5:5,5:5"], "given twice"),
    (["--paired-deals", "10"], "give one of them"),
    (["--blind", "--players", "3"], "the 3-player game has its own thresholds"),
    (["--concede", "--players", "3"], "the 3-player game has its own thresholds"),
    (["--blind", "--paired-deals", "0"], "--paired-deals"),
    (["--concede", "--paired-deals", "1"], "argument --paired-deals: expected a whole number from 2 to 1e+06"),
    (["--blind", "--paired-deals", "2000000"], "argument --paired-deals: expected a whole number from 2 to 1e+06"),
])
def test_paired_bad_input_is_one_line_before_any_game(capsys, argv, message):
    """Refused before the self-play games: --games 2000000 would take hours."""
    code, out, err = run_cli(capsys, "thresholds", "perlaggen", "--games", "2000000", "--no-progress", *argv)
    assert code == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1


def test_giltspiel_has_no_blind_bets(capsys):
    code, _, err = run_cli(capsys, "thresholds", "giltspiel", "--games", "20", "--blind")
    assert code == 2 and "--blind" in err
    with pytest.raises(CardsimError, match="Perlaggen"):
        analysis_betting.thresholds("giltspiel", games=20, seed=1, blind=True, progress=False)
