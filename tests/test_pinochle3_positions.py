"""Spec pinochle3.md Q8 ("is the dealer's last bid worth anything?") in `cardsim match pinochle3`: the score per
hand and the contracts won by auction position, checked against a plain replay of the games' hands."""

from __future__ import annotations

import json

import numpy as np
import pytest

from analysis.cli import main
from analysis.games import pinochle3 as api
from analysis.stats import Estimate, mean_interval
from simcore.games import pinochle3_bid as bid


def test_positions_equal_a_replay_of_the_hands(monkeypatch):
    """Every hand's score change and bidder, recorded as the games are played, regrouped by the seat's place in
    the auction (R4.2a: the dealer's left speaks first, the dealer last)."""
    hands = []
    play_hand = bid.play_hand

    def recording_hand(cards, policies, dealer, opts, override=None):
        score, bidder = play_hand(cards, policies, dealer, opts, override)
        hands.append((dealer, score, bidder))
        return score, bidder

    monkeypatch.setattr(bid, "play_hand", recording_hand)
    frame = api.match("standard", "bold", 9, 5, jobs=1, progress=False, checkpoint=False)
    rows = frame.attrs["positions"]
    assert [r["position"] for r in rows] == ["dealer's left", "second", "dealer"]
    for k, row in enumerate(rows):
        seat_of = [(dealer + 1 + k) % 3 for dealer, _, _ in hands]
        points = np.array([0 if score is None else score.delta[s] for (_, score, _), s in zip(hands, seat_of)])
        won = sum(score is not None and bidder == s for (_, score, bidder), s in zip(hands, seat_of))
        plain = mean_interval(points.sum(), (points ** 2).sum(), len(hands))
        assert row["hands"] == len(hands)
        assert (row["points_mean"], row["points_lo"], row["points_hi"]) == pytest.approx(
            (plain["mean"], plain["lo"], plain["hi"]))
        assert (row["contract_p"], row["contract_lo"]) == pytest.approx((won / len(hands),
                                                                          Estimate(won, len(hands)).lo))
    assert sum(r["points_mean"] for r in rows) * len(hands) == pytest.approx(
        sum(0 if score is None else sum(score.delta) for _, score, _ in hands))


def test_positions_in_text_and_json(capsys):
    argv = ["match", "pinochle3", "--a", "bold", "--b", "cautious", "--n", "6", "--seed", "3", "--no-progress"]
    assert main(argv) == 0
    assert "by auction position in speaking order (spec Q8" in capsys.readouterr().out
    assert main([*argv, "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["positions"]
    assert [r["position"] for r in rows] == ["dealer's left", "second", "dealer"]
    assert all(r["contract_lo"] <= r["contract_p"] <= r["contract_hi"] for r in rows)
    assert sum(r["contract_p"] for r in rows) <= 1  # thrown-in hands have no contract
