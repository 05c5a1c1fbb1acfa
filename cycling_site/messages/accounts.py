"""Sign-in, sign-up and session texts (spec 1 sections 4 and 8, spec 2 sections 4, 5 and 8)."""

SESSION_EXPIRED = "Your session has expired. Please log in again."
EMAIL_INVALID = "Please enter correct email"
PASSWORD_TOO_SHORT = "Password must be at least 6 characters"
HUMAN_CHECK_REQUIRED = "Please complete the reCAPTCHA"
NON_LATIN = "Non latin characters are not supported"
TERMS_REQUIRED = "You must agree to the terms and conditions to register"
TOO_YOUNG = "You must be at least 6 years old to register."
WEIGHT_TOO_LOW = "The weight field must be 25 or more"
WEIGHT_TOO_HIGH = "The weight field must be 140 or less"
HEIGHT_RANGE = "The height field must be between 50 and 250"
NO_RESPONSE = "No response received. We regret the inconvenience. Please try again later."

# Texts the spec does not give.
LOGIN_FAILED = "The email or password is incorrect."
LOGIN_RATE_LIMITED = "Too many sign-in attempts. Please wait a minute and try again."
EMAIL_TAKEN = "An account with this email already exists."
REGISTERED = "Your account has been created. Please check your email to verify it."
REGISTERED_KID = "Your account has been created. A parent or guardian must approve it."
LOGGED_OUT = "You have been logged out."
NOT_AUTHENTICATED = "Please log in to continue."
GENDER_INVALID = "Please select a gender"
COUNTRY_INVALID = "Please select a country"
DOB_INVALID = "Please enter a valid date of birth"


def required(label: str) -> str:
    return f"{label} is required."


def not_a_number(label: str) -> str:
    return f"{label} must be a number."


def too_long(label: str, limit: int) -> str:
    return f"{label} must be at most {limit} characters."
