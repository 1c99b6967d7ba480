"""Pure rules of every game Orrery hosts. Imports only the standard library."""
