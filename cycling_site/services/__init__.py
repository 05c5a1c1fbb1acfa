"""Business rules, one module per area. No Reflex imports: the API and the UI state share them."""
