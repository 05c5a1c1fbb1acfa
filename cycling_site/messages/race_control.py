"""Texts of the race-control console and of its e-mails to riders."""

NOT_FOUND = "This item does not exist."
ALREADY_DECIDED = "This item has already been decided."
REASON_REQUIRED = "Please give the rider a reason."
REASON_TOO_LONG = "The reason can be at most 1000 characters."
NOT_RACE_CONTROL = "Only race control can decide rider submissions."
DECIDED = "Decision saved: {decision}."
