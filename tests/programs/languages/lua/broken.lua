local function f(
