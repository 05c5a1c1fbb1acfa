"""Texts of the wallet: summary, account verification, withdrawal and finance's e-mails (spec 3 sections 2,
5 and 8). The spec's own texts are verbatim; the others fill what it leaves open."""

# Section 2, the wallet summary.
BADGE_PENDING = "Verification in progress"
BADGE_REJECTED = "Rejected"
BADGE_VERIFIED = "verified"
BADGE_UNVERIFIED = "unverified"
VERIFY_ACCOUNT = "Verify Account"
REVERIFY_ACCOUNT = "Reverify Account"
WITHDRAW = "Withdraw"
TOTAL_WITHDRAWALS = "Total Withdrawals"
PENDING_REQUESTS = "Pending Requests"
COMPLETED_TRANSACTIONS = "Completed Transactions"
NO_TRANSACTIONS = "No transactions found."
LIMIT_REACHED = "Monthly transaction limit reached. Try again next month."
ALREADY_VERIFIED = "Your account is already verified."
VERIFICATION_SUBMITTED = "Verification submitted successfully"

# Section 5, wallet verification form.
BINANCE_EMAIL_REQUIRED = "Binance email is required"
EMAIL_INVALID = "Please enter a valid email"
PHONE_REQUIRED = "Phone number is required"
PHONE_INVALID = "Please enter a valid phone number"
PHONE_FORMAT = "Invalid phone number format"
WALLET_ADDRESS_REQUIRED = "Wallet address is required"
PHONE_OTP_REQUIRED = "Phone OTP is required"
EMAIL_OTP_REQUIRED = "Email OTP is required"
PASSPORT_REQUIRED = "Passport proof is required"
SCREENSHOT_REQUIRED = "Binance screenshot is required"
TERMS_REQUIRED = "You must accept the terms and conditions"

# Section 5, withdrawal.
AMOUNT_REQUIRED = "Amount is required"
AMOUNT_NOT_NUMBER = "Amount must be a valid number"
AMOUNT_NOT_POSITIVE = "Amount must be greater than 0"
AMOUNT_BELOW_MINIMUM = "Minimum withdrawal amount is {min} {currency}"
TOTAL_EXCEEDS_BALANCE = "Total amount including fee exceeds available balance."
WITHDRAW_EMAIL_REQUIRED = "Email is required"
WITHDRAW_EMAIL_INVALID = "Please enter a valid email address"
WITHDRAW_ADDRESS_REQUIRED = "Wallet address/ID is required"
NOT_VERIFIED = "Your account must be verified before you can withdraw funds."

# Section 8.
LOAD_FAILED = "Failed to load wallet data. Please refresh the page."
TRANSACTIONS_FAILED = "Failed to load transactions"
VERIFICATION_FAILED = "Failed to submit verification"
OTP_FAILED = "Failed to send OTP. Please try again."
OTP_SENT_PHONE = "OTP sent to your phone successfully"
OTP_SENT_EMAIL = "OTP sent to your email successfully"
WITHDRAWAL_FAILED = "Failed to submit withdrawal request. Please try again."
UNKNOWN_ERROR = "An unknown error occurred."

# Beyond the spec: values it does not name.
AMOUNT_TOO_PRECISE = "Amount can have at most 6 decimal places"
ADDRESS_INVALID = "Please enter a valid Bitcoin address"
ADDRESS_WRONG_NETWORK = "This Bitcoin address belongs to another network"
OTP_WAIT = "Please wait {seconds} seconds before asking for another code."
OTP_WRONG = "The code is wrong or has expired. Please ask for a new one."
OTP_TOO_MANY = "Too many codes were sent. Please try again later."
FILE_TOO_LARGE = "Each file can be at most 5 MB."
FILE_TYPE = "Please upload a JPEG or PNG image."
TOO_MANY_SCREENSHOTS = "You can upload at most 5 Binance screenshots."
ALREADY_PENDING = "Your verification is already in progress. We will let you know once it is reviewed."
WITHDRAWAL_SUBMITTED = "Withdrawal request submitted successfully"
KIDS_NO_WALLET = "The wallet is not available for kid accounts."
LIMIT_WARNING = "Please note: you have {count} of {limit} withdrawal requests left this month."
GET_CODE = "Get Code"
SENDING = "Sending..."
IN_PROGRESS_TITLE = "Your verification is in progress"
IN_PROGRESS_TEXT = (
    "Finance is reviewing your wallet account. We will e-mail you as soon as it is verified; withdrawals"
    " open from then on."
)
TRANSACTION_ID_REQUIRED = "Please give the payout's transaction id."
TRANSACTION_ID_INVALID = "A Bitcoin transaction id is 64 hexadecimal characters (0-9, a-f)."
NO_VERIFIED_ADDRESS = "none: the rider's wallet is not verified"
NOT_THE_VERIFIED_ADDRESS = "This request does not pay to the rider's verified wallet address. Do not pay it."
PRIZE_AMOUNT_INVALID = "Please enter the prize in BTC, above 0 with at most 6 decimal places."
PRIZE_ALREADY_CREDITED = "This rider's prize for this event has already been credited."
PRIZE_NOT_RIDER = "Prizes are credited to riders who took part in the event."
PRIZE_EVENT_NOT_OVER = "Prizes are credited once the event is over."
PRIZE_CREDITED = "Prize credited: {amount} BTC to {rider}."
NOT_FINANCE = "Only finance can decide wallet requests."
WITHDRAWAL_CODE_REQUIRED = "Please enter the code we e-mailed you."
ADDRESS_NOT_VERIFIED = (
    "Withdrawals go only to your verified wallet address. To use another wallet, verify your account again."
)
EMAIL_NOT_VERIFIED = "Withdrawals use the e-mail address of your verified wallet account."
CHANGE_WALLET = "Change wallet"
CHANGE_WALLET_NOTICE = (
    "You are verifying a new wallet. Once you submit, withdrawals wait until finance verifies it, and then go"
    " only to the new wallet."
)
WITHDRAWAL_DESTINATION = (
    "Withdrawals go only to the wallet and e-mail address finance verified. Each one is confirmed with a code"
    " we e-mail to that address."
)

# Finance's e-mails to the rider.
VERIFICATION_APPROVED_SUBJECT = "Your wallet is verified"
VERIFICATION_APPROVED_BODY = "Your wallet account is verified: you can now withdraw your prize money."
VERIFICATION_REJECTED_SUBJECT = "Your wallet verification was declined"
VERIFICATION_REJECTED_BODY = (
    "We could not verify your wallet account. Please check the reason below and verify your account again."
)
WITHDRAWAL_PAID_SUBJECT = "Your withdrawal is paid"
WITHDRAWAL_PAID_BODY = (
    "We paid your withdrawal of {amount} BTC to {address}. Transaction id: {transaction_id}."
)
WITHDRAWAL_REJECTED_SUBJECT = "Your withdrawal was declined"
WITHDRAWAL_REJECTED_BODY = (
    "We could not pay your withdrawal of {amount} BTC; {total} BTC is back in your wallet."
)
PRIZE_SUBJECT = "Prize money in your wallet"
PRIZE_BODY = "Congratulations! {amount} BTC of prize money from {event} is now in your wallet."
OTP_EMAIL_SUBJECT = "Your wallet verification code"
WITHDRAWAL_CODE_SUBJECT = "Your withdrawal confirmation code"
WITHDRAWAL_CODE_TEXT = (
    "Your {site} withdrawal confirmation code is {code}. It confirms one withdrawal to your verified wallet"
    " and expires in 10 minutes. If you did not ask for it, change your password now."
)
WALLET_CHANGE_SUBJECT = "You are changing your verified wallet"
WALLET_CHANGE_BODY = (
    "A new wallet verification was submitted for your account. Withdrawals wait until finance verifies it,"
    " and then go only to the new wallet. If this was not you, change your password and write to {support}"
    " at once."
)
WITHDRAWAL_REQUESTED_SUBJECT = "A withdrawal was requested from your wallet"
WITHDRAWAL_REQUESTED_BODY = (
    "Withdrawal {request_no}: {amount} BTC (fee {fee} BTC) to {address}, requested on {when}. If this was not"
    " you, change your password and write to {support} at once."
)
OTP_TEXT = "Your {site} wallet verification code is {code}. It expires in 10 minutes."

# An Idempotency-Key longer than the site keeps.
REQUEST_KEY_INVALID = "The request's Idempotency-Key is too long (64 characters at most)."
