(* One program, every verdict: the first word of the input says what to do. *)
let () =
  match Scanf.scanf " %s" (fun s -> s) with
  | "add" -> Scanf.scanf " %Ld %Ld" (fun a b -> Printf.printf "%Ld\n" (Int64.add a b))
  | "loop" -> let x = ref 0 in while true do incr x done
  | "alloc" ->
    let n = Scanf.scanf " %d" (fun n -> n) in
    let blocks = Array.init n (fun _ -> Bytes.make (1 lsl 20) 'x') in
    Printf.printf "%d\n" (Array.length blocks)
  | "crash" -> failwith "crash on purpose"
  | "peek" ->
    let path = Scanf.scanf " %s" (fun s -> s) in
    let channel = open_in path in
    print_string (really_input_string channel (in_channel_length channel))
  | _ -> ()
