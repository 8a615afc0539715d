let () = Scanf.scanf " %d %d" (fun a b -> print_int (Adder.add a b); print_newline ())
