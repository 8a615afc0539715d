source("add.R")
v <- scan(file("stdin"), quiet = TRUE)
cat(add(v[1], v[2]), "\n", sep = "")
