"""The embedded payment sandbox: the part of Stripe's Checkout API the site uses, a hosted card page that
takes Stripe's test cards, and signed webhooks. The site reaches it only through clients/payments.py
(the official stripe package), with the contract in wire/payments.py; real keys point the same client
at Stripe itself."""
