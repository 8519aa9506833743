"""The judged position analysed once: the dead stones removed, who owns each empty point, the
referee's map (territory, seki, false eyes, points to fill), and the points a count as it stands
gives nobody, read from both sides (the stage between the dead stones and the endgame)."""
