# One program, every verdict: the first word of the input says what to do.
words <- scan(file("stdin"), what = "", quiet = TRUE)
switch(words[1],
  add = cat(as.integer(words[2]) + as.integer(words[3]), "\n", sep = ""),
  loop = { x <- 0; repeat x <- x + 1 },
  alloc = {
    blocks <- lapply(seq_len(as.integer(words[2])), function(i) rep(as.raw(i %% 256), 2^20))
    cat(length(blocks), "\n")
  },
  crash = stop("crash on purpose"),
  peek = cat(readLines(words[2]), sep = "\n")
)
