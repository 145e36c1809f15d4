"""`cardsim odds bauernstoss --play pimc`: every seat chooses its cards by PIMC (`bauernstoss_jobs.pimc_play`
over `pimc_values`), worlds drawn from the runner's block sub-streams."""

import numpy as np
import pytest

from analysis.cli import main
from analysis.games import bauernstoss as api
from simcore import runner
from simcore.errors import CardsimError
from simcore.games import bauernstoss as bs
from simcore.games import bauernstoss_jobs as jobs
from simcore.rng import block_substream

TD01 = "sB hB dB cA cT sK h7 d8"


def test_pimc_play_is_zero_sum():
    """Counting either team gives the same play: the two teams' points add up to 120 (§6.1) when both
    runs read the same stream."""
    hands = jobs.deal_hands(8, 0, 2)
    for row in hands:
        one = jobs.pimc_play(row, 2, 1, block_substream(8, 0, 2), 2)
        zero = jobs.pimc_play(row, 2, 0, block_substream(8, 0, 2), 2)
        assert one + zero == bs.CARD_POINTS


def test_pimc_play_of_a_forced_ending():
    """One card each (the last trick, §5.3): nothing to choose, the trick's points go to its winner."""
    hands = [1 << (8 * s + bs.JACK) for s in range(4)]  # cB sB hB dB: seat 0's cB wins, 8 points
    assert jobs.pimc_play(hands, 0, 0, block_substream(1, 0, 2), 2, leader=1) == 8
    assert jobs.pimc_play(hands, 0, 1, block_substream(1, 0, 2), 2, leader=1) == 0


def test_pimc_odds_same_for_any_chunk_size():
    """A runner job: the same seed gives the same counts whatever the chunk size."""
    job = jobs.OddsJob(tuple(bs.DECK.parse_cards(TD01)), 1, (jobs.Option(bs.NUMBER, 1),), "pimc", samples=2)
    whole = runner.run(job, 3, 5, checkpoint=False, progress=False)
    parts = runner.run(job, 3, 5, chunk_deals=1, checkpoint=False, progress=False)
    assert np.array_equal(whole, parts) and whole[0] == 3


def test_pimc_odds_bad_input(capsys):
    for samples in (0, 65, 1e9):  # 1e9 once ended in a MemoryError traceback
        with pytest.raises(CardsimError, match="--samples must be from 1 to 64"):
            api.odds(TD01, 1, "pimc", n=2, seed=1, samples=samples)
    with pytest.raises(CardsimError, match=r"method \(--play\) must be one of dd, greedy, random, got 'pimc'"):
        api.thresholds("pimc", n=10, seed=1)
    assert main(["odds", "bauernstoss", "--hand", TD01, "--play", "pimc", "--samples", "0", "--n", "2"]) == 2
    assert "argument --samples: expected a whole number from 1 to 64, got '0'" in capsys.readouterr().err
    assert main(["odds", "bauernstoss", "--hand", TD01, "--samples", "5", "--n", "2"]) == 2
    err = capsys.readouterr().err
    assert "--samples applies only with --play pimc" in err and len(err.strip().splitlines()) == 1
