main :- format("~w", [x]
