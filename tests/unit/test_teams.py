"""Teams: the public and rider lists with their paging and member counts, creating, joining and leaving with
their messages, a deleted rider leaving every team, and the races (one team per name, one membership per
rider) on whichever database the suite runs on (SQLite, and PostgreSQL with TEST_DB_URL)."""

from datetime import timedelta

import pytest
from sqlmodel import Session, select

from cycling_site.messages import teams as msg
from cycling_site.models import Account, Team, TeamMembership
from cycling_site.models.common import utcnow
from cycling_site.services import teams
from cycling_site.services.teams import TeamForm, TeamNotFound, TeamPrivate
from cycling_site.services.validation import FormErrors
from tests.unit.conftest import count, form_errors, race


@pytest.fixture
def rider(make_account):
    return make_account()


@pytest.fixture
def mate(make_account):
    return make_account(email="mate@example.com", firstname="Omar")


def _team(session, owner, name: str, public: bool = True, country: str = "AE") -> Team:
    return teams.create(session, owner, TeamForm(name, f"About {name}", country, public))


# --- Creating ---------------------------------------------------------------------------------------------


def test_a_new_team_has_its_owner_as_first_member(session, rider):
    team = teams.create(session, rider, TeamForm("  Desert   Falcons ", " Fast on Sundays. ", "ae"))
    assert (team.name, team.name_key, team.description, team.country) == (
        "Desert Falcons",
        "desert falcons",
        "Fast on Sundays.",
        "AE",
    )
    assert team.owner_id == rider.id and team.public is True and team.created_at.tzinfo is not None
    members = session.exec(select(TeamMembership)).all()
    assert [(m.team_id, m.account_id) for m in members] == [(team.id, rider.id)]


@pytest.mark.parametrize(
    ("form", "errors"),
    [
        (TeamForm(""), {"name": msg.NAME_REQUIRED}),
        (TeamForm("   \t "), {"name": msg.NAME_REQUIRED}),
        (TeamForm("a\x00b"), {"name": msg.NAME_REQUIRED}),
        (TeamForm("x" * 61), {"name": msg.NAME_TOO_LONG.format(max=60)}),
        (TeamForm("Ok", "d" * 501), {"description": msg.DESCRIPTION_TOO_LONG.format(max=500)}),
        (TeamForm("Ok", "", "XX"), {"country": msg.COUNTRY_INVALID}),
        (TeamForm("Ok", "", "UAE"), {"country": msg.COUNTRY_INVALID}),
    ],
)
def test_bad_team_forms_are_refused_and_store_nothing(session, rider, form, errors):
    assert form_errors(teams.create, session, rider, form) == errors
    assert count(session, Team) == 0 and count(session, TeamMembership) == 0


def test_the_longest_name_and_description_fit(session, rider):
    team = teams.create(session, rider, TeamForm(" " + "x" * 60 + " ", "d" * 500, ""))
    assert len(team.name) == 60 and team.country == ""


def test_a_name_is_taken_in_any_letter_case_and_spacing(session, rider, mate):
    _team(session, rider, "Desert Falcons")
    assert form_errors(teams.create, session, mate, TeamForm("DESERT  falcons")) == {"name": msg.NAME_TAKEN}
    assert count(session, Team) == 1


# --- Lists ------------------------------------------------------------------------------------------------


def test_public_teams_are_paged_by_name_with_member_counts(session, rider, mate):
    for number in range(23):
        _team(session, rider, f"Team {number:02d}")
    _team(session, rider, "Hidden Squad", public=False)
    teams.join(session, mate, session.exec(select(Team.id).where(Team.name == "Team 00")).one())
    first = teams.public_teams(session)
    assert (first.page, first.total_pages, first.limit, first.total_count) == (1, 3, 10, 23)
    assert [card.name for card in first.teams] == [f"Team {n:02d}" for n in range(10)]
    assert first.teams[0].member_count == 2 and first.teams[1].member_count == 1
    last = teams.public_teams(session, 3)
    assert [card.name for card in last.teams] == ["Team 20", "Team 21", "Team 22"]
    # Past the last page: the last page; a limit is kept within 1..50.
    assert teams.public_teams(session, 99).page == 3
    assert len(teams.public_teams(session, 1, 500).teams) == 23
    assert teams.public_teams(session, 0, 0).limit == 1


def test_no_teams_is_an_empty_first_page(session):
    found = teams.public_teams(session)
    assert (found.teams, found.page, found.total_pages, found.total_count) == ([], 1, 0, 0)


def test_a_riders_joined_and_owned_teams(session, rider, mate):
    own = _team(session, rider, "Own Team")
    secret = _team(session, rider, "Own Secret", public=False)
    other = _team(session, mate, "Other Team")
    _team(session, mate, "Not Joined")
    teams.join(session, rider, other.id)
    owned = teams.rider_teams(session, rider, owned=True)
    assert [card.team_id for card in owned.teams] == [secret.id, own.id]
    assert [card.name for card in teams.rider_teams(session, rider, owned=True, kind="public").teams] == [
        "Own Team"
    ]
    assert [card.name for card in teams.rider_teams(session, rider, owned=True, kind="private").teams] == [
        "Own Secret"
    ]
    joined = teams.rider_teams(session, rider, owned=False)
    assert [(card.name, card.member_count) for card in joined.teams] == [("Other Team", 2)]
    assert teams.memberships(session, rider.id, [own.id, other.id, secret.id]) == {
        own.id,
        other.id,
        secret.id,
    }


# --- Joining and leaving ----------------------------------------------------------------------------------


def test_joining_twice_is_refused_with_a_clear_message(session, rider, mate):
    team = _team(session, mate, "Hatta Hill Climbers")
    teams.join(session, rider, team.id)
    assert form_errors(teams.join, session, rider, team.id) == {"team": msg.ALREADY_MEMBER}
    assert count(session, TeamMembership) == 2


def test_only_existing_public_teams_are_joined(session, rider, mate):
    hidden = _team(session, mate, "Hidden", public=False)
    with pytest.raises(TeamPrivate):
        teams.join(session, rider, hidden.id)
    for wanted in (hidden.id + 100, "abc", "", 2**40, -1, None):
        with pytest.raises(TeamNotFound):
            teams.join(session, rider, wanted)
    assert count(session, TeamMembership) == 1


def test_leaving_a_team(session, rider, mate):
    team = _team(session, mate, "Doha Pulse")
    assert form_errors(teams.leave, session, rider, team.id) == {"team": msg.NOT_MEMBER}
    teams.join(session, rider, team.id)
    left, closed = teams.leave(session, rider, team.id)
    assert (left.name, closed) == ("Doha Pulse", False)
    assert count(session, TeamMembership) == 1 and count(session, Team) == 1


def test_an_owner_leaves_only_as_the_last_member_which_closes_the_team(session, rider, mate):
    team = _team(session, rider, "Muscat Wheels")
    teams.join(session, mate, team.id)
    assert form_errors(teams.leave, session, rider, team.id) == {"team": msg.OWNER_CANNOT_LEAVE}
    teams.leave(session, mate, team.id)
    left, closed = teams.leave(session, rider, team.id)
    assert (left.name, closed) == ("Muscat Wheels", True)
    assert count(session, Team) == 0 and count(session, TeamMembership) == 0
    # The name is free again.
    assert _team(session, mate, "muscat wheels").name == "muscat wheels"


def test_the_dashboard_team_is_the_one_joined_last(session, rider, mate):
    assert teams.header_team(session, rider.id) is None
    first = _team(session, mate, "First Team")
    second = _team(session, mate, "Second Team")
    teams.join(session, rider, second.id)
    teams.join(session, rider, first.id)
    assert teams.header_team(session, rider.id) == "First Team"
    teams.leave(session, rider, first.id)
    assert teams.header_team(session, rider.id) == "Second Team"
    assert teams.header_team(session, None) is None


def test_a_deleted_rider_leaves_every_team_and_hands_owned_ones_on(session, rider, mate, make_account):
    third = make_account(email="third@example.com")
    shared = _team(session, rider, "Shared Team")
    alone = _team(session, rider, "Alone Team")
    other = _team(session, mate, "Other Team")
    session.add(TeamMembership(team_id=shared.id, account_id=third.id, joined_at=utcnow() + timedelta(1)))
    session.add(TeamMembership(team_id=shared.id, account_id=mate.id, joined_at=utcnow()))
    session.commit()
    teams.join(session, rider, other.id)
    teams.remove_rider(session, rider)
    session.commit()
    session.expire_all()
    assert session.get(Team, alone.id) is None
    assert session.get(Team, shared.id).owner_id == mate.id
    assert session.exec(select(TeamMembership).where(TeamMembership.account_id == rider.id)).all() == []
    assert teams.member_counts(session, [shared.id, other.id]) == {shared.id: 2, other.id: 1}


# --- Races ------------------------------------------------------------------------------------------------


def test_twenty_parallel_joins_of_one_rider_make_one_membership(session, rider, mate):
    team = _team(session, mate, "Race Team")

    def work(own: Session, _number: int) -> str:
        try:
            teams.join(own, own.get(Account, rider.id), team.id)
        except FormErrors as exc:
            return next(iter(exc.errors.values()))
        return "joined"

    outcomes = race(work, 20)
    assert outcomes.count("joined") == 1
    assert set(outcomes) == {"joined", msg.ALREADY_MEMBER}
    assert count(session, TeamMembership) == 2


def test_twenty_parallel_creations_of_one_name_make_one_team(session, make_account):
    riders = [make_account(email=f"r{number}@example.com").id for number in range(20)]

    def work(own: Session, number: int) -> str:
        try:
            teams.create(own, own.get(Account, riders[number]), TeamForm(f"Same Name{' ' * (number % 3)}"))
        except FormErrors as exc:
            return next(iter(exc.errors.values()))
        return "created"

    outcomes = race(work, 20)
    assert outcomes.count("created") == 1
    assert set(outcomes) == {"created", msg.NAME_TAKEN}
    assert count(session, Team) == 1 and count(session, TeamMembership) == 1
