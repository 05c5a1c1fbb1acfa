"""Texts of the finance console: wallet verifications, withdrawals and prize credits."""

CONSOLE_TITLE = "Finance"
CONSOLE_INTRO = (
    "Verify riders' wallets, pay their withdrawals and credit prize money. Every decision is e-mailed to the "
    "rider and kept."
)
MARK_PAID = "Mark paid"
TRANSACTION_ID_LABEL = "Payout transaction id"
TRANSACTION_ID_HINT = "The id of the Bitcoin transaction that paid the rider."
PRIZES_TAB = "Prize credits"
PRIZES_INTRO = "Past events and the riders who took part. Each rider's prize is credited once, in BTC."
NO_PRIZE_EVENTS = "No event is over yet."
NO_RIDERS = "No rider took part in this event."
PRIZE_AMOUNT_LABEL = "Prize in BTC"
CREDIT_PRIZE = "Credit prize"
CREDITED = "Credited"
PRIZES_LOADING = "Loading past events..."
