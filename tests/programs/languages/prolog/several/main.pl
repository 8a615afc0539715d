% Two files: the sum is made in add.pl; every file of the program is loaded together.
main :-
    read_string(user_input, _, Text),
    split_string(Text, " \n\t", " \n\t", Parts),
    exclude(==(""), Parts, [A, B]),
    number_string(X, A), number_string(Y, B),
    add(X, Y, Z),
    format("~d~n", [Z]).
