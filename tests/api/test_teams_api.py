"""Teams through the REST API: the two lists in the spec's shape with their paging, creating, joining and
leaving with every error answered and documented; the rider's own teams need a session."""

import pytest

from cycling_site.messages import accounts as accounts_msg
from cycling_site.messages import teams as msg
from cycling_site.models import Team, TeamMembership
from cycling_site.services import teams
from cycling_site.services.teams import TeamForm
from tests.api.auth_support import bearer
from tests.unit.conftest import count

PUBLIC = "/api/team-management/get-public-teams"
MINE = "/api/team-management/get-teams"
CREATE = "/api/team-management/create-team"
JOIN = "/api/team-management/join-team"
LEAVE = "/api/team-management/leave-team"


@pytest.fixture
def rider(make_account):
    return make_account()


@pytest.fixture
def mate(make_account):
    return make_account(email="mate@example.com", firstname="Omar")


def test_public_teams_have_the_specs_shape_and_paging(client, session, rider, mate):
    for number in range(12):
        teams.create(session, mate, TeamForm(f"Team {number:02d}", f"Team number {number}", "SA"))
    teams.create(session, mate, TeamForm("Zz Private", public=False))
    first = teams.public_teams(session).teams[0]
    teams.join(session, rider, first.team_id)

    answer = client.get(PUBLIC)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert {key: body[key] for key in ("status", "page", "totalPages", "limit", "totalCount")} == {
        "status": True,
        "page": 1,
        "totalPages": 2,
        "limit": 10,
        "totalCount": 12,
    }
    assert body["data"][0] == {
        "teamId": first.team_id,
        "teamName": "Team 00",
        "teamDescription": "Team number 0",
        "countryFlag": "SA",
        "memberCount": 2,
    }
    second = client.get(PUBLIC, params={"page": 2}).json()
    assert [team["teamName"] for team in second["data"]] == ["Team 10", "Team 11"]
    assert client.get(PUBLIC, params={"page": 1, "limit": 5}).json()["totalPages"] == 3


def test_no_public_teams(client):
    body = client.get(PUBLIC).json()
    assert (body["data"], body["page"], body["totalPages"], body["totalCount"]) == ([], 1, 0, 0)


@pytest.mark.parametrize("params", [{"page": 0}, {"page": "x"}, {"limit": 0}, {"limit": 51}, {"page": 10**9}])
def test_bad_paging_answers_400(client, params):
    answer = client.get(PUBLIC, params=params)
    assert answer.status_code == 400
    assert answer.json()["status"] is False


def test_a_riders_joined_and_owned_teams(client, session, rider, mate):
    own = teams.create(session, rider, TeamForm("Own Team"))
    joined = teams.create(session, mate, TeamForm("Joined Team", country="OM"))
    teams.create(session, mate, TeamForm("Other Team"))
    teams.join(session, rider, joined.id)

    default = client.post(MINE, json={}, headers=bearer(rider)).json()
    assert [team["teamName"] for team in default["data"]] == ["Joined Team"]
    assert default["data"][0]["memberCount"] == 2 and default["totalCount"] == 1
    owned = client.post(MINE, json={"ownTeams": "true", "type": "all"}, headers=bearer(rider)).json()
    assert [team["teamId"] for team in owned["data"]] == [own.id]
    private = client.post(MINE, json={"ownTeams": "true", "type": "private"}, headers=bearer(rider)).json()
    assert private["data"] == [] and private["totalPages"] == 0


def test_the_riders_teams_need_a_session_and_a_known_ownteams(client, rider):
    answer = client.post(MINE, json={})
    assert answer.status_code == 401
    assert answer.json() == {"status": False, "message": accounts_msg.SESSION_EXPIRED}
    for body in ({"ownTeams": True}, {"ownTeams": "yes"}, {"type": "everything"}, {"limit": 0}):
        assert client.post(MINE, json=body, headers=bearer(rider)).status_code == 400


def test_create_join_and_leave(client, session, rider, mate):
    created = client.post(
        CREATE,
        json={"teamName": "  Hatta Hill Climbers ", "teamDescription": "Climbs.", "country": "ae"},
        headers=bearer(mate),
    )
    assert created.status_code == 200, created.text
    data = created.json()["data"]
    assert created.json()["message"] == msg.TEAM_CREATED.format(name="Hatta Hill Climbers")
    assert (data["teamName"], data["countryFlag"], data["memberCount"]) == ("Hatta Hill Climbers", "AE", 1)
    team_id = data["teamId"]

    joined = client.post(JOIN, json={"teamId": team_id}, headers=bearer(rider))
    assert joined.json() == {"status": True, "message": msg.TEAM_JOINED.format(name="Hatta Hill Climbers")}
    again = client.post(JOIN, json={"teamId": team_id}, headers=bearer(rider))
    assert again.status_code == 400
    assert again.json() == {
        "status": False,
        "message": msg.ALREADY_MEMBER,
        "errors": {"team": [msg.ALREADY_MEMBER]},
    }

    owner_leaves = client.post(LEAVE, json={"teamId": team_id}, headers=bearer(mate))
    assert (owner_leaves.status_code, owner_leaves.json()["message"]) == (400, msg.OWNER_CANNOT_LEAVE)
    left = client.post(LEAVE, json={"teamId": team_id}, headers=bearer(rider))
    assert left.json()["message"] == msg.TEAM_LEFT.format(name="Hatta Hill Climbers")
    not_member = client.post(LEAVE, json={"teamId": team_id}, headers=bearer(rider))
    assert (not_member.status_code, not_member.json()["message"]) == (400, msg.NOT_MEMBER)
    closed = client.post(LEAVE, json={"teamId": team_id}, headers=bearer(mate))
    assert closed.json()["message"] == msg.TEAM_CLOSED.format(name="Hatta Hill Climbers")
    assert count(session, Team) == 0 and count(session, TeamMembership) == 0


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"teamName": ""}, "name", msg.NAME_REQUIRED),
        ({"teamName": "   "}, "name", msg.NAME_REQUIRED),
        ({"teamName": "x" * 61}, "name", msg.NAME_TOO_LONG.format(max=60)),
        ({"teamName": "desert FALCONS"}, "name", msg.NAME_TAKEN),
        (
            {"teamName": "Ok", "teamDescription": "d" * 501},
            "description",
            msg.DESCRIPTION_TOO_LONG.format(max=500),
        ),
        ({"teamName": "Ok", "country": "ZZ"}, "country", msg.COUNTRY_INVALID),
    ],
)
def test_bad_teams_are_refused_with_their_message(client, session, rider, mate, body, field, message):
    teams.create(session, mate, TeamForm("Desert Falcons"))
    answer = client.post(CREATE, json=body, headers=bearer(rider))
    assert answer.status_code == 400
    assert answer.json() == {"status": False, "message": message, "errors": {field: [message]}}
    assert count(session, Team) == 1


def test_missing_and_private_teams(client, session, rider, mate):
    hidden = teams.create(session, mate, TeamForm("Hidden", public=False))
    private = client.post(JOIN, json={"teamId": hidden.id}, headers=bearer(rider))
    assert (private.status_code, private.json()["message"]) == (403, msg.NOT_PUBLIC)
    missing = client.post(JOIN, json={"teamId": hidden.id + 1}, headers=bearer(rider))
    assert (missing.status_code, missing.json()["message"]) == (404, msg.TEAM_NOT_FOUND)
    assert client.post(LEAVE, json={"teamId": hidden.id + 1}, headers=bearer(rider)).status_code == 404
    for body in ({}, {"teamId": 0}, {"teamId": "abc"}, {"teamId": 2**40}, {"teamId": True}):
        assert client.post(JOIN, json=body, headers=bearer(rider)).status_code == 400
    assert count(session, TeamMembership) == 1


def test_changing_teams_needs_a_session(client, session, mate):
    team = teams.create(session, mate, TeamForm("Open Team"))
    for path, body in (
        (CREATE, {"teamName": "New"}),
        (JOIN, {"teamId": team.id}),
        (LEAVE, {"teamId": team.id}),
    ):
        assert client.post(path, json=body).status_code == 401
    assert count(session, Team) == 1 and count(session, TeamMembership) == 1


def test_the_profile_and_dashboard_data_name_the_team_joined_last(client, session, rider, mate):
    first = teams.create(session, mate, TeamForm("Doha Pulse"))
    assert client.get("/api/auth/profile", headers=bearer(rider)).json()["data"]["team"] is None
    teams.join(session, rider, first.id)
    assert client.get("/api/auth/profile", headers=bearer(rider)).json()["data"]["team"] == "Doha Pulse"
