"""The service layer: games created, moved, scored, listed and verified through the store; bot accounts,
challenges, ratings and the ladder. Its errors carry codes, never HTTP statuses (``api/`` maps them)."""
