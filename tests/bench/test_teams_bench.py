"""Speed of the team lists in the service (run with --benchmark-only, on PostgreSQL with
./scripts/with-postgres); budget asserted: a page of /teams out of 1,000 public teams with 10,000
memberships, a page in the middle and the last one, each read in under 100 ms."""

from datetime import date

import pytest
from sqlmodel import Session

from cycling_site.models import Account, Team, TeamMembership
from cycling_site.services import teams

TEAMS = 1000
RIDERS = 100
PER_TEAM = 10


@pytest.fixture
def crowded(session: Session) -> None:
    riders = [
        Account(
            email=f"bench{n}@example.com",
            password_hash="-",
            firstname="Bench",
            lastname="Rider",
            dob=date(1990, 1, 1),
        )
        for n in range(RIDERS)
    ]
    session.add_all(riders)
    session.flush()
    rows = [
        Team(
            name=f"Team {n:04d}",
            name_key=f"team {n:04d}",
            description="Bench team",
            country="AE",
            owner_id=riders[n % RIDERS].id,
        )
        for n in range(TEAMS)
    ]
    session.add_all(rows)
    session.flush()
    session.add_all(
        TeamMembership(team_id=team.id, account_id=riders[(number + step) % RIDERS].id)
        for number, team in enumerate(rows)
        for step in range(PER_TEAM)
    )
    session.commit()


@pytest.mark.parametrize("page", [1, 50, 100])
def test_a_page_of_a_thousand_public_teams_reads_in_a_hundred_milliseconds(benchmark, session, crowded, page):
    def read_page() -> None:
        found = teams.public_teams(session, page)
        assert (
            len(found.teams) == 10 and found.total_count == TEAMS and found.teams[0].member_count == PER_TEAM
        )

    benchmark.pedantic(read_page, rounds=50, iterations=1)
    benchmark.extra_info["teams_page_ms"] = round(benchmark.stats.stats.median * 1000, 2)
    assert benchmark.stats.stats.median < 0.100
