"""Plain references for the betting engine (simcore.betting): the §7.10 scoring order and the B6 limit,
written from the spec text without the engine's data structures."""

CATEGORY_NAMES = ("penalty", "conceded", "bet and held", "unbet")


def can_bet_b6(score: int, secured: int, value: int, target: int) -> bool:
    """B6 / perlaggen §8.6: the opponents must be able to concede without losing the game."""
    return score + secured + min(value, 7) < target


def scoring_order(figures: list[dict], penalties: list[int]) -> list[tuple]:
    """Awards in the §7.10 order.

    figures: per figure index 0 (G), 1 (H), 2 (Sp) a dict with winner (team or None), points,
    conceded_at (time or None), first_bet_at (time or None). penalties: penalised teams.
    Returns [(category, figure, team, points)] with category 0 = penalty, 1 = conceded by time,
    2 = bet and held by time of the first bet, 3 = unbet in the order G, H, Sp.
    """
    out = [(0, None, team, -2) for team in penalties]
    conceded = [i for i, f in enumerate(figures) if f["conceded_at"] is not None]
    conceded.sort(key=lambda i: figures[i]["conceded_at"])
    held = [i for i, f in enumerate(figures) if f["conceded_at"] is None and f["first_bet_at"] is not None]
    held.sort(key=lambda i: figures[i]["first_bet_at"])
    unbet = [i for i, f in enumerate(figures) if f["conceded_at"] is None and f["first_bet_at"] is None]
    for category, group in ((1, conceded), (2, held), (3, unbet)):
        for i in group:
            if figures[i]["winner"] in (0, 1):
                out.append((category, i, figures[i]["winner"], figures[i]["points"]))
    return out


def first_to_target(start: list[int], awards: list[tuple], target: int):
    """The team that first reaches ``target`` adding the awards in order, or None."""
    totals = list(start)
    for _, _, team, points in awards:
        totals[team] += points
        if totals[team] >= target:
            return team
    return None
