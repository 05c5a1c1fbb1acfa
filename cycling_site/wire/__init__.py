"""The contracts a client and its outside service share: payload sealing, limits, constants, ids.

One small module per service; the client in clients/ and the service (real, or embedded/) both import it,
and it imports nothing of either."""
