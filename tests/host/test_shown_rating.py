"""The one rating number members see: openskill's ordinal on a scale where a new player starts at 1,000."""

from openskill.models import PlackettLuce

from host.ratings import shown_rating


def test_a_new_player_starts_at_one_thousand() -> None:
    fresh = PlackettLuce().rating()
    assert shown_rating(fresh.mu, fresh.sigma) == 1000


def test_the_number_follows_the_ordinal_leaderboards_sort_by() -> None:
    model = PlackettLuce()
    winner, loser = model.rate([[model.rating()], [model.rating()]])
    assert shown_rating(winner[0].mu, winner[0].sigma) > 1000 > shown_rating(loser[0].mu, loser[0].sigma)
    # Same ordinal, same number; a higher ordinal, a higher number.
    assert shown_rating(30.0, 2.0) == shown_rating(27.0, 1.0) < shown_rating(30.0, 1.0)
