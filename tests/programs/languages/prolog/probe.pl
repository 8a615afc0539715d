% One program, every verdict: the first word of the input says what to do.
main :-
    read_string(user_input, _, Text),
    split_string(Text, " \n\t", " \n\t", Parts),
    exclude(==(""), Parts, Words),
    run(Words).

run(["add", A, B]) :- !, number_string(X, A), number_string(Y, B), Z is X + Y, format("~d~n", [Z]).
run(["loop"]) :- !, spin(0).
run(["alloc", N]) :- !, number_string(Count, N), Cells is Count * 65536, numlist(1, Cells, Big), length(Big, L), format("~d~n", [L]).
run(["crash"]) :- !, throw(error(crash_on_purpose, _)).
run(["peek", Path]) :- !, read_file_to_string(Path, Content, []), format("~s", [Content]).
run(_).

spin(X) :- Y is X + 1, spin(Y).
