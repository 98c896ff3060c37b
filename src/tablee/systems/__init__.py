"""Game systems: one subpackage per game; pure rules, standard library only."""
