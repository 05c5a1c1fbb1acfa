"""What the services' rules accept, said in the request schemas, so a schema-valid request passes them.

The services keep their own checks and spec messages (an empty field answers "... is required", not pydantic's
text): these only document the same rules in /api/openapi.json. What no schema can say (a code that exists, a
date of birth on today's date, a phone number valid for its country) stays with the services alone.
"""

from typing import Annotated, Any

from pydantic import BeforeValidator, ConfigDict, Field
from pydantic_core import PydanticCustomError

# A character the cleaning rules keep and count: neither a space nor a control character.
_KEPT = r"[^\s\x00-\x1f\x7f-\x9f]"
EMAIL_MAX = 254


# A message keeps line breaks and tabs, turns other spaces into " " and drops the other control characters.
_DROPPED = r"\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f"


def lines_at_least(characters: int) -> str:
    """A pattern for a message (of two characters or more) that, with its control characters dropped and its
    ends trimmed, still has this many characters: spaces between words count."""
    return rf"{_KEPT}(?:[{_DROPPED}]*[^{_DROPPED}]){{{characters - 2}}}[\s\S]*{_KEPT}"


def text(maximum: int, **schema: Any) -> dict[str, Any]:
    """Text the cleaning rules require: a character they keep, at most `maximum` characters as sent."""
    return {"minLength": 1, "maxLength": maximum, "pattern": _KEPT, **schema}


def trimmed(maximum: int) -> dict[str, Any]:
    """Text the trimming rules require: 1 to `maximum` characters once its ends are trimmed, and no NUL."""
    return {"minLength": 1, "pattern": rf"^\s*[^\s\x00](?:[^\x00]{{0,{maximum - 2}}}[^\s\x00])?\s*$"}


# Text without a NUL (which cannot reach PostgreSQL, so the rules refuse it); and such text that is not blank
# once trimmed.
NO_NUL = r"^[^\x00]*$"
NOT_BLANK = r"^[^\x00]*[^\s\x00][^\x00]*$"

EMAIL = {"format": "email", "minLength": 3, "maxLength": EMAIL_MAX}


def requires(*fields: str, **config: Any) -> ConfigDict:
    """A model whose fields have defaults (so the services answer an empty one with its own message) but are
    required by the rules: the schema lists them as required."""
    return ConfigDict(json_schema_extra={"required": list(fields)}, **config)


def _not_a_boolean(value: Any) -> Any:
    """JSON's true and false are no numbers, though pydantic's lax mode reads them as 1 and 0."""
    if isinstance(value, bool):
        raise PydanticCustomError("int_type", "Input should be a valid integer")
    return value


def whole(**limits: int) -> Any:
    """An integer as JSON Schema has it (3 and 3.0, never true) within `limits` (ge, le): inside the type, so
    that the schema of an optional one still says minimum and maximum."""
    return Annotated[int, Field(**limits), BeforeValidator(_not_a_boolean)]


Whole = whole()
