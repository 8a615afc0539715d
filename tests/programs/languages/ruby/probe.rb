# One program, every verdict: the first word of the input says what to do.
words = $stdin.read.split
case words[0]
when "add" then puts words[1].to_i + words[2].to_i
when "loop" then x = 0; loop { x += 1 }
when "alloc" then blocks = Array.new(words[1].to_i) { "x" * (1 << 20) }; puts blocks.size
when "crash" then raise "crash on purpose"
when "peek" then print File.read(words[1])
end
