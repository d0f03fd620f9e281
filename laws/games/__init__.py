"""One module per game. Adding a game means adding a module here and naming it in ``GAMES``."""
