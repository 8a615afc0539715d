# One program, every verdict: the first word of the input says what to do.
{ for (i = 1; i <= NF; i++) words[++n] = $i }
END {
  if (words[1] == "add") print words[2] + words[3]
  else if (words[1] == "loop") while (1) x++
  else if (words[1] == "alloc") {
    block = "x"
    for (i = 0; i < 20; i++) block = block block  # 1 MiB
    for (i = 1; i <= words[2]; i++) all[i] = block i
    print length(all)
  }
  else if (words[1] == "crash") { zero = 0; print 1 / zero }
  else if (words[1] == "peek") while ((getline line < words[2]) > 0) print line
}
