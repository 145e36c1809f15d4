"""Perlaggen policy G2 of spec §11.7 ("G1 plus figures", trick play): the kernel against the plain
reference `naive_perlaggen_play.figures_play`, legal play, the §12.1 T-03 position, and
``cardsim odds perlaggen --spiel g2``; its concession of the Spiel (`play_out(..., concede=)`)
against `naive_perlaggen_play.conceding_play_out`."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.cli import main
from simcore.games import perlaggen_deal as D
from simcore.games import perlaggen_play as play
from simcore.games.perlaggen import DECK
from simcore.rng import block_words

import naive_perlaggen_play as naive
from test_perlaggen_play import STYLES, S, assert_legal_line, c, mask, masks, plays, random_position, random_trick


def only_perlaggen(rng, hands, seat, perl):
    """Give ``seat`` as many Perlaggen as the other hands can spare, swapping cards (hands modified)."""
    for card in sorted(hands[seat] - set(perl)):
        spare = [(s, p) for s in range(4) if s != seat for p in sorted(hands[s] & set(perl))]
        if spare:
            s, p = rng.choice(spare)
            hands[s] ^= {p, card}
            hands[seat] ^= {p, card}


@settings(max_examples=300)
@given(st.sampled_from(STYLES), st.integers(0, 3), st.booleans(), st.randoms(use_true_random=False))
def test_g2_matches_reference_and_is_legal(style, played, perlaggen_only, rng):
    """§11.7 G2: the kernel's play equals the plain reference's and is legal (§7.2), also for hands
    of only Perlaggen (there the figure identity is used)."""
    hands, trump, leader, _ = random_position(rng, 5, style)
    perl = naive.perlaggen(style, trump)
    seat = (leader + played) % 4
    if perlaggen_only:
        only_perlaggen(rng, hands, seat, perl)
    trick = random_trick(rng, hands, trump, perl, leader, played)
    hand = hands[seat]
    got = play.choose("g2", sum(1 << x for x in hand), trick, trump, style=style)
    assert got == naive.figures_play(hand, trick, trump, perl)
    assert got in naive.legal_plays(hand, trick, trump, perl)


@settings(max_examples=60)
@given(st.sampled_from(STYLES), st.randoms(use_true_random=False))
def test_g2_plays_legal_cards_to_the_spiel(style, rng):
    hands, trump, _, _ = random_position(rng, 5, style)
    line = play.play_line("g2", masks(hands), trump, style=style)
    assert_legal_line(hands, trump, line, style)


def test_t03_g2_keeps_the_perlagg_g1_spends():
    """§12.1 T-03 position (trump S, SA led, hand SK E7 HA L9 E10, E7 a Perlagg): G1 takes the trick
    with E7 baptised as a bells identity; G2 keeps E7 for the figures and follows with SK (§11.7)."""
    hand, trick = mask("SK E7 HA L9 E10"), plays("SA")
    card, identity = play.choose("greedy", hand, trick, S)
    assert card == c("E7") and identity // 8 == S
    assert play.choose("g2", hand, trick, S) == (c("SK"), c("SK"))


def test_g2_only_perlaggen_baptises_an_ace_for_the_figures():
    """Only Perlaggen left and the partner holding the trick: G2 plays G1's card (the lowest
    precedence) as the Ace with the smallest key: here the acorn Ace, which cannot win (trump L)."""
    trick = plays("HA H9")  # the partner of the seat to move (third) holds the trick with HA
    card, identity = play.choose("g2", mask("L7 LU"), trick, 1)
    g1 = play.choose("greedy", mask("L7 LU"), trick, 1)
    assert card == g1[0] and identity == c("EA") and g1[1] != identity


def test_odds_command_spiel_g2(capsys):
    args = ["odds", "perlaggen", "--hand", "S6 LA LK L8 E10", "--turnup", "L10", "--spiel", "g2", "--n", "3000",
            "--seed", "7", "--no-progress"]
    assert main(args + ["--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    win, lose = out["estimates"]["spiel.win"], out["estimates"]["spiel.lose"]
    assert abs(win["p"] + lose["p"] - 1) < 1e-12 and win["lo"] <= win["p"] <= win["hi"]
    assert main(args) == 0
    assert "policy G2 of spec §11.7" in capsys.readouterr().out


# --- the concession half of G2 (§11.7, §8.3) -------------------------------------------------------
def played_deals(n):
    """(hands (n, 4) uint64, trumps (n,) int64) of n Innsbruck deals as played (seed 1)."""
    rows = D.deal_block(block_words(1, 0, n, D.WORDS_PER_DEAL))
    return np.ascontiguousarray(rows[:, :play.SEATS]), rows[:, D.TRUMP].astype(np.int64)


def kernel_play_out(hands, trump, style, odds, concede):
    """(winning team, tricks played, {(boundary, seat): cell}) of the kernel's conceding G2 play-out."""
    pmasks, precs = play.PlayRules(style).arrays()
    cells = np.empty((play.TRICKS, play.SEATS), dtype=np.int64)
    line = np.empty((play.DECISIONS, 2), dtype=np.int64)
    odds = np.array(odds)  # writable, as `play_out` hands it over (one compiled version of the kernel)
    team, tricks, _ = play._play_deal(play.FIGURES, masks(hands), np.int64(trump), pmasks[trump], precs[trump],
                                      play.FOREHAND, np.zeros(play.DECISIONS), line, odds, concede, cells)
    seen = {(k, s): int(cells[k, s]) for k in range(play.TRICKS) for s in range(play.SEATS) if cells[k, s] >= 0}
    return int(team), int(tricks), seen


@settings(max_examples=150)
@given(st.sampled_from(STYLES), st.sampled_from([0.0, 0.2, 0.35, 0.5, 0.65]), st.randoms(use_true_random=False))
def test_conceding_play_out_matches_reference(style, concede, rng):
    """G2 with concession: the kernel's winner, tricks played and every seat's view cell at every
    trick boundary equal the plain reference's, with the real estimate table of the style."""
    hands, trump, _, _ = random_position(rng, 5, style)
    perl = naive.perlaggen(style, trump)
    odds = play.win_odds(style)
    want = naive.conceding_play_out(hands, trump, perl, odds, concede)
    assert kernel_play_out(hands, trump, style, odds, concede) == want
    teams, lengths = play.play_out("g2", masks(hands)[None, :], [trump], style=style, concede=concede)
    assert (int(teams[0]), int(lengths[0])) == want[:2]


def test_win_odds_tally_g2_play_outs():
    """`win_odds` counts: the kernel tally over deals as played equals the plain reference's cells
    and outcomes (no concession), and the estimate is (wins + 1) / (n + 2) in (0, 1)."""
    hands, trumps = played_deals(300)
    pmasks, precs = play.PlayRules().arrays()
    counts = np.zeros((play.CELLS, 2), dtype=np.int64)
    play._tally_cells(hands, trumps, pmasks, precs, play.FOREHAND, counts)
    want = np.zeros((play.CELLS, 2), dtype=np.int64)
    for row, trump in zip(hands, trumps):
        sets = [set(DECK.cards_of(int(h))) for h in row]
        winner, _, cells = naive.conceding_play_out(sets, int(trump), naive.perlaggen("innsbruck", int(trump)),
                                                   np.ones(play.CELLS), 0.0)
        for (_, seat), cell in cells.items():
            want[cell] += (1, seat % 2 == winner)
    assert (counts == want).all()
    odds = play.win_odds()
    assert odds.shape == (play.CELLS,) and ((odds > 0) & (odds < 1)).all()


def test_win_odds_follow_the_tricks():
    """A sanity reading of the table: after two tricks, two up is better than one each, and that
    better than two down, all else equal, in every cell each was seen at least 100 times."""
    seen = play.win_counts()[:, 0].reshape(3, 3, 2, 6, 6, 2)
    odds = play.win_odds().reshape(3, 3, 2, 6, 6, 2)
    for better, worse in (((2, 0), (1, 1)), ((1, 1), (0, 2))):
        both = (seen[better] >= 100) & (seen[worse] >= 100)
        assert both.sum() >= 10 and (odds[better][both] > odds[worse][both]).all()


def test_conceding_team_loses_the_spiel():
    """With a threshold above every first-trick estimate, forehand (seat 1, asked first) gives the
    Spiel up before a card is played: team 0 wins every deal after 0 tricks."""
    hands, trumps = played_deals(200)
    teams, lengths = play.play_out("g2", hands, trumps, concede=0.999)
    assert (teams == 0).all() and (lengths == 0).all()
    assert play.play_line("g2", hands[0], int(trumps[0]), concede=0.999) == []


def test_spiel_job_key_names_the_threshold():
    plain = play.SpielJob(None, D.DealRules(), "g2", team=1)
    conceding = play.SpielJob(None, D.DealRules(), "g2", team=1, concede=0.2)
    assert "concede" not in plain.key() and conceding.key() == plain.key() + "|concede=0.2"


@pytest.mark.parametrize("extra, message", [
    (["--spiel", "g2", "--concede-below", "1.5"], "is not a probability"),
    (["--spiel", "greedy", "--concede-below", "0.2"], "applies to --spiel g2 only"),
    (["--concede-below", "0.2"], "applies to --spiel g2 only"),
])
def test_concede_bad_input(capsys, extra, message):
    args = ["odds", "perlaggen", "--hand", "S6 LA LK L8 E10", "--turnup", "L10", "--n", "100", "--no-progress"]
    assert main(args + extra) == 2
    assert message in capsys.readouterr().err


def test_odds_command_g2_concedes(capsys):
    """--concede-below shows in the note; forehand's strong team wins more Spiels when the weaker
    defenders give up, and the result is the same for --jobs 1 and 2."""
    args = ["odds", "perlaggen", "--hand", "S6 LA LK L8 E10", "--turnup", "L10", "--spiel", "g2", "--n", "3000",
            "--seed", "7", "--no-progress", "--json"]
    assert main(args) == 0
    plain = json.loads(capsys.readouterr().out)["estimates"]["spiel.win"]
    assert main(args + ["--concede-below", "0.2"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["spiel"] == "g2" and data["concede"] == 0.2
    conceding = data["estimates"]["spiel.win"]
    assert main(args + ["--concede-below", "0.2", "--jobs", "2"]) == 0
    assert json.loads(capsys.readouterr().out)["estimates"]["spiel.win"] == conceding
    assert conceding["p"] > plain["p"]
    assert main(args[:-1] + ["--concede-below", "0.2"]) == 0
    assert "gives the Spiel up (and loses it)" in capsys.readouterr().out
