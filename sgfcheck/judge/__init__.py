"""Judging the final position: which stones are dead, from the players' markup, proofs,
sgfcheck's estimate or an engine (GNU Go, KataGo)."""
