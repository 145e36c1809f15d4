"""Perlaggen policy G2 of spec §11.7 ("G1 plus figures", trick play): the kernel against the plain
reference `naive_perlaggen_play.figures_play`, legal play, the §12.1 T-03 position, and
``cardsim odds perlaggen --spiel g2``."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.cli import main
from simcore.games import perlaggen_play as play

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
