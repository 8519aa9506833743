"""Records: bytes read within limits, decoded, parsed (SGF, and GIB, NGF, UGF converted), and
each game tree read as a game of Go with its information normalised."""
