let () = print_string (1 + "text")
