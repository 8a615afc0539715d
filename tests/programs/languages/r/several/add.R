add <- function(a, b) a + b
