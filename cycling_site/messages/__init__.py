"""The texts users see, one module per area, shared by the UI, the API and the tests."""
