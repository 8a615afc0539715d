local add = require("add")
local a, b = io.read("n", "n")
print(math.tointeger(add(a, b)))
