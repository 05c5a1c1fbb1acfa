"""The payment provider's contract, as far as the site and the embedded sandbox share it.

The provider speaks Stripe's Checkout Sessions API (the site calls it with the official stripe package);
the sandbox serves that API under EMBEDDED_PREFIX (its API base) and delivers signed webhooks to the
site's WEBHOOK_PATH, as a Stripe account's webhook endpoint would be configured."""

EMBEDDED_PREFIX = "/payments-service"
WEBHOOK_PATH = "/api/shop/webhook"
# What the site puts in a checkout session's metadata, and reads back.
ORDER_KEY = "order_id"
