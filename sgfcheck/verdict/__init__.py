"""The verdict on RE: the readings a record allows, the rules that decide (a count that gives
RE, a band, a game far from its end, a solved count), the reasons with their facts, the weighing
of every reading and way."""
