"""The dashboard's rider default data (spec 1 section 3), from the account and the overall curve."""

from datetime import date

from cycling_site.models import Account
from cycling_site.services import countries

GENDERS = ("MEN", "FEMALE", "Both")
EMPTY_GRAPH = {"seconds": [], "power": [], "power_weight": []}


def age(born: date, today: date) -> int:
    return today.year - born.year - ((today.month, today.day) < (born.month, born.day))


def gender_label(gender: int) -> str:
    return GENDERS[gender] if 0 <= gender < len(GENDERS) else ""


def default_data(
    account: Account,
    overall_graph: dict | None,
    today: date,
    weight_submissions: list[dict] | None = None,
    team: str | None = None,
) -> dict:
    """Shaped as the game's PlayerData structs, as the original dashboard reads them. `weight_submissions` are
    the weigh-ins the rider owes (services.weigh_ins.items); `team` the team shown with the rider
    (services.teams.header_team)."""
    return {
        "user": {
            "uuId": account.uuid,
            "jersey": account.jersey,
            "country": account.country,
            "countryCode": countries.country_alpha2(account.country).lower(),
            "countryName": countries.country_name(account.country),
            "team": team,
            "age": age(account.dob, today),
            "isKid": account.is_kid,
            "src_verification_status": account.verification_status,
            "weight_submission_data": weight_submissions or [],
        },
        "userData": {
            "data": {
                "PlayerData": {
                    "PlayerProfileStruct": {
                        "PlayerFirstName": account.firstname,
                        "PlayerLastName": account.lastname,
                        "Gender": account.gender,
                        "Weight": account.weight,
                        "HeightCm": account.height,
                        "PlayerCategoryId": account.category_id,
                    },
                    "PlayerPersonalStruct": {"PlayerLevel": account.level, "PlayerFtp": account.ftp},
                }
            }
        },
        "overall_average_graph": overall_graph or EMPTY_GRAPH,
    }
