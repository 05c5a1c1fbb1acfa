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


# Account verification, parental consent, passwords, profile (spec 2 sections 4, 5 and 8).
ENJOY_YOUR_RIDE = "ENJOY YOUR RIDE"
PARENTAL_CONSENT_TITLE = "Parental Consent Required"
EMAIL_REQUIRED_VALID = "A valid email is required"
INVALID_EMAIL_PROVIDED = "Invalid email address provided."
PASSWORD_MISMATCH = "Password doesn't match"
INVALID_IMAGE = "Invalid Image Type"
OAUTH_ERROR = "An error has occurred. Please try again"
EMAIL_SEND_ERROR = "There was an error sending the email. Please try again."
EMAIL_RESEND_ERROR = "There was an error resending the email. Please try again."

# Texts the spec does not give.
CODE_INVALID = "This link or code is not valid."
CODE_EXPIRED = "This link or code has expired. Please ask for a new one."
CODE_USED = "This link or code has already been used."
EMAIL_NOT_VERIFIED = "Please verify your email address before signing in. Check your inbox for the link."
EMAIL_VERIFIED = "Your email address is verified."
VERIFICATION_SENT = "We have sent you a new verification email."
ACCOUNT_DELETED = "Your account has been deleted."
RESEND_NEUTRAL = "If this account still needs verification, we have sent a new email."
OTP_REQUIRED = "Please enter the 6-digit code from your email."
PARENT_EMAIL_IS_CHILD = "Please enter the email address of a parent or guardian, not your own."
CONSENT_NOT_NEEDED = "This account does not need parental consent."
CONSENT_REQUEST_EXPIRED = "This consent request has expired. Please sign in again to send it."
CONSENT_WAIT = "An email was sent less than 5 minutes ago. Please wait before sending another."
CONSENT_SENT = "We have sent an email to your parent or guardian."
CONSENT_APPROVED = "Thank you! The account is approved and can now be used."
CONSENT_DECLINED = "The account has been declined and removed."
RESET_SENT = "We have sent you an email with a link to reset your password."
TOO_MANY_EMAILS = "Too many emails were sent to this address. Please try again later."
PASSWORD_RESET_FORCED = "Please choose a new password before you continue."
PASSWORD_RESET_DONE = "Your password has been changed. Please sign in."

# Profile: edit, avatar, password change and account deletion (texts the spec does not give).
PROFILE_UPDATED = "Your profile has been updated."
PROFILE_LOAD_FAILED = "Your profile could not be loaded. Please try again."
KID_DOB_LOCKED = "The date of birth of a kid account cannot be changed."
ADULT_DOB_ONLY = "Your date of birth must show you are at least 18. Riders under 18 need a kid account."
AVATAR_MISSING = "Please choose an image."
AVATAR_TOO_LARGE = "The image must be 5 MB or smaller."
AVATAR_TOO_MANY_PIXELS = "The image is too large. Please choose one under 40 megapixels."
AVATAR_UPDATED = "Your profile picture has been updated."
AVATAR_REMOVED = "Your profile picture has been removed."
AVATAR_NONE = "There is no profile picture to remove."
CURRENT_PASSWORD_WRONG = "Your current password is incorrect."
PASSWORD_CHANGED = "Your password has been changed. Please sign in with your new password."
DELETE_EMAIL_SENT = "We have sent you an email. Open its link within 48 hours to delete your account."
DELETE_EMAIL_SENT_KID = (
    "We have sent an email to your parent or guardian. Your account is deleted when they open its link."
)
DELETE_PENDING = "Deleting your account..."
# The app's deletion request by e-mail answers the same whether or not an account uses the address.
DELETE_REQUEST_RECEIVED = (
    "If an account uses this email, we have sent it a link. Open it within 48 hours to delete the account."
)
MARKETING_CONSENT = "Send me news about events and races"
