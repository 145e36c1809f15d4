"""Perlaggen betting at the other team tables (perlaggen.md §9.2 two players, §9.3 six players): whole
games, "das Spiel ist hin", the trick rules for hands and tricks the four-player kernels do not take
(checked against those kernels where both apply), and the command options."""

import json

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
import pytest

from analysis.cli import main
from test_betting_engine import check_result, drive_randomly
from simcore.betting import NOBODY, PRESETS, SHOWDOWN, SP, Agent, play_deal
from simcore.errors import CardsimError
from simcore.games import perlaggen_betting as pb
from simcore.games import perlaggen_play as PP


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def random_trick(rng, plays: int, style: str = "innsbruck"):
    """(hand of the next player (5 cards), trump, legal (card, identity) plays of ``plays`` players)."""
    perm = [int(c) for c in rng.permutation(33)]
    trump = int(rng.choice([pb.P.DECK.suits.index(t) for t in pb.P.trump_suits(style)]))
    adapter = pb.cards_for(style, trump)
    trick = []
    for p in range(plays):
        hand = perm[5 * p:5 * p + 5]
        options = sorted(adapter.legal(hand, trick, trump))
        trick.append(options[int(rng.integers(len(options)))])
    return perm[5 * plays:5 * plays + 5], trump, trick


@pytest.mark.parametrize("players, hand", [(2, None), (6, 4), (6, 5)])
def test_whole_games_at_other_tables(players, hand):
    """Two and six players play whole games (§9.2: 7 cards, 4 tricks win the Spiel; §9.3: 4 or 5 cards,
    3 tricks): a winner, a score sheet that adds up, every deal with the table's hands."""
    record = pb.play_game((PRESETS["aggressive"], PRESETS["formula"]), np.random.default_rng(7),
                          np.random.default_rng(8), pb.rules_from_options(target=6), players=players, hand=hand)
    assert record.winner in (0, 1)
    assert [sum(r.points[t] for r in record.deals) for t in (0, 1)] == record.scores
    assert all(0 <= d < players for d in record.dealers)
    assert pb.kit("innsbruck", players, hand).hand == (hand or 7)


def test_das_spiel_ist_hin():
    """§9.3, six players with four cards: at 2-2 after the last trick nobody scores the Spiel; every card
    is on the table, so the showing ends at once with G and H read off it (ties stand)."""
    table = pb.kit("innsbruck", 6, 4)
    estimator = table.make_estimator()
    rng = np.random.default_rng(3)
    for _ in range(40):
        hands, trump = table.draw_deal(rng)
        adapter = table.cards(trump)
        deal = pb.Deal(adapter, pb.rules_from_options(), hands, trump)
        never = (Agent(PRESETS["never"], estimator), Agent(PRESETS["never"], estimator))
        play_deal(deal, never, adapter.choose_card, adapter.example_cards)
        if deal.won == [2, 2]:
            break
    assert deal.won == [2, 2] and deal.figures[SP].winner == NOBODY
    assert all(f != SP for _, f, _, _ in deal.result.awards)
    assert not any(deal.in_hand)


def test_spiel_decided_at_the_table_size():
    """Two players: the Spiel needs 4 of 7 tricks."""
    table = pb.kit("innsbruck", 2)
    hands, trump = table.draw_deal(np.random.default_rng(1))
    adapter = table.cards(trump)
    deal = pb.Deal(adapter, pb.rules_from_options(), hands, trump)
    assert (deal.players, deal.tricks, deal.need) == (2, 7, 4)
    while deal.phase == "play":
        deal.play(deal.to_move, *adapter.choose_card(deal, deal.to_move))
    assert max(deal.won) == 4 and deal.phase in (SHOWDOWN, "done")


def test_trick_keys_agree_with_the_four_player_kernel():
    """The n-play trick winner (`trick_keys`) is `perlaggen_play.trick_winner_of` on four plays."""
    rng = np.random.default_rng(5)
    for style in ("innsbruck", "eichel"):
        for _ in range(150):
            _, trump, trick = random_trick(rng, 4, style)
            leader = int(rng.integers(4))
            keys = pb.trick_keys(trick, trump, style)
            assert (leader + keys.index(max(keys))) % 4 == PP.trick_winner_of(trick, leader, trump, style)


def test_legal_plays_of_long_hands_agree_with_the_kernel():
    """`legal_plays_long` (hands of 7 cards) equals `perlaggen_play.legal_plays` on five-card hands."""
    rng = np.random.default_rng(6)
    for _ in range(200):
        hand, trump, trick = random_trick(rng, int(rng.integers(0, 4)))
        assert pb.legal_plays_long(hand, trick, trump, "innsbruck") == PP.legal_plays(pb.P.DECK.mask(hand), trick,
                                                                                      trump, "innsbruck")


def test_greedy_view_keeps_what_g1_reads():
    """The view of a six-player trick keeps the card led, the play holding the trick, and G1's partner
    test ("held by the play two before the mover") equals "held by a partner of the mover"."""
    rng = np.random.default_rng(9)
    for _ in range(300):
        _, trump, trick = random_trick(rng, int(rng.integers(1, 6)))
        view = pb.greedy_view(trick, trump, "innsbruck")
        keys, view_keys = pb.trick_keys(trick, trump, "innsbruck"), pb.trick_keys(view, trump, "innsbruck")
        best, view_best = keys.index(max(keys)), view_keys.index(max(view_keys))
        assert len(view) <= 3 and view[0] == trick[0] and view[view_best] == trick[best]
        partner = (len(trick) - best) % 2 == 0
        assert (len(view) >= 2 and view_best == len(view) - 2) == partner


def test_table_options_on_the_commands(capsys):
    args = ["match", "perlaggen", "--a", "aggressive", "--b", "formula", "--games", "2", "--seed", "2", "--target", "5",
            "--no-progress"]
    code, text, _ = run_cli(capsys, *args, "--players", "2")
    assert code == 0 and "2 players x 7 cards" in text
    _, one, _ = run_cli(capsys, *args, "--players", "6", "--hand", "5", "--json")
    _, two, _ = run_cli(capsys, *args, "--players", "6", "--hand", "5", "--json", "--jobs", "2", "--chunk-size", "1")
    assert json.loads(one) == json.loads(two)
    for extra, message in ((["--players", "6", "--hand", "7"], "4 or 5 cards"), (["--players", "5"], "invalid choice"),
                           (["--hand", "4"], "four players hold 5 cards")):
        code, out, err = run_cli(capsys, *args, *extra)
        assert code == 2 and out == "" and err.count("\n") == 1 and message in err
    code, _, err = run_cli(capsys, "match", "giltspiel", "--a", "never", "--b", "formula", "--players", "6",
                           "--no-progress")
    assert code == 2 and "unrecognized" in err
    with pytest.raises(CardsimError, match="three-player"):
        pb.kit("innsbruck", 3)


def random_table_action(deal, rng):
    """Any action of any seat of the table, most of them illegal."""
    kind = int(rng.integers(6))
    seat, figure, team = int(rng.integers(deal.players)), int(rng.integers(3)), int(rng.integers(2))
    hand = sorted(deal.in_hand[seat])
    if kind == 0:
        return lambda: deal.bet(seat, figure)
    if kind == 1:
        answer = ("gut", "hold", "raise")[int(rng.integers(3))]
        return lambda: deal.answer(seat, figure, answer)
    if kind == 2:
        return lambda: deal.concede(team, figure)
    if kind == 3:
        card = hand[int(rng.integers(len(hand)))] if hand else 0
        return lambda: deal.play(seat, card)
    if kind == 4:
        return lambda: deal.reveal(seat, [c for c in hand if rng.random() < 0.4])
    return lambda: deal.end_turn(team)


def table_invariants(deal) -> None:
    assert max(deal.won) <= deal.need and sum(deal.won) <= deal.tricks
    assert sum(map(len, deal.in_hand)) + sum(map(len, deal.shown)) == deal.players * deal.tricks
    if deal.phase == "play":
        assert deal.figures[SP].open and len(deal.trick) < deal.players


@given(st.integers(0, 2**32 - 1), st.sampled_from([(2, None), (6, 4), (6, 5)]),
       st.sampled_from([(0, 0), (4, 4), (3, 4)]))
@settings(max_examples=30, deadline=None)
def test_no_action_sequence_reaches_an_illegal_state_at_other_tables(seed, table, scores):
    """Random actions at 2 and 6 players: refused ones raise CardsimError and change nothing, accepted ones
    keep the invariants (cards, tricks, the Spiel at k//2+1 tricks), and a finished deal's score sheet is
    the §7.10 order (`test_betting_engine.check_result`). Target 5."""
    rng = np.random.default_rng(seed)
    styled = pb.kit("innsbruck", *table)
    hands, trump = styled.draw_deal(rng)
    deal = pb.Deal(styled.cards(trump), pb.rules_from_options(target=5), hands, trump, int(rng.integers(table[0])),
                   scores)
    drive_randomly(deal, rng, random_table_action, table_invariants, 800)
    if deal.phase == "done":
        check_result(deal, scores)
