-- One program, every verdict: the first word of the input says what to do.
import qualified Data.ByteString.Char8 as B
import System.Exit

spin :: Int -> Int
spin x = if x < 0 then x else spin (x + 1)

main :: IO ()
main = do
  input <- getContents
  case words input of
    ["add", a, b] -> print (read a + read b :: Integer)
    ["loop"] -> print (spin 0)
    ["alloc", n] -> do
      let blocks = [B.replicate (1024 * 1024) (toEnum (i `mod` 250)) | i <- [1 .. read n :: Int]]
      print (sum (map B.length blocks) + length (filter (\b -> B.last b == 'x') blocks))
      print (length (filter ((> 0) . B.length) blocks))
    ["crash"] -> exitWith (ExitFailure 3)
    ["peek", path] -> readFile path >>= putStr
    _ -> return ()
