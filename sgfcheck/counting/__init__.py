"""Counting: the judged position counted under each ruleset (its solved count where the endgame
played the last points out), the band that holds each count, why two counts differ, and the
ways the doubtful chains may go."""
