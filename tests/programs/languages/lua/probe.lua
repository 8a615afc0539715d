-- One program, every verdict: the first word of the input says what to do.
local words = {}
for word in io.read("a"):gmatch("%S+") do words[#words + 1] = word end
if words[1] == "add" then print(math.tointeger(tonumber(words[2]) + tonumber(words[3])))
elseif words[1] == "loop" then local x = 0; while true do x = x + 1 end
elseif words[1] == "alloc" then
  local blocks = {}
  for i = 1, tonumber(words[2]) do blocks[i] = string.rep(string.char(64 + i % 26), 1 << 20) end
  print(#blocks)
elseif words[1] == "crash" then error("crash on purpose")
elseif words[1] == "peek" then
  local file = assert(io.open(words[2], "r"))
  io.write(file:read("a"))
end
