"""Regressions from a fuzz of the Python API with bad arguments (634 probes, 2026-12-06): each of these raised a
Python error of the wrong kind or returned an answer from an argument it could not use."""

import numpy as np
import pytest

from simcore import checks
from simcore.errors import CardsimError
from simcore.games import bauernstoss as bs
from simcore.games import bauernstoss_solve
from simcore.games import perlaggen_l1
from simcore.games import perlaggen_play

BS_HANDS = [bs.DECK.mask(bs.DECK.parse_cards(h, "deal")) for h in
            "c7 c8 s7 s8 h7 h8 d7 d8 / sB hB dB cA cT sK h9 d9 / c9 cD s9 sD hD hT dD dT / cB cK sT sA hK hA dK dA"
            .split("/")]


@pytest.mark.parametrize("value", [2**63, np.uint64(2**63), 10**30, -10**30, [5, 10**30], 1e19, -1e19, [5, 2**63]])
def test_a_whole_number_past_64_bits_is_refused_by_its_size(value):
    """2**63 came in as numpy's uint64 (or, in a list, a float) and wrapped to -2**63, as 1e19 did
    (reaches(target=2**63) said True); 10**30 was refused as 'not a whole number'."""
    with pytest.raises(CardsimError, match=r"^targets must be within -2\*\*63 to 2\*\*63 - 1 \(64-bit integers\)"):
        checks.column(value, 2 if isinstance(value, list) else 1, "targets", None)
    assert checks.column(np.uint64(2**63 - 1), 1, "targets", None).tolist() == [2**63 - 1]
    assert checks.column([-2.0**63, 1e18], 2, "targets", None).tolist() == [-2**63, 10**18]


@pytest.mark.parametrize("stakes", [(True, 1), (1, np.True_)])
def test_perlaggen_stakes_refuse_a_bool(stakes):
    """(True, 1) ran as 1:1."""
    with pytest.raises(CardsimError, match=r"^stakes must be two figure values G:H such as 1:1"):
        perlaggen_l1.check_stakes(stakes)
    assert perlaggen_l1.check_stakes(("2", 1.5)) == (2.0, 1.5)  # the text of --stakes 2:1.5, as before
    assert perlaggen_l1.check_stakes(v for v in (2, 1)) == (2.0, 1.0)


@pytest.mark.parametrize("concede", ["0.2", None, [0.2], True])
def test_the_concession_threshold_must_be_a_number(concede):
    """'0.2' and None raised TypeError from a comparison; True was read as 1."""
    with pytest.raises(CardsimError, match=r"^concede \(--concede-below\) must be a number in \[0, 1\) such as 0.2"):
        perlaggen_play.check_concede(concede, "g2")
    assert perlaggen_play.check_concede(np.float64(0.2), "g2") == 0.2


@pytest.mark.parametrize("trick", [None, "x", 5, np.array(5)])
def test_bauernstoss_position_points_refuses_a_trick_that_is_no_list(trick):
    """trick=None raised TypeError ('NoneType' object is not iterable)."""
    with pytest.raises(CardsimError, match="^trick must list at most 4 distinct cards 0-31 that no hand holds"):
        bauernstoss_solve.position_points(BS_HANDS, 0, 0, 0, trick=trick)


def test_a_card_given_twice_is_named_as_typed_too():
    """'CJ CJ ...' said 'cB is given 2 times', a name the user had not typed."""
    with pytest.raises(CardsimError, match=r"^cB \(written CJ\) is given 2 times in --hand but the bauernstoss pack"):
        bs.DECK.parse_groups({"--hand": "CJ cb HA HT H9 DA DK D7"})
    with pytest.raises(CardsimError, match=r"^cB is given 2 times"):
        bs.DECK.parse_groups({"--hand": "cB CB HA HT H9 DA DK D7"})


@pytest.mark.parametrize("hands, said", [("SA SA", r"got the text 'SA SA': give masks, e.g. DECK.mask\(DECK.parse_cards"
                                                    r"\(text\)\)"), (None, "got None$")])
def test_solver_hands_given_as_text_or_none_say_so(hands, said):
    """'SA SA' and None were reported as 'got shape ()'."""
    from simcore.games import pinochle3_solve

    with pytest.raises(CardsimError, match=r"^hands must be an \(n, 3\) array of card masks, .*; " + said):
        pinochle3_solve.solve(hands, 0, 0, 0)
