import Add
main = do { [a, b] <- fmap (map read . words) getContents; print (add a b) }
