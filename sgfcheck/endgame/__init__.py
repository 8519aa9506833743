"""The endgame: the last open points of a judged position played out as well as possible by both
sides, region by region (the stage between the dead stones and the counts)."""
